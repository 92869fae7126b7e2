// Workloads end to end through the CLI: every shipped workload study
// (configs/llama*.yaml) runs to HDF5 and to a report, with its derived
// columns checked against the shapes computed by hand from the models'
// published configs; and the run summary and the report's sizing table speak
// in workload terms, with sizes worked out by hand.
#include <gtest/gtest.h>

#include <regex>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "output/sink.h"
#include "test_util.h"

namespace {

using pascal_test::TempDirTest;

const std::string kConfigs = std::string(PASCAL_SOURCE_DIR) + "/configs/";

class WorkloadCli : public TempDirTest {
protected:
    // A result column of a sweep file.
    std::vector<double> column(const std::string &h5, const char *group, const char *name)
    {
        double *v = nullptr;
        int64_t rows = 0;
        pascal_error err = {};
        EXPECT_EQ(pascal_h5_read_column(h5.c_str(), group, name, &v, &rows, &err), 0) << err.msg;
        std::vector<double> out(v, v + (v ? rows : 0));
        std::free(v);
        return out;
    }
};

struct Study {
    const char *file;
    double ideal_first;   // ideal_bytes at the first row, by hand
    double streams, ctas;
};

// Hand values (docs/workloads.md, W1-W10):
//   70B decode: K+V of 64 sequences x 8 KV heads x 8192 tokens x 128 x 2 B
//               = 2 GiB; 2 x 64 x 8 streams; 64 x 64 CTAs.
//   8B decode:  2 x 16 x 8 x 4096 x 128 x 2 B = 256 MiB; 256 streams;
//               16 x 32 CTAs.
//   70B GEMM:   (2048 x 8192 + 8192 x 28672) x 2 B; 128 x 256 tiles give
//               A units of 128 rows, B panels of 2 units: 16 + 112 x 2
//               streams; 16 x 112 CTAs.
//   8B GEMM:    (1024 x 4096 + 4096 x 14336) x 2 B; 8 + 112 streams; 8 x 112.
const Study kStudies[] = {
    {"llama70b-decode-attention-h200.yaml", 2.0 * 64 * 8 * 8192 * 128 * 2, 1024, 4096},
    {"llama8b-decode-attention-gb10.yaml", 2.0 * 16 * 8 * 4096 * 128 * 2, 256, 512},
    {"llama70b-mlp-gemm-h200.yaml", (2048.0 * 8192 + 8192.0 * 28672) * 2, 16 + 224, 16 * 112},
    {"llama8b-mlp-gemm-gb10.yaml", (1024.0 * 4096 + 4096.0 * 14336) * 2, 8 + 112, 8 * 112},
};

TEST_F(WorkloadCli, ShippedStudiesRunToHdf5AndReport)
{
    for (const Study &s : kStudies) {
        std::string h5 = dir + "/" + s.file + ".h5", html = dir + "/" + s.file + ".html";
        auto r = run("run " + kConfigs + s.file + " -o " + h5 + " --quiet");
        ASSERT_EQ(r.status, 0) << s.file << r.err;
        EXPECT_NE(r.out.find("  sizing: smallest swept capacity_bytes whose worst case over the "
                             "other axes keeps answer_traffic (DRAM fills / ideal traffic) <= 1.2"),
                  std::string::npos) << r.out;
        auto ideal = column(h5, "results", "ideal_bytes");
        auto streams = column(h5, "results", "streams");
        auto ctas = column(h5, "results", "ctas");
        auto traffic = column(h5, "results", "traffic_lru");
        ASSERT_FALSE(ideal.empty());
        EXPECT_EQ(ideal[0], s.ideal_first) << s.file;
        EXPECT_EQ(streams[0], s.streams) << s.file;
        EXPECT_EQ(ctas[0], s.ctas) << s.file;
        for (double t : traffic)   // every block at least once, and finite
            ASSERT_TRUE(t >= 1.0 && std::isfinite(t)) << s.file << " " << t;
        auto rep = run("report " + h5 + " -o " + html);
        ASSERT_EQ(rep.status, 0) << s.file << rep.err;
        std::string page = pascal_test::slurp(html);
        EXPECT_NE(page.find("\"traffic\":true"), std::string::npos) << s.file;
    }
}

// The causal prefill study: only the exact replay answers, and the run
// summary, the report and the columns agree on it.  Hand values: K and V of
// 8 KV heads x 8192 tokens x 128 x 2 B = 32 MiB; 16 streams; 64 heads x 64
// query tiles of 128 rows = 4096 CTAs.
TEST_F(WorkloadCli, CausalPrefillStudyRunsOnTheReplay)
{
    const char *f = "llama70b-prefill-causal-attention-h200.yaml";
    std::string h5 = dir + "/causal.h5", html = dir + "/causal.html";
    auto r = run(std::string("run ") + kConfigs + f + " -o " + h5 + " --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("keeps answer_traffic (DRAM fills / ideal traffic) <= 1.2"),
              std::string::npos) << r.out;
    auto ideal = column(h5, "results", "ideal_bytes");
    auto streams = column(h5, "results", "streams");
    auto ctas = column(h5, "results", "ctas");
    auto replay = column(h5, "results", "traffic_replay");
    auto lru = column(h5, "results", "traffic_lru");
    ASSERT_FALSE(ideal.empty());
    EXPECT_EQ(ideal[0], 2.0 * 8 * 8192 * 128 * 2);
    EXPECT_EQ(streams[0], 16);
    EXPECT_EQ(ctas[0], 4096);
    ASSERT_EQ(replay.size(), lru.size());
    for (size_t i = 0; i < replay.size(); i++) {
        ASSERT_TRUE(replay[i] >= 1.0 && std::isfinite(replay[i])) << i << " " << replay[i];
        ASSERT_TRUE(std::isnan(lru[i])) << i;
    }
    auto rep = run("report " + h5 + " -o " + html);
    ASSERT_EQ(rep.status, 0) << rep.err;
}

// The split-K study (kernel cutlass): unequal slices run on the replay.
// Hand values at its first row (M = 16, one slice): 128-row A tiles (16
// rows real) and 128-column B units over 448 K tiles of 64: 1 + 64
// streams of 448 blocks of 128 x 64 x 2 B; 64 CTAs.  D is M x 8192 bf16
// and every slice writes it whole: 16 x 8192 x 2 B per slice.
TEST_F(WorkloadCli, SplitKStudyRunsOnTheReplay)
{
    const char *f = "llama70b-down-proj-splitk-h200.yaml";
    std::string h5 = dir + "/splitk.h5", html = dir + "/splitk.html";
    auto r = run(std::string("run ") + kConfigs + f + " -o " + h5 + " --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    auto ideal = column(h5, "results", "ideal_bytes");
    auto streams = column(h5, "results", "streams");
    auto ctas = column(h5, "results", "ctas");
    // rows in axis order: gemm_m outermost, then split_k, capacity fastest
    auto ms = column(h5, "axes", "gemm_m"), splits = column(h5, "axes", "split_k");
    auto caps = column(h5, "axes", "capacity_bytes");
    ASSERT_EQ(ms.size() * splits.size() * caps.size(), ideal.size());
    auto replay = column(h5, "results", "traffic_replay"), exact = column(h5, "results", "traffic_exact");
    auto writes = column(h5, "results", "write_bytes_exact");
    ASSERT_FALSE(ideal.empty());
    EXPECT_EQ(ideal[0], 65.0 * 448 * 128 * 64 * 2);
    EXPECT_EQ(streams[0], 65);
    EXPECT_EQ(ctas[0], 64);
    int more = 0;
    for (size_t i = 0; i < ideal.size(); i++) {
        double m = ms[i / (splits.size() * caps.size())], split = splits[i / caps.size() % splits.size()];
        ASSERT_TRUE(exact[i] >= 1.0 && std::isfinite(exact[i])) << i << " " << exact[i];
        ASSERT_TRUE(replay[i] >= 1.0 && std::isfinite(replay[i])) << i << " " << replay[i];
        EXPECT_EQ(writes[i], split * m * 8192 * 2) << i;
        more += split > 1 && exact[i] > replay[i];   // the partial sums read back
    }
    EXPECT_GT(more, 0);
    auto rep = run("report " + h5 + " -o " + html);
    ASSERT_EQ(rep.status, 0) << rep.err;
}

// The stream-K study (docs/workloads.md section 2.11): every K iteration
// of every tile once (ideal as the data-parallel kernel's), D written once
// and, by hand from the library's block mapping, a 128 x 128 fp32 partial
// share (64 KiB) for every stream-K block that ends inside a tile it did not
// finish: M 16 and 64 split each of 64 tiles in two halves (64 shares);
// M 1024 puts 248 x 448 iterations over 132 blocks of 841 or 842, whose 131
// inner boundaries (b 841 + min(b, 92)) all fall inside tiles; M 4096 200 x
// 448 over 132 blocks of 678 or 679, one boundary (b = 64: 43456 = 97 x
// 448) on a tile edge: 130.  M 256 takes no stream-K: the same kernel as
// CUTLASS's data-parallel one, launched M tiles fastest, the same answers.
TEST_F(WorkloadCli, StreamKStudyRunsOnTheReplay)
{
    const char *f = "llama70b-down-proj-streamk-h200.yaml";
    std::string h5 = dir + "/streamk.h5", html = dir + "/streamk.html";
    auto r = run(std::string("run ") + kConfigs + f + " -o " + h5 + " --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    // rows in axis order: gemm_m outermost, then kernel, capacity fastest
    auto ms = column(h5, "axes", "gemm_m"), caps = column(h5, "axes", "capacity_bytes");
    auto writes = column(h5, "results", "write_bytes_exact"), ideal = column(h5, "results", "ideal_bytes");
    auto replay = column(h5, "results", "traffic_replay"), exact = column(h5, "results", "traffic_exact");
    ASSERT_EQ(ms.size(), 5u);
    ASSERT_EQ(ms.size() * 2 * caps.size(), writes.size());
    const double shares[] = {64, 64, 0, 131, 130};
    // launches: a wave of 132 stream-K places (128 blocks and 4 that exit)
    // at M 16 and 64; 128 data-parallel tiles at 256; 132 + the 264 tiles
    // left at 1024; 132 + 64 cohorts of 32 (32 x 64 tiles in 8 x 4) at 4096
    const double launches[] = {132, 132, 128, 396, 2180};
    auto ctas = column(h5, "results", "ctas");
    size_t nc = caps.size();
    for (size_t a = 0; a < ms.size(); a++)
        for (size_t c = 0; c < nc; c++) {
            size_t dp = (a * 2) * nc + c, sk = (a * 2 + 1) * nc + c;
            EXPECT_EQ(writes[dp], ms[a] * 8192 * 2) << a;
            EXPECT_EQ(writes[sk], ms[a] * 8192 * 2 + shares[a] * 128 * 128 * 4) << a;
            EXPECT_EQ(ideal[sk], ideal[dp]);
            EXPECT_EQ(ctas[sk], launches[a]) << a;
            ASSERT_TRUE(replay[sk] >= 1.0 && exact[sk] >= replay[sk]) << sk;
            if (ms[a] == 256) {
                EXPECT_EQ(replay[sk], replay[dp]);
                EXPECT_EQ(exact[sk], exact[dp]);
            }
        }
    auto rep = run("report " + h5 + " -o " + html);
    ASSERT_EQ(rep.status, 0) << rep.err;
}

// Determinism: 1 and 3 threads write the same values, column by column
// (the waves and their classes are rebuilt per thread).
TEST_F(WorkloadCli, ThreadCountDoesNotChangeResults)
{
    for (const char *f : {"llama8b-decode-attention-gb10.yaml", "llama8b-mlp-gemm-gb10.yaml"}) {
        std::string a = dir + "/a.h5", b = dir + "/b.h5";
        ASSERT_EQ(run("run " + kConfigs + f + " -o " + a + " --quiet --threads 1").status, 0);
        ASSERT_EQ(run("run " + kConfigs + f + " -o " + b + " --quiet --threads 3").status, 0);
        for (const char *c : {"fill_bytes_lru", "fill_bytes_ttl", "fill_bytes_bound", "K_lru", "V"}) {
            auto x = column(a, "results", c), y = column(b, "results", c);
            ASSERT_EQ(x.size(), y.size());
            for (size_t i = 0; i < x.size(); i++)
                ASSERT_TRUE(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i]))) << f << " " << c << i;
        }
        std::remove(a.c_str());
        std::remove(b.c_str());
    }
}

// MQA decode-like attention (one KV head, 8 query heads, 8 query tiles: 64
// CTAs per head) on 16 slots: 4 waves per head.  With lockstep CTAs a wave
// hits everything iff the head's K and V fit: RD of the first reader of a
// block is 2N - 1 blocks, so C >= 2N, i.e. 2 x seq_kv x 64 x 2 bytes:
// 1 MiB at 4096 tokens, 2 MiB at 8192.  Below that every wave refetches the
// head (4x ideal).
TEST_F(WorkloadCli, SizingSentencesInWorkloadTerms)
{
    std::string spec = write("mqa.yaml",
        "name: mqa\n"
        "models: [workload, traffic]\n"
        "workload:\n"
        "  attention: {q_heads: 8, kv_heads: 1, seq_q: 1024, seq_kv: 4096, head_dim: 64,\n"
        "              dtype: bf16, tile_q: 128, tile_kv: 64}\n"
        "fixed: {M: 16}\n"
        "axes:\n"
        "  seq_kv: [4096, 8192]\n"
        "  capacity_bytes: [512KiB, 1MiB, 1536KiB, 2MiB]\n");
    auto r = run("run " + spec + " -o " + dir + "/mqa.h5 --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("    context length 4096 needs 1MiB for <= 1.2x ideal traffic\n"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("    context length 8192 needs 2MiB for <= 1.2x ideal traffic\n"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("headline: answer_traffic (x ideal) ranges from 1 at"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("to 4 at"), std::string::npos) << r.out;
    // --target applies to the ratio: at 5x every size qualifies.
    r = run("run " + spec + " -o " + dir + "/mqa5.h5 --quiet --target 5");
    EXPECT_NE(r.out.find("context length 8192 needs 512KiB for <= 5x ideal traffic"),
              std::string::npos) << r.out;
    auto rep = run("report " + dir + "/mqa.h5 -o " + dir + "/mqa.html");
    ASSERT_EQ(rep.status, 0) << rep.err;
    std::string page = pascal_test::slurp(dir + "/mqa.html");
    EXPECT_NE(page.find("\"axis_words\":[\"context length\"],\"traffic\":true"), std::string::npos);
    EXPECT_NE(page.find("\"metric\":\"answer_traffic\",\"target\":1.2"), std::string::npos);
    // Sizing rows: [[seq_kv], smallest size, C there, worst at the largest, ...].
    EXPECT_NE(page.find("[[4096],1048576,128,1,"), std::string::npos);
    EXPECT_NE(page.find("[[8192],2097152,256,1,"), std::string::npos);
}

// A refused shape exits 2 naming file, line, column and field; nothing is
// written.
TEST_F(WorkloadCli, RefusalsExitTwoAndWriteNothing)
{
    std::string spec = write("bad.yaml",
        "name: bad\n"
        "models: [traffic]\n"
        "workload:\n"
        "  attention: {q_heads: 64, kv_heads: 8, seq_q: 1, seq_kv: 4096, head_dim: 128,\n"
        "              dtype: bf16, tile_q: 64, tile_kv: 64, causal: true}\n"
        "fixed: {M: 16, capacity_bytes: 8MiB}\n"
        "axes:\n"
        "  seq_kv: [4096]\n");
    auto r = run("run " + spec + " -o " + dir + "/bad.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(spec + ":5:61: workload.attention.causal: expected causal: false", 0), 0u)
        << r.err;
    EXPECT_FALSE(pascal_test::exists(dir + "/bad.h5"));
}

// The dynamic model over the real horizon: each KV head's 4 x 64 = 256 CTAs
// are one open scan of W = 256 / M scans over N = L_kv / 32 steps of 16 KiB
// (K and V of 32 rows x d 128 x BF16).  K_dyn must be what `pascal predict`
// says for that scan, and the fills 8 heads x K x W N blocks of 16 KiB.  At
// 16k tokens a head's K and V (N = 512 steps) fit in the 20 MiB of GB10's
// calibration (C = 1280): no dynamic answer (fallback 14).
TEST_F(WorkloadCli, DynamicModelOverTheRealHorizon)
{
    const std::string refs = kConfigs + "calibration/synthetic-gb10-refs.csv";
    ASSERT_EQ(run("calibrate " + refs + " --device " + kConfigs + "devices/gb10.yaml -o " + dir +
                  "/model.h5").status, 0);
    std::string spec = write("dyn.yaml",
        "name: dyn\n"
        "device: " + kConfigs + "devices/gb10.yaml\n"
        "calibration: model.h5\n"
        "models: [workload, traffic, dynamic]\n"
        "workload:\n"
        "  attention: {q_heads: 32, kv_heads: 8, seq_q: 8192, seq_kv: 8192, head_dim: 128,\n"
        "              dtype: bf16, tile_q: 128, tile_kv: 32}\n"
        "fixed: {path: tma, depth: 3, compute: 16}\n"
        "axes:\n"
        "  occupancy: [1, 2]\n"
        "  seq_kv: [16384, 65536]\n");
    auto r = run("run " + spec + " -o " + dir + "/dyn.csv --format csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    auto rows = pascal_test::read_csv(dir + "/dyn.csv");
    ASSERT_EQ(rows.size(), 4u);
    for (auto &row : rows) {
        int o = std::stoi(row["occupancy"]);
        if (row["seq_kv"] == "16384") {
            EXPECT_EQ(row["fallback"], "14");
            EXPECT_EQ(row["K_dyn"], "");
            EXPECT_EQ(row["traffic_dyn"], "");
            continue;
        }
        double W = 256.0 / (48.0 * o), N = 2048;
        char args[512];
        std::snprintf(args, sizeof args,
                      "predict --model %s/model.h5 --o %d --path tma --d 3 --m 16 --N 2048 "
                      "--W %.17g --json", dir.c_str(), o, W);
        auto p = run(args);
        ASSERT_EQ(p.status, 0) << p.err;
        double K = std::stod(p.out.substr(p.out.find("\"K\": ") + 5));
        EXPECT_DOUBLE_EQ(std::stod(row["K_dyn"]), K);
        double bytes = 8 * K * W * N * 16384;
        EXPECT_NEAR(std::stod(row["fill_bytes_dyn"]), bytes, 1e-6 * bytes);
        EXPECT_NEAR(std::stod(row["traffic_dyn"]), bytes / (16.0 * 2048 * 8192), 1e-9);
    }
}

// `size` on a workload: the exact replay of the kernel's trace is monotone
// in C (the stack property), so a target on traffic_replay is bisected; a
// target on the wave sums is refused, naming the replay.  The answer is
// checked against a brute-force run over every capacity of 1 to 16 blocks:
// the smallest that meets the target there is the one size returns.
TEST_F(WorkloadCli, SizeBisectsTheKernelReplay)
{
    const std::string head = "name: sz\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
                             "  attention: {batch: 4, q_heads: 8, kv_heads: 2, seq_q: 2, "
                             "seq_kv: 2048, head_dim: 64, dtype: bf16, tile_q: 64, tile_kv: 64, "
                             "kernel: flash-attn-2, num_splits: 1}\nfixed: {M: 16}\naxes:\n";
    std::string spec = write("sz.yaml", head + "  capacity_bytes: [8KiB, 4MiB]\n");
    auto r = run("size " + spec + " --target 'traffic_replay <= 1.2'");
    ASSERT_EQ(r.status, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("C = ([0-9]+) blocks"))) << r.out;
    int64_t C = std::stoll(m[1]);
    std::string grid = write("grid.yaml", head + "  capacity_bytes: {from: 8KiB, to: 128KiB, step: 8KiB}\n");
    ASSERT_EQ(run("run " + grid + " -o " + dir + "/grid.h5 --quiet").status, 0);
    auto cap = column(dir + "/grid.h5", "points", "capacity_bytes");
    auto traffic = column(dir + "/grid.h5", "results", "traffic_replay");
    int64_t first = -1;
    for (size_t i = 0; i < cap.size(); i++)
        if (first < 0 && traffic[i] <= 1.2)
            first = (int64_t)(cap[i] / 8192);   // 8 KiB blocks: 64 rows x 64 x 2 bytes
    EXPECT_EQ(C, first) << r.out;
    EXPECT_GT(first, 1) << "the grid must cross the target";
    r = run("size " + spec + " --target 'traffic_lru <= 1.2'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("not shown monotone in C"), std::string::npos) << r.err;
    std::string nolru = write("nolru.yaml", "name: sz\nmodels: [workload, traffic]\nworkload:\n"
                                             "  attention: {batch: 4, q_heads: 8, kv_heads: 2, seq_q: 2, "
                                             "seq_kv: 2048, head_dim: 64, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
                                             "fixed: {M: 16}\naxes:\n  capacity_bytes: [8KiB, 4MiB]\n");
    r = run("size " + nolru + " --target 'traffic_replay <= 1.2'");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected model lru_replay for a target on traffic_replay"), std::string::npos)
        << r.err;
}

// A stream length that is no multiple of its tile pads the last block, whose
// bytes are counted whole: the run summary says so (it did not say a word),
// and says nothing when every length is a multiple.
TEST_F(WorkloadCli, TheSummaryNamesPadding)
{
    const std::string head = "name: pad\nmodels: [workload]\nworkload:\n  attention: {batch: 1, "
                             "q_heads: 8, seq_q: 1, head_dim: 128, dtype: bf16, tile_q: 64, "
                             "tile_kv: 128}\nfixed: {M: 8, C: 64}\naxes:\n";
    auto r = run("run " + write("p.yaml", head + "  seq_kv: [8192, 8000]\n") + " -o " + dir +
                 "/p.h5 --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("padding: seq_kv 8000 is no multiple of tile_kv 128: each K and V stream "
                         "ends in a block of 64 of its 128 rows, counted whole (63 blocks)"),
              std::string::npos) << r.out;
    r = run("run " + write("q.yaml", head + "  seq_kv: [8192, 16384]\n") + " -o " + dir +
            "/q.h5 --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("padding"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("padding"), std::string::npos) << r.out;
}

} // namespace

namespace {

// One answer: the run summary, `size`, the report's sizing table and `info`
// all size on answer_traffic, the exact replay here (models traffic and
// lru_replay).  The shape is one where the estimate differs (traffic_lru
// 1.5 at 16 KiB, the replay 2.08), so a tool that sized on traffic_lru
// would say 16KiB for context 512 where the answer needs 32KiB.
TEST_F(WorkloadCli, RunSizeReportAndInfoSizeOnTheOneAnswer)
{
    std::string h5 = dir + "/one.h5", html = dir + "/one.html";
    std::string spec = pascal_test::write_file(
        dir, "one.yaml", "name: one-answer\nmodels: [traffic, lru_replay]\nworkload:\n"
              "  attention: {batch: 1, q_heads: 16, kv_heads: 2, seq_q: 512, seq_kv: 512, "
              "head_dim: 8, dtype: bf16, tile_q: 16, tile_kv: 16}\n"
              "fixed: {M: 24, pattern: equal}\naxes:\n  seq_kv: [512, 1024]\n"
              "  capacity_bytes: {from: 1KiB, to: 64KiB, num: 13, scale: log}\n");
    auto r = run("run " + spec + " -o " + h5 + " --target 1.6");
    ASSERT_EQ(r.status, 0) << r.err;
    // The grid answers, from the file: per context, the smallest swept
    // capacity whose value is <= 1.6, by the answer and by the estimate.
    auto seq = column(h5, "points", "seq_kv"), cap = column(h5, "points", "capacity_bytes");
    auto answer = column(h5, "results", "answer_traffic"), lru = column(h5, "results", "traffic_lru");
    auto source = column(h5, "results", "answer_source");
    std::map<double, double> by_answer, by_lru;
    for (size_t i = 0; i < seq.size(); i++) {
        EXPECT_EQ(source[i], 2) << i;   // lru_replay answered
        if (answer[i] <= 1.6 && !by_answer.count(seq[i]))
            by_answer[seq[i]] = cap[i];
        if (lru[i] <= 1.6 && !by_lru.count(seq[i]))
            by_lru[seq[i]] = cap[i];
    }
    ASSERT_EQ(by_answer[512], 32768);
    ASSERT_EQ(by_lru[512], 16384);   // the test tells the two apart
    EXPECT_NE(r.out.find("keeps answer_traffic (DRAM fills / ideal traffic) <= 1.6"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the answer per point: lru_replay (fill_bytes_replay), else estimate"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("context length 512 needs 32KiB for <= 1.6x"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("context length 1024 needs 64KiB for <= 1.6x"), std::string::npos) << r.out;

    // size, with a bare bound: answer_traffic, bisected.
    auto z = run("size " + spec + " --target 1.6 --json");
    ASSERT_EQ(z.status, 0) << z.err;
    EXPECT_NE(z.err.find("meet answer_traffic <= 1.6"), std::string::npos) << z.err;
    std::map<std::string, long> exact;
    std::smatch m;
    std::string rest = z.out;
    std::regex line("\"seq_kv\": ?([0-9]+).*?\"C\": ?([0-9]+)");
    while (std::regex_search(rest, m, line)) {
        exact[m[1]] = std::stol(m[2]);
        rest = m.suffix();
    }
    ASSERT_EQ(exact.size(), 2u) << z.out;
    EXPECT_LE(exact["512"] * 256, 32768);   // within the grid's answer (256 B blocks)
    EXPECT_GT(exact["512"] * 256, 23170);   // and above the next swept size down

    // The report: its sizing table is on answer_traffic, grid and exact.
    auto rep = run("report " + h5 + " -o " + html + " --target 1.6");
    ASSERT_EQ(rep.status, 0) << rep.err;
    std::string page = pascal_test::slurp(html);
    EXPECT_NE(page.find("\"sizing\":{\"default\":\"answer_traffic\","), std::string::npos);
    const std::string table = "\"by_metric\":{\"answer_traffic\":{\"metric\":\"answer_traffic\",\"target\":1.6";
    ASSERT_NE(page.find(table), std::string::npos);
    std::regex row("\\[\\[\"?([0-9]+)\"?\\],([0-9.e+]+),[^,]*,[^,]*,[^,]*,([0-9]+),");
    rest = page.substr(page.find(table));
    int rows = 0;
    while (std::regex_search(rest, m, row) && rows < 2) {
        EXPECT_EQ(std::stod(m[2]), by_answer[std::stod(m[1])]) << m[0];
        EXPECT_EQ(std::stol(m[3]), exact[m[1]]) << m[0];
        rest = m.suffix();
        rows++;
    }
    EXPECT_EQ(rows, 2) << page.substr(page.find("\"sizing\":{"), 400);

    // info says who answers.
    auto info = run("info " + h5);
    ASSERT_EQ(info.status, 0) << info.err;
    EXPECT_NE(info.out.find("answer         lru_replay (fill_bytes_replay), else estimate "
                            "(fill_bytes_lru)"), std::string::npos) << info.out;
}

} // namespace
