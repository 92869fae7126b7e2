// Exact sizing by search (engine/size.h, sweeps/search.h): on seeded random
// scenarios, every monotone column is first checked to be monotone on a
// fine grid (every C from 1 to N, evaluated point by point), then the
// bisection must give the grid's smallest C meeting the target and the
// grid's value there, for targets taken from the grid itself (plateaus and
// exact ties included) and for targets no C meets.  Also: the worst case,
// thread counts, capacity_bytes, sampled scenarios, the CLI, and every bad
// target or search section with its location.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "engine/size.h"
#include "sweeps/search.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

struct Spec {
    pascal_spec *s = nullptr;
    explicit Spec(const std::string &text)
    {
        pascal_error err{};
        if (pascal_spec_parse(text.data(), text.size(), "size.yaml", &s, &err) != 0)
            ADD_FAILURE() << err.msg << "\n" << text;
    }
    ~Spec() { pascal_spec_free(s); }
};

std::string parse_bad(const std::string &yaml)
{
    pascal_spec *s = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), "size.yaml", &s, &err), PASCAL_EINPUT) << yaml;
    pascal_spec_free(s);
    return err.msg;
}

int Collect(void *ctx, const pascal_size_result *r)
{
    static_cast<std::vector<pascal_size_result> *>(ctx)->push_back(*r);
    return 0;
}

std::vector<pascal_size_result> search(const pascal_spec *spec, const pascal_target &t, int threads,
                                       pascal_size_stats *st)
{
    std::vector<pascal_size_result> out;
    pascal_size_opts o{};
    pascal_error err{};
    o.target = t;
    o.threads = threads;
    o.batch = 7;   // several batches
    o.emit = Collect;
    o.emit_ctx = &out;
    EXPECT_EQ(pascal_size_run(spec, &o, st, &err), 0) << err.msg;
    return out;
}

// The fine grid: values[scenario][C - 1] of every column, evaluated point by
// point through the spec's own expansion (C is the only capacity axis and
// runs 1..N innermost, so scenario = raw index / N).
struct Grid {
    std::vector<int> cols;
    std::vector<std::vector<std::vector<double>>> v;   // [col][scenario][C - 1]
};

Grid fine_grid(const pascal_spec *spec, int64_t N)
{
    Grid g;
    for (int j = 0; j < pascal_spec_ncolumns(spec); j++)
        g.cols.push_back(pascal_spec_columns(spec)[j]);
    uint64_t scen = pascal_spec_size(spec) / (uint64_t)N;
    g.v.assign(g.cols.size(), std::vector<std::vector<double>>(scen, std::vector<double>(N)));
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec));
    std::vector<double> out(g.cols.size());
    for (uint64_t i = 0; i < pascal_spec_size(spec); i++) {
        pascal_point p;
        pascal_error err{};
        EXPECT_EQ(pascal_spec_point(spec, i, &p, &err), 1) << err.msg;
        EXPECT_EQ(p.v[PASCAL_P_C], (double)(i % N + 1));
        EXPECT_EQ(pascal_eval_point(ev, &p, g.cols.data(), (int)g.cols.size(), out.data()), 0);
        for (size_t j = 0; j < g.cols.size(); j++)
            g.v[j][i / N][i % N] = out[j];
    }
    pascal_eval_free(ev);
    return g;
}

// The property the search relies on, checked on the grid: false up to some
// C, true from it on, for every threshold.  Equivalently the defined values
// form a suffix and are monotone in the stated direction.
void expect_monotone(const std::vector<double> &v, int dir, const std::string &what)
{
    size_t first = 0;
    while (first < v.size() && std::isnan(v[first]))
        first++;
    for (size_t c = first + 1; c < v.size(); c++) {
        ASSERT_FALSE(std::isnan(v[c])) << what << ": NaN at C = " << c + 1 << " after a value";
        if (dir < 0)
            ASSERT_LE(v[c], v[c - 1]) << what << " rises at C = " << c + 1;
        else
            ASSERT_GE(v[c], v[c - 1]) << what << " falls at C = " << c + 1;
    }
}

std::string random_spec(std::mt19937_64 &rng, int64_t N, bool replay)
{
    auto pick = [&](int64_t lo, int64_t hi) { return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1)); };
    // Two distinct worker counts (a spec may not list a value twice).
    std::string m = std::to_string(pick(2, replay ? 5 : 24)) + ", " + std::to_string(pick(replay ? 6 : 25, replay ? 9 : 48));
    std::string s = "name: fine\n";
    s += replay ? "models: [lru, lru_replay, belady]\n"
                : "models: [ttl, lru_band, lru, sdcm, residency, che, sharing]\n";
    s += "fixed: {N: " + std::to_string(N) + ", assoc: " + std::to_string(pick(1, 8)) +
         ", lead: " + std::to_string(pick(1, N)) + ", horizon: " + std::to_string(pick(0, 3) * N) +
         ", rounds: " + std::to_string(2 * N) + ", sigma: " + std::to_string(pick(1, N / 3)) +
         ", clusters: " + std::to_string(pick(1, 5)) + ", spread: " + std::to_string(pick(0, 6)) +
         ", lag: " + std::to_string(pick(1, N)) + "}\n";
    s += "axes:\n  M: [" + m + "]\n";
    s += replay ? "  pattern: [uniform, gaussian, clusters]\n"
                : "  pattern: [aligned, uniform, gaussian, clusters, equal, lag]\n";
    s += "  seed: [" + std::to_string(pick(1, 1000)) + ", " + std::to_string(pick(1001, 2000)) + "]\n";
    s += "  C: {from: 1, to: " + std::to_string(N) + ", step: 1}\n";
    return s;
}

void check_against_grid(std::mt19937_64 &rng, const std::string &text, int64_t N)
{
    Spec spec(text);
    ASSERT_NE(spec.s, nullptr);
    Grid g = fine_grid(spec.s, N);
    for (size_t j = 0; j < g.cols.size(); j++) {
        const pascal_monotone_info *m = pascal_search_monotone_of(g.cols[j]);
        ASSERT_NE(m, nullptr);
        if (m->direction == PASCAL_MONO_NONE)
            continue;
        const char *name = pascal_columns[g.cols[j]].name;
        for (size_t s = 0; s < g.v[j].size(); s++)
            expect_monotone(g.v[j][s], m->direction, std::string(name) + " scenario " + std::to_string(s));
        for (int trial = 0; trial < 3; trial++) {
            // A threshold taken from the grid (an exact tie at some C), or
            // one beyond every value (no answer).
            const std::vector<double> &from = g.v[j][rng() % g.v[j].size()];
            pascal_target t{g.cols[j], 0, from[rng() % N]};
            if (std::isnan(t.value) || trial == 2)
                t.value = m->direction < 0 ? -1.0 : 1e300;
            t.op = (m->direction < 0 ? PASCAL_TARGET_LE : PASCAL_TARGET_GE) + (int)(rng() % 2);
            pascal_size_stats st{};
            std::vector<pascal_size_result> got = search(spec.s, t, 2, &st);
            ASSERT_EQ(got.size(), g.v[j].size());
            for (size_t s = 0; s < got.size(); s++) {
                const std::vector<double> &v = g.v[j][s];
                int64_t want = -1;
                for (int64_t c = 1; c <= N && want < 0; c++)
                    if (pascal_target_meets(&t, v[c - 1]))
                        want = c;
                char tt[96];
                pascal_target_format(&t, tt, sizeof tt);
                EXPECT_EQ(got[s].C, want) << tt << ", scenario " << s;
                double at = v[(want > 0 ? want : N) - 1];
                EXPECT_TRUE(got[s].value == at || (std::isnan(at) && std::isnan(got[s].value)))
                    << tt << ", scenario " << s << ": value " << got[s].value << ", grid " << at;
                EXPECT_EQ(got[s].lo, 1);
                EXPECT_EQ(got[s].hi, N);
                EXPECT_LE(got[s].evaluations, (int)std::ceil(std::log2((double)N)) + 1);
            }
            EXPECT_EQ(st.grid_points, got.size() * (uint64_t)N);
        }
    }
}

TEST(SizeSearch, MatchesTheFineGridOnRandomScenarios)
{
    std::mt19937_64 rng(20240917);
    for (int k = 0; k < 5; k++) {
        int64_t N = 40 + (int64_t)(rng() % 220);
        check_against_grid(rng, random_spec(rng, N, false), N);
    }
}

TEST(SizeSearch, ReplayModelsMatchTheFineGrid)
{
    std::mt19937_64 rng(77);
    for (int k = 0; k < 2; k++) {
        int64_t N = 24 + (int64_t)(rng() % 30);
        check_against_grid(rng, random_spec(rng, N, true), N);
    }
}

// capacity_bytes with block_bytes: the range is floor(bytes / block_bytes)
// at each scenario's block size, the answer is reported in blocks and in
// bytes, and the worst case is the most bytes; threads do not matter.
TEST(SizeSearch, BytesWorstCaseAndThreads)
{
    Spec spec("name: b\nmodels: [lru]\nfixed: {N: 2048, M: 48, pattern: uniform}\n"
              "axes:\n  block_bytes: [4KiB, 16KiB]\n  seed: [1, 2, 3, 4, 5]\n"
              "  capacity_bytes: {from: 1MiB, to: 48MiB, num: 9, scale: log}\n");
    ASSERT_NE(spec.s, nullptr);
    pascal_target t{PASCAL_COL_RHO_LRU, PASCAL_TARGET_LE, 0.1};
    pascal_size_stats s1{}, s2{};
    std::vector<pascal_size_result> a = search(spec.s, t, 1, &s1), b = search(spec.s, t, 2, &s2);
    ASSERT_EQ(a.size(), 10u);
    ASSERT_EQ(b.size(), a.size());
    pascal_eval *ev = pascal_eval_create(1u << PASCAL_MODEL_LRU);
    const pascal_size_result *worst = nullptr;
    for (size_t k = 0; k < a.size(); k++) {
        EXPECT_EQ(std::memcmp(&a[k], &b[k], sizeof a[k]), 0) << "scenario " << k;
        double bb = a[k].point.v[PASCAL_P_BLOCK_BYTES];
        EXPECT_EQ(bb, k < 5 ? 4096 : 16384) << "scenarios in raw order: block_bytes outermost";
        EXPECT_EQ(a[k].lo, (int64_t)(1048576 / bb));
        EXPECT_EQ(a[k].hi, (int64_t)(48 * 1048576 / bb));
        ASSERT_GE(a[k].C, a[k].lo);
        EXPECT_EQ(a[k].capacity_bytes, a[k].C * bb);
        // Below the answer the target fails, at it it holds.
        pascal_point p = a[k].point;
        int col = PASCAL_COL_RHO_LRU;
        double v;
        ASSERT_EQ(pascal_eval_point(ev, &p, &col, 1, &v), 0);
        EXPECT_LE(v, 0.1);
        EXPECT_EQ(v, a[k].value);
        if (a[k].C > a[k].lo) {
            p.v[PASCAL_P_C] = (double)(a[k].C - 1);
            ASSERT_EQ(pascal_eval_point(ev, &p, &col, 1, &v), 0);
            EXPECT_GT(v, 0.1);
        }
        if (!worst || a[k].capacity_bytes > worst->capacity_bytes)
            worst = &a[k];
    }
    pascal_eval_free(ev);
    EXPECT_EQ(s1.worst.index, worst->index);
    EXPECT_EQ(s1.worst.capacity_bytes, worst->capacity_bytes);
    EXPECT_EQ(s1.met, 10u);
}

// A sampled spec: every draw is a scenario, its own capacity replaced.
TEST(SizeSearch, SampledDrawsAreScenarios)
{
    Spec spec("name: s\nmodels: [ttl]\nfixed: {N: 1000}\n"
              "sample: {method: lhs, n: 40, seed: 9}\n"
              "axes:\n  M: {from: 2, to: 64}\n  pattern: [uniform, equal]\n  C: {from: 10, to: 900}\n");
    ASSERT_NE(spec.s, nullptr);
    EXPECT_EQ(pascal_size_scenarios(spec.s), 40u);
    pascal_size_stats st{};
    std::vector<pascal_size_result> r = search(spec.s, pascal_target{PASCAL_COL_RHO_TTL, PASCAL_TARGET_LT, 0.2}, 2, &st);
    ASSERT_EQ(r.size(), 40u);
    for (size_t j = 0; j < r.size(); j++) {
        pascal_point p;
        ASSERT_EQ(pascal_spec_point(spec.s, j, &p, nullptr), 1);
        EXPECT_EQ(r[j].index, j);
        EXPECT_EQ(r[j].point.v[PASCAL_P_M], p.v[PASCAL_P_M]);
        EXPECT_EQ(r[j].lo, 10);
        EXPECT_EQ(r[j].hi, 900);
    }
}

TEST(SizeSearchErrors, TargetsAreCheckedWhereWritten)
{
    struct Case {
        const char *text;
        size_t offset;
        const char *message;
    } cases[] = {
        {"rho_lru <= 0.05", 0, nullptr},
        {"  V >= 12.5", 0, nullptr},
        {"shares>=1", 0, nullptr},
        {"rho_lru <= 2MiB", 0, nullptr},
        {"rho_lr <= 0.05", 0, "expected a result column that is monotone in C (K_ttl, rho_ttl"},
        {"rho_lr <= 0.05", 0, "got \"rho_lr\" (did you mean 'rho_lru'?)"},
        {"Kttl <= 1", 0, "got \"Kttl\" (did you mean 'K_ttl'?)"},
        {"margin <= 1", 0, "got margin: Proposition 7 counts gaps"},
        {"rho_dyn <= 0.05", 0, nullptr},
        {"traffic_dyn <= 1.2", 0, "got traffic_dyn: the calibration is one device's cache"},
        {"P_hit <= 3", 0, "got P_hit: Theorem 6's issue period does not depend on C"},
        {"rho_lru >= 0.05", 8, "expected <= or < for rho_lru, which does not increase with C"},
        {"V <= 3", 2, "expected >= or > for V, which does not decrease with C"},
        {"rho_lru == 0.05", 8, "expected <= or < after rho_lru, got \"== 0.05\""},
        {"rho_lru <=", 10, "expected a number after <=, got \"the end of the target\""},
        {"rho_lru <= five", 11, "expected a number after <=, got \"five\""},
        {"rho_lru <= 0.05 x", 16, "expected the end of the target, got \"x\""},
        {"rho_lru <= inf", 11, "expected a number after <="},
    };
    for (const Case &c : cases) {
        pascal_target t{};
        pascal_error err{};
        size_t off = 99;
        int rc = pascal_target_parse(c.text, &t, &off, &err);
        if (!c.message) {
            EXPECT_EQ(rc, 0) << c.text << ": " << err.msg;
            continue;
        }
        EXPECT_EQ(rc, PASCAL_EINPUT) << c.text;
        EXPECT_EQ(off, c.offset) << c.text;
        EXPECT_NE(std::string(err.msg).find(c.message), std::string::npos) << c.text << ": " << err.msg;
    }
    pascal_target t{};
    pascal_error err{};
    size_t off;
    ASSERT_EQ(pascal_target_parse(" rho_lru<0.25 ", &t, &off, &err), 0);
    EXPECT_EQ(t.column, PASCAL_COL_RHO_LRU);
    EXPECT_EQ(t.op, PASCAL_TARGET_LT);
    EXPECT_EQ(t.value, 0.25);
    EXPECT_TRUE(pascal_target_meets(&t, 0.125));
    EXPECT_FALSE(pascal_target_meets(&t, 0.25));
    EXPECT_FALSE(pascal_target_meets(&t, NAN));
}

TEST(SizeSearchErrors, SearchSectionsAreLocated)
{
    const std::string head = "name: s\nmodels: [ttl, lru]\nfixed: {N: 64, M: 4}\naxes:\n  C: [8, 16]\n";
    struct Case {
        std::string tail, prefix;
    } cases[] = {
        {"search: {target: \"rho_lru <= 0.05\"}\n", ""},
        {"search: {target: 'rho_lru <= 0.05', worst: true}\n", ""},
        {"search: rho_lru\n", "size.yaml:6:9: search: expected a mapping like {target: \"rho_lru <= 0.05\"}"},
        {"search: {worst: true}\n", "size.yaml:6:9: search.target: expected a target like"},
        {"search: {target: [1]}\n", "size.yaml:6:18: search.target: expected a target like \"rho_lru <= 0.05\", got a list"},
        {"search: {target: \"rho_lru >= 0.05\"}\n", "size.yaml:6:27: search.target: expected <= or < for rho_lru"},
        {"search: {target: rho_lru <= x}\n", "size.yaml:6:29: search.target: expected a number after <="},
        {"search: {target: \"thetaa < 1\"}\n", "size.yaml:6:19: search.target: expected a result column"},
        {"search: {target: \"rho_sdcm <= 0.1\"}\n",
         "size.yaml:6:18: search.target: expected a column of the requested models, got rho_sdcm (a column of model sdcm"},
        {"search: {target: \"rho_lru <= 0.05\", worst: yes}\n", "size.yaml:6:44: search.worst: expected true"},
        {"search: {target: \"rho_lru <= 0.05\", best: true}\n", "size.yaml:6:37: search.best: expected one of the keys target, worst"},
        {"where: 'C < N'\nsearch: {target: \"rho_lru <= 0.05\"}\n",
         "size.yaml:6:8: where: expected a rule that does not read C or capacity_bytes, which a search varies, got \"C < N\""},
        {"require: ['M > 1', 'capacity_bytes > 0']\nsearch: {target: \"rho_lru <= 0.05\"}\n",
         "size.yaml:6:20: require[1]: expected a rule that does not read C or capacity_bytes"},
    };
    for (const Case &c : cases) {
        if (c.prefix.empty()) {
            Spec ok(head + c.tail);
            EXPECT_NE(ok.s, nullptr);
            if (ok.s)
                EXPECT_NE(pascal_spec_search(ok.s), nullptr);
            continue;
        }
        std::string msg = parse_bad(head + c.tail);
        EXPECT_EQ(msg.compare(0, c.prefix.size(), c.prefix), 0) << msg << "\nwant: " << c.prefix;
    }
    std::string msg = parse_bad("name: z\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n"
                                "  block_bytes: [1KiB, 2KiB]\n  capacity_bytes: [8KiB, 16KiB]\n"
                                "zip: [[block_bytes, capacity_bytes]]\nsearch: {target: 'K_ttl <= 1'}\n");
    EXPECT_EQ(msg.rfind("size.yaml:6:19: axes.capacity_bytes: expected the capacity axis on a dimension of "
                        "its own for a search, got it zipped with block_bytes", 0), 0u) << msg;
}

// The table states a direction, or why there is none, for every column of
// the vocabulary (a column added without a row would be refused with "no
// monotonicity is stated for it").
TEST(SizeSearch, EveryColumnHasAMonotonicityRow)
{
    for (int k = 0; k < PASCAL_NCOLUMN; k++) {
        const pascal_monotone_info *m = pascal_search_monotone_of(k);
        ASSERT_NE(m, nullptr) << pascal_columns[k].name;
        EXPECT_GT(std::strlen(m->why), 10u) << pascal_columns[k].name;
    }
    EXPECT_EQ(pascal_search_nmonotone, PASCAL_NCOLUMN);
}

// A workload's columns sum its waves, each cold or warm by its own rule:
// not shown monotone in C, so a search on one refuses the spec, naming the
// key where the workload is written, in a search: section and in pascal
// size (a search on the kernel replay is allowed: WorkloadCli).
TEST(SizeSearchErrors, WorkloadSpecsAreRefused)
{
    const std::string wl = "name: w\nmodels: [workload, traffic, lru]\n"
                           "workload:\n  attention: {batch: 2, q_heads: 8, kv_heads: 2, seq_q: 1, seq_kv: 1024,\n"
                           "    head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
                           "fixed: {sms: 8, occupancy: 2}\naxes:\n  capacity_bytes: [256KiB, 4MiB]\n";
    std::string msg = parse_bad(wl + "search: {target: 'rho_lru <= 0.05'}\n");
    EXPECT_EQ(msg.rfind("size.yaml:4:3: workload.attention: expected a target on answer_traffic, answer_traffic_lo, "
                        "answer_traffic_hi, traffic_replay, traffic_replay_any, traffic_exact or traffic_sim for a search "
                        "of a workload, got one on rho_lru", 0), 0u) << msg;
    Spec spec(wl);
    ASSERT_NE(spec.s, nullptr);
    pascal_size_opts o{};
    pascal_size_stats st{};
    pascal_error err{};
    o.target = pascal_target{PASCAL_COL_RHO_LRU, PASCAL_TARGET_LE, 0.05};
    EXPECT_EQ(pascal_size_run(spec.s, &o, &st, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("workload.attention: expected a target on answer_traffic, answer_traffic_lo, "
                                        "answer_traffic_hi, traffic_replay, traffic_replay_any, "
                                        "traffic_exact or traffic_sim for a search of a workload"),
              std::string::npos) << err.msg;
    EXPECT_EQ(st.scenarios, 0u);
}

class SizeCli : public pascal_test::TempDirTest {};

TEST_F(SizeCli, PerScenarioWorstAndJson)
{
    std::string spec = write("s.yaml", "name: s\nmodels: [ttl, lru]\nfixed: {N: 1024, M: 32}\n"
                                       "axes:\n  pattern: [uniform, equal]\n  seed: [3, 4]\n"
                                       "  C: {from: 16, to: 1024, num: 8}\n"
                                       "search: {target: 'rho_lru <= 0.1'}\n");
    auto r = run("size " + spec + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> lines;
    std::stringstream ss(r.out);
    for (std::string l; std::getline(ss, l);)
        lines.push_back(l);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    EXPECT_EQ(lines[0].rfind("{\"pattern\": \"uniform\", \"seed\": 3, \"C\": ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("\"capacity_bytes\": null, \"value\": "), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("\"range\": [16, 1024]}"), std::string::npos) << lines[0];
    EXPECT_NE(r.err.find("4 scenarios, 4 meet rho_lru <= 0.1"), std::string::npos) << r.err;
    // Equally spaced phases (gaps of 32 blocks) keep every reuse distance
    // long, so LRU's first hit needs far more capacity than with random
    // phases, whose close pairs hit early: --worst names an equal scenario.
    auto w = run("size " + spec + " --worst --target 'rho_lru < 1'");
    ASSERT_EQ(w.status, 0) << w.err;
    EXPECT_NE(w.out.find("worst case over 4 scenarios: pattern=equal"), std::string::npos) << w.out;
    auto bad = run("size " + spec + " --target 'rho_lru <= x'");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("pascal size: --target: expected a number after <=, got \"x\""), std::string::npos)
        << bad.err;
    std::string plain = write("p.yaml", "name: p\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n  C: [8]\n");
    auto none = run("size " + plain);
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("expected a target like 'rho_lru <= 0.05'"), std::string::npos) << none.err;
    auto model = run("size " + plain + " --target 'rho_lru <= 0.5'");
    EXPECT_EQ(model.status, 2);
    EXPECT_NE(model.err.find("models: expected model lru for a target on rho_lru"), std::string::npos) << model.err;
    std::string wl = write("w.yaml", "name: w\nmodels: [workload, lru]\nworkload:\n"
                                     "  gemm: {gemm_m: 512, gemm_n: 512, gemm_k: 512, dtype: bf16,\n"
                                     "         tile_m: 128, tile_n: 128, tile_k: 64}\n"
                                     "fixed: {sms: 8, occupancy: 1}\naxes:\n  capacity_bytes: [1MiB, 2MiB]\n");
    auto refused = run("size " + wl + " --target 'rho_lru <= 0.5' --json");
    EXPECT_EQ(refused.status, 2);
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(refused.err.rfind(wl + ":4:3: workload.gemm: expected a target on answer_traffic, answer_traffic_lo, "
                                     "answer_traffic_hi, traffic_replay", 0), 0u)
        << refused.err;
}

}  // namespace
