// The dynamic model over several cache capacities (model/dynamic.h's
// ladder, calibrate/ladder.c, docs/simulate.md section 7.1): answers between
// the capacities worked by hand from eq. 20-21, the projection that keeps K
// from growing with C, refusals outside the range, the leave-one-capacity-out
// prediction, the reference C column with its errors, the calibration file
// round trip, a sweep over capacity, and sizing on it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "calibrate/calibrate.h"
#include "engine/run.h"
#include "engine/size.h"
#include "model/dynamic.h"
#include "output/sink.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

const std::string kSrc = PASCAL_SOURCE_DIR;
const double kEps = PASCAL_DYN_EPS;

pascal_dyn_params params_at(double C)
{
    pascal_dyn_params p = pascal_dyn_default_params();
    p.sms = 48;
    p.C = C;
    p.block_bytes = 16384;
    return p;
}

// One level: key (1, tma, 3, m) for each m with K constant over W 1-32.
pascal_dyn_model *level(double C, const std::vector<std::pair<int64_t, double>> &mk)
{
    std::vector<pascal_dyn_ref> r;
    for (auto [m, K] : mk)
        for (double W : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0})
            r.push_back({1, PASCAL_DYN_TMA, 3, m, 4096, W, K, C});
    pascal_dyn_agg *agg = nullptr;
    pascal_dyn_model *m = nullptr;
    pascal_dyn_params p = params_at(C);
    EXPECT_EQ(pascal_dyn_aggregate(r.data(), (int64_t)r.size(), PASCAL_DYN_N0, &agg), 0);
    EXPECT_EQ(pascal_dyn_fit(agg, -1, &p, &m), 0);
    pascal_dyn_agg_free(agg);
    return m;
}

// eq. 20 and 21 written out.
double enc(double K) { return std::log(K - 1 + kEps); }
double dec(double a) { return 1 + std::max(0.0, std::exp(a) - kEps); }

pascal_dyn_pred at(const pascal_dyn_model *m, int64_t mm, double C, double W = 16)
{
    pascal_dyn_query q = {1, PASCAL_DYN_TMA, 3, mm, 4096, W, NAN, 0};
    pascal_dyn_pred p;
    pascal_dyn_predict_at(m, &q, C, &p);
    return p;
}

struct Ladder {
    pascal_dyn_model *m = nullptr;
    explicit Ladder(std::vector<pascal_dyn_model *> lev)
    {
        EXPECT_EQ(pascal_dyn_ladder(lev.data(), (int64_t)lev.size(), &m), 0);
    }
    ~Ladder() { pascal_dyn_model_free(m); }
};

TEST(DynamicCapacity, LadderInterpolatesInLogCByHand)
{
    // Given out of order: the ladder sorts them.
    Ladder L({level(400, {{8, 1.5}}), level(100, {{8, 4.0}}), level(200, {{8, 2.0}})});
    ASSERT_EQ(pascal_dyn_model_levels(L.m), 3);
    EXPECT_EQ(pascal_dyn_model_params(pascal_dyn_model_level(L.m, 0))->C, 100);
    EXPECT_EQ(pascal_dyn_model_params(pascal_dyn_model_level(L.m, 2))->C, 400);
    // At a calibrated capacity: that capacity's own answer (a reference key).
    for (auto [C, K] : {std::pair{100.0, 4.0}, {200.0, 2.0}, {400.0, 1.5}}) {
        pascal_dyn_pred p = at(L.m, 8, C);
        EXPECT_NEAR(p.K, K, 1e-12) << C;
        EXPECT_EQ(p.code, PASCAL_DYN_FB_REFERENCE);
    }
    // Between: linear in log C of the encoded value.
    double C = 100 * std::pow(2.0, 0.25), a = enc(4.0) + 0.25 * (enc(2.0) - enc(4.0));
    EXPECT_NEAR(at(L.m, 8, C).K, dec(a), 1e-12);
    EXPECT_NEAR(at(L.m, 8, std::sqrt(200.0 * 400)).K, dec((enc(2.0) + enc(1.5)) / 2), 1e-12);
    EXPECT_NEAR(at(L.m, 8, 300).rho, dec(enc(2.0) + std::log(1.5) / std::log(2.0) *
                                                        (enc(1.5) - enc(2.0))) / 48, 1e-12);
    // Outside the calibrated capacities, and with no capacity: refused.
    for (double c : {99.0, 401.0, (double)NAN}) {
        pascal_dyn_pred p = at(L.m, 8, c);
        EXPECT_EQ(p.code, PASCAL_DYN_ERR_CAPACITY) << c;
        EXPECT_TRUE(std::isnan(p.K) && std::isnan(p.rho) && std::isnan(p.band_lo));
    }
    pascal_dyn_query q = {1, PASCAL_DYN_TMA, 3, 8, 4096, 16, NAN, 0};
    pascal_dyn_pred p;
    EXPECT_EQ(pascal_dyn_predict(L.m, &q, &p), PASCAL_DYN_ERR_CAPACITY);
    EXPECT_STREQ(pascal_dyn_code_name(PASCAL_DYN_ERR_CAPACITY), "capacity");
}

TEST(DynamicCapacity, KNeverGrowsWithTheCapacity)
{
    // m = 8 rises from C = 100 to 200 (noise in references): the two are
    // pooled (pool-adjacent-violators on the encoded values); m = 0 falls
    // and is left alone.
    Ladder L({level(100, {{0, 3.0}, {8, 2.0}}), level(200, {{0, 2.0}, {8, 3.0}}),
              level(400, {{0, 1.2}, {8, 1.2}})});
    double pooled = dec((enc(2.0) + enc(3.0)) / 2);
    EXPECT_NEAR(at(L.m, 8, 100).K, pooled, 1e-12);
    EXPECT_NEAR(at(L.m, 8, 150).K, pooled, 1e-12);
    EXPECT_NEAR(at(L.m, 8, 200).K, pooled, 1e-12);
    EXPECT_NEAR(at(L.m, 8, 400).K, 1.2, 1e-12);
    EXPECT_NEAR(at(L.m, 0, 100).K, 3.0, 1e-12);
    EXPECT_NEAR(at(L.m, 0, 200).K, 2.0, 1e-12);
    // Over a fine grid of capacities and computes, K never rises with C.
    for (int64_t m : {0, 4, 8}) {
        double prev = INFINITY;
        for (double C = 100; C <= 400; C *= 1.01) {
            double K = at(L.m, m, C).K;
            ASSERT_FALSE(std::isnan(K));
            EXPECT_LE(K, prev + 1e-12) << m << " " << C;
            prev = K;
        }
    }
}

TEST(DynamicCapacity, LeavingACapacityOutAsksTheOthers)
{
    Ladder L({level(100, {{8, 4.0}}), level(200, {{8, 1.1}}), level(800, {{8, 1.5}})});
    pascal_dyn_query q = {1, PASCAL_DYN_TMA, 3, 8, 4096, 16, NAN, 0};
    pascal_dyn_pred p;
    // Without C = 200 the answer at 200 is a third of the way from 100 to
    // 800 in log C; the projection pools nothing (4 > 1.5).
    pascal_dyn_predict_without(L.m, 1, &q, 200, &p);
    EXPECT_NEAR(p.K, dec(enc(4.0) + (enc(1.5) - enc(4.0)) / 3), 1e-12);
    // With it, the 1.1 at C = 200 is below the 1.5 at 800: pooled.
    EXPECT_NEAR(at(L.m, 8, 200).K, dec((enc(1.1) + enc(1.5)) / 2), 1e-12);
    // Only interior capacities can be left out.
    EXPECT_EQ(pascal_dyn_predict_without(L.m, 0, &q, 100, &p), PASCAL_DYN_ERR_CAPACITY);
    EXPECT_EQ(pascal_dyn_predict_without(L.m, 2, &q, 800, &p), PASCAL_DYN_ERR_CAPACITY);
}

TEST(DynamicCapacity, LadderRefusesLevelsOfAnotherDeviceOrTheSameCapacity)
{
    pascal_dyn_model *a = level(100, {{8, 2.0}}), *b = level(100, {{8, 1.5}}), *out = nullptr;
    pascal_dyn_model *v[2] = {a, b};
    EXPECT_EQ(pascal_dyn_ladder(v, 2, &out), -1);
    EXPECT_EQ(out, nullptr);
    pascal_dyn_model_free(b);
    // Another SM count: another device.
    std::vector<pascal_dyn_ref> r;
    for (double W : {1.0, 4.0})
        r.push_back({1, PASCAL_DYN_TMA, 3, 8, 4096, W, 1.5, 200});
    pascal_dyn_agg *agg = nullptr;
    pascal_dyn_params p = params_at(200);
    p.sms = 132;
    ASSERT_EQ(pascal_dyn_aggregate(r.data(), (int64_t)r.size(), PASCAL_DYN_N0, &agg), 0);
    ASSERT_EQ(pascal_dyn_fit(agg, -1, &p, &b), 0);
    pascal_dyn_agg_free(agg);
    v[1] = b;
    EXPECT_EQ(pascal_dyn_ladder(v, 2, &out), -1);
    pascal_dyn_model_free(a), pascal_dyn_model_free(b);
    EXPECT_EQ(pascal_dyn_ladder(v, 0, &out), -1);
}

// ---- calibrate over capacities ---------------------------------------------

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

struct TmpDir {
    std::string path = pascal_test::make_temp_dir();
    ~TmpDir() { pascal_test::remove_dir(path); }
    std::string file(const std::string &name, const std::string &text) const
    {
        return pascal_test::write_file(path, name, text);
    }
};

// Three capacities, two families, three computes each; K falls with C and
// rises with W by a known law.
std::string ladder_csv()
{
    std::string s = "# sms: 48, C: per row, blocks of 16384 bytes (a test set)\no,path,d,m,N,W,K,C\n";
    for (int C : {640, 1280, 2560})
        for (int d : {2, 3})
            for (int m : {0, 8, 16})
                for (int W : {1, 2, 4, 8, 16, 32}) {
                    double K = 1 + (1 + 0.1 * d) * (40.0 - m) / 40 * std::log2(1.0 + W) * 640 / C;
                    char row[128];
                    std::snprintf(row, sizeof row, "1,tma,%d,%d,4096,%d,%.17g,%d\n", d, m, W, K, C);
                    s += row;
                }
    return s;
}

pascal_calibrate_opts opts(const std::string &refs, const std::string &out)
{
    static std::string dev = kSrc + "/configs/devices/gb10.yaml";
    pascal_calibrate_opts o = pascal_calibrate_default_opts();
    o.refs_path = refs.c_str();
    o.device_path = dev.c_str();
    o.out_path = out.empty() ? nullptr : out.c_str();
    return o;
}

// ladder_csv calibrated into a temporary folder (cal.h5 there).
struct Calibrated {
    TmpDir t;
    std::string refs = t.file("refs.csv", ladder_csv()), cal = t.path + "/cal.h5";
    pascal_calibrate_opts o = opts(refs, cal);
    pascal_calibrate_result r{};
    pascal_error err{};
    bool ok = pascal_calibrate_run(&o, &r, &err) == 0;
    ~Calibrated()
    {
        if (ok)
            pascal_calibrate_result_free(&r);
    }
};

TEST(DynamicCapacity, CalibrateFitsEachCapacityAndTheFileKeepsThem)
{
    TmpDir t;
    std::string refs = t.file("refs.csv", ladder_csv()), out = t.path + "/cal.h5";
    pascal_calibrate_opts o = opts(refs, out);
    pascal_calibrate_result r;
    pascal_error err{};
    ASSERT_EQ(pascal_calibrate_run(&o, &r, &err), 0) << err.msg;
    ASSERT_EQ(r.nlev, 3);
    EXPECT_EQ(r.lev[0].C, 640);
    EXPECT_EQ(r.lev[2].C, 2560);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(r.lev[i].refs.n, 2 * 3 * 6);
        EXPECT_EQ(r.lev[i].agg->nkeys, 6);
        for (int64_t q = 0; q < r.lev[i].refs.n; q++) // rows keep their place in the file
            EXPECT_EQ(r.lev[i].refs.line[q], r.refs.line[r.lev[i].row[q]]);
    }
    // The merged folds: every (capacity, key) once, carrying its C.
    ASSERT_EQ(r.cv.nkeys, 18);
    EXPECT_EQ(r.cv.keys[0].C, 640);
    EXPECT_EQ(r.cv.keys[17].C, 2560);
    // Only the middle capacity is left out whole; its runs are scored
    // against the ladder of the others, recomputed here.
    EXPECT_EQ(r.lev[0].lcoo.nkeys, 0);
    EXPECT_EQ(r.lev[2].lcoo.nkeys, 0);
    ASSERT_EQ(r.lev[1].lcoo.nkeys, 6);
    double sum = 0;
    for (int64_t k = 0; k < 6; k++) {
        const pascal_cv_key &ck = r.lev[1].lcoo.keys[k];
        double e = 0;
        int n = 0;
        for (int64_t q = 0; q < r.lev[1].refs.n; q++) {
            const pascal_dyn_ref &x = r.lev[1].refs.rows[q];
            if (x.m != ck.key.m || x.d != ck.key.d || !(x.W > 1))
                continue;
            pascal_dyn_query qy = {x.o, x.path, x.d, x.m, x.N, x.W, NAN, 0};
            pascal_dyn_pred p;
            pascal_dyn_predict_without(r.model, 1, &qy, 1280, &p);
            e += std::fabs(p.K / x.K - 1), n++;
        }
        EXPECT_EQ(ck.runs, n);
        EXPECT_NEAR(ck.mape[PASCAL_CV_PASCAL], 100 * e / n, 1e-9);
        sum += ck.mape[PASCAL_CV_PASCAL];
    }
    EXPECT_NEAR(r.lev[1].lcoo.mape[PASCAL_CV_PASCAL], sum / 6, 1e-9);
    // The file: the same answers at every capacity of the range, and the levels.
    pascal_dyn_model *m = nullptr;
    ASSERT_EQ(pascal_calibrate_load(out.c_str(), &m, nullptr, &err), 0) << err.msg;
    ASSERT_EQ(pascal_dyn_model_levels(m), 3);
    int answered = 0;
    for (double C : {640.0, 700.0, 1280.0, 2000.0, 2560.0})
        for (int64_t mm : {0, 5, 8, 16})
            for (double W : {2.0, 10.0, 64.0}) {
                pascal_dyn_query q = {1, PASCAL_DYN_TMA, 3, mm, 4096, W, NAN, 0};
                pascal_dyn_pred a, b;
                pascal_dyn_predict_at(r.model, &q, C, &a);
                pascal_dyn_predict_at(m, &q, C, &b);
                EXPECT_EQ(a.code, b.code);
                EXPECT_TRUE(same(a.K, b.K)) << C << " " << mm << " " << W;
                EXPECT_TRUE(same(a.band_hi, b.band_hi));
                answered += !std::isnan(a.K);
            }
    EXPECT_EQ(answered, 5 * 3 * 3); // m = 5 is class 1: no reference has it
    for (int i = 0; i < 3; i++)
        EXPECT_EQ(pascal_dyn_model_band(pascal_dyn_model_level(m, i)),
                  pascal_dyn_model_band(pascal_dyn_model_level(r.model, i)));
    double *C = nullptr, *lc = nullptr;
    int64_t n = 0;
    ASSERT_EQ(pascal_h5_read_column(out.c_str(), "levels", "C", &C, &n, &err), 0) << err.msg;
    ASSERT_EQ(n, 3);
    EXPECT_EQ(C[1], 1280);
    ASSERT_EQ(pascal_h5_read_column(out.c_str(), "levels", "lcoo_mape_pascal", &lc, &n, &err), 0);
    EXPECT_TRUE(std::isnan(lc[0]) && std::isnan(lc[2]));
    EXPECT_EQ(lc[1], r.lev[1].lcoo.mape[PASCAL_CV_PASCAL]);
    free(C), free(lc);
    // /references keeps each run's C: it is a reference input again.
    pascal_refs back;
    ASSERT_EQ(pascal_calibrate_read_refs(out.c_str(), 48, &back, &err), 0) << err.msg;
    ASSERT_EQ(back.n, r.refs.n);
    EXPECT_TRUE(back.have_C);
    for (int64_t i = 0; i < back.n; i++)
        EXPECT_EQ(back.rows[i].C, r.refs.rows[i].C);
    pascal_calibrate_refs_free(&back);
    pascal_dyn_model_free(m);
    pascal_calibrate_result_free(&r);
}

TEST(DynamicCapacity, CapacityColumnAndFlagsAreChecked)
{
    TmpDir t;
    pascal_error err{};
    pascal_refs r;
    // A bad C names its place.
    std::string text = "o,path,d,m,N,W,K,C\n1,tma,3,8,4096,4,1.5,0\n";
    EXPECT_EQ(pascal_calibrate_parse_csv(text.data(), text.size(), "refs.csv", NAN, &r, &err),
              PASCAL_EINPUT);
    EXPECT_STREQ(err.msg, "refs.csv:2:22: C: expected a positive integer, got \"0\"");
    text = "o,path,d,C,m,N,W,K\n1,tma,3,12.5,8,4096,4,1.5\n";
    EXPECT_EQ(pascal_calibrate_parse_csv(text.data(), text.size(), "refs.csv", NAN, &r, &err),
              PASCAL_EINPUT);
    EXPECT_STREQ(err.msg, "refs.csv:2:9: C: expected a positive integer, got \"12.5\"");
    text = "o,path,d,m,N,W,K,C\n1,tma,3,8,4096,4,1.5\n";
    EXPECT_EQ(pascal_calibrate_parse_csv(text.data(), text.size(), "refs.csv", NAN, &r, &err),
              PASCAL_EINPUT);
    EXPECT_STREQ(err.msg, "refs.csv:2:1: row: expected 8 fields like the header, got 7");
    // Without the column every C is NaN.
    text = "o,path,d,m,N,W,K\n1,tma,3,8,4096,4,1.5\n";
    ASSERT_EQ(pascal_calibrate_parse_csv(text.data(), text.size(), "refs.csv", NAN, &r, &err), 0);
    EXPECT_FALSE(r.have_C);
    EXPECT_TRUE(std::isnan(r.rows[0].C));
    pascal_calibrate_refs_free(&r);
    // A flag that gives a capacity contradicts runs that give their own.
    std::string refs = t.file("refs.csv", ladder_csv()), out = t.path + "/cal.h5";
    pascal_calibrate_opts o = opts(refs, out);
    pascal_calibrate_result res;
    o.C = 1280;
    EXPECT_EQ(pascal_calibrate_run(&o, &res, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("refs.csv:1: --C: expected no capacity for references "
                                        "that give their own per run"),
              std::string::npos) << err.msg;
    pascal_calibrate_result_free(&res);
    EXPECT_FALSE(pascal_test::exists(out));
    // Without the header's "C: per row", a flag is checked against every row.
    std::string body = ladder_csv().substr(ladder_csv().find('\n') + 1);
    refs = t.file("plain.csv", body);
    o = opts(refs, out);
    o.C = 640;
    EXPECT_EQ(pascal_calibrate_run(&o, &res, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("plain.csv:38: C: expected the capacity --C gives (640 "
                                        "blocks), got 1280"),
              std::string::npos) << err.msg;
    pascal_calibrate_result_free(&res);
    EXPECT_FALSE(pascal_test::exists(out));
    // One capacity in the column is an ordinary calibration at it.
    std::string one = "o,path,d,m,N,W,K,C\n";
    for (int m : {0, 8})
        for (int W : {1, 4, 16})
            one += "1,tma,3," + std::to_string(m) + ",4096," + std::to_string(W) + ",1.5,777\n";
    refs = t.file("one.csv", one);
    o = opts(refs, out);
    ASSERT_EQ(pascal_calibrate_run(&o, &res, &err), 0) << err.msg;
    EXPECT_EQ(res.nlev, 0);
    EXPECT_EQ(pascal_dyn_model_params(res.model)->C, 777);
    pascal_calibrate_result_free(&res);
}

TEST(DynamicCapacity, SweepOverCapacityAnswersInsideTheRangeOnly)
{
    Calibrated c;
    ASSERT_TRUE(c.ok) << c.err.msg;
    TmpDir &t = c.t;
    pascal_calibrate_opts &o = c.o;
    pascal_calibrate_result &r = c.r;
    pascal_error err{};
    std::string spec = t.file("s.yaml", "name: s\ndevice: " + kSrc + "/configs/devices/gb10.yaml\n"
                                        "models: [dynamic]\ncalibration: cal.h5\n"
                                        "fixed: {block_bytes: 16KiB, N: 4096, occupancy: 1, path: tma, "
                                        "depth: 3, W: 16}\n"
                                        "axes:\n  compute: [0, 8, 12]\n"
                                        "  C: [320, 640, 900, 1280, 1800, 2560, 5120]\n");
    pascal_spec *s = nullptr;
    ASSERT_EQ(pascal_spec_load(spec.c_str(), &s, &err), 0) << err.msg;
    std::string out = t.path + "/s.h5";
    pascal_run_opts ro{};
    pascal_run_stats st;
    ro.out_path = out.c_str();
    ro.compression = -1;
    ro.threads = 2;
    ASSERT_EQ(pascal_run(s, &ro, &st, &err), 0) << err.msg;
    auto col = [&](const char *g, const char *n) {
        double *v = nullptr;
        int64_t k = 0;
        EXPECT_EQ(pascal_h5_read_column(out.c_str(), g, n, &v, &k, &err), 0) << err.msg;
        std::vector<double> x(v, v + k);
        free(v);
        return x;
    };
    auto C = col("points", "C"), m = col("points", "compute"), K = col("results", "K_dyn");
    auto fb = col("results", "fallback");
    ASSERT_EQ(K.size(), 21u);
    for (size_t i = 0; i < K.size(); i++) {
        if (C[i] < 640 || C[i] > 2560) {
            EXPECT_TRUE(std::isnan(K[i])) << i;
            EXPECT_EQ(fb[i], PASCAL_DYN_ERR_CAPACITY) << i;
            continue;
        }
        pascal_dyn_query q = {1, PASCAL_DYN_TMA, 3, (int64_t)m[i], 4096, 16, NAN, 0};
        pascal_dyn_pred p;
        pascal_dyn_predict_at(r.model, &q, C[i], &p);
        EXPECT_EQ(K[i], p.K) << i;
        EXPECT_EQ(fb[i], p.code) << i;
        EXPECT_FALSE(std::isnan(K[i])) << i;
    }
    // Within one compute, K does not rise with C (the axes run C fastest).
    for (size_t i = 1; i < K.size(); i++)
        if (m[i] == m[i - 1] && !std::isnan(K[i]) && !std::isnan(K[i - 1]))
            EXPECT_LE(K[i], K[i - 1]) << i;
    pascal_spec_free(s);
}

// `size` on rho_dyn bisects inside the calibrated capacities: every
// scenario's answer is the smallest C of [640, 2560] (the swept 320 .. 5120
// clamped to the ladder) at which rho_dyn meets the target, found here by
// asking the model at every C; a scenario that misses it at 2560 has none.
std::vector<pascal_size_result> size_results(const pascal_spec *s, const pascal_target &t)
{
    std::vector<pascal_size_result> out;
    pascal_size_opts o{};
    pascal_size_stats st;
    pascal_error err{};
    o.target = t;
    o.band_column = -1;
    o.threads = 2;
    o.emit = [](void *ctx, const pascal_size_result *r) {
        static_cast<std::vector<pascal_size_result> *>(ctx)->push_back(*r);
        return 0;
    };
    o.emit_ctx = &out;
    EXPECT_EQ(pascal_size_run(s, &o, &st, &err), 0) << err.msg;
    return out;
}

TEST(DynamicCapacity, SizeBisectsInsideTheCalibratedCapacities)
{
    Calibrated c;
    ASSERT_TRUE(c.ok) << c.err.msg;
    TmpDir &t = c.t;
    pascal_calibrate_opts &o = c.o;
    pascal_calibrate_result &r = c.r;
    pascal_error err{};
    std::string spec = t.file("s.yaml", "name: s\ndevice: " + kSrc + "/configs/devices/gb10.yaml\n"
                                        "models: [dynamic]\ncalibration: cal.h5\n"
                                        "fixed: {block_bytes: 16KiB, N: 4096, occupancy: 1, path: tma, "
                                        "W: 16}\n"
                                        "axes:\n  depth: [2, 3]\n  compute: [0, 4, 8, 12, 16]\n"
                                        "  C: [320, 5120]\n");
    pascal_spec *s = nullptr;
    ASSERT_EQ(pascal_spec_load(spec.c_str(), &s, &err), 0) << err.msg;
    int met = 0, none = 0;
    for (double target : {1.2 / 48, 1.6 / 48, 2.5 / 48}) {
        auto res = size_results(s, {PASCAL_COL_RHO_DYN, PASCAL_TARGET_LE, target});
        ASSERT_EQ(res.size(), 10u);
        for (const auto &x : res) {
            pascal_dyn_query q = {1, PASCAL_DYN_TMA, (int64_t)x.point.v[PASCAL_P_DEPTH],
                                  (int64_t)x.point.v[PASCAL_P_COMPUTE], 4096, 16, NAN, 0};
            int64_t want = -1;
            for (int64_t C = 640; C <= 2560 && want < 0; C++) {
                pascal_dyn_pred p;
                pascal_dyn_predict_at(r.model, &q, (double)C, &p);
                ASSERT_FALSE(std::isnan(p.K)) << C;
                if (p.K / 48 <= target)
                    want = C;
            }
            EXPECT_EQ(x.lo, 640);
            EXPECT_EQ(x.hi, 2560);
            EXPECT_EQ(x.C, want) << target << " d " << q.d << " m " << q.m;
            met += want >= 0, none += want < 0;
        }
    }
    EXPECT_GT(met, 5);   // the targets put answers inside the range
    EXPECT_GT(none, 0);  // and some beyond it
    pascal_spec_free(s);
}

// --test on a calibration over capacities: runs at capacities the ladder
// never saw, each (key, C) a test key; PASCAL asks the ladder at the run's
// C, "nearest" the nearest calibrated capacity alone, and capacities
// outside the range are refused (code 16).  The law of ladder_csv is
// linear in log C after the encoding, so the ladder is close to exact
// between its capacities and the nearest capacity is not.
TEST(DynamicCapacity, HeldOutTestAtUnseenCapacities)
{
    Calibrated c;
    ASSERT_TRUE(c.ok) << c.err.msg;
    TmpDir &t = c.t;
    pascal_calibrate_opts &o = c.o;
    pascal_calibrate_result &r = c.r;
    pascal_error err{};
    std::string text = "# sms: 48, C: per row, blocks of 16384 bytes (a test set)\no,path,d,m,N,W,K,C\n";
    for (int C : {320, 960, 1920})
        for (int m : {4, 12})
            for (int W : {1, 4, 16}) {
                double K = 1 + 1.3 * (40.0 - m) / 40 * std::log2(1.0 + W) * 640 / C;
                char row[128];
                std::snprintf(row, sizeof row, "1,tma,3,%d,4096,%d,%.17g,%d\n", m, W, K, C);
                text += row;
            }
    std::string tpath = t.file("test.csv", text);
    pascal_refs test;
    ASSERT_EQ(pascal_calibrate_read_refs(tpath.c_str(), 48, &test, &err), 0) << err.msg;
    pascal_cv_result ho;
    pascal_cv_opts cv = o.cv;
    ASSERT_EQ(pascal_calibrate_ladder_holdout(&r, &cv, &test, &ho, &err), 0) << err.msg;
    ASSERT_EQ(ho.nkeys, 6);
    EXPECT_EQ(ho.keys_rejected, 2);
    EXPECT_EQ(ho.keys_predicted, 4);
    EXPECT_EQ(ho.runs_scored, 12); // W > 1 only
    for (int64_t k = 0; k < ho.nkeys; k++) {
        const pascal_cv_key &x = ho.keys[k];
        if (x.C == 320) {
            EXPECT_EQ(x.code, PASCAL_DYN_ERR_CAPACITY);
            EXPECT_TRUE(std::isnan(x.mape[PASCAL_CV_PASCAL]));
            continue;
        }
        // eq. 26 by hand from the model at the run's C
        double sum = 0, sum1 = 0;
        for (int W : {4, 16}) {
            double K = 1 + 1.3 * (40.0 - (double)x.key.m) / 40 * std::log2(1.0 + W) * 640 / x.C;
            pascal_dyn_query q = {1, PASCAL_DYN_TMA, 3, x.key.m, 4096, (double)W, NAN, 0};
            pascal_dyn_pred p;
            pascal_dyn_predict_at(r.model, &q, x.C, &p);
            sum += std::fabs(p.K / K - 1), sum1 += std::fabs(1 / K - 1);
        }
        EXPECT_NEAR(x.mape[PASCAL_CV_PASCAL], 100 * sum / 2, 1e-9) << x.C;
        EXPECT_NEAR(x.mape[PASCAL_CV_ALIGNED], 100 * sum1 / 2, 1e-9) << x.C;
        EXPECT_LT(x.mape[PASCAL_CV_PASCAL], 2.0) << x.C;
        EXPECT_GT(x.mape[PASCAL_CV_NEAREST], 3 * x.mape[PASCAL_CV_PASCAL]) << x.C;
    }
    pascal_calibrate_cv_free(&ho);
    pascal_calibrate_refs_free(&test);
    // A test file without a C column says what it lacks.
    std::string flat = t.file("flat.csv", "# sms: 48, C: 1280 blocks, blocks of 16384 bytes\n"
                                          "o,path,d,m,N,W,K\n1,tma,3,4,4096,4,1.5\n");
    ASSERT_EQ(pascal_calibrate_read_refs(flat.c_str(), 48, &test, &err), 0) << err.msg;
    EXPECT_EQ(pascal_calibrate_ladder_holdout(&r, &cv, &test, &ho, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("expected references with a C column"), std::string::npos);
    pascal_calibrate_refs_free(&test);
}

// calibrate and predict as a user runs them on references over capacities.
TEST(DynamicCapacity, CalibrateAndPredictOnTheCommandLine)
{
    TmpDir t;
    std::string refs = t.file("refs.csv", ladder_csv()), cal = t.path + "/cal.h5";
    auto r = pascal_test::run_cli(t.path, "calibrate " + refs + " --device " + kSrc +
                                              "/configs/devices/gb10.yaml -o " + cal);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("3 capacities of blocks of 16KiB"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("C     1280:     36 runs    6 keys"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(smallest: not left out)"), std::string::npos) << r.out;
    const std::string q = "predict --model " + cal + " --o 1 --path tma --d 3 --m 8 --N 4096 --W 16";
    r = pascal_test::run_cli(t.path, q);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--C: expected the cache capacity in blocks (the calibration covers 640 to "
                         "2560), got nothing"), std::string::npos) << r.err;
    r = pascal_test::run_cli(t.path, q + " --C 900 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    pascal_calibrate_opts o = opts(refs, "");
    pascal_calibrate_result res;
    pascal_error err{};
    ASSERT_EQ(pascal_calibrate_run(&o, &res, &err), 0) << err.msg;
    EXPECT_EQ(pascal_test::json_num(r.out, "K"), at(res.model, 8, 900).K) << r.out;
    pascal_calibrate_result_free(&res);
    r = pascal_test::run_cli(t.path, q + " --C 5000 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(pascal_test::json_str(r.out, "fallback"), "\"capacity\"") << r.out;
    EXPECT_NE(r.out.find("\"K\": null"), std::string::npos) << r.out;
    // --test scores runs at their own capacities, refusing those outside.
    std::string test = t.file("test.csv", "# sms: 48, C: per row, blocks of 16384 bytes\n"
                                          "o,path,d,m,N,W,K,C\n1,tma,3,4,4096,4,2.1,960\n"
                                          "1,tma,3,4,4096,4,1.9,5000\n");
    r = pascal_test::run_cli(t.path, "calibrate " + refs + " --device " + kSrc +
                                         "/configs/devices/gb10.yaml -o " + t.path + "/y.h5 --test " +
                                         test);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("held-out test on " + test), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 keys refused (outside the calibrated capacities)"), std::string::npos)
        << r.out;
    // --C against runs that carry their own.
    r = pascal_test::run_cli(t.path, "calibrate " + refs + " --device " + kSrc +
                                         "/configs/devices/gb10.yaml --C 640 -o " + t.path + "/x.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(pascal_test::exists(t.path + "/x.h5"));
}

} // namespace
