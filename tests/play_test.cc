// The program player's host side (spot/play.h) and `pascal play` without a
// GPU: the request list the player would issue is the kernel's program,
// checked against the libraries' launch code written out here (grid in
// linear block order, each CTA's loop bounds and direction), and a
// measuring run on a machine without a GPU says so, exits 2 and writes
// nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "spot/play.h"
#include "test_util.h"

namespace {

// (cta, step, offset) triples of a program, in issue order.
struct Req {
    int64_t cta, step, offset;
    bool operator==(const Req &o) const { return cta == o.cta && step == o.step && offset == o.offset; }
};

std::vector<Req> issued(const pascal_play_program &p)
{
    std::vector<Req> out;
    const pascal_gpu_play_job &j = p.job;
    for (int64_t c = 0; c < j.ctas; c++)
        for (int64_t s = j.cta_step[c]; s < j.cta_step[c + 1]; s++)
            for (int64_t r = j.step_req[s]; r < j.step_req[s + 1]; r++)
                out.push_back({c, s - j.cta_step[c], j.req_offset[r]});
    return out;
}

pascal_workload_shape attention(int64_t b, int64_t hq, int64_t hkv, int64_t lq, int64_t lkv,
                                int64_t d, int64_t tq, int64_t tk)
{
    pascal_workload_shape s = {};
    s.kind = PASCAL_WORKLOAD_ATTENTION;
    s.dtype = PASCAL_DTYPE_BF16;
    s.batch = b, s.q_heads = hq, s.kv_heads = hkv, s.seq_q = lq, s.seq_kv = lkv;
    s.head_dim = d, s.tile_q = tq, s.tile_kv = tk;
    s.kernel = PASCAL_KERNEL_FLASH2;
    return s;
}

// FlashAttention-2's split-KV decode (flash_fwd_launch_template.h,
// run_flash_splitkv_fwd: grid(n_m, splits, b h); flash_fwd_kernel.h,
// compute_attn_1rowblock_splitkv: n_block from min(n_kv, (s + 1) per) - 1
// down to s per), folded GQA: K then V of KV head z % h of sequence z / h.
TEST(Play, SplitKvDecodeIssuesTheLaunchCodesRequests)
{
    auto s = attention(2, 8, 2, 1, 1000, 64, 16, 16);   // folded: 4 rows of 2 heads
    s.num_splits = 3;
    pascal_workload w;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    pascal_play_program p;
    pascal_error err{};
    ASSERT_EQ(pascal_play_build(&w, 5, 2, &p, &err), 0) << err.msg;
    const int64_t bn = 256, nkv = 4, per = 2, H = 2, S = 3, stride = bn * 64 * 2;
    std::vector<Req> want;
    int64_t cta = 0;
    for (int64_t z = 0; z < 2 * H; z++)
        for (int64_t y = 0; y < S; y++, cta++) {   // n_m = 1
            int64_t lo = y * per, hi = std::min(nkv, (y + 1) * per), step = 0;
            for (int64_t n = hi - 1; n >= lo; n--, step++) {
                int64_t kv = (z / H) * 2 + z % H;
                want.push_back({cta, step, ((2 * kv) * nkv + n) * stride});
                want.push_back({cta, step, ((2 * kv + 1) * nkv + n) * stride});
            }
        }
    EXPECT_EQ(issued(p), want);
    EXPECT_EQ(p.job.ctas, 2 * H * S);
    EXPECT_EQ(p.job.requests, (int64_t)want.size());
    EXPECT_EQ(p.job.data_bytes, 2 * 2 * 2 * nkv * stride);   // B x H_kv x {K, V} x blocks
    EXPECT_EQ(p.job.compute, 5);
    EXPECT_EQ(p.job.occupancy, 2);
    for (int64_t r = 0; r < p.job.requests; r++)
        ASSERT_EQ(p.job.req_bytes[r], stride);
    pascal_play_free(&p);
}

// The standard kernel on a ring (grid(n_q, B, H), heads outermost) walks
// every KV block from the last down; a causal prefill walks its W11 prefix
// from its last block down.  Blocks of 16 x 4 bf16 = 128 bytes.
TEST(Play, Flash2RingAndCausalWalkBackwards)
{
    for (int causal : {0, 1}) {
        auto s = attention(2, 4, 2, 40, 40, 4, 16, 16);
        s.num_splits = 1;
        s.causal = causal;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        pascal_play_program p;
        pascal_error err{};
        ASSERT_EQ(pascal_play_build(&w, 0, 1, &p, &err), 0) << err.msg;
        const int64_t nq = 3, nkv = 3, stride = 16 * 4 * 2;
        std::vector<Req> want;
        int64_t cta = 0;
        for (int64_t z = 0; z < 4; z++)
            for (int64_t y = 0; y < 2; y++)
                for (int64_t x = 0; x < nq; x++, cta++) {
                    int64_t hi = nkv;
                    if (causal)   // ceil(((x + 1) 16 + L_kv - L_q) / 16), at most n_kv
                        hi = std::min(nkv, ((x + 1) * 16 + 15) / 16);
                    int64_t kv = y * 2 + z / 2, step = 0;
                    for (int64_t n = hi - 1; n >= 0; n--, step++) {
                        want.push_back({cta, step, ((2 * kv) * nkv + n) * stride});
                        want.push_back({cta, step, ((2 * kv + 1) * nkv + n) * stride});
                    }
                }
        EXPECT_EQ(issued(p), want) << "causal " << causal;
        pascal_play_free(&p);
    }
}

// A GEMM's CTA reads its A unit panels, then its B unit panels, at each K
// step, rows of tiles fastest (raster row): tiles 2 x 4 of A rows, 4 B
// columns, 3 K steps; A units 0..m_t-1, B units after them.
TEST(Play, GemmReadsItsPanelsStepByStep)
{
    pascal_workload_shape s = {};
    s.kind = PASCAL_WORKLOAD_GEMM;
    s.dtype = PASCAL_DTYPE_BF16;
    s.m = 64, s.n = 128, s.k = 96, s.tile_m = 32, s.tile_n = 32, s.tile_k = 32;
    s.raster = PASCAL_RASTER_ROW, s.swizzle = 8, s.split_k = 1;
    pascal_workload w;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    pascal_play_program p;
    pascal_error err{};
    ASSERT_EQ(pascal_play_build(&w, 0, 1, &p, &err), 0) << err.msg;
    const int64_t mt = 2, nt = 4, kt = 3, stride = 32 * 32 * 2;
    std::vector<Req> want;
    for (int64_t i = 0; i < mt; i++)
        for (int64_t j = 0; j < nt; j++)
            for (int64_t k = 0; k < kt; k++) {
                want.push_back({i * nt + j, k, (i * kt + k) * stride});
                want.push_back({i * nt + j, k, ((mt + j) * kt + k) * stride});
            }
    EXPECT_EQ(issued(p), want);
    pascal_play_free(&p);
}

// A persistent kernel: one player CTA per persistent CTA, running the
// tiles the lock-step schedule gives it one after another, every tile's
// steps as the model has them, each tile once.
TEST(Play, PersistentCtasRunTheirScheduledTiles)
{
    for (int causal : {0, 1}) {
        auto s = attention(2, 3, 3, 400, 600, 64, 16, 16);
        s.kernel = PASCAL_KERNEL_FLASH3;
        s.num_splits = 1;
        s.sms = 4;
        s.causal = causal;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        pascal_play_program p;
        pascal_error err{};
        ASSERT_EQ(pascal_play_build(&w, 0, 1, &p, &err), 0) << err.msg;
        EXPECT_EQ(p.job.ctas, 4);
        EXPECT_EQ(p.job.requests, w.requests);
        // Each player CTA's steps, cut into tiles: slot 0 starts on tile 0,
        // and (static) runs tiles 0, 4, 8, ... in that order.
        std::vector<Req> got = issued(p);
        int64_t stride = w.tile_kv * 64 * 2, ids[2];
        if (!causal) {
            std::vector<Req> want;
            int64_t step = 0;
            for (int64_t t = 0; t < w.ctas; t += 4)
                for (int64_t j = 0; j < w.blocks; j++, step++) {
                    pascal_workload_cta(&w, t, ids);
                    int64_t b = pascal_workload_cta_block(&w, t, j);
                    want.push_back({0, step, (ids[0] * w.blocks + b) * stride});
                    want.push_back({0, step, (ids[1] * w.blocks + b) * stride});
                }
            std::vector<Req> slot0(got.begin(), got.begin() + (ptrdiff_t)want.size());
            EXPECT_EQ(slot0, want);
        }
        pascal_play_free(&p);
    }
}

// CUTLASS stream-K (docs/workloads.md section 2.11), by hand: 2 x 5 tiles
// of 16 x 16, 13 K steps, 4 SMs at occupancy 1.  get_sk_blocks gives the
// last full wave and the 2 left (tiles 0-5, 78 iterations) to 4 stream-K
// blocks, [0, 20), [20, 40), [40, 59), [59, 78); each walks its tiles from
// the last down, each tile's part forward.  Tile t is (t mod 2, t / 2)
// (fewer M than N tiles).  No block waits (each later peer's own work ends
// after the share before it), so slots 2 and 3 free first (19 rounds) and
// take launches 4 and 5 (tiles 6 and 7), slots 0 and 1 launches 6 and 7
// (tiles 8 and 9).  Blocks of 16 x 16 bf16 (512 bytes); A unit i, B unit
// m_t + j, 13 blocks each.
TEST(Play, StreamKBlocksWalkTheirTilesFromTheLastDown)
{
    pascal_workload_shape s = {};
    s.kind = PASCAL_WORKLOAD_GEMM;
    s.dtype = PASCAL_DTYPE_BF16;
    s.m = 32, s.n = 80, s.k = 208, s.tile_m = 16, s.tile_n = 16, s.tile_k = 16;
    s.raster = PASCAL_RASTER_ROW, s.swizzle = 1, s.split_k = 1;
    s.kernel = PASCAL_KERNEL_CUTLASS_SK, s.sms = 4, s.occupancy = 1;
    pascal_workload w;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    pascal_play_program p;
    pascal_error err{};
    ASSERT_EQ(pascal_play_build(&w, 0, 1, &p, &err), 0) << err.msg;
    EXPECT_EQ(p.job.ctas, 4);
    const int64_t ipt = 13, stride = 512;
    const int64_t range[4][2] = {{0, 20}, {20, 40}, {40, 59}, {59, 78}}, then[4] = {8, 9, 6, 7};
    std::vector<Req> want;
    for (int64_t q = 0; q < 4; q++) {
        int64_t step = 0;
        auto tile = [&](int64_t t, int64_t k0, int64_t k1) {
            for (int64_t k = k0; k < k1; k++, step++) {
                want.push_back({q, step, ((t % 2) * ipt + k) * stride});
                want.push_back({q, step, ((2 + t / 2) * ipt + k) * stride});
            }
        };
        for (int64_t t = (range[q][1] - 1) / ipt; t >= range[q][0] / ipt; t--)
            tile(t, std::max(range[q][0], t * ipt) - t * ipt, std::min(range[q][1], (t + 1) * ipt) - t * ipt);
        tile(then[q], 0, ipt);
    }
    EXPECT_EQ(issued(p), want);
    EXPECT_EQ(p.job.requests, w.requests);
    pascal_play_free(&p);
}

// Too large a program is refused before anything is allocated.
TEST(Play, RefusesProgramsPastTheLimit)
{
    auto s = attention(64, 64, 8, 8192, 131072, 128, 128, 16);
    s.num_splits = 1;
    pascal_workload w;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    pascal_play_program p;
    pascal_error err{};
    EXPECT_EQ(pascal_play_build(&w, 0, 1, &p, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("block requests"), std::string::npos) << err.msg;
}

class PlayCli : public pascal_test::TempDirTest {};

// --list prints the program (here: the split decode above on a device of
// 2 SMs, whose heuristic takes 4 splits: 4 CTAs of 2 blocks); --dry-run its
// size and pascal's replay; measuring without a GPU exits 2 and writes
// nothing; refusals name what is missing.
TEST_F(PlayCli, ListDryRunAndNoGpu)
{
    write("dev.yaml", "name: two\nsms: 2\nl2_bytes: 1MiB\n");
    std::string spec = write("p.yaml",
        "name: p\ndevice: dev.yaml\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
        "  attention: {batch: 1, q_heads: 4, kv_heads: 1, seq_q: 1, seq_kv: 2048, head_dim: 64, "
        "dtype: bf16, tile_q: 16, tile_kv: 16, kernel: flash-attn-2}\n"
        "fixed: {occupancy: 1}\naxes:\n  capacity_bytes: [64KiB]\n");
    auto r = run("play " + spec + " --select 0 --list");
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "point,cta,step,offset,bytes");
    std::vector<std::string> rows;
    while (std::getline(in, line))
        rows.push_back(line);
    // 1 sequence x 1 KV head, 8 blocks of 256 rows in 4 splits of 2: CTA y
    // reads blocks 2y + 1 then 2y, K (stream 0) then V (stream 1)
    ASSERT_EQ(rows.size(), 16u) << r.out;
    const int64_t stride = 256 * 64 * 2;
    EXPECT_EQ(rows[0], "0,0,0," + std::to_string(1 * stride) + "," + std::to_string(stride));
    EXPECT_EQ(rows[1], "0,0,0," + std::to_string(9 * stride) + "," + std::to_string(stride));
    EXPECT_EQ(rows[2], "0,0,1,0," + std::to_string(stride));
    EXPECT_EQ(rows[15], "0,3,1," + std::to_string(14 * stride) + "," + std::to_string(stride));
    r = run("play " + spec + " --select 0 --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("flash-attn-2"), std::string::npos) << r.out;
    std::string out = dir + "/m.csv";
    r = run("play " + spec + " --select 0 -o " + out);
    if (r.status != 0) {   // no GPU here (or no CUDA build): said, exit 2, nothing written
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find("pascal play: "), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
    // M given directly: no occupancy to pin
    std::string m = write("m.yaml",
        "name: m\nmodels: [workload]\nworkload:\n"
        "  attention: {q_heads: 4, seq_q: 1, seq_kv: 64, head_dim: 64, dtype: bf16, tile_q: 16, "
        "tile_kv: 16}\nfixed: {M: 8}\naxes:\n  C: [4]\n");
    r = run("play " + m + " --select 0 --dry-run");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected an occupancy"), std::string::npos) << r.err;
    r = run("play " + spec + " --select 3 --dry-run");
    EXPECT_EQ(r.status, 2);
    r = run("play " + spec + " --select 0 --dry-run --start tepid");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("pascal play: --start: expected cold or warm, got \"tepid\""),
              std::string::npos) << r.err;
    r = run("play " + spec + " --dry-run");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--select"), std::string::npos) << r.err;
}


// scripts/device-check.sh --dry-run, without a GPU: every step with its
// budget, adding up to at most 8 minutes, and the player's specs, which
// this pascal plays dry (their programs and pascal's replay).
TEST_F(PlayCli, DeviceCheckDryRunFitsItsBudget)
{
    std::string dc = dir + "/dc";
    auto r = pascal_test::run_command(dir, "bash " + std::string(PASCAL_SOURCE_DIR) +
                                                "/scripts/device-check.sh --dry-run " + dc);
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream in(r.err);
    std::string line;
    int64_t sum = 0, steps = 0, total = -1;
    while (std::getline(in, line)) {
        size_t at = line.find("[budget ");
        if (at != std::string::npos)
            sum += std::stoll(line.substr(at + 8)), steps++;
        at = line.find("dry run: ");
        if (at != std::string::npos)
            total = std::stoll(line.substr(at + 9));
    }
    EXPECT_EQ(steps, 6) << r.err;
    EXPECT_EQ(total, sum) << r.err;
    EXPECT_LE(sum, 480);
    EXPECT_NE(r.err.find(" play "), std::string::npos) << r.err;
    const struct {
        const char *file, *select, *kernel;
    } specs[] = {{"play-attention.yaml", "0-1", "flash-attn-2"},
                 {"play-prefill.yaml", "0", "flash-attn-3"},
                 {"play-gemm.yaml", "0-1", "cutlass"}};
    for (const auto &f : specs) {
        auto p = run(std::string("play ") + dc + "/" + f.file + " --select " + f.select + " --dry-run");
        EXPECT_EQ(p.status, 0) << f.file << ": " << p.err;
        EXPECT_NE(p.out.find(f.kernel), std::string::npos) << p.out;
    }
}

}  // namespace
