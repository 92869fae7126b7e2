// Tests for workload points (engine/eval_workload.c) against a brute-force
// replay of the whole kernel's request trace, built here from the
// definitions: wave w runs CTAs w M .. w M + M - 1 on slots q = 0..M-1 for N
// rounds; in round t slot q's CTA reads block (t + s_q) mod N of each of its
// streams (attention: its KV head's K, then V; GEMM: its A units, then its
// B units), slots in order.  The trace goes through a fully associative LRU
// written here.  Where every wave reads the same streams the per-wave model
// is exact; elsewhere it is an estimate whose error the test bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <iterator>
#include <list>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <cstring>
#include <vector>

#include "engine/eval.h"
#include "model/phases.h"
#include "model/workload.h"
#include "sweeps/spec.h"
#include "sweeps/workload.h"

namespace {

// Fully associative LRU of C blocks from empty: misses.
int64_t lru_misses(const std::vector<int64_t> &trace, int64_t C)
{
    std::list<int64_t> order;   // front: most recent
    std::unordered_map<int64_t, std::list<int64_t>::iterator> where;
    int64_t misses = 0;
    for (int64_t b : trace) {
        auto it = where.find(b);
        if (it != where.end()) {
            order.erase(it->second);
        } else {
            misses++;
            if ((int64_t)order.size() == C) {
                where.erase(order.back());
                order.pop_back();
            }
        }
        order.push_front(b);
        where[b] = order.begin();
    }
    return misses;
}

struct Attn {
    int64_t B, Hq, Hkv, Lq, Lkv, Tq, Tk;
};

// The kernel trace of an attention workload on M slots with phases s.
std::vector<int64_t> attention_trace(const Attn &a, int64_t M, const std::vector<int64_t> &s)
{
    int64_t nq = (a.Lq + a.Tq - 1) / a.Tq, N = (a.Lkv + a.Tk - 1) / a.Tk;
    int64_t ctas = a.B * a.Hq * nq, G = a.Hq / a.Hkv;
    std::vector<int64_t> t;
    for (int64_t c0 = 0; c0 < ctas; c0 += M)
        for (int64_t r = 0; r < N; r++)
            for (int64_t c = c0; c < std::min(c0 + M, ctas); c++) {
                int64_t bh = c / nq, b = bh / a.Hq, h = bh % a.Hq;
                int64_t kv = b * a.Hkv + h / G, blk = (r + s[(size_t)(c - c0)]) % N;
                t.push_back((2 * kv) * N + blk);       // K
                t.push_back((2 * kv + 1) * N + blk);   // V
            }
    return t;
}

struct Gemm {
    int64_t m, n, k, tm, tn, tk, raster, swz, split;
};

int64_t gcd64(int64_t a, int64_t b) { return b ? gcd64(b, a % b) : a; }

// The kernel trace of a GEMM: tiles by raster (row; column; Triton's
// grouped order), split z outermost, units of gcd(tm, tn).
std::vector<int64_t> gemm_trace(const Gemm &g, int64_t M, const std::vector<int64_t> &s)
{
    int64_t mt = (g.m + g.tm - 1) / g.tm, nt = (g.n + g.tn - 1) / g.tn;
    int64_t N = (g.k + g.tk - 1) / g.tk / g.split, u = gcd64(g.tm, g.tn);
    int64_t ua = g.tm / u, ub = g.tn / u, ctas = mt * nt * g.split, bbase = g.split * mt * ua;
    std::vector<int64_t> t;
    for (int64_t c0 = 0; c0 < ctas; c0 += M)
        for (int64_t r = 0; r < N; r++)
            for (int64_t c = c0; c < std::min(c0 + M, ctas); c++) {
                int64_t z = c / (mt * nt), x = c % (mt * nt), i, j;
                if (g.raster == 0) {
                    i = x / nt, j = x % nt;
                } else if (g.raster == 1) {
                    i = x % mt, j = x / mt;
                } else {
                    int64_t per = g.swz * nt, first = x / per * g.swz;
                    int64_t size = std::min(mt - first, g.swz);
                    i = first + (x % per) % size, j = (x % per) / size;
                }
                int64_t blk = (r + s[(size_t)(c - c0)]) % N;
                for (int64_t a = 0; a < ua; a++)
                    t.push_back(((z * mt + i) * ua + a) * N + blk);
                for (int64_t b = 0; b < ub; b++)
                    t.push_back((bbase + (z * nt + j) * ub + b) * N + blk);
            }
    return t;
}

struct Eval {
    pascal_spec *spec = nullptr;
    pascal_eval *ev = nullptr;
    ~Eval()
    {
        pascal_eval_free(ev);
        pascal_spec_free(spec);
    }
};

// One point's answers, in blocks (fills) and as ratios.
struct Row {
    int64_t C;
    double lru, ttl, bound, replay, ideal;   // fills in blocks
    double traffic_lru, traffic_replay;
};

const int kCols[] = {PASCAL_COL_FILL_BYTES_LRU, PASCAL_COL_FILL_BYTES_TTL,
                     PASCAL_COL_FILL_BYTES_BOUND, PASCAL_COL_FILL_BYTES_REPLAY,
                     PASCAL_COL_IDEAL_BYTES, PASCAL_COL_TRAFFIC_LRU, PASCAL_COL_TRAFFIC_REPLAY};

std::vector<Row> model_rows(const std::string &text)
{
    Eval e;
    pascal_error err = {};
    std::vector<Row> out;
    EXPECT_EQ(pascal_spec_parse(text.data(), text.size(), nullptr, &e.spec, &err), 0) << err.msg;
    if (!e.spec)
        return out;
    e.ev = pascal_eval_create(pascal_spec_models(e.spec));
    for (uint64_t i = 0; i < pascal_spec_size(e.spec); i++) {
        pascal_point p;
        double v[7];
        EXPECT_EQ(pascal_spec_point(e.spec, i, &p, &err), 1) << err.msg;
        EXPECT_EQ(pascal_eval_point(e.ev, &p, kCols, 7, v), 0);
        double b = p.v[PASCAL_P_BLOCK_BYTES];
        out.push_back({(int64_t)p.v[PASCAL_P_C], v[0] / b, v[1] / b, v[2] / b, v[3] / b, v[4] / b,
                       v[5], v[6]});
    }
    return out;
}

std::string attention_spec(const Attn &a, int64_t M, const std::string &phases, int64_t maxC)
{
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "name: t\nmodels: [traffic, lru_replay]\n"
                  "workload:\n  attention: {batch: %lld, q_heads: %lld, kv_heads: %lld, seq_q: %lld, "
                  "seq_kv: %lld, head_dim: 4, dtype: bf16, tile_q: %lld, tile_kv: %lld}\n"
                  "fixed: {M: %lld%s}\naxes:\n  C: {from: 1, to: %lld, step: 1}\n",
                  (long long)a.B, (long long)a.Hq, (long long)a.Hkv, (long long)a.Lq,
                  (long long)a.Lkv, (long long)a.Tq, (long long)a.Tk, (long long)M,
                  phases.c_str(), (long long)maxC);
    return buf;
}

std::string explicit_phases(const std::vector<int64_t> &s)
{
    std::string t = ", pattern: explicit, phases: [";
    for (size_t i = 0; i < s.size(); i++)
        t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
}

std::string gemm_spec(const Gemm &g, int64_t M, const std::string &phases, int64_t maxC)
{
    static const char *rasters[] = {"row", "column", "swizzle"};
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "name: t\nmodels: [traffic, lru_replay]\n"
                  "workload:\n  gemm: {gemm_m: %lld, gemm_n: %lld, gemm_k: %lld, dtype: fp8, "
                  "tile_m: %lld, tile_n: %lld, tile_k: %lld, raster: %s, swizzle: %lld, "
                  "split_k: %lld}\n"
                  "fixed: {M: %lld%s}\naxes:\n  C: {from: 1, to: %lld, step: 1}\n",
                  (long long)g.m, (long long)g.n, (long long)g.k, (long long)g.tm, (long long)g.tn,
                  (long long)g.tk, rasters[g.raster], (long long)g.swz, (long long)g.split,
                  (long long)M, phases.c_str(), (long long)maxC);
    return buf;
}

std::vector<int64_t> some_phases(int64_t M, int64_t N, uint64_t seed)
{
    std::vector<int64_t> s;
    for (int64_t q = 0; q < M; q++)
        s.push_back((int64_t)((seed * 2654435761u + (uint64_t)q * 40503u) % (uint64_t)N));
    return s;
}

// The lru_replay columns replay exactly the kernel trace defined above:
// attention with stream transitions, GEMM in every raster order with
// unequal tiles and split-K, aligned and spread phases.
TEST(EngineWorkload, KernelReplayMatchesBruteForce)
{
    for (int64_t M : {1, 4, 7}) {
        Attn a{2, 4, 2, 40, 100, 16, 16};
        int64_t N = 7;
        for (auto s : {std::vector<int64_t>((size_t)M, 0), some_phases(M, N, 3)}) {
            auto trace = attention_trace(a, M, s);
            for (const Row &r : model_rows(attention_spec(a, M, explicit_phases(s), 8 * N + 2)))
                ASSERT_EQ(r.replay, (double)lru_misses(trace, r.C)) << "M " << M << " C " << r.C;
        }
        for (int64_t raster : {0, 1, 2}) {
            Gemm g{300, 500, 256, 64, 128, 32, raster, 2, 2};   // 5 x 4 tiles, 4 blocks per slice
            for (auto s : {std::vector<int64_t>((size_t)M, 0), some_phases(M, 4, 5)}) {
                auto trace = gemm_trace(g, M, s);
                for (const Row &r : model_rows(gemm_spec(g, M, explicit_phases(s), 90)))
                    ASSERT_EQ(r.replay, (double)lru_misses(trace, r.C))
                        << "raster " << raster << " M " << M << " C " << r.C;
            }
        }
    }
}

// MQA (one KV head per batch) with one batch: every wave reads the same two
// streams, so the waves continue one ring scan and, with aligned phases,
// the per-wave model with its compulsory floor is the kernel's exact LRU
// count at every capacity.
TEST(EngineWorkload, SameStreamsAlignedIsExact)
{
    for (Attn a : {Attn{1, 4, 1, 5 * 16, 8 * 16, 16, 16}, Attn{1, 3, 1, 40, 100, 8, 16}}) {
        for (int64_t M : {1, 3, 6, 7, 64}) {
            int64_t N = (a.Lkv + a.Tk - 1) / a.Tk;
            std::vector<int64_t> s((size_t)M, 0);
            auto trace = attention_trace(a, M, s);
            for (const Row &r : model_rows(attention_spec(a, M, "", 2 * N + 2))) {
                EXPECT_EQ(r.lru, (double)lru_misses(trace, r.C)) << "M " << M << " C " << r.C;
                EXPECT_EQ(r.lru, r.replay);
            }
        }
    }
}

// Everywhere: every block is fetched at least once (fills >= ideal); more
// cache never costs fills; the floor is below LRU (not below TTL:
// the window cache holds the current round beyond C, so it is no capacity-C
// demand-paging policy).  And on
// a shape with many CTAs per KV head (256, 24 slots: about 11 waves per
// head, one wave in 11 a transition) the estimate stays within the error
// docs/workloads.md reports against the kernel replay.
TEST(EngineWorkload, EstimateBoundsAndError)
{
    Attn a{1, 16, 2, 512, 512, 16, 16};
    int64_t M = 24, N = 32;
    std::vector<int64_t> al((size_t)M, 0), sp;
    for (int64_t q = 0; q < M; q++)
        sp.push_back((q * 7) % 5);
    for (auto s : {al, sp}) {
        std::vector<Row> rows = model_rows(attention_spec(a, M, explicit_phases(s), 4 * N + 8));
        double worst = 0;
        for (size_t i = 0; i < rows.size(); i++) {
            const Row &r = rows[i];
            EXPECT_GE(r.lru, r.ideal);
            EXPECT_GE(r.ttl, r.ideal);
            EXPECT_LE(r.bound, r.lru + 1e-9);
            EXPECT_DOUBLE_EQ(r.traffic_lru, r.lru / r.ideal);
            if (i > 0) {
                EXPECT_LE(r.lru, rows[i - 1].lru);
                EXPECT_LE(r.replay, rows[i - 1].replay);
            }
            worst = std::max(worst, std::fabs(r.lru - r.replay) / r.replay);
        }
        EXPECT_LE(worst, 0.5 + 1e-12);
        std::printf("estimate vs kernel replay: worst relative error %.3f\n", worst);
    }
}

// GEMM by rows: a wave holds part of a tile row, so each B panel skips
// waves and comes back with the next tile row.  A panel back with fewer
// blocks read since it left than the cache holds is not cold again; with
// the whole problem cached the estimate is the ideal traffic.
TEST(EngineWorkload, ReturningPanelsStayWarm)
{
    Gemm g{512, 768, 512, 128, 128, 64, 0, 8, 1};   // 4 x 6 tiles, 8 blocks per panel
    int64_t M = 4, N = 8, streams = 4 + 6;
    std::vector<int64_t> s((size_t)M, 0);
    auto trace = gemm_trace(g, M, s);
    double worst = 0;
    for (const Row &r : model_rows(gemm_spec(g, M, explicit_phases(s), streams * N + 4))) {
        double rep = (double)lru_misses(trace, r.C);
        EXPECT_EQ(r.replay, rep);
        worst = std::max(worst, std::fabs(r.lru - rep) / rep);
        if (r.C >= streams * N)
            EXPECT_EQ(r.lru, r.ideal) << "C " << r.C;
    }
    EXPECT_LE(worst, 0.25);
    std::printf("GEMM rows: estimate vs kernel replay, worst relative error %.3f\n", worst);
}

} // namespace

namespace {

// Belady's MIN from an empty cache of C blocks, written here: on a miss
// with a full cache, evict the block whose next request is furthest away.
int64_t belady_misses(const std::vector<int64_t> &trace, int64_t C)
{
    size_t n = trace.size();
    std::vector<size_t> next(n);
    std::unordered_map<int64_t, size_t> seen;
    for (size_t i = n; i-- > 0;) {
        auto it = seen.find(trace[i]);
        next[i] = it == seen.end() ? SIZE_MAX : it->second;
        seen[trace[i]] = i;
    }
    std::map<int64_t, size_t> cache;          // block -> its next request
    std::multimap<size_t, int64_t> by_next;   // next request -> block
    int64_t misses = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t b = trace[i];
        auto it = cache.find(b);
        if (it != cache.end()) {
            auto range = by_next.equal_range(it->second);
            for (auto j = range.first; j != range.second; ++j)
                if (j->second == b) {
                    by_next.erase(j);
                    break;
                }
        } else {
            misses++;
            if ((int64_t)cache.size() == C) {
                auto far = std::prev(by_next.end());
                cache.erase(far->second);
                by_next.erase(far);
            }
        }
        cache[b] = next[i];
        by_next.emplace(next[i], b);
    }
    return misses;
}

// The kernel's lock-step trace from the library's CTA streams: wave w runs
// CTAs w M + q on slots q, round t reads block (t + s_q) mod N of each of
// the CTA's streams.
std::vector<int64_t> library_trace(const pascal_point &p, const std::vector<int64_t> &s)
{
    pascal_workload w;
    std::vector<int64_t> t;
    if (pascal_workload_of_point(p.v, &w) != 0)
        return t;
    int64_t M = (int64_t)p.v[PASCAL_P_M], N = w.blocks;
    std::vector<int64_t> st((size_t)w.units);
    for (int64_t c0 = 0; c0 < w.ctas; c0 += M)
        for (int64_t r = 0; r < N; r++)
            for (int64_t c = c0; c < std::min(c0 + M, w.ctas); c++) {
                pascal_workload_cta(&w, c, st.data());
                for (int64_t u : st)
                    t.push_back(u * N + (r + s[(size_t)(c - c0)]) % N);
            }
    return t;
}

// fill_bytes_bound is a floor for every demand-paging policy: at every
// capacity it is at most Belady's MIN on the kernel's whole trace, on every
// kernel pascal names, in tiny shapes, aligned and spread.  The trace is
// the kernel's: its LRU count is fill_bytes_replay.  The smallest case the
// old per-wave floor broke: gemm 2 x 3 x 2, tiles of one element, column
// raster, one slot, 7 blocks (floor 14 against Belady 10).
TEST(EngineWorkload, TheFloorHoldsAgainstBeladyOnEverySmallKernel)
{
    struct Case {
        std::string workload;
        int64_t M;
    };
    const std::vector<Case> cases = {
        {"gemm: {gemm_m: 2, gemm_n: 3, gemm_k: 2, dtype: int8, tile_m: 1, tile_n: 1, tile_k: 1, "
         "raster: column}", 1},
        {"gemm: {gemm_m: 4, gemm_n: 5, gemm_k: 3, dtype: int8, tile_m: 1, tile_n: 1, tile_k: 1, "
         "raster: row}", 3},
        {"gemm: {gemm_m: 6, gemm_n: 4, gemm_k: 4, dtype: int8, tile_m: 2, tile_n: 1, tile_k: 1, "
         "raster: swizzle, swizzle: 2}", 2},
        {"gemm: {gemm_m: 5, gemm_n: 6, gemm_k: 4, dtype: int8, tile_m: 1, tile_n: 1, tile_k: 2, "
         "split_k: 2, raster: column}", 4},
        {"gemm: {gemm_m: 6, gemm_n: 5, gemm_k: 3, dtype: int8, tile_m: 1, tile_n: 1, tile_k: 1, "
         "kernel: cutlass, swizzle: 2}", 3},
        {"gemm: {gemm_m: 7, gemm_n: 3, gemm_k: 2, dtype: int8, tile_m: 1, tile_n: 1, tile_k: 1, "
         "kernel: cutlass, swizzle: 1}", 2},
        {"attention: {batch: 2, q_heads: 4, kv_heads: 2, seq_q: 3, seq_kv: 5, head_dim: 1, "
         "dtype: int8, tile_q: 1, tile_kv: 1}", 3},
        {"attention: {batch: 2, q_heads: 4, kv_heads: 2, seq_q: 2, seq_kv: 4, head_dim: 1, "
         "dtype: int8, tile_q: 1, tile_kv: 1, kernel: flash-attn-2, num_splits: 1}", 3},
        {"attention: {batch: 3, q_heads: 4, kv_heads: 1, seq_q: 1, seq_kv: 6, head_dim: 1, "
         "dtype: int8, tile_q: 1, tile_kv: 1, kernel: flash-attn-2, num_splits: 1}", 2},
        {"attention: {batch: 1, q_heads: 6, kv_heads: 3, seq_q: 4, seq_kv: 3, head_dim: 1, "
         "dtype: int8, tile_q: 2, tile_kv: 1}", 5},
    };
    // And random tiny shapes of every kernel (a fixed seed).
    uint64_t x = 12345;
    auto draw = [&x](int64_t lo, int64_t hi) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (int64_t)((x >> 33) % (uint64_t)(hi - lo + 1));
    };
    std::vector<Case> all = cases;
    static const char *rasters[] = {"row", "column", "swizzle"};
    for (int i = 0; i < 60; i++) {
        char buf[512];
        if (i % 2) {
            int64_t kv = draw(1, 2);
            std::snprintf(buf, sizeof buf,
                          "attention: {batch: %lld, q_heads: %lld, kv_heads: %lld, seq_q: %lld, "
                          "seq_kv: %lld, head_dim: 1, dtype: int8, tile_q: %lld, tile_kv: 1, "
                          "kernel: %s}",
                          (long long)draw(1, 2), (long long)(kv * draw(1, 3)), (long long)kv,
                          (long long)draw(1, 4), (long long)draw(1, 5), (long long)draw(1, 2),
                          i % 4 == 1 ? "model" : "flash-attn-2, num_splits: 1");
        } else if (i % 4 == 0) {
            std::snprintf(buf, sizeof buf,
                          "gemm: {gemm_m: %lld, gemm_n: %lld, gemm_k: %lld, dtype: int8, tile_m: 1, "
                          "tile_n: 1, tile_k: 1, raster: %s, swizzle: %lld}",
                          (long long)draw(1, 5), (long long)draw(1, 5), (long long)draw(1, 4),
                          rasters[draw(0, 2)], (long long)draw(1, 3));
        } else {
            std::snprintf(buf, sizeof buf,
                          "gemm: {gemm_m: %lld, gemm_n: %lld, gemm_k: %lld, dtype: int8, tile_m: 1, "
                          "tile_n: 1, tile_k: 1, kernel: cutlass, swizzle: %lld}",
                          (long long)draw(1, 6), (long long)draw(1, 5), (long long)draw(1, 4),
                          (long long)(1 << draw(0, 2)));
        }
        all.push_back({buf, draw(1, 5)});
    }
    int64_t checked = 0, below = 0;
    for (const Case &k : all) {
        for (int spread = 0; spread < 2; spread++) {
            pascal_error err = {};
            Eval e;
            std::string text = "name: t\nmodels: [traffic, lru_replay]\nworkload:\n  " +
                               k.workload + "\nfixed: {M: " + std::to_string(k.M);
            // Phases need the ring length; a first parse finds it.
            pascal_spec *probe = nullptr;
            std::string one = text + "}\naxes:\n  C: [1]\n";
            ASSERT_EQ(pascal_spec_parse(one.data(), one.size(), nullptr, &probe, &err), 0)
                << err.msg;
            pascal_point p0;
            ASSERT_EQ(pascal_spec_point(probe, 0, &p0, &err), 1) << err.msg;
            pascal_workload w;
            ASSERT_EQ(pascal_workload_of_point(p0.v, &w), 0) << k.workload;
            pascal_spec_free(probe);
            std::vector<int64_t> s = spread ? some_phases(k.M, w.blocks, 7)
                                            : std::vector<int64_t>((size_t)k.M, 0);
            int64_t top = w.streams * w.blocks + 2;
            text += explicit_phases(s) + "}\naxes:\n  C: {from: 1, to: " + std::to_string(top) +
                    ", step: 1}\n";
            ASSERT_EQ(pascal_spec_parse(text.data(), text.size(), nullptr, &e.spec, &err), 0)
                << err.msg;
            e.ev = pascal_eval_create(pascal_spec_models(e.spec));
            std::vector<int64_t> trace;
            for (uint64_t i = 0; i < pascal_spec_size(e.spec); i++) {
                pascal_point p;
                double v[7];
                ASSERT_EQ(pascal_spec_point(e.spec, i, &p, &err), 1) << err.msg;
                ASSERT_EQ(pascal_eval_point(e.ev, &p, kCols, 7, v), 0);
                if (trace.empty())
                    trace = library_trace(p, s);
                ASSERT_FALSE(trace.empty());
                int64_t C = (int64_t)p.v[PASCAL_P_C];
                double bb = p.v[PASCAL_P_BLOCK_BYTES];
                double bound = v[2] / bb, replay = v[3] / bb;
                double opt = (double)belady_misses(trace, C);
                ASSERT_EQ(replay, (double)lru_misses(trace, C)) << k.workload << " C " << C;
                ASSERT_LE(bound, opt) << k.workload << " spread " << spread << " C " << C;
                ASSERT_LE(opt, replay);
                checked++;
                below += bound < opt;
            }
        }
    }
    std::printf("floor <= Belady on %lld (kernel, phases, capacity) cases, strictly below on %lld\n",
                (long long)checked, (long long)below);
}

} // namespace

namespace {

// A causal kernel's trace, from the launch code: FlashAttention-2's
// grid(n_q, B, H) (blockIdx.x the query tile), each CTA's n_block_max =
// min(ceil(L_kv / T_kv), ceil(((t + 1) T_q + L_kv - L_q) / T_kv)) KV tiles
// read from n_block_max - 1 down to 0 (compute_attn_1rowblock), K then V;
// pascal's model kernel: query tile fastest, then head, then batch, KV
// tiles forward.  Lock-step waves of M CTAs: round r of a wave serves, CTA
// by CTA, step r of each CTA that has one.
std::vector<int64_t> causal_trace(const Attn &a, int64_t M, bool flash)
{
    int64_t nq = (a.Lq + a.Tq - 1) / a.Tq, N = (a.Lkv + a.Tk - 1) / a.Tk;
    int64_t ctas = a.B * a.Hq * nq, G = a.Hq / a.Hkv;
    auto steps = [&](int64_t t) {
        int64_t keys = (t + 1) * a.Tq + a.Lkv - a.Lq;
        int64_t n = keys <= 0 ? 0 : (keys + a.Tk - 1) / a.Tk;
        return std::min(n, N);
    };
    std::vector<int64_t> out;
    for (int64_t c0 = 0; c0 < ctas; c0 += M) {
        int64_t c1 = std::min(c0 + M, ctas), longest = 0;
        for (int64_t c = c0; c < c1; c++)
            longest = std::max(longest, steps(c % nq));
        for (int64_t r = 0; r < longest; r++)
            for (int64_t c = c0; c < c1; c++) {
                int64_t t = c % nq, n = steps(t), b, h;
                if (r >= n)
                    continue;
                if (flash)
                    b = (c / nq) % a.B, h = c / (nq * a.B);
                else
                    h = (c / nq) % a.Hq, b = c / (nq * a.Hq);
                int64_t kv = b * a.Hkv + h / G, blk = flash ? n - 1 - r : r;
                out.push_back((2 * kv) * N + blk);
                out.push_back((2 * kv + 1) * N + blk);
            }
    }
    return out;
}

// Causal attention runs through the exact replay: fill_bytes_replay is the
// LRU count of the trace above at every capacity, for both kernels, square
// and rectangular (a chunk at the end of a longer context) shapes, tiles
// that do not divide the lengths; the ring closed forms say nothing (NaN).
TEST(EngineWorkload, CausalReplayMatchesTheLaunchCode)
{
    const Attn shapes[] = {{2, 4, 2, 40, 40, 8, 8}, {1, 4, 1, 24, 60, 8, 16},
                           {2, 2, 2, 30, 50, 16, 8}, {1, 6, 3, 7, 19, 4, 4}};
    int64_t checked = 0;
    for (const Attn &a : shapes)
        for (bool flash : {false, true})
            for (int64_t M : {1, 3, 8}) {
                auto trace = causal_trace(a, M, flash);
                int64_t N = (a.Lkv + a.Tk - 1) / a.Tk;
                std::string text = attention_spec(a, M, "", 2 * a.B * a.Hkv * N + 2);
                std::string field = "tile_kv: " + std::to_string(a.Tk) + "}";
                text.replace(text.find(field), field.size(),
                             "tile_kv: " + std::to_string(a.Tk) + ", causal: true, kernel: " +
                                 (flash ? "flash-attn-2, num_splits: 1" : "model") + "}");
                for (const Row &r : model_rows(text)) {
                    ASSERT_EQ(r.replay, (double)lru_misses(trace, r.C))
                        << (flash ? "flash " : "model ") << a.Lq << "x" << a.Lkv << " M " << M
                        << " C " << r.C;
                    EXPECT_TRUE(std::isnan(r.lru));
                    EXPECT_LE(r.bound, (double)belady_misses(trace, r.C));   // the gap floor
                    checked++;
                }
            }
    EXPECT_GT(checked, 0);
}


// The split-KV kernel's trace as its launch code has it (model test
// Flash2SplitKvGridCtaByCta gives the sources): grid(n_m, splits, B H)
// in linear order, lock-step waves of M, round r serving step r of each
// CTA that has one, K then V of block hi - 1 - r.  head_dim 4: kBlockN 256.
std::vector<int64_t> split_trace(const Attn &a, int64_t M, int64_t splits, int causal)
{
    const int64_t bn = 256;
    int64_t H = a.Hq, lq = a.Lq, G = H / a.Hkv;   // head_dim 4 is no multiple of 8: no fold
    int64_t nkv = (a.Lkv + bn - 1) / bn, per = (nkv + splits - 1) / splits, gx = (lq + 63) / 64;
    int64_t ctas = gx * splits * a.B * H;
    auto range = [&](int64_t c, int64_t *lo, int64_t *hi) {
        int64_t x = c % gx, y = (c / gx) % splits;
        *lo = y * per;
        *hi = std::min(nkv, (y + 1) * per);
        if (causal) {
            int64_t keys = (x + 1) * 64 + a.Lkv - lq;
            *hi = std::min(*hi, keys <= 0 ? 0 : (keys + bn - 1) / bn);
        }
        *hi = std::max(*hi, *lo);
    };
    std::vector<int64_t> out;
    for (int64_t c0 = 0; c0 < ctas; c0 += M) {
        int64_t c1 = std::min(c0 + M, ctas), longest = 0, lo, hi;
        for (int64_t c = c0; c < c1; c++) {
            range(c, &lo, &hi);
            longest = std::max(longest, hi - lo);
        }
        for (int64_t r = 0; r < longest; r++)
            for (int64_t c = c0; c < c1; c++) {
                range(c, &lo, &hi);
                if (r >= hi - lo)
                    continue;
                int64_t z = c / (gx * splits), b = z / H, h = z % H, kv = b * a.Hkv + h / G;
                out.push_back((2 * kv) * nkv + hi - 1 - r);
                out.push_back((2 * kv + 1) * nkv + hi - 1 - r);
            }
    }
    return out;
}

// FlashAttention-2's split-KV kernel runs through the exact replay:
// fill_bytes_replay is the LRU count of the trace above at every capacity
// (decode and causal chunks, splits that divide the blocks and splits that
// do not, several slot counts); the ring closed forms say nothing (NaN).
// A phase pattern other than aligned has no ring to rotate: NaN too.
TEST(EngineWorkload, SplitKvReplayMatchesTheLaunchCode)
{
    struct Case {
        Attn a;
        int64_t splits;
        int causal;
    } cases[] = {{{2, 4, 2, 1, 2000, 16, 16}, 3, 0},
                 {{1, 6, 3, 1, 1500, 16, 16}, 4, 0},
                 {{1, 2, 1, 130, 900, 16, 16}, 2, 1},
                 {{2, 2, 2, 70, 1100, 16, 16}, 5, 1}};
    int64_t checked = 0;
    for (const Case &k : cases)
        for (int64_t M : {1, 4, 9}) {
            auto trace = split_trace(k.a, M, k.splits, k.causal);
            int64_t nkv = (k.a.Lkv + 255) / 256;
            std::string text = attention_spec(k.a, M, "", 2 * k.a.B * k.a.Hkv * nkv + 2);
            std::string field = "tile_kv: " + std::to_string(k.a.Tk) + "}";
            text.replace(text.find(field), field.size(),
                         "tile_kv: " + std::to_string(k.a.Tk) + ", kernel: flash-attn-2, " +
                             "num_splits: " + std::to_string(k.splits) +
                             (k.causal ? ", causal: true}" : "}"));
            for (const Row &r : model_rows(text)) {
                ASSERT_EQ(r.replay, (double)lru_misses(trace, r.C))
                    << k.a.Lq << "x" << k.a.Lkv << " splits " << k.splits << " M " << M
                    << " C " << r.C;
                EXPECT_EQ(r.ideal, (double)(2 * k.a.B * k.a.Hkv * nkv));
                EXPECT_TRUE(std::isnan(r.lru));
                EXPECT_LE(r.bound, (double)belady_misses(trace, r.C));   // the gap floor
                checked++;
            }
        }
    EXPECT_GT(checked, 0);
    // a gaussian pattern on a split point: no ring to rotate, the replay is NaN
    std::string text = attention_spec(cases[0].a, 4, ", pattern: gaussian, sigma: 2", 4);
    std::string field = "tile_kv: 16}";
    text.replace(text.find(field), field.size(), "tile_kv: 16, kernel: flash-attn-2, num_splits: 3}");
    for (const Row &r : model_rows(text))
        EXPECT_TRUE(std::isnan(r.replay)) << "C " << r.C;
}

} // namespace

namespace {

// The any-order replay: each lock-step round's CTAs in the order that a
// Fisher-Yates shuffle draws from pascal_rng_u64(seed, mix(wave, round), q),
// a CTA's requests kept together.  Its fills are the LRU count of that
// trace, written here from the model kernel's definition (attention_trace
// above, regrouped by round), for seeds 1 and 7; one CTA per round has one
// order only, and 4 slots (waves straddling two KV heads) see the order.
TEST(EngineWorkloadAny, AnyOrderReplayIsTheShuffledTrace)
{
    Attn a{2, 4, 2, 40, 100, 16, 16};
    const int64_t N = 7, units = 2;
    for (int64_t M : {1, 3, 4}) {
        for (uint64_t seed : {1u, 7u}) {
            std::vector<int64_t> s((size_t)M, 0);
            auto in_order = attention_trace(a, M, s);
            // Regroup: wave w, round r holds the CTAs of the wave in slot order.
            std::vector<int64_t> shuffled;
            int64_t ctas = a.B * a.Hq * ((a.Lq + a.Tq - 1) / a.Tq);
            size_t at = 0;
            for (int64_t c0 = 0, wave = 0; c0 < ctas; c0 += M, wave++) {
                int64_t slots = std::min(M, ctas - c0);
                for (int64_t r = 0; r < N; r++) {
                    std::vector<int64_t> order((size_t)slots);
                    for (int64_t q = 0; q < slots; q++)
                        order[(size_t)q] = q;
                    uint64_t key = pascal_rng_mix((uint64_t)wave, (uint64_t)r);
                    for (int64_t q = slots - 1; q > 0; q--) {
                        int64_t j = (int64_t)(pascal_rng_u64(seed, key, (uint64_t)q) % (uint64_t)(q + 1));
                        std::swap(order[(size_t)q], order[(size_t)j]);
                    }
                    for (int64_t q = 0; q < slots; q++)
                        for (int64_t u = 0; u < units; u++)
                            shuffled.push_back(in_order[at + (size_t)(order[(size_t)q] * units + u)]);
                    at += (size_t)(slots * units);
                }
            }
            ASSERT_EQ(at, in_order.size());
            std::string text = attention_spec(a, M, ", seed: " + std::to_string(seed), 8 * N + 2);
            Eval e;
            pascal_error err = {};
            ASSERT_EQ(pascal_spec_parse(text.data(), text.size(), nullptr, &e.spec, &err), 0) << err.msg;
            e.ev = pascal_eval_create(pascal_spec_models(e.spec));
            const int cols[] = {PASCAL_COL_FILL_BYTES_REPLAY_ANY, PASCAL_COL_FILL_BYTES_REPLAY};
            int differs = 0;
            for (uint64_t i = 0; i < pascal_spec_size(e.spec); i++) {
                pascal_point p;
                double v[2];
                ASSERT_EQ(pascal_spec_point(e.spec, i, &p, &err), 1) << err.msg;
                ASSERT_EQ(pascal_eval_point(e.ev, &p, cols, 2, v), 0);
                int64_t C = (int64_t)p.v[PASCAL_P_C];
                double bb = p.v[PASCAL_P_BLOCK_BYTES];
                ASSERT_EQ(v[0] / bb, (double)lru_misses(shuffled, C)) << "M " << M << " C " << C;
                ASSERT_EQ(v[1] / bb, (double)lru_misses(in_order, C));
                differs += v[0] != v[1];
            }
            if (M == 1)
                EXPECT_EQ(differs, 0);
            if (M == 4)   // waves that straddle two KV heads: the order matters
                EXPECT_GT(differs, 0) << "M " << M << " seed " << seed;
        }
    }
}

} // namespace

namespace {

// One request of the sector-exact trace: a tile id, its bytes, a write?
struct XReq {
    int64_t id, bytes;
    bool write;
};

// Bytes of `rows` rows of `row_bytes` each, every row in whole 32-byte sectors.
int64_t sectors(int64_t rows, int64_t row_bytes)
{
    return rows <= 0 || row_bytes <= 0 ? 0 : rows * ((row_bytes + 31) / 32 * 32);
}

// An LRU cache of C bytes from empty, written plainly: a hit moves its tile
// to the front; a miss puts it there, then the least recent tiles leave
// until the rest fit.  A write occupies the cache as a read does but is no
// fill.  Returns the bytes filled by reads; *ideal the distinct ones.
int64_t byte_lru_fills(const std::vector<XReq> &trace, int64_t C, int64_t *ideal)
{
    std::list<std::pair<int64_t, int64_t>> order;   // (id, bytes), front: most recent
    std::unordered_map<int64_t, std::list<std::pair<int64_t, int64_t>>::iterator> where;
    std::unordered_map<int64_t, int> seen;
    int64_t held = 0, fills = 0;
    *ideal = 0;
    for (const XReq &r : trace) {
        if (r.bytes == 0)
            continue;
        auto it = where.find(r.id);
        if (it != where.end()) {
            held -= it->second->second;
            order.erase(it->second);
        } else if (!r.write) {
            fills += r.bytes;
        }
        if (!r.write && !seen[r.id]++)
            *ideal += r.bytes;
        order.push_front({r.id, r.bytes});
        where[r.id] = order.begin();
        held += r.bytes;
        while (held > C) {
            held -= order.back().second;
            where.erase(order.back().first);
            order.pop_back();
        }
    }
    return fills;
}

// The attention kernels' sector-exact traces on M lock-step slots, written
// from the launch code: kind 0 the model kernel (c = (b H + h) n_q + t, KV
// blocks forward), 1 FlashAttention-2's standard grid under a causal mask
// (c = (h B + b) n_q + t, its prefix from the last block down), 2 its
// split-KV grid (c = ((b H + h) S + s) n_m + t, 64-row query tiles and
// 256-row KV blocks at head_dim 4, each split's range from its last block
// down).  A CTA reads its Q tile before its first step (a split CTA with
// no range reads nothing) and writes its output after its last (a split
// CTA: fp32 partial rows of 32 columns and one fp32 LSE per row).
// head_dim 4 in bf16: 8-byte rows, one sector each.
std::vector<XReq> exact_attention_trace(const Attn &a, int64_t M, int kind, int64_t S)
{
    const int64_t row = 8;
    int64_t tq = kind == 2 ? 64 : a.Tq, tk = kind == 2 ? 256 : a.Tk;
    int64_t nq = (a.Lq + tq - 1) / tq, N = (a.Lkv + tk - 1) / tk, G = a.Hq / a.Hkv;
    int64_t splits = kind == 2 ? S : 1, per = (N + splits - 1) / splits;
    int64_t ctas = a.B * a.Hq * nq * splits, nt = 2 * a.B * a.Hkv * N, nqt = a.B * a.Hq * nq;
    struct Cta {
        int64_t b, h, t, lo, hi;
    };
    auto cta = [&](int64_t c) {
        Cta x{};
        x.t = c % nq;
        int64_t rest = c / nq, s = 0;
        if (kind == 2)
            s = rest % splits, rest /= splits, x.b = rest / a.Hq, x.h = rest % a.Hq;
        else if (kind == 1)
            x.b = rest % a.B, x.h = rest / a.B;
        else
            x.h = rest % a.Hq, x.b = rest / a.Hq;
        x.lo = s * per, x.hi = kind == 2 ? std::min(N, (s + 1) * per) : N;
        if (kind >= 1) {   // bottom-right causal cut
            int64_t keys = std::min((x.t + 1) * tq, kind == 2 ? (x.t + 1) * tq : a.Lq) + a.Lkv - a.Lq;
            x.hi = std::min(x.hi, keys <= 0 ? 0 : (keys + tk - 1) / tk);
        }
        x.hi = std::max(x.hi, x.lo);
        return x;
    };
    std::vector<XReq> out;
    for (int64_t c0 = 0; c0 < ctas; c0 += M) {
        int64_t c1 = std::min(c0 + M, ctas), longest = 0;
        for (int64_t c = c0; c < c1; c++)
            longest = std::max(longest, cta(c).hi - cta(c).lo);
        for (int64_t r = 0; r < std::max<int64_t>(longest, 1); r++)
            for (int64_t c = c0; c < c1; c++) {
                Cta x = cta(c);
                int64_t n = x.hi - x.lo, qrows = std::min(tq, a.Lq - x.t * tq);
                if (r == 0 && n > 0)
                    out.push_back({nt + (x.b * a.Hq + x.h) * nq + x.t, sectors(qrows, row), false});
                if (r < n) {
                    int64_t blk = kind == 0 ? r : x.hi - 1 - r, kv = x.b * a.Hkv + x.h / G;
                    int64_t bytes = sectors(std::min(tk, a.Lkv - blk * tk), row);
                    out.push_back({(2 * kv) * N + blk, bytes, false});
                    out.push_back({(2 * kv + 1) * N + blk, bytes, false});
                }
                if (r == std::max<int64_t>(n - 1, 0)) {
                    int64_t o = kind == 2 ? sectors(qrows, 32 * 4) + sectors(1, qrows * 4)
                                          : sectors(qrows, row);
                    out.push_back({nt + nqt + c, o, true});
                }
            }
    }
    return out;
}

// The sector-exact replay is that trace through that cache at every
// capacity: padded KV tails (rows of 8 bytes in 32-byte sectors), Q read
// and O written by each CTA; the model kernel on a ring, FlashAttention-2
// causal and split-KV.  ideal_bytes_exact is every byte read once and
// write_bytes_exact the outputs; a padded shape moves the exact answer off
// the whole-block one.
TEST(EngineWorkload, ExactReplayIsTheSectorTraceInBytes)
{
    struct Case {
        Attn a;
        int kind;
        int64_t splits;
    } cases[] = {{{2, 4, 2, 6, 10, 4, 4}, 0, 1},
                 {{1, 4, 1, 12, 30, 8, 4}, 0, 1},
                 {{2, 4, 2, 10, 10, 4, 4}, 1, 1},
                 {{1, 2, 2, 9, 21, 4, 8}, 1, 1},
                 {{2, 4, 2, 1, 600, 16, 16}, 2, 3},
                 {{1, 2, 1, 70, 1100, 16, 16}, 2, 4}};
    int64_t checked = 0, differs = 0;
    for (const Case &k : cases)
        for (int64_t M : {1, 3, 8}) {
            auto trace = exact_attention_trace(k.a, M, k.kind, k.splits);
            int64_t writes = 0;
            for (const XReq &r : trace)
                writes += r.write ? r.bytes : 0;
            std::string text = attention_spec(k.a, M, "", 64);
            std::string field = "tile_kv: " + std::to_string(k.a.Tk) + "}";
            const char *kernel = k.kind == 0 ? "}" : k.kind == 1 ? ", kernel: flash-attn-2, "
                                                                   "num_splits: 1, causal: true}"
                                                                 : nullptr;
            std::string tail = kernel ? kernel
                                      : ", kernel: flash-attn-2, num_splits: " +
                                            std::to_string(k.splits) + ", causal: true}";
            text.replace(text.find(field), field.size(), "tile_kv: " + std::to_string(k.a.Tk) + tail);
            Eval e;
            pascal_error err = {};
            ASSERT_EQ(pascal_spec_parse(text.data(), text.size(), nullptr, &e.spec, &err), 0) << err.msg;
            e.ev = pascal_eval_create(pascal_spec_models(e.spec));
            const int cols[] = {PASCAL_COL_FILL_BYTES_EXACT, PASCAL_COL_IDEAL_BYTES_EXACT,
                                PASCAL_COL_WRITE_BYTES_EXACT, PASCAL_COL_TRAFFIC_EXACT,
                                PASCAL_COL_TRAFFIC_REPLAY};
            for (uint64_t i = 0; i < pascal_spec_size(e.spec); i++) {
                pascal_point p;
                double v[5];
                ASSERT_EQ(pascal_spec_point(e.spec, i, &p, &err), 1) << err.msg;
                ASSERT_EQ(pascal_eval_point(e.ev, &p, cols, 5, v), 0);
                int64_t C = (int64_t)(p.v[PASCAL_P_C] * p.v[PASCAL_P_BLOCK_BYTES]), ideal = 0;
                int64_t want = byte_lru_fills(trace, C, &ideal);
                ASSERT_EQ(v[0], (double)want) << "kind " << k.kind << " M " << M << " C " << C;
                ASSERT_EQ(v[1], (double)ideal);
                ASSERT_EQ(v[2], (double)writes);
                ASSERT_DOUBLE_EQ(v[3], (double)want / (double)ideal);
                differs += v[3] != v[4];
                checked++;
            }
        }
    EXPECT_GT(checked, 0);
    EXPECT_GT(differs, 0);
}

// A padded GEMM (fp8, M 7 x N 5 x K 9, tiles 2 x 4 x 4: units of 2 rows or
// columns, row raster): every A unit of 2 rows (1 at the edge) and K step of
// 4 columns (1 at the end) is rows x one 32-byte sector, every B unit of 2
// columns (1 at the edge, none past it) rows x one sector, and each CTA
// writes its C tile after its last K step; lock-step waves of M slots.
TEST(EngineWorkload, ExactReplayOfAPaddedGemm)
{
    const int64_t Mg = 7, Ng = 5, Kg = 9, tm = 2, tn = 4, tk = 4, mt = 4, nt = 2, kt = 3;
    const int64_t ua = 1, ub = 2, b0 = mt * ua, streams = mt * ua + nt * ub;
    for (int64_t M : {1, 3, 8}) {
        std::vector<XReq> trace;
        for (int64_t c0 = 0; c0 < mt * nt; c0 += M) {
            int64_t c1 = std::min(c0 + M, mt * nt);
            for (int64_t r = 0; r < kt; r++)
                for (int64_t c = c0; c < c1; c++) {
                    int64_t i = c / nt, j = c % nt, krows = std::min(tk, Kg - r * tk);
                    trace.push_back({i * kt + r, sectors(std::min(tm, Mg - i * tm), krows), false});
                    for (int64_t bb = 0; bb < ub; bb++) {
                        int64_t cols = std::max<int64_t>(0, std::min<int64_t>(2, Ng - (j * tn + bb * 2)));
                        trace.push_back({(b0 + j * ub + bb) * kt + r, sectors(krows, cols), false});
                    }
                    if (r == kt - 1)
                        trace.push_back({streams * kt + c,
                                         sectors(std::min(tm, Mg - i * tm), std::min(tn, Ng - j * tn)),
                                         true});
                }
        }
        Gemm g{Mg, Ng, Kg, tm, tn, tk, 0, 8, 1};
        std::string text = gemm_spec(g, M, "", 40);
        Eval e;
        pascal_error err = {};
        ASSERT_EQ(pascal_spec_parse(text.data(), text.size(), nullptr, &e.spec, &err), 0) << err.msg;
        e.ev = pascal_eval_create(pascal_spec_models(e.spec));
        const int cols[] = {PASCAL_COL_FILL_BYTES_EXACT, PASCAL_COL_IDEAL_BYTES_EXACT};
        for (uint64_t i = 0; i < pascal_spec_size(e.spec); i++) {
            pascal_point p;
            double v[2];
            ASSERT_EQ(pascal_spec_point(e.spec, i, &p, &err), 1) << err.msg;
            ASSERT_EQ(pascal_eval_point(e.ev, &p, cols, 2, v), 0);
            int64_t C = (int64_t)(p.v[PASCAL_P_C] * p.v[PASCAL_P_BLOCK_BYTES]), ideal = 0;
            ASSERT_EQ(v[0], (double)byte_lru_fills(trace, C, &ideal)) << "M " << M << " C " << C;
            ASSERT_EQ(v[1], (double)ideal);
        }
    }
}

// FlashAttention-3's persistent CTAs in lock step (section 2.8): G slots,
// slot q starting on tile q; the round after a slot's last step it takes
// its next tile, tile + G for the static scheduler (non-causal), the next
// one nobody has taken for the dynamic one (causal; slots in index order).
// The tiles' streams, steps and blocks are the model's, checked against the
// sources in ModelWorkload.FlashAttention3TilesAndSchedulersByTheSource;
// the schedule is written here, and the block replay and the sector-exact
// one (Q before a tile's first step, O after its last) must match it.
TEST(EngineWorkload, PersistentScheduleIsTheLockStepPull)
{
    for (int causal : {0, 1})
        for (int64_t G : {1, 4, 7}) {
            char text[1024];
            std::snprintf(text, sizeof text,
                          "name: t\nmodels: [traffic, lru_replay]\nworkload:\n  attention: {batch: 2, "
                          "q_heads: 3, seq_q: 400, seq_kv: 600, head_dim: 64, dtype: bf16, tile_q: 16, "
                          "tile_kv: 16, kernel: flash-attn-3, num_splits: 1, causal: %s}\n"
                          "fixed: {sms: %lld, occupancy: 1}\naxes:\n  C: {from: 1, to: 40, step: 1}\n",
                          causal ? "true" : "false", (long long)G);
            Eval e;
            pascal_error err = {};
            ASSERT_EQ(pascal_spec_parse(text, std::strlen(text), nullptr, &e.spec, &err), 0) << err.msg;
            pascal_point p0;
            ASSERT_EQ(pascal_spec_point(e.spec, 0, &p0, &err), 1) << err.msg;
            pascal_workload w;
            ASSERT_EQ(pascal_workload_of_point(p0.v, &w), 0);
            int64_t N = w.blocks, nt = w.streams * N, tiles = w.ctas, next = G, ids[2];
            std::vector<int64_t> tile(G), step(G, 0), trace;
            std::vector<XReq> xtrace;
            const int64_t row = 128;   // 64 bf16: four sectors; tiles 192 x 192, causal 192 x 128
            auto steps = [&](int64_t t) { return pascal_workload_cta_steps(&w, t); };
            auto advance = [&](int64_t q, bool first) {
                for (;;) {
                    if (!first)
                        tile[q] = causal ? (next < tiles ? next++ : -1)
                                         : (tile[q] + G < tiles ? tile[q] + G : -1);
                    first = false;
                    step[q] = 0;
                    if (tile[q] < 0 || steps(tile[q]) > 0)
                        return;
                }
            };
            for (int64_t q = 0; q < G; q++) {
                tile[q] = q < tiles ? q : -1;
                advance(q, true);
            }
            for (bool live = true; live;) {
                live = false;
                for (int64_t q = 0; q < G; q++) {
                    int64_t t = tile[q];
                    if (t < 0)
                        continue;
                    int64_t b = pascal_workload_cta_block(&w, t, step[q]);
                    pascal_workload_cta(&w, t, ids);
                    // this tile's (sequence, head, query tile): its Q id is the model's
                    int64_t q_b, q_id, o_b, o_id;
                    pascal_workload_cta_io(&w, t, 32, &q_b, &q_id, &o_b, &o_id);
                    if (step[q] == 0)
                        xtrace.push_back({nt + q_id, q_b, false});
                    for (int u = 0; u < 2; u++) {
                        trace.push_back(ids[u] * N + b);
                        xtrace.push_back({ids[u] * N + b,
                                          sectors(std::min(w.tile_kv, 600 - b * w.tile_kv), row), false});
                    }
                    if (step[q] + 1 == steps(t))
                        xtrace.push_back({nt + 1000000 + t, o_b, true});
                }
                for (int64_t q = 0; q < G; q++)
                    if (tile[q] >= 0 && ++step[q] == steps(tile[q]))
                        advance(q, false);
                for (int64_t q = 0; q < G; q++)
                    live = live || tile[q] >= 0;
            }
            ASSERT_EQ((int64_t)trace.size(), w.requests);
            e.ev = pascal_eval_create(pascal_spec_models(e.spec));
            const int cols[] = {PASCAL_COL_FILL_BYTES_REPLAY, PASCAL_COL_FILL_BYTES_EXACT};
            for (uint64_t i = 0; i < pascal_spec_size(e.spec); i++) {
                pascal_point p;
                double v[2];
                ASSERT_EQ(pascal_spec_point(e.spec, i, &p, &err), 1) << err.msg;
                ASSERT_EQ(pascal_eval_point(e.ev, &p, cols, 2, v), 0);
                int64_t C = (int64_t)p.v[PASCAL_P_C], ideal = 0;
                ASSERT_EQ(v[0] / p.v[PASCAL_P_BLOCK_BYTES], (double)lru_misses(trace, C))
                    << "causal " << causal << " G " << G << " C " << C;
                ASSERT_EQ(v[1], (double)byte_lru_fills(xtrace, C * (int64_t)p.v[PASCAL_P_BLOCK_BYTES],
                                                       &ideal))
                    << "causal " << causal << " G " << G << " C " << C;
            }
        }
}

} // namespace

namespace {

// CUTLASS 2.x serial split-K on M lock-step slots, written from
// kernel::Gemm (kernel/gemm.h) with the identity swizzle of N = 1: CTA
// (x = i, y = j, z) in launch order, slice z's K iterations from z
// gemm_k_size to min(K, (z + 1) gemm_k_size), one A tile (i, k) and one B
// tile (k, j) per iteration (128 x 128 x 64 bf16 tiles: one unit each).
// The epilogue runs once the CTA's iterations are done and the tile's
// semaphore has reached z (the slices before it wrote D): slice z > 0
// reads D, then every slice writes it.  A wave lasts until each of its
// CTAs has written.
std::vector<XReq> cutlass_split_k_trace(int64_t m, int64_t n, int64_t k, int64_t slices,
                                        int64_t M, int64_t *ideal)
{
    const int64_t tm = 128, tn = 128, tk = 64;
    int64_t m_t = (m + tm - 1) / tm, n_t = (n + tn - 1) / tn, k_t = (k + tk - 1) / tk;
    int64_t gemm_k_size = (k_t + slices - 1) / slices * tk, ctas = m_t * n_t * slices;
    std::vector<XReq> out;
    std::vector<int64_t> done_slices((size_t)(m_t * n_t), 0);
    const int64_t B0 = 1 << 20, D0 = 1 << 21;
    *ideal = 0;
    for (int64_t i = 0; i < m_t; i++)
        for (int64_t kk = 0; kk < k_t; kk++)
            *ideal += sectors(std::min(tm, m - i * tm), 2 * std::min(tk, k - kk * tk));
    for (int64_t kk = 0; kk < k_t; kk++)
        for (int64_t j = 0; j < n_t; j++)
            *ideal += sectors(std::min(tk, k - kk * tk), 2 * std::min(tn, n - j * tn));
    for (int64_t c0 = 0; c0 < ctas; c0 += M) {
        int64_t c1 = std::min(c0 + M, ctas);
        std::vector<bool> wrote((size_t)(c1 - c0), false);
        for (int64_t t = 0, left = c1 - c0; left > 0; t++)
            for (int64_t c = c0; c < c1; c++) {
                int64_t i = c % m_t, j = c / m_t % n_t, z = c / (m_t * n_t);
                int64_t off = z * gemm_k_size, size_k = std::min(k, (z + 1) * gemm_k_size);
                int64_t iters = std::max<int64_t>((size_k - off + tk - 1) / tk, 0);
                if (t < iters) {
                    int64_t kk = off / tk + t, cols = std::min(tk, size_k - kk * tk);
                    out.push_back({i * k_t + kk, sectors(std::min(tm, m - i * tm), 2 * cols), false});
                    out.push_back({B0 + kk * n_t + j, sectors(cols, 2 * std::min(tn, n - j * tn)),
                                   false});
                }
                int64_t tile = i * n_t + j, d = sectors(std::min(tm, m - i * tm), 2 * std::min(tn, n - j * tn));
                if (!wrote[(size_t)(c - c0)] && t + 1 >= iters && done_slices[(size_t)tile] == z) {
                    if (z > 0)
                        out.push_back({D0 + tile, d, false});
                    out.push_back({D0 + tile, d, true});
                    done_slices[(size_t)tile]++;
                    wrote[(size_t)(c - c0)] = true;
                    left--;
                }
            }
    }
    return out;
}

// The sector-exact replay of kernel cutlass with split-K, slices equal and
// not, is that trace through an LRU in bytes: the A and B tiles, and the
// partial sums a slice reads back, at every capacity.
TEST(EngineWorkload, CutlassSerialSplitKIsTheSourcesTrace)
{
    struct Case {
        int64_t m, n, k, slices;
    } cases[] = {{256, 384, 1000, 3}, {200, 300, 700, 4}, {256, 256, 256, 7}, {384, 128, 512, 2}};
    int64_t checked = 0, reads_count = 0;
    for (const Case &g : cases)
        for (int64_t M : {1, 4, 64}) {
            int64_t ideal = 0;
            auto trace = cutlass_split_k_trace(g.m, g.n, g.k, g.slices, M, &ideal);
            int64_t writes = 0;
            std::vector<XReq> no_reads;   // the trace without the partial sums read back
            for (const XReq &r : trace) {
                writes += r.write ? r.bytes : 0;
                if (r.write || r.id < (1 << 21))
                    no_reads.push_back(r);
            }
            char text[1024];
            std::snprintf(text, sizeof text,
                          "name: t\nmodels: [traffic, lru_replay]\nworkload:\n  gemm: {gemm_m: %lld, "
                          "gemm_n: %lld, gemm_k: %lld, dtype: bf16, tile_m: 128, tile_n: 128, "
                          "tile_k: 64, kernel: cutlass, swizzle: 1, split_k: %lld}\n"
                          "fixed: {sms: %lld, occupancy: 1}\naxes:\n  C: {from: 1, to: 60, step: 1}\n",
                          (long long)g.m, (long long)g.n, (long long)g.k, (long long)g.slices,
                          (long long)M);
            Eval e;
            pascal_error err = {};
            ASSERT_EQ(pascal_spec_parse(text, std::strlen(text), nullptr, &e.spec, &err), 0) << err.msg;
            e.ev = pascal_eval_create(pascal_spec_models(e.spec));
            const int cols[] = {PASCAL_COL_FILL_BYTES_EXACT, PASCAL_COL_IDEAL_BYTES_EXACT,
                                PASCAL_COL_WRITE_BYTES_EXACT};
            for (uint64_t i = 0; i < pascal_spec_size(e.spec); i++) {
                pascal_point p;
                double v[3];
                ASSERT_EQ(pascal_spec_point(e.spec, i, &p, &err), 1) << err.msg;
                ASSERT_EQ(pascal_eval_point(e.ev, &p, cols, 3, v), 0);
                int64_t C = (int64_t)(p.v[PASCAL_P_C] * p.v[PASCAL_P_BLOCK_BYTES]), seen = 0;
                int64_t want = byte_lru_fills(trace, C, &seen);
                ASSERT_EQ(v[0], (double)want) << g.k << " / " << g.slices << " M " << M << " C " << C;
                ASSERT_EQ(v[1], (double)ideal);
                ASSERT_EQ(v[2], (double)writes);
                reads_count += want != byte_lru_fills(no_reads, C, &seen);
                checked++;
            }
        }
    EXPECT_EQ(checked, 4 * 3 * 60);
    EXPECT_GT(reads_count, 0);   // the reads of D change the answer somewhere
}

// A program's lock-step trace from the library's per-CTA functions (the
// definition in eval_workload.h): waves of M CTAs, round t serving step t
// of each CTA that has one, slot by slot, a block of each of its streams;
// a persistent kernel's slots on pascal_psched's schedule.  wait = false:
// a stream-K block leaves its tile after its steps, without the turnstile's
// rounds (pascal_workload_cta_rounds): the trace of a replay that forgot
// them.
std::vector<int64_t> program_trace(const pascal_workload &w, int64_t M, bool wait = true)
{
    std::vector<int64_t> t, st((size_t)w.units);
    int64_t N = w.blocks;
    auto emit = [&](int64_t c, int64_t k) {
        int64_t b = pascal_workload_cta_block(&w, c, k);
        pascal_workload_cta(&w, c, st.data());
        for (int64_t u : st)
            t.push_back(u * N + b);
    };
    if (w.persistent) {
        std::vector<int64_t> tile((size_t)w.grid), step((size_t)w.grid);
        pascal_psched ps;
        pascal_psched_init(&ps, &w, tile.data(), step.data());
        for (int64_t q = 0; q < ps.G; q++)
            pascal_psched_take(&ps, q, 1, nullptr, nullptr);
        for (bool live = true; live;) {
            live = false;
            for (int64_t q = 0; q < ps.G; q++)   // a stream-K block waiting on a peer: nothing
                if (ps.tile[q] >= 0 && ps.step[q] < pascal_workload_cta_steps(&w, ps.tile[q]))
                    emit(ps.tile[q], ps.step[q]);
            for (int64_t q = 0; q < ps.G; q++)
                if (ps.tile[q] >= 0 &&
                    ++ps.step[q] == (wait ? pascal_workload_cta_rounds(&w, ps.tile[q])
                                          : pascal_workload_cta_steps(&w, ps.tile[q])))
                    pascal_psched_take(&ps, q, 0, nullptr, nullptr);
            for (int64_t q = 0; q < ps.G; q++)
                live = live || ps.tile[q] >= 0;
        }
        return t;
    }
    for (int64_t c0 = 0; c0 < w.ctas; c0 += M) {
        int64_t c1 = std::min(c0 + M, w.ctas), longest = 0;
        for (int64_t c = c0; c < c1; c++)
            longest = std::max(longest, pascal_workload_cta_steps(&w, c));
        for (int64_t k = 0; k < longest; k++)
            for (int64_t c = c0; c < c1; c++)
                if (k < pascal_workload_cta_steps(&w, c))
                    emit(c, k);
    }
    return t;
}

// fill_bytes_bound on a request program (causal attention of both kernels,
// FlashAttention-2's split-KV kernel, FlashAttention-3's persistent tiles,
// FlashInfer's chunks, CUTLASS 3's persistent GEMM) is the reuse-gap floor
// of docs/workloads.md section 6: at every capacity at most Belady's MIN on
// the program's whole trace, at least its distinct blocks, and equal to
// them once the cache holds them all; the trace is the replay's (its LRU
// count is fill_bytes_replay).  Tiny random shapes, a fixed seed.
// The floor of program w (spec text `spec`, described by `what`) at every
// capacity up to its distinct blocks: at most Belady's MIN of its trace, at
// least the distinct blocks and equal to them once they fit; the replay is
// LRU on the same trace.  Counts the cases, those equal to Belady and the
// sum of floor / Belady.
void floor_against_belady(const pascal_workload &w, int64_t M, const std::string &spec,
                          const char *what, int64_t *checked, int64_t *equal, double *ratio)
{
    std::vector<int64_t> trace = program_trace(w, M);
    std::set<int64_t> blocks(trace.begin(), trace.end());
    int64_t top = (int64_t)blocks.size() + 1;
    std::string text = spec + "\naxes:\n  C: {from: 1, to: " + std::to_string(top) + ", step: 1}\n";
    for (const Row &r : model_rows(text)) {
        double opt = (double)belady_misses(trace, r.C);
        ASSERT_EQ(r.replay, (double)lru_misses(trace, r.C)) << what << " C " << r.C;
        ASSERT_LE(r.bound, opt) << what << " C " << r.C;
        ASSERT_GE(r.bound, (double)blocks.size()) << what << " C " << r.C;
        if (r.C >= (int64_t)blocks.size())
            ASSERT_EQ(r.bound, (double)blocks.size()) << what << " C " << r.C;
        (*checked)++;
        *equal += r.bound == opt;
        *ratio += r.bound / opt;
    }
}

TEST(EngineWorkload, TheProgramFloorHoldsAgainstBeladyOnEverySmallProgram)
{
    uint64_t x = 2024;
    auto draw = [&x](int64_t lo, int64_t hi) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (int64_t)((x >> 33) % (uint64_t)(hi - lo + 1));
    };
    int64_t checked = 0, equal = 0, programs = 0, per_kind[6] = {0};
    double ratio = 0;
    for (int i = 0; i < 600 && programs < 60; i++) {
        char buf[768];
        int kind = i % 6;
        int64_t kv = draw(1, 2), G = draw(1, 3), sms = draw(1, 5);
        if (kind == 5) {
            std::snprintf(buf, sizeof buf,
                          "gemm: {gemm_m: %lld, gemm_n: %lld, gemm_k: %lld, dtype: int8, tile_m: 1, "
                          "tile_n: 1, tile_k: 1, kernel: cutlass-3, swizzle: %lld}\nfixed: {sms: %lld, "
                          "occupancy: 1}",
                          (long long)draw(1, 6), (long long)draw(1, 6), (long long)draw(1, 4),
                          (long long)(1 << draw(0, 2)), (long long)sms);
        } else {
            static const char *kernels[] = {
                "causal: true, kernel: model", "causal: true, kernel: flash-attn-2, num_splits: 1",
                "kernel: flash-attn-2, num_splits: 2", "kernel: flash-attn-3, num_splits: 1",
                "kernel: flashinfer"};   // decode: one query token
            int64_t Lq = draw(1, 5), Lkv = draw(2, 9), Tq = draw(1, 2), Tk = draw(1, 2);
            if (kind == 0 || kind == 1)
                Lkv = std::max(Lkv, Lq);
            if (kind == 4)   // FlashInfer splits from 8 pages of 16 tokens a chunk
                Lkv = 16 * draw(17, 40), Tq = 16, Tk = 8, G = 2, sms = draw(2, 4);
            std::snprintf(buf, sizeof buf,
                          "attention: {batch: %lld, q_heads: %lld, kv_heads: %lld, seq_q: %lld, "
                          "seq_kv: %lld, head_dim: 64, dtype: bf16, tile_q: %lld, tile_kv: %lld, %s%s}"
                          "\nfixed: {sms: %lld, occupancy: 1}",
                          (long long)draw(1, 2), (long long)(kv * G), (long long)kv,
                          (long long)(kind == 4 ? 1 : Lq), (long long)Lkv, (long long)Tq, (long long)Tk,
                          kind == 3 && draw(0, 1) ? "causal: true, " : "", kernels[kind],
                          (long long)sms);
        }
        std::string spec = std::string("name: t\nmodels: [traffic, lru_replay]\nworkload:\n  ") + buf;
        std::string probe = spec + "\naxes:\n  C: [1]\n";
        Eval e0;
        pascal_error err = {};
        ASSERT_EQ(pascal_spec_parse(probe.data(), probe.size(), nullptr, &e0.spec, &err), 0)
            << err.msg << "\n" << probe;
        pascal_point p0;
        ASSERT_EQ(pascal_spec_point(e0.spec, 0, &p0, &err), 1) << err.msg;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_of_point(p0.v, &w), 0) << buf;
        if (w.ring)   // no split, no mask: a ring, whose floor is section 3's
            continue;
        floor_against_belady(w, (int64_t)p0.v[PASCAL_P_M], spec, buf, &checked, &equal, &ratio);
        if (::testing::Test::HasFatalFailure())
            return;
        programs++;
        per_kind[kind]++;
    }
    EXPECT_EQ(programs, 60);
    for (int k = 0; k < 6; k++)
        EXPECT_GT(per_kind[k], 2) << "kind " << k;
    std::printf("program floor <= Belady on %lld (program, capacity) cases, equal on %lld, "
                "mean floor / Belady %.3f\n",
                (long long)checked, (long long)equal, ratio / (double)checked);
}

// A tiny CUTLASS stream-K GEMM (int8, 1 x 1 x 1 tiles: gemm_m and gemm_n
// up to mn, gemm_k from k_lo to k_hi, 2 to sms SMs, occupancy 1 or 2)
// drawn from the generator at *x: its spec without axes (*spec; the
// workload line in *what) and its program (*w).  0, 1 when the kernel
// refuses the shape (its separate reduction wave; other refusals fail).
int draw_streamk(uint64_t *x, int64_t mn, int64_t k_lo, int64_t k_hi, int64_t sms,
                 std::string *spec, std::string *what, pascal_workload *w)
{
    auto draw = [x](int64_t lo, int64_t hi) {
        *x = *x * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (int64_t)((*x >> 33) % (uint64_t)(hi - lo + 1));
    };
    char buf[512];
    // drawn occupancy first, gemm_m last: the shapes these tests have always met
    long long o = draw(1, 2), g = draw(2, sms), k = draw(k_lo, k_hi), n = draw(1, mn),
              m = draw(1, mn);
    std::snprintf(buf, sizeof buf,
                  "gemm: {gemm_m: %lld, gemm_n: %lld, gemm_k: %lld, dtype: int8, tile_m: 1, "
                  "tile_n: 1, tile_k: 1, kernel: cutlass-streamk}\nfixed: {sms: %lld, "
                  "occupancy: %lld}",
                  m, n, k, g, o);
    *what = buf;
    *spec = std::string("name: t\nmodels: [traffic, lru_replay]\nworkload:\n  ") + buf;
    std::string probe = *spec + "\naxes:\n  C: [1]\n";
    Eval e0;
    pascal_error err = {};
    pascal_point p0;
    if (pascal_spec_parse(probe.data(), probe.size(), nullptr, &e0.spec, &err) != 0 ||
        pascal_spec_point(e0.spec, 0, &p0, &err) != 1) {
        EXPECT_NE(std::strstr(err.msg, "reduction blocks"), nullptr) << err.msg;
        return 1;
    }
    EXPECT_EQ(pascal_workload_of_point(p0.v, w), 0) << buf;
    return 0;
}

// The same on CUTLASS's stream-K kernel (section 2.11): tiny GEMMs (up to
// 5 x 5 tiles, 8 to 30 K iterations) over 2 to 5 SMs at occupancy 1 or 2,
// at every capacity up to their distinct blocks.
TEST(EngineWorkload, TheProgramFloorHoldsAgainstBeladyOnStreamK)
{
    uint64_t x = 77;
    int64_t checked = 0, equal = 0, programs = 0, split = 0;
    double ratio = 0;
    for (int i = 0; i < 400 && programs < 30; i++) {
        std::string spec, what;
        pascal_workload w;
        if (draw_streamk(&x, 5, 8, 30, 5, &spec, &what, &w) != 0)
            continue;   // a separate reduction wave: refused
        if (::testing::Test::HasFailure())
            return;
        // M: persistent, the replay ignores it
        floor_against_belady(w, 1, spec, what.c_str(), &checked, &equal, &ratio);
        if (::testing::Test::HasFatalFailure())
            return;
        programs++;
        split += w.sk.sk_blocks > 0;
    }
    EXPECT_EQ(programs, 30);
    EXPECT_GE(split, 10);
    std::printf("stream-K floor <= Belady on %lld (program, capacity) cases, equal on %lld, mean "
                "floor / Belady %.3f; %lld of %lld programs with stream-K blocks\n",
                (long long)checked, (long long)equal, ratio / (double)checked, (long long)split,
                (long long)programs);
}

// The turnstile's waits in the block replay (fill_bytes_replay): a stream-K
// block that waits on its peer holds its slot for those rounds, so the next
// launch starts later.  Shapes where that changes the trace, found among
// tiny GEMMs; on each, the replay is LRU on the trace with the waits, at
// every capacity, and differs from LRU on the trace without them at some.
TEST(EngineWorkload, StreamKBlockReplayHoldsSlotsThroughTheTurnstile)
{
    uint64_t x = 4242;
    int64_t found = 0, told = 0;
    for (int i = 0; i < 3000 && found < 12; i++) {
        std::string spec, what;
        pascal_workload w;
        if (draw_streamk(&x, 6, 8, 40, 6, &spec, &what, &w) != 0)
            continue;   // a separate reduction wave: refused
        if (::testing::Test::HasFailure())
            return;
        std::vector<int64_t> with = program_trace(w, 1), without = program_trace(w, 1, false);
        if (with == without)
            continue;
        found++;
        std::set<int64_t> blocks(with.begin(), with.end());
        std::string text = spec + "\naxes:\n  C: {from: 1, to: " + std::to_string(blocks.size()) +
                           ", step: 1}\n";
        bool differs = false;
        for (const Row &r : model_rows(text)) {
            ASSERT_EQ(r.replay, (double)lru_misses(with, r.C)) << what << " C " << r.C;
            differs = differs || r.replay != (double)lru_misses(without, r.C);
        }
        told += differs;
    }
    EXPECT_EQ(found, 12);
    EXPECT_GE(told, 6);   // the waits move the answer on most of them
}

} // namespace
