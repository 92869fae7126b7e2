// The simulate model on workload specs, end to end: `pascal run` writes
// K_sim, rho_sim, ns_per_round_sim and the traffic columns fill_bytes_sim
// and traffic_sim, bit-identical on one and two threads; `pascal simulate
// --spec` gives the same numbers for one point, and with --barrier the
// kernel replay's fill bytes (fill_bytes_replay); every rejection exits 2
// with a message naming the flag or key.
#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

using pascal_test::json_num;

class SimWorkloadCli : public pascal_test::TempDirTest {
protected:
    std::string gb10 = std::string(PASCAL_SOURCE_DIR) + "/configs/devices/gb10.yaml";

    // GQA decode attention: 2 x 8 query heads over 2 KV heads, 64 steps of
    // 16 KiB (K and V tiles of 64 x 128 BF16): 16 CTAs of 2 requests, 8
    // streams; at occupancy 1 on GB10's 48 SMs one wave.
    std::string spec(const std::string &models)
    {
        return write("w.yaml", "name: w\ndevice: " + gb10 + "\nmodels: [" + models +
                                   "]\nworkload:\n  attention: {batch: 2, q_heads: 8, kv_heads: 2, "
                                   "seq_q: 1, seq_kv: 4096, head_dim: 128, dtype: bf16, tile_q: 64, "
                                   "tile_kv: 64}\nfixed: {path: tma, depth: 2, compute: 0, "
                                   "sigma: 2}\naxes:\n  occupancy: [1, 3]\n  pattern: [aligned, "
                                   "gaussian]\n  capacity_bytes: [256KiB, 1MiB, 8MiB]\n");
    }
};

TEST_F(SimWorkloadCli, SweepColumnsAndSinglePointRuns)
{
    std::string s = spec("workload, traffic, lru_replay, simulate");
    auto r1 = run("run " + s + " -o " + dir + "/t1.csv --format csv --threads 1");
    ASSERT_EQ(r1.status, 0) << r1.err;
    auto r2 = run("run " + s + " -o " + dir + "/t2.csv --format csv --threads 2");
    ASSERT_EQ(r2.status, 0) << r2.err;
    std::string csv = pascal_test::slurp(dir + "/t1.csv");
    EXPECT_EQ(csv, pascal_test::slurp(dir + "/t2.csv"));
    auto rows = pascal_test::read_csv(dir + "/t1.csv");
    ASSERT_EQ(rows.size(), 12u);
    for (size_t i = 0; i < rows.size(); i++) {
        auto &row = rows[i];
        double fill = std::stod(row["fill_bytes_sim"]), ideal = std::stod(row["ideal_bytes"]);
        double replay = std::stod(row["fill_bytes_replay"]);
        ASSERT_TRUE(row.count("traffic_sim") && row.count("K_sim")) << csv.substr(0, 400);
        EXPECT_DOUBLE_EQ(std::stod(row["traffic_sim"]), fill / ideal);
        EXPECT_EQ(ideal, 8.0 * 64 * 16384);
        EXPECT_GE(fill, ideal); // every block at least once
        // One wave of N = 64 rounds.
        EXPECT_DOUBLE_EQ(std::stod(row["K_sim"]), fill / 16384 / 64);
        // The makespan beside the time floors: its time per round over the waves' rounds.
        EXPECT_DOUBLE_EQ(std::stod(row["time_sim_s"]), std::stod(row["ns_per_round_sim"]) *
                                                           std::stod(row["waves"]) * 64 * 1e-9);
        EXPECT_GT(std::stod(row["time_sim_s"]), std::stod(row["time_dram_s"]));   // no faster than its floor
        EXPECT_DOUBLE_EQ(std::stod(row["rho_sim"]), fill / 16384 / (16.0 * 2 * 64));
        // The same point alone; with --barrier the kernel replay.
        auto one = run("simulate --spec " + s + " --point " + std::to_string(i) + " --json");
        ASSERT_EQ(one.status, 0) << one.err;
        EXPECT_EQ(json_num(one.out, "fill_bytes_sim"), fill) << i;
        EXPECT_EQ(json_num(one.out, "K_sim"), std::stod(row["K_sim"])) << i;
        EXPECT_EQ(json_num(one.out, "ctas"), 16);
        EXPECT_EQ(json_num(one.out, "streams"), 8);
        auto bar = run("simulate --spec " + s + " --point " + std::to_string(i) + " --barrier --json");
        ASSERT_EQ(bar.status, 0) << bar.err;
        EXPECT_EQ(json_num(bar.out, "fill_bytes_sim"), replay) << i;
        EXPECT_EQ(json_num(bar.out, "traffic_sim"), std::stod(row["traffic_replay"])) << i;
    }
    // The text form names the workload and the traffic.
    auto text = run("simulate --spec " + s + " --point 5");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("attention: 16 CTAs in 1 waves, 8 streams of N = 64 blocks"),
              std::string::npos) << text.out;
    EXPECT_NE(text.out.find("x the ideal 8388608 bytes"), std::string::npos) << text.out;
}

// --at picks the point by its values instead of its raw index: each row of
// the run's CSV (in raw order, nothing dropped) is the point --at its own
// values names, and a test in where's syntax names the same; no match, an
// unknown name, or --at with --point, exit 2.
TEST_F(SimWorkloadCli, AtNamesThePointByItsValues)
{
    std::string s = spec("workload, traffic, simulate");
    ASSERT_EQ(run("run " + s + " -o " + dir + "/t.csv --format csv --quiet").status, 0);
    auto rows = pascal_test::read_csv(dir + "/t.csv");
    ASSERT_EQ(rows.size(), 12u);
    for (size_t i = 0; i < rows.size(); i += 5) {
        auto &row = rows[i];
        std::string at = "occupancy=" + row["occupancy"] + ",pattern=" + row["pattern"] +
                         ",capacity_bytes=" + row["capacity_bytes"];
        auto by_at = run("simulate --spec " + s + " --at " + at + " --json");
        ASSERT_EQ(by_at.status, 0) << at << ": " << by_at.err;
        auto by_index = run("simulate --spec " + s + " --point " + std::to_string(i) + " --json");
        EXPECT_EQ(by_at.out, by_index.out) << at;
    }
    auto expr = run("simulate --spec " + s + " --at 'occupancy == 3 && pattern == \"gaussian\" && "
                    "capacity_bytes == 8MiB' --json");
    auto last = run("simulate --spec " + s + " --point 11 --json");
    ASSERT_EQ(expr.status, 0) << expr.err;
    EXPECT_EQ(expr.out, last.out);
    auto none = run("simulate --spec " + s + " --at occupancy=2");
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("--at: expected a point of " + s + " with occupancy == 2, got none among "
                            "its 12 points"), std::string::npos) << none.err;
    auto typo = run("simulate --spec " + s + " --at ocupancy=1");
    EXPECT_EQ(typo.status, 2);
    EXPECT_NE(typo.err.find("(did you mean 'occupancy'?)"), std::string::npos) << typo.err;
    auto both = run("simulate --spec " + s + " --at occupancy=1 --point 0");
    EXPECT_EQ(both.status, 2);
    EXPECT_NE(both.err.find("expected --at or --point, got both"), std::string::npos) << both.err;
}

TEST_F(SimWorkloadCli, RejectsBadInput)
{
    std::string s = spec("traffic, simulate");
    struct Case {
        std::string args, prefix;
    } cases[] = {
        {"--spec " + s + " --N 64", "pascal simulate: --N: expected no --N with --spec (the spec's "
                                    "point gives it), got \"64\""},
        {"--spec " + s + " --device gb10", "pascal simulate: --device: expected no --device with --spec"},
        {"--point 3 --device gb10", "pascal simulate: --point: expected --spec FILE with it, got none"},
        {"--spec " + s + " --point 12", "pascal simulate: --point: expected an index below the 12 "
                                        "points of " + s + ", got 12"},
        {"--spec " + s + " --point -1", "pascal simulate: --point: expected"},
        {"--spec " + dir + "/none.yaml", "pascal simulate: "},
        {"--spce " + s, "pascal simulate: unknown option --spce"},
    };
    for (const Case &c : cases) {
        auto r = run("simulate " + c.args);
        EXPECT_EQ(r.status, 2) << c.args;
        EXPECT_EQ(r.err.rfind(c.prefix, 0), 0u) << c.args << "\n" << r.err;
    }
    auto typo = run("simulate --spce " + s);
    EXPECT_NE(typo.err.find("--spec"), std::string::npos) << typo.err; // did you mean
    // A point without the simulator's parameters names the first missing.
    std::string nopath = write("n.yaml", "name: n\ndevice: " + gb10 +
                                             "\nmodels: [traffic]\nworkload:\n  gemm: {gemm_m: 256, "
                                             "gemm_n: 256, gemm_k: 256, dtype: bf16, tile_m: 64, "
                                             "tile_n: 64, tile_k: 64}\nfixed: {occupancy: 1, "
                                             "compute: 0}\naxes: {capacity_bytes: [1MiB]}\n");
    auto r = run("simulate --spec " + nopath);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal simulate: --spec: expected path at point 0 (the simulate model needs "
                     "occupancy, path, compute, and depth on the tma path, in fixed or axes), got "
                     "none\n");
    // A spec without a device has no timing.
    std::string nodev = write("d.yaml", "name: d\nmodels: [traffic]\nworkload:\n  gemm: {gemm_m: 256, "
                                        "gemm_n: 256, gemm_k: 256, dtype: bf16, tile_m: 64, "
                                        "tile_n: 64, tile_k: 64}\nfixed: {sms: 4, occupancy: 1, "
                                        "path: sync, compute: 0}\naxes: {capacity_bytes: [1MiB]}\n");
    r = run("simulate --spec " + nodev);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal simulate: --spec: expected a spec with device: PROFILE", 0), 0u)
        << r.err;
    // Causal attention runs on the simulator as a request program, but no
    // ring model takes it: refused at its key beside lru.
    std::string causal = write("c.yaml", "name: c\ndevice: " + gb10 +
                                             "\nmodels: [traffic, simulate, lru]\nworkload:\n  attention: "
                                             "{q_heads: 8, seq_q: 512, seq_kv: 512, head_dim: 64, "
                                             "dtype: bf16, tile_q: 64, tile_kv: 64, causal: true}\n"
                                             "fixed: {occupancy: 1, path: sync, compute: 0}\n"
                                             "axes: {capacity_bytes: [1MiB]}\n");
    r = run("simulate --spec " + causal);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("workload.attention.causal: expected causal: false with models lru ("),
              std::string::npos) << r.err;
    r = run("run " + causal + " -o " + dir + "/c.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(pascal_test::exists(dir + "/c.h5"));
}

// The shipped examples run.  Llama 3.1 8B decode at 16k (hand: 2 x 16 x 8
// = 256 streams of 16384 / 64 = 256 blocks of 64 x 128 x 2 bytes, 1 GiB
// ideal; 16 x 32 = 512 CTAs, 6 waves of 96): every block is fetched at
// least once.  The 1024-query chunk: each KV head's 64 CTAs span two waves
// of 48 (head h: CTAs 64 h .. 64 h + 63), and between them the head's
// 64 MiB of K and V cycles through a 20 MiB L2, so the exact replay reads
// every head twice (2.0x); the dynamic view is 8 heads x K_dyn x W N blocks
// of 16 KiB with W = 64 / 48, N = 4096, against 512 MiB: 4/3 K_dyn.
TEST_F(SimWorkloadCli, ShippedExamplesRun)
{
    std::string src = std::string(PASCAL_SOURCE_DIR) + "/configs/";
    auto r = run("run " + src + "llama8b-decode-attention-gb10-simulated.yaml -o " + dir +
                 "/d.csv --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    auto rows = pascal_test::read_csv(dir + "/d.csv");
    ASSERT_EQ(rows.size(), 12u);
    for (auto &row : rows) {
        EXPECT_EQ(std::stod(row["ideal_bytes"]), 1073741824.0);
        EXPECT_EQ(std::stod(row["ctas"]), 512);
        EXPECT_EQ(std::stod(row["waves"]), 6);
        EXPECT_GE(std::stod(row["traffic_sim"]), 1.0);
        EXPECT_EQ(std::fmod(std::stod(row["fill_bytes_sim"]), 16384.0), 0.0);
    }
    // The chunk study reads its calibration next to it: both copied here.
    std::string text = pascal_test::slurp(src + "calibration/gb10-chunk-simulated-vs-dynamic.yaml");
    text.replace(text.find("../devices/gb10.yaml"), 20, src + "devices/gb10.yaml");
    std::string spec = write("chunk.yaml", text);
    r = run("calibrate " + src + "calibration/simulated-gb10-refs.csv --device " + src +
            "devices/gb10.yaml -o " + dir + "/simulated-gb10.h5");
    ASSERT_EQ(r.status, 0) << r.err;
    r = run("run " + spec + " -o " + dir + "/c.csv --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    rows = pascal_test::read_csv(dir + "/c.csv");
    ASSERT_EQ(rows.size(), 12u);
    for (auto &row : rows) {
        EXPECT_EQ(std::stod(row["traffic_replay"]), 2.0);
        EXPECT_NE(std::stod(row["fallback"]), 14); // the view applies
        EXPECT_NEAR(std::stod(row["traffic_dyn"]), 4.0 / 3.0 * std::stod(row["K_dyn"]), 1e-12);
        EXPECT_GE(std::stod(row["traffic_sim"]), 1.0);
    }
}

// A plain point through --spec is the sweep's open scan of one ring; with
// --barrier, Algorithm 1 on the point's phases, whose K_steady is `pascal
// point`'s exact LRU K (symbolic reuse distances, eq. 15).
TEST_F(SimWorkloadCli, PlainPointBySpec)
{
    std::string s = write("p.yaml", "name: p\ndevice: " + gb10 +
                                        "\nmodels: [simulate]\nfixed: {N: 700, C: 140, occupancy: 1, "
                                        "path: tma, depth: 3, compute: 2, W: 2, pattern: gaussian, "
                                        "sigma: 40.5}\naxes: {seed: [8]}\n");
    auto r = run("run " + s + " -o " + dir + "/p.csv --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    auto rows = pascal_test::read_csv(dir + "/p.csv");
    ASSERT_EQ(rows.size(), 1u);
    auto one = run("simulate --spec " + s + " --json");
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(json_num(one.out, "K_sim"), std::stod(rows[0]["K_sim"]));
    EXPECT_TRUE(std::isnan(json_num(one.out, "fill_bytes_sim")));
    EXPECT_EQ(pascal_test::json_str(one.out, "workload"), "null");
    auto bar = run("simulate --spec " + s + " --barrier --json");
    ASSERT_EQ(bar.status, 0) << bar.err;
    auto pt = run("point --N 700 --C 140 --M 48 --pattern gaussian --sigma 40.5 --seed 8 --json");
    ASSERT_EQ(pt.status, 0) << pt.err;
    EXPECT_EQ(json_num(bar.out, "K_steady"), json_num(pt.out, "K_lru"));
}

} // namespace

namespace {

class SimBandCli : public pascal_test::TempDirTest {
protected:
    std::string gb10 = std::string(PASCAL_SOURCE_DIR) + "/configs/devices/gb10.yaml";

    // The decode attention above at occupancy 1, the workers drifting by a
    // lag of 3 blocks: the free-running simulator's traffic there moves
    // with its seed (the per-SM speeds), the lock-step replay's does not.
    std::string spec(const std::string &name, const std::string &fixed, const std::string &axes,
                     const std::string &columns)
    {
        return write(name, "name: b\ndevice: " + gb10 +
                               "\nmodels: [workload, traffic, lru_replay, simulate]\nworkload:\n"
                               "  attention: {batch: 2, q_heads: 8, kv_heads: 2, seq_q: 1, "
                               "seq_kv: 4096, head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
                               "fixed: {occupancy: 1, path: tma, depth: 3, compute: 0, " + fixed +
                               "}\ncolumns: [" + columns + "]\naxes:\n" + axes);
    }
};

// answer_traffic_hi is the 90th percentile (linear between order
// statistics at 0.9 (S - 1)) of traffic_sim over seeds seed .. seed + S -
// 1, held at or above the answer; answer_traffic_lo the lower of the
// lock-step replay and the answer.  The percentile is computed here from a
// sweep over the seed axis, which runs the simulator once per seed.
TEST_F(SimBandCli, TheBandIsTheSeedsPercentileAroundTheAnswer)
{
    const std::string caps = "  capacity_bytes: [512KiB, 1MiB, 2MiB]\n";
    std::string seeds = spec("seeds.yaml", "pattern: lag, lag: 3",
                             "  seed: [7, 8, 9, 10, 11, 12]\n" + caps, "traffic_sim");
    std::string band = spec("band.yaml", "pattern: lag, lag: 3, band_seeds: 4",
                            "  seed: [7, 8, 9]\n" + caps,
                            "traffic_replay, traffic_sim, answer_traffic, answer_source, "
                            "answer_traffic_lo, answer_traffic_hi");
    auto a = run("run " + seeds + " -o " + dir + "/seeds.csv --format csv");
    ASSERT_EQ(a.status, 0) << a.err;
    auto b = run("run " + band + " -o " + dir + "/band.csv --format csv");
    ASSERT_EQ(b.status, 0) << b.err;
    // The summary sizes the band's high end beside the answer.
    EXPECT_NE(b.out.find("; the band's high end "), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("the band's high end: answer_traffic_hi, the 90th percentile of band_seeds"),
              std::string::npos) << b.out;
    std::map<std::pair<int, double>, double> sim;
    for (auto &row : pascal_test::read_csv(dir + "/seeds.csv"))
        sim[{std::stoi(row["seed"]), std::stod(row["capacity_bytes"])}] = std::stod(row["traffic_sim"]);
    auto rows = pascal_test::read_csv(dir + "/band.csv");
    ASSERT_EQ(rows.size(), 9u);
    int spread = 0;
    for (auto &row : rows) {
        int seed = std::stoi(row["seed"]);
        double cap = std::stod(row["capacity_bytes"]);
        double answer = std::stod(row["answer_traffic"]);
        std::vector<double> t;
        for (int k = 0; k < 4; k++)
            t.push_back(sim.at({seed + k, cap}));
        std::sort(t.begin(), t.end());
        double p90 = t[2] + 0.7 * (t[3] - t[2]);   // at 0.9 x 3 = 2.7
        spread += t[3] > t[0];
        EXPECT_EQ(std::stod(row["answer_source"]), 1);   // the simulator answers
        EXPECT_EQ(answer, sim.at({seed, cap}));
        EXPECT_NEAR(std::stod(row["answer_traffic_hi"]), std::max(p90, answer), 1e-12) << seed << " " << cap;
        EXPECT_EQ(std::stod(row["answer_traffic_lo"]), std::min(std::stod(row["traffic_replay"]), answer));
        EXPECT_LE(std::stod(row["answer_traffic_lo"]), answer);
        EXPECT_GE(std::stod(row["answer_traffic_hi"]), answer);
    }
    EXPECT_GE(spread, 3);   // the seeds do move the simulator here: the test can tell p90 from one run

    // Without the simulator there is no band's high end; band_seeds is bounded.
    std::string nosim = write("nosim.yaml", pascal_test::slurp(band).replace(
                                                pascal_test::slurp(band).find(", simulate]"), 11, "]"));
    auto c = run("run " + nosim + " -o " + dir + "/nosim.csv --format csv");
    ASSERT_EQ(c.status, 0) << c.err;
    for (auto &row : pascal_test::read_csv(dir + "/nosim.csv")) {
        EXPECT_EQ(row["answer_traffic_hi"], "");   // NaN is an empty field
        EXPECT_EQ(row["answer_traffic_lo"], row["answer_traffic"]);
    }
    std::string many = spec("many.yaml", "band_seeds: 65", caps, "answer_traffic_hi");
    auto d = run("run " + many + " -o " + dir + "/many.csv");
    EXPECT_EQ(d.status, 2);
    EXPECT_NE(d.err.find("many.yaml:6:68: "), std::string::npos) << d.err;
    EXPECT_NE(d.err.find("fixed.band_seeds: expected band_seeds <= 64 (simulations per point for the "
                         "band), got 65"), std::string::npos) << d.err;
    EXPECT_FALSE(pascal_test::exists(dir + "/many.csv"));
}

// pascal size on the simulator's traffic, which rises with C between 33
// and 34 blocks here: the search probes, reports the rise, and answers the
// smallest C from which every capacity of the grid meets the target, as
// computed here from a run over every C of the range.
TEST_F(SimBandCli, SizeProbesTheSimulatorAndReportsWhereItRises)
{
    std::string s = spec("rise.yaml", "pattern: gaussian, sigma: 1, seed: 7",
                         "  C: {from: 33, to: 53, step: 1}\n", "traffic_sim, answer_traffic, answer_traffic_hi");
    auto g = run("run " + s + " -o " + dir + "/grid.csv --format csv");
    ASSERT_EQ(g.status, 0) << g.err;
    std::map<long, double> v;
    for (auto &row : pascal_test::read_csv(dir + "/grid.csv"))
        v[std::stol(row["C"])] = std::stod(row["traffic_sim"]);
    ASSERT_EQ(v.size(), 21u);
    const double bound = 1.2;
    long want = -1, rise_at = -1;
    double rise = 0;
    for (long c = 53; c >= 33 && v[c] <= bound; c--)
        want = c;
    for (long c = 33; c < 53; c++)
        if (v[c + 1] - v[c] > rise)
            rise = v[c + 1] - v[c], rise_at = c;
    ASSERT_GT(rise_at, 0) << "the simulator no longer rises here: pick another case";
    ASSERT_GT(want, 33);
    ASSERT_LE(v[33], bound);   // a plain "smallest C that meets" would say 33

    auto z = run("size " + s + " --target 'traffic_sim <= 1.2' --json");
    ASSERT_EQ(z.status, 0) << z.err;
    EXPECT_EQ(json_num(z.out, "C"), (double)want) << z.out;
    EXPECT_NE(z.out.find("\"monotone\": false"), std::string::npos) << z.out;
    EXPECT_NE(z.out.find("\"rise\": [[" + std::to_string(rise_at) + ", "), std::string::npos) << z.out;
    auto t = run("size " + s + " --target 'traffic_sim <= 1.2'");
    ASSERT_EQ(t.status, 0) << t.err;
    EXPECT_NE(t.out.find("probed: not monotone: traffic_sim rises from"), std::string::npos) << t.out;

    // The answer's default search sizes the band's high end beside it, on
    // the same bound; the answer is the simulator's here.
    auto a = run("size " + s + " --target 1.2 --json");
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(json_num(a.out, "C"), (double)want) << a.out;
    EXPECT_NE(a.out.find("\"band_hi\": {\"C\": "), std::string::npos) << a.out;
    auto at = a.out.find("\"band_hi\"");
    ASSERT_NE(at, std::string::npos);
    double band_C = json_num(a.out.substr(at + 10), "C");
    EXPECT_GE(band_C, (double)want);   // the high end is at or above the answer at every C
}

} // namespace

namespace {

// One band: where the simulator answers, the run summary (grid), pascal
// size (exact, probed) and the report's table (grid) size the band's high
// end alike, and info names it.  The exact size lies in the grid's last
// step: at or below the summary's capacity and above the next one down.
TEST_F(SimBandCli, SummarySizeReportAndInfoAgreeOnTheBand)
{
    std::string s = spec("agree.yaml", "pattern: gaussian, sigma: 2",
                         "  seq_kv: [2048, 4096]\n  capacity_bytes: {from: 64KiB, to: 2MiB, num: 6, scale: log}\n",
                         "answer_traffic, answer_traffic_lo, answer_traffic_hi, answer_source, traffic_replay");
    // spec() fixes seq_kv 4096 in the workload; the axis overrides it.
    std::string h5 = dir + "/agree.h5";
    auto r = run("run " + s + " -o " + h5);
    ASSERT_EQ(r.status, 0) << r.err;
    std::map<long, double> said;
    std::smatch m;
    std::regex line("context length ([0-9]+) needs [0-9.]+[KM]iB for <= 1.2x ideal traffic; the band's high "
                    "end ([0-9.]+)(KiB|MiB)");
    for (std::string rest = r.out; std::regex_search(rest, m, line); rest = m.suffix())
        said[std::stol(m[1])] = std::stod(m[2]) * (m[3] == "KiB" ? 1024.0 : 1048576.0);
    ASSERT_EQ(said.size(), 2u) << r.out;

    auto z = run("size " + s + " --json");
    ASSERT_EQ(z.status, 0) << z.err;
    std::regex obj("\"seq_kv\": ?([0-9]+).*?\"band_hi\": \\{\"C\": ?([0-9]+)");
    int n = 0;
    for (std::string rest = z.out; std::regex_search(rest, m, obj); rest = m.suffix(), n++) {
        double bytes = std::stod(m[2]) * 16384, grid = said.at(std::stol(m[1]));
        EXPECT_LE(bytes, grid) << m[0];
        EXPECT_GT(bytes, grid / std::pow(32.0, 1.0 / 5)) << m[0];   // the log grid's step: 2 MiB / 64 KiB over 5
    }
    EXPECT_EQ(n, 2) << z.out;

    std::string html = dir + "/agree.html";
    auto rep = run("report " + h5 + " -o " + html);
    ASSERT_EQ(rep.status, 0) << rep.err;
    std::string page = pascal_test::slurp(html);
    auto at = page.find("\"answer_traffic_hi\":{\"metric\":\"answer_traffic_hi\"");
    ASSERT_NE(at, std::string::npos);
    std::regex row("\\[\\[\"?([0-9]+)\"?\\],([0-9.e+]+),");
    n = 0;
    for (std::string rest = page.substr(at); n < 2 && std::regex_search(rest, m, row); rest = m.suffix(), n++)
        EXPECT_EQ(std::stod(m[2]), said.at(std::stol(m[1]))) << m[0];
    EXPECT_EQ(n, 2);

    auto info = run("info " + h5);
    ASSERT_EQ(info.status, 0) << info.err;
    EXPECT_NE(info.out.find("band: answer_traffic_lo (the lock-step kernel) .. answer_traffic_hi (p90 of "
                            "band_seeds free-running simulations)"), std::string::npos) << info.out;
}

} // namespace
