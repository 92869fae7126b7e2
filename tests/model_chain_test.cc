// A model step replayed as one program (model/chain.h, docs/workloads.md
// section 11.2), against a replay written here from the kernels' launch
// code: every tensor laid out row-major at its own addresses, each kernel's
// CTAs in their launch order and lock-step waves, every access as the
// 32-byte sectors it covers, through a plain LRU of sectors.  Decode and
// prefill, one to three layers, every capacity up to past the step.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <list>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/eval.h"
#include "model/chain.h"
#include "model/step.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

constexpr int64_t kSector = 32;

// The toy of model_step_test.cc: hidden 64, 4 query heads of 16 over 2 KV
// heads, MLP 96, vocab 64, bf16, 16 x 16 x 16 GEMM tiles in column order,
// FlashAttention-2 with 16-row query tiles and 8-row KV tiles, no split.
pascal_step toy(int phase, int64_t layers, int64_t batch, int64_t context)
{
    pascal_step s{};
    s.phase = phase;
    s.layers = layers, s.hidden = 64, s.heads = 4, s.kv_heads = 2, s.head_dim = 16;
    s.intermediate = 96, s.vocab = 64, s.batch = batch, s.context = context;
    s.kernels.dtype = PASCAL_DTYPE_BF16;
    s.kernels.kernel = PASCAL_KERNEL_FLASH2;
    s.kernels.tile_q = 16, s.kernels.tile_kv = 8, s.kernels.num_splits = 1;
    s.kernels.tile_m = 16, s.kernels.tile_n = 16, s.kernels.tile_k = 16;
    s.kernels.raster = PASCAL_RASTER_COLUMN, s.kernels.swizzle = 8;
    return s;
}

// A row-major bf16 matrix at its own addresses.
struct Mat {
    int64_t base, rows, cols;
};

struct Access {
    std::vector<int64_t> sectors;
    bool write;
};

struct Trace {
    std::vector<Access> acc;
    int64_t next = 0;
    Mat mat(int64_t rows, int64_t cols)
    {
        Mat m{next, rows, cols};
        next += rows * cols * 2;
        return m;
    }
    // rows [r0, r1) x columns [c0, c1), clipped to the matrix
    void rect(std::vector<int64_t> &out, const Mat &m, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
    {
        r1 = std::min(r1, m.rows), c1 = std::min(c1, m.cols);
        for (int64_t r = r0; r < r1; r++)
            for (int64_t c = c0; c < c1; c += kSector / 2)
                out.push_back((m.base + (r * m.cols + c) * 2) / kSector);
    }
    void push(std::vector<int64_t> s, bool write)
    {
        if (!s.empty())
            acc.push_back({std::move(s), write});
    }
};

// C = A B: tiles 16 x 16 (one A unit, one B unit), K steps of 16, column
// raster (tile t: i = t % m_t, j = t / m_t), waves of M CTAs in lock step,
// each round a CTA reads its A tile then its B tile; after its last step it
// writes its C tile.  a_row maps A's rows (the LM head's prefill rows).
void gemm(Trace &tr, const Mat &A, int64_t m, int64_t n, int64_t k, const Mat &B, const Mat &C,
          int64_t M, int64_t stride)
{
    int64_t mt = (m + 15) / 16, nt = (n + 15) / 16, kt = (k + 15) / 16, ctas = mt * nt;
    for (int64_t c0 = 0; c0 < ctas; c0 += M)
        for (int64_t step = 0; step < kt; step++)
            for (int64_t c = c0; c < std::min(c0 + M, ctas); c++) {
                int64_t i = c % mt, j = c / mt;
                std::vector<int64_t> a;
                for (int64_t r = i * 16; r < std::min(i * 16 + 16, m); r++) {
                    int64_t row = stride ? r * stride + stride - 1 : r;
                    tr.rect(a, A, row, row + 1, step * 16, std::min(step * 16 + 16, k));
                }
                tr.push(a, false);
                std::vector<int64_t> b;
                tr.rect(b, B, step * 16, step * 16 + 16, j * 16, std::min(j * 16 + 16, n));
                tr.push(b, false);
                if (step == kt - 1) {
                    std::vector<int64_t> o;
                    tr.rect(o, C, i * 16, i * 16 + 16, j * 16, j * 16 + 16);
                    tr.push(o, true);
                }
            }
}

// FlashAttention-2 forward, grid (n_q, B, H) with the query tile fastest,
// KV blocks from the last down; for one query token the G = 2 query heads
// of a KV head fold into one CTA's rows.  Causal (prefill, L_q = L_kv):
// query tile t reads KV blocks 0 .. 2 (t + 1) - 1.  Q from the QKV
// output's first H d columns, O into its own matrix; K and V each
// [B][H_kv][L][d].
void attention(Trace &tr, const pascal_step &s, const Mat &QKV, const Mat &O, int64_t M)
{
    int64_t B = s.batch, L = s.context, d = 16, G = 2;
    bool decode = s.phase == PASCAL_PHASE_DECODE;
    int64_t lq = decode ? 1 : L, heads = decode ? 2 : 4, rows = decode ? G : lq;
    int64_t nq = (rows + 15) / 16, ctas = nq * B * heads, nkv = (L + 7) / 8;
    Mat K = tr.mat(B * 2 * L, d), V = tr.mat(B * 2 * L, d);
    auto steps = [&](int64_t t) { return decode ? nkv : std::min(nkv, 2 * (t + 1)); };
    auto qo = [&](const Mat &m, int64_t c, std::vector<int64_t> &out) {
        int64_t t = c % nq, b = (c / nq) % B, h = c / nq / B;
        if (decode)
            tr.rect(out, m, b, b + 1, h * G * d, (h + 1) * G * d);
        else
            tr.rect(out, m, b * lq + t * 16, b * lq + t * 16 + 16, h * d, h * d + d);
    };
    for (int64_t c0 = 0; c0 < ctas; c0 += M) {
        int64_t c1 = std::min(c0 + M, ctas), longest = 0;
        for (int64_t c = c0; c < c1; c++)
            longest = std::max(longest, steps(c % nq));
        for (int64_t r = 0; r < longest; r++)
            for (int64_t c = c0; c < c1; c++) {
                int64_t t = c % nq, b = (c / nq) % B, h = c / nq / B, n = steps(t);
                int64_t kvh = decode ? h : h / G;
                if (r == 0) {
                    std::vector<int64_t> q;
                    qo(QKV, c, q);
                    tr.push(q, false);
                }
                if (r < n) {
                    int64_t blk = n - 1 - r, row = (b * 2 + kvh) * L + blk * 8;
                    std::vector<int64_t> kk, vv;
                    tr.rect(kk, K, row, std::min(row + 8, (b * 2 + kvh + 1) * L), 0, d);
                    tr.rect(vv, V, row, std::min(row + 8, (b * 2 + kvh + 1) * L), 0, d);
                    tr.push(kk, false);
                    tr.push(vv, false);
                }
                if (r == n - 1) {
                    std::vector<int64_t> o;
                    qo(O, c, o);
                    tr.push(o, true);
                }
            }
    }
}

// The whole step: `layers` layers, then the LM head.
Trace step_trace(const pascal_step &s, int64_t M)
{
    Trace tr;
    int64_t T = pascal_step_tokens(&s), I = s.intermediate;
    Mat X = tr.mat(T, 64);
    for (int64_t l = 0; l < s.layers; l++) {
        Mat Wqkv = tr.mat(64, 128), QKV = tr.mat(T, 128), O = tr.mat(T, 64), Wo = tr.mat(64, 64);
        Mat H = tr.mat(T, 64), Wgu = tr.mat(64, 2 * I), GU = tr.mat(T, 2 * I), Wd = tr.mat(I, 64);
        Mat X2 = tr.mat(T, 64);
        gemm(tr, X, T, 128, 64, Wqkv, QKV, M, 0);
        attention(tr, s, QKV, O, M);
        gemm(tr, O, T, 64, 64, Wo, H, M, 0);
        gemm(tr, H, T, 2 * I, 64, Wgu, GU, M, 0);
        gemm(tr, GU, T, 64, I, Wd, X2, M, 0);   // the gate half: columns 0 .. I - 1
        X = X2;
    }
    Mat Wv = tr.mat(64, 64), logits = tr.mat(s.batch, 64);
    gemm(tr, X, s.batch, 64, 64, Wv, logits, M, s.phase == PASCAL_PHASE_PREFILL ? s.context : 0);
    return tr;
}

// Bytes filled by an LRU of `cap` sectors: reads that miss; writes take a
// line without a fill.
double lru_fills(const Trace &tr, int64_t cap)
{
    std::list<int64_t> order;
    std::unordered_map<int64_t, std::list<int64_t>::iterator> where;
    double fills = 0;
    for (const Access &a : tr.acc)
        for (int64_t sec : a.sectors) {
            auto it = where.find(sec);
            if (it != where.end()) {
                order.erase(it->second);
            } else {
                if (!a.write)
                    fills += kSector;
                if (cap == 0)
                    continue;
                if ((int64_t)order.size() == cap) {
                    where.erase(order.back());
                    order.pop_back();
                }
            }
            order.push_front(sec);
            where[sec] = order.begin();
        }
    return fills;
}

TEST(ModelChain, TheStepIsOneProgramThroughOneLru)
{
    struct Case {
        int phase;
        int64_t layers, batch, context, M;
    } cases[] = {{PASCAL_PHASE_DECODE, 1, 4, 16, 2},  {PASCAL_PHASE_DECODE, 2, 4, 16, 3},
                 {PASCAL_PHASE_DECODE, 3, 3, 24, 2},  {PASCAL_PHASE_PREFILL, 1, 1, 32, 2},
                 {PASCAL_PHASE_PREFILL, 2, 2, 32, 3}, {PASCAL_PHASE_PREFILL, 3, 1, 48, 4}};
    for (const Case &c : cases) {
        pascal_step s = toy(c.phase, c.layers, c.batch, c.context);
        pascal_chain *ch = nullptr;
        ASSERT_EQ(pascal_chain_run(&s, c.M, kSector, &ch), PASCAL_CHAIN_OK);
        Trace tr = step_trace(s, c.M);
        int64_t total = 0;
        for (const Access &a : tr.acc)
            total += (int64_t)a.sectors.size();
        double D = pascal_chain_layer_bytes(ch);
        int checked = 0;
        for (int64_t cap = 0; cap <= total + 8; cap += cap < 64 ? 1 : cap < 512 ? 7 : 61) {
            double C = (double)(cap * kSector), got = pascal_chain_fills(ch, C);
            if (c.layers > 2 && C > D) {
                EXPECT_TRUE(std::isnan(got)) << "past a layer's bytes, L = " << c.layers;
                continue;
            }
            EXPECT_EQ(got, lru_fills(tr, cap))
                << "phase " << c.phase << " layers " << c.layers << " capacity " << cap << " sectors";
            checked++;
        }
        EXPECT_GT(checked, 60);
        pascal_chain_free(ch);
    }
}

// The step's chained fills against its kernels' own sector-exact fills:
// never more, equal where no activation can stay (a cache smaller than any
// cell), and short by exactly the activation reads where everything stays.
TEST(ModelChain, ReuseIsWhatTheKernelsLeaveForTheNext)
{
    std::string yaml =
        "name: chain\nmodels: [traffic, lru_replay]\nmodel:\n"
        "  layers: 2\n  hidden: 64\n  q_heads: 4\n  kv_heads: 2\n  intermediate: 96\n  vocab: 64\n"
        "  dtype: bf16\n  phase: decode\n  batch: 4\n  seq_kv: 16\n  kernel: flash-attn-2\n"
        "  num_splits: 1\n  tile_q: 16\n  tile_kv: 8\n  tile_m: 16\n  tile_n: 16\n  tile_k: 16\n"
        "fixed:\n  M: 2\naxes:\n  capacity_bytes: [32, 2048, 8192, 1MiB]\n";
    pascal_spec *s = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), "chain.yaml", &s, &err), 0) << err.msg;
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(s));
    int cols[] = {PASCAL_COL_FILL_BYTES_EXACT, PASCAL_COL_FILL_BYTES_CHAINED, PASCAL_COL_REUSE_BYTES,
                  PASCAL_COL_TRAFFIC_CHAINED, PASCAL_COL_IDEAL_BYTES_EXACT};
    std::vector<std::vector<double>> rows;
    for (uint64_t i = 0; i < pascal_spec_size(s); i++) {
        pascal_point p;
        double v[5];
        ASSERT_EQ(pascal_spec_point(s, i, &p, &err), 1) << err.msg;
        ASSERT_EQ(pascal_eval_point(ev, &p, cols, 5, v), 0);
        rows.emplace_back(v, v + 5);
    }
    pascal_eval_free(ev);
    pascal_spec_free(s);
    ASSERT_EQ(rows.size(), 4u);
    for (const auto &r : rows) {
        EXPECT_LE(r[1], r[0]);
        EXPECT_EQ(r[2], r[0] - r[1]);
        EXPECT_DOUBLE_EQ(r[3], r[1] / r[4]);
    }
    EXPECT_EQ(rows[0][1], rows[0][0]);   // one sector: no activation stays between kernels
    EXPECT_LT(rows[2][1], rows[2][0]);   // 8 KiB: some do
    // 1 MiB holds the step: the kernels' own fills (153600, model_step_test.cc)
    // less every activation read that an earlier kernel wrote: per layer
    // Q 512, O 512, H 512 and the gate half 768 bytes, layer 2's X 512, the
    // LM head's X 512 (layer 1 reads X cold).
    EXPECT_EQ(rows[3][0], 153600);
    EXPECT_EQ(rows[3][1], 153600 - (512 + 512 + 512 + 768) - (512 + 512 + 512 + 512 + 768) - 512);
}

} // namespace
