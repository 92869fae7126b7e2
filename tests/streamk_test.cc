// Tests for kernel cutlass-streamk (model/workload.c): pascal's access trace
// against an independent replay of CUTLASS 2.x stream-K, transcribed from
// include/cutlass/gemm/threadblock/threadblock_swizzle_streamk.h
// (ThreadblockSwizzleStreamK, kMixed) and include/cutlass/gemm/kernel/
// gemm_universal_streamk.h (GemmUniversalStreamk), mode kGemm, batch_split 1,
// avail_sms = device_sms = sms, sm_occupancy = occupancy.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "model/workload.h"

namespace {

// ---- ThreadblockSwizzleStreamK, host side ----------------------------------

// get_sk_blocks: the trial SK-block count with the best savings (ties: the
// later trial), in the library's int and float arithmetic.
void get_sk_blocks(int &sk_blocks, int &savings, int tiles, int ipt, int sms, int max_occ,
                   bool partial)
{
    savings = INT_MIN, sk_blocks = 0;
    if (tiles == 0)
        return;
    int iters = tiles * ipt, dp_iters = ipt * ((tiles + sms - 1) / sms);
    int lo = partial ? std::min(sms, tiles + 1) : sms;
    int hi = std::min(sms * max_occ, iters / 2);   // kMinItersPerSkBlock = 2
    for (int b = lo; b <= hi; b++) {
        int waves = (b + sms - 1) / sms, equiv = ((iters + b - 1) / b) * waves;
        int peers = (b + tiles - 1) / tiles + 1;
        float iter_cost = 0.02f * float(peers) * float(equiv);
        if (b % tiles == 0)
            peers = b / tiles, iter_cost = 0.0f;
        int fixup = int(2.0f * float(waves) + iter_cost + 2.0f * float(peers));
        if (dp_iters - equiv - fixup >= savings)
            savings = dp_iters - equiv - fixup, sk_blocks = b;
    }
}

// get_blocks: DP tiles and SK blocks for the output tiles.
void get_blocks(int &dp_tiles, int &sk_blocks, int tiles, int ipt, int sms, int occ)
{
    int full = tiles / sms, full_tiles = full * sms, partial = tiles - full_tiles, score = -1;
    dp_tiles = tiles, sk_blocks = 0;
    if (partial == 0)
        return;   // perfect quantization
    if (full < occ) {
        dp_tiles = full_tiles;
        get_sk_blocks(sk_blocks, score, partial, ipt, sms, occ - full, true);
        if (score < 0)
            sk_blocks = 0, dp_tiles = tiles;
        return;
    }
    if (occ > 1 && full % occ == occ - 1) {
        dp_tiles = full_tiles;
        get_sk_blocks(sk_blocks, score, partial, ipt, sms, 1, true);
        if (score >= 0)
            return;
    }
    dp_tiles = full_tiles - sms;
    get_sk_blocks(sk_blocks, score, partial + sms, ipt, sms, occ - (full - 1) % occ, false);
    if (score < 0)
        sk_blocks = 0, dp_tiles = tiles;
}

struct Lib {
    int sms, occ, m_t, n_t, ipt;
    int sk_tiles = 0, sk_blocks = 0, sk_waves = 0, normal = 0, bigpr = 0, ipr = 0;
    int regions = 1, bpr = 1;   // FastDivmod's default divisor is 1 (fast_math.h)
    int reduction = 0, dp_blocks = 0, dp_first = 1, cohort_n = 0, launches = 0;
    bool remap = false, cohort = false;
};

struct Shape { int64_t m, n, k, tm, tn, tk, sms, occ; };

// The constructor, then get_num_blocks.
Lib construct(const Shape &h)
{
    Lib L;
    int sms = L.sms = int(h.sms), occ = L.occ = int(h.occ);
    L.m_t = int((h.m + h.tm - 1) / h.tm), L.n_t = int((h.n + h.tn - 1) / h.tn);
    L.ipt = int((h.k + h.tk - 1) / h.tk);
    int tiles = L.m_t * L.n_t, dp_tiles = tiles, sk_blocks = 0;
    if (sms > 1)
        get_blocks(dp_tiles, sk_blocks, tiles, L.ipt, sms, occ);
    L.sk_tiles = tiles - dp_tiles;
    if (sk_blocks > 0) {
        L.sk_waves = (sk_blocks + sms - 1) / sms;
        int iters = L.sk_tiles * L.ipt;
        sk_blocks = std::min(sk_blocks, iters);
        L.normal = iters / sk_blocks;
        int big = iters - L.normal * sk_blocks;
        L.regions = (sk_blocks > L.sk_tiles && sk_blocks % L.sk_tiles == 0) ? L.sk_tiles : 1;
        L.bpr = sk_blocks / L.regions, L.bigpr = big / L.regions, L.ipr = iters / L.regions;
        if (L.sk_waves < occ && sk_blocks > 2 * L.sk_tiles)
            L.reduction = L.sk_tiles;   // x epilogue_acc_fragments: any count > 0
        // get_num_active_blocks() while the member dp_blocks is still 0
        L.remap = occ > 1 && L.sk_waves * sms + 0 + L.reduction > 2 * sms;
    }
    L.sk_blocks = sk_blocks, L.dp_blocks = dp_tiles;
    int cm = (L.m_t + 7) / 8, cn = (L.n_t + 3) / 4;   // kCohortCtasM x kCohortCtasN
    int cohort_blocks = cm * cn * 32;
    L.cohort_n = cn;
    bool in_range = true;
    if (L.sk_tiles > 0) {
        int ct = (L.sk_tiles - 1) / 32, gm = ct / cn, gn = gm > 0 ? cn - 1 : ct % cn;
        in_range = !((gm + 1) * 8 >= L.m_t || (gn + 1) * 4 >= L.n_t);
    }
    if (in_range && L.dp_blocks >= sms * occ * 2 && float(L.dp_blocks) / float(cohort_blocks) > 0.85f) {
        L.cohort = true, L.dp_blocks = cohort_blocks;
    } else if (L.sk_waves > 0) {
        int excess = (L.sk_waves + (dp_tiles + sms - 1) / sms) % occ;
        if (L.dp_first + excess <= dp_tiles / sms)
            L.dp_first += excess, L.dp_blocks -= excess * sms;
    }
    int active = L.sk_waves * sms + L.dp_blocks + L.reduction;
    L.launches = L.remap ? std::max(active, 4 * sms) : active;
    return L;
}

// get_tile_offset: row-major, column-major when m_t < n_t, cohorts of 8 x 4.
void tile_offset(const Lib &L, int t, int &i, int &j)
{
    i = t / L.n_t, j = t % L.n_t;
    if (L.m_t < L.n_t)
        j = t / L.m_t, i = t % L.m_t;
    if (L.cohort)
        i = t / 32 / L.cohort_n * 8 + t % 32 / 4, j = t / 32 % L.cohort_n * 4 + t % 4;
}

// get_sk_block_idx: the SK block owning global iteration `iter`.
int sk_owner(const Lib &L, int iter)
{
    int region = iter / L.ipr, in = iter % L.ipr, b = in / (L.normal + 1);
    if (b >= L.bigpr)
        b = L.bigpr + (in - (L.bigpr * L.normal + L.bigpr)) / L.normal;
    return L.bpr * region + b;
}

// ---- GemmUniversalStreamk::gemm(): the work of one launch ------------------

struct Item {
    int i, j, kb, ke;   // tile (i, j), K iterations [kb, ke), run forward
    int block, first;   // block_idx, the tile's first_block_idx
    bool dp, started, finished;
};

std::vector<Item> launch_items(const Lib &L, int x)
{
    std::vector<Item> out;
    int b = x, i, j;   // get_block_idx: the two-wave remap, then the region interleave
    if (L.remap && b < 2 * L.sms)
        b = b / 2 + (b % 2) * L.sms;
    if (b < L.regions * L.bpr)
        b = (b % L.regions) * L.bpr + b / L.regions;
    int dp_start = L.sk_waves * L.sms;
    if (b >= dp_start && b < dp_start + L.dp_blocks) {
        int d = b - dp_start, t = (L.cohort ? 0 : L.sk_tiles) + d, allot = L.dp_first;
        if (d >= L.sms)
            allot = 1, t += (L.dp_first - 1) * L.sms;
        tile_offset(L, t, i, j);
        if (t < L.sk_tiles || i >= L.m_t || j >= L.n_t)
            return out;   // early exit
        for (int a = 0; a < allot; a++, t += L.sms) {   // DP tiles at stride avail_sms
            tile_offset(L, t, i, j);
            out.push_back({i, j, 0, L.ipt, b, b, true, true, true});
        }
    } else if (b < L.regions * L.bpr && L.sk_blocks > 0) {
        // get_iter_extents, then tiles from the last down (init_sk_tile_work)
        int region = b / L.bpr, in = b % L.bpr;
        int begin = region * L.ipr + in * L.normal + std::min(in, L.bigpr);
        int left = L.normal + (in < L.bigpr ? 1 : 0);
        for (int t = (begin + left - 1) / L.ipt; left > 0; t--) {
            int kb = std::max(begin, t * L.ipt) - t * L.ipt, ke = begin + left - t * L.ipt;
            tile_offset(L, t, i, j);
            // started: k_begin == 0; finished: k_end = min(k, ke tile_k) == k
            out.push_back({i, j, kb, ke, b, sk_owner(L, t * L.ipt), false, kb == 0, ke == L.ipt});
            left -= ke - kb;
        }
    }
    return out;   // otherwise padding: no work
}

// ---- The lock-step replay --------------------------------------------------

struct Acc {
    int what;
    std::array<int64_t, 4> key;   // BLOCK (operand, row or column, unit, kt); D (0, i, j); slot (1, id)
    int64_t bytes;
    bool operator==(const Acc &o) const { return what == o.what && key == o.key && bytes == o.bytes; }
};

// Sector-exact bytes (workload.h): bf16 rows rounded up to 32-byte sectors.
struct Geometry {
    int64_t m, n, k, tm, tn, tk, u, ua, ub;
    static int64_t cl(int64_t total, int64_t start, int64_t len)
    {
        return std::max<int64_t>(0, std::min(len, total - start));
    }
    static int64_t rows(int64_t r, int64_t cols) { return r * ((cols * 2 + 31) / 32 * 32); }
    int64_t a(int64_t i, int64_t x, int64_t kt) const   // A unit x of tile row i
    {
        return rows(cl(m, i * tm + x * u, u), cl(k, kt * tk, tk));
    }
    int64_t b(int64_t j, int64_t x, int64_t kt) const   // B unit x of tile column j
    {
        return rows(cl(k, kt * tk, tk), cl(n, j * tn + x * u, u));
    }
    int64_t d(int64_t i, int64_t j) const { return rows(cl(m, i * tm, tm), cl(n, j * tn, tn)); }
    int64_t slot() const { return (tm * tn * 4 + 31) / 32 * 32; }   // fp32, contiguous
};

// sms x occupancy slots take launches in blockIdx.x order; a round serves
// them in slot order.  flag[] is the barrier_workspace, by first_block_idx.
// *max_wait: the most rounds a slot waited on a turnstile.
std::vector<Acc> replay(const Lib &L, const Geometry &g, int *max_wait)
{
    std::vector<Acc> R;
    *max_wait = 0;
    int G = L.sms * L.occ, next = std::min(G, L.launches);
    std::vector<std::vector<Item>> items(L.launches);
    for (int x = 0; x < L.launches; x++)
        items[x] = launch_items(L, x);
    std::vector<int> flag(std::max(L.sk_blocks, 1), 0);
    enum { RUN, END, DONE };
    struct Slot { int launch = -1, item = 0, kt = 0, state = DONE, from = 0, waited = 0; };
    std::vector<Slot> slot(G);
    auto start = [&](Slot &s, int x, int round) {
        s.launch = x, s.item = 0, s.state = RUN, s.from = round, s.kt = items[x][0].kb;
    };
    auto take = [&](Slot &s, int round) {   // the next launch with work, run from `round`
        while (next < L.launches && items[next].empty())
            next++;
        if (next == L.launches)
            s.state = DONE;
        else
            start(s, next++, round);
    };
    for (int q = 0; q < G; q++) {   // slot q on launch q, passed over when it has no work
        if (q < L.launches && !items[q].empty())
            start(slot[q], q, 0);
        else
            take(slot[q], 0);
    }
    const int64_t tiles = int64_t(L.m_t) * L.n_t;
    auto out = [&](int what, const Item &it, bool to_d) {
        R.push_back(to_d ? Acc{what, {0, it.i, it.j, 0}, g.d(it.i, it.j)}
                         : Acc{what, {1, tiles + it.first, 0, 0}, g.slot()});
    };
    for (int round = 0;; round++) {
        bool live = false, moved = false;
        for (int q = 0; q < G; q++) {
            Slot &s = slot[q];
            live |= s.state != DONE;
            if (s.state == DONE || s.from > round)
                continue;
            const Item &it = items[s.launch][s.item];
            if (s.state == RUN) {   // one K iteration: A units, then B units
                for (int a = 0; a < g.ua; a++)
                    R.push_back({PASCAL_ACCESS_BLOCK, {0, it.i, a, s.kt}, g.a(it.i, a, s.kt)});
                for (int b = 0; b < g.ub; b++)
                    R.push_back({PASCAL_ACCESS_BLOCK, {1, it.j, b, s.kt}, g.b(it.j, b, s.kt)});
                moved = true;
                if (++s.kt < it.ke)
                    continue;
                s.state = END;
            }
            // The tile's end (process_tile)
            if (it.dp || (it.started && it.finished)) {
                out(PASCAL_ACCESS_OUT, it, true);            // do_epilogue
            } else if (it.started) {
                out(PASCAL_ACCESS_OUT, it, false);           // share_accumulators: store, no wait
                flag[it.first]++;                            // arrive_inc
            } else {
                if (flag[it.first] != it.block - it.first) { // wait_eq / wait_eq_reset
                    *max_wait = std::max(*max_wait, ++s.waited);
                    continue;
                }
                out(PASCAL_ACCESS_OUT_READ, it, false);
                if (it.finished) {                           // acquire_accumulators, epilogue
                    flag[it.first] = 0;
                    out(PASCAL_ACCESS_OUT, it, true);
                } else {                                     // share_accumulators: reduce
                    out(PASCAL_ACCESS_OUT, it, false);
                    flag[it.first]++;
                }
            }
            moved = true, s.waited = 0;
            if (++s.item < int(items[s.launch].size()))
                s.state = RUN, s.from = round + 1, s.kt = items[s.launch][s.item].kb;
            else
                take(s, round + 1);
        }
        bool stuck = live && !moved && std::none_of(slot.begin(), slot.end(),
                                                    [](const Slot &s) { return s.state == RUN; });
        EXPECT_FALSE(stuck) << "replay deadlocked at round " << round;
        if (!live || stuck)
            return R;
    }
}

// ---- pascal's side ---------------------------------------------------------

pascal_workload_shape to_pascal(const Shape &h)
{
    pascal_workload_shape s = {};
    s.kind = PASCAL_WORKLOAD_GEMM, s.dtype = PASCAL_DTYPE_BF16, s.m = h.m, s.n = h.n, s.k = h.k;
    s.tile_m = h.tm, s.tile_n = h.tn, s.tile_k = h.tk, s.split_k = 1, s.swizzle = 1;
    s.raster = PASCAL_RASTER_ROW, s.kernel = PASCAL_KERNEL_CUTLASS_SK, s.sms = h.sms, s.occupancy = h.occ;
    return s;
}

struct Walk {
    Geometry g;
    int64_t m_t, n_t, N;
    std::vector<Acc> trace;
    std::vector<int64_t> cta;   // the visit's c, per access
    bool bad_q = false;
};

// Decodes pascal's ids (workload.h) into the replay's keys.
int visit(void *ctx, int what, int64_t c, int64_t id, int64_t bytes)
{
    auto *W = static_cast<Walk *>(ctx);
    int64_t s = id / W->N, kt = id % W->N, na = W->m_t * W->g.ua, ua = W->g.ua, ub = W->g.ub;
    Acc a{what, {1, id, 0, 0}, bytes};   // a partial-sum slot
    if (what == PASCAL_ACCESS_Q)
        return W->bad_q |= bytes != 0, 0;
    if (what == PASCAL_ACCESS_BLOCK)
        a.key = s < na ? std::array<int64_t, 4>{0, s / ua, s % ua, kt}
                       : std::array<int64_t, 4>{1, (s - na) / ub, (s - na) % ub, kt};
    else if (id < W->m_t * W->n_t)
        a.key = {0, id / W->n_t, id % W->n_t, 0};
    W->trace.push_back(a), W->cta.push_back(c);
    return 0;
}

// pascal's derive and, for an accepted shape, its trace; returns derive's code.
int pascal_trace(const Shape &h, pascal_workload &w, Walk &W)
{
    pascal_workload_shape s = to_pascal(h);
    int64_t u = std::gcd(h.tm, h.tn);
    W.g = {h.m, h.n, h.k, h.tm, h.tn, h.tk, u, h.tm / u, h.tn / u};
    W.m_t = (h.m + h.tm - 1) / h.tm, W.n_t = (h.n + h.tn - 1) / h.tn, W.N = (h.k + h.tk - 1) / h.tk;
    int rc = pascal_workload_derive(&s, &w);
    if (rc != PASCAL_WL_OK)
        return rc;
    EXPECT_EQ(w.blocks, W.N);
    std::vector<int64_t> slots(2 * w.grid);
    EXPECT_EQ(pascal_workload_walk(&w, 1, nullptr, 32, slots.data(), visit, &W), 0);
    return rc;
}

// The sweep: every (sms, occupancy, tile) with tile grids up to 12 x 12, one
// K extent (1..40 tiles) each, edges partial by a hash; 14..16 x 7..12 grids,
// where the cohort raster can occur (efficiency > 0.85 needs m_t near 16 and
// n_t near 8 or 12); grids up to 6 x 6 with 64..320 K tiles at occupancy > 1:
// remap_block_indices needs sk_waves >= 3 without reduction blocks, which
// only long K makes profitable (an aligned 3-wave trial beating one wave's
// iter_cost), and padding launches need that with no DP blocks.
std::vector<Shape> sweep()
{
    std::vector<Shape> out;
    const int64_t tiles[3][2] = {{16, 16}, {32, 32}, {16, 32}};
    uint32_t h = 12345;
    auto rnd = [&h]() { return h = h * 1103515245u + 12345u, (h >> 8) & 0xffff; };
    auto add = [&](int64_t mt, int64_t nt, const int64_t *t, int64_t sms, int64_t occ, int64_t kt) {
        int64_t m = mt * t[0] - (rnd() % 2 ? rnd() % t[0] : 0);
        int64_t n = nt * t[1] - (rnd() % 2 ? rnd() % t[1] : 0);
        int64_t k = kt * 16 - (rnd() % 2 ? rnd() % 16 : 0);
        out.push_back({m, n, k, t[0], t[1], 16, sms, occ});
    };
    for (int64_t sms : {2, 3, 4, 5, 8})
        for (int64_t occ = 1; occ <= 4; occ++)
            for (const auto &t : tiles) {
                for (int64_t mt = 1; mt <= 12; mt++)
                    for (int64_t nt = 1; nt <= 12; nt++)
                        add(mt, nt, t, sms, occ, 1 + rnd() % 40);
                for (int64_t mt = 14; mt <= 16; mt++)
                    for (int64_t nt : {7, 8, 11, 12})
                        add(mt, nt, t, sms, occ, 1 + rnd() % 40);
                for (int64_t mt = 1; mt <= 6 && occ > 1; mt++)
                    for (int64_t nt = 1; nt <= 6; nt++)
                        add(mt, nt, t, sms, occ, 64 + rnd() % 257);
            }
    return out;
}

// The mapping's quantities, named alike in pascal_streamk and Lib: sk_tiles,
// sk_blocks, regions, bpr, normal, bigpr, ipr (these five 0 without SK),
// sk_waves, dp_blocks, dp_first, launches, remap, cohort.
using Fields = std::array<int64_t, 13>;
template <class T> Fields fields(const T &k)
{
    int64_t sk = k.sk_blocks > 0;
    return {k.sk_tiles, k.sk_blocks, sk * k.regions, sk * k.bpr, sk * k.normal, sk * k.bigpr,
            sk * k.ipr, k.sk_waves, k.dp_blocks, k.dp_first, k.launches, k.remap, k.cohort};
}

#define SHAPE_TRACE(h)                                                                         \
    SCOPED_TRACE(testing::Message() << "m " << h.m << " n " << h.n << " k " << h.k << " tile " \
                                    << h.tm << "x" << h.tn << "x" << h.tk << " sms " << h.sms  \
                                    << " occ " << h.occ)

}  // namespace

// get_blocks and the constructor worked by hand (the arithmetic in the
// comments); pascal and this file's transcription must both give it.
TEST(StreamK, HeuristicOnHandWorkedCases)
{
    const std::vector<std::pair<Shape, Fields>> cases = {
        // sms 132, occ 1, 20 x 10 = 200 tiles of 64 iterations.  full_waves 1,
        // not < occ, occ = 1: dp_tiles = 132 - 132 = 0, get_sk_blocks over
        // 68 + 132 = 200 tiles, max occupancy 1 - 0 = 1, no partial wave:
        // trial 132 only: ceil(12800 / 132) = 97, peers ceil(132 / 200) + 1 = 2,
        // iter_cost 0.02 x 2 x 97 = 3.88, fixup int(2 + 3.88 + 4) = 9, savings
        // 64 x 2 - 97 - 9 = 22 >= 0.  normal 12800 / 132 = 96, big 12800 -
        // 96 x 132 = 128, one region; sk_waves 1 = occ: no reduction; no remap.
        {{20 * 128, 10 * 128, 64 * 64, 128, 128, 64, 132, 1},
         Fields{200, 132, 1, 132, 96, 128, 12800, 1, 0, 1, 132, 0, 0}},
        // Aligned: sms 8, occ 4, 2 x 2 = 4 tiles of 64.  full_waves 0 < 4: dp 0,
        // get_sk_blocks(4 tiles, max occupancy 4, partial), trials 5..32,
        // dp_equiv_iters 64: 5: 64-52-int(2+3.12+6) = 1; 6: 64-43-10 = 11;
        // 7: 64-37-10 = 17; 8 (aligned, peers 2): 64-32-int(2+0+4) = 26; 12:
        // 64-44-10 = 10; 16: 64-32-12 = 20; 24: 64-33-18 = 13; others lower.
        // 8 > 4 tiles, 8 % 4 = 0: regions 4, bpr 2, normal 256 / 8 = 32, big 0,
        // ipr 64; 8 > 2 x 4 fails: no reduction; 8 > 2 x 8 fails: no remap;
        // waveset excess (1 + 0) % 4 = 1, but 1 + 1 > 0 full DP waves.
        {{2 * 128, 2 * 128, 64 * 64, 128, 128, 64, 8, 4},
         Fields{4, 8, 4, 2, 32, 0, 64, 1, 0, 1, 8, 0, 0}},
        // Perfect quantization: sms 8, occ 1, 4 x 4 = 16 tiles, partial wave 0:
        // all DP; 16 >= 2 x 8 but cohort efficiency 16 / (1 x 1 x 32) = 0.5.
        {{4 * 128, 4 * 128, 64 * 64, 128, 128, 64, 8, 1},
         Fields{0, 0, 0, 0, 0, 0, 0, 0, 16, 1, 16, 0, 0}},
        // Remap and padding: sms 4, occ 3, 1 x 3 tiles of 140.  full_waves 0 < 3:
        // get_sk_blocks(3 tiles, 420 iters, max occupancy 3, partial), trials
        // 4..12, dp_equiv_iters 140: 4: 140-105-int(2+6.3+6) = 21; 7: 140-120-21;
        // 8: 140-106-int(4+8.48+8) = 14; 11: 140-117-27; 12 (aligned, peers 4):
        // 140-105-int(6+0+8) = 21, the tie going to the later trial (>=); 5, 6,
        // 9, 10 negative.  12 % 3 = 0: regions 3, bpr 4, normal 35, big 0, ipr
        // 140; sk_waves 3, not < 3: no reduction; 3 x 4 + 0 > 8, occ > 1: remap,
        // get_num_blocks max(12, 4 x 4) = 16 (4 padding launches).
        {{16, 3 * 16, 140 * 16, 16, 16, 16, 4, 3},
         Fields{3, 12, 3, 4, 35, 0, 140, 3, 0, 1, 16, 1, 0}},
    };
    for (const auto &[h, want] : cases) {
        SHAPE_TRACE(h);
        pascal_workload_shape s = to_pascal(h);
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        EXPECT_EQ(fields(w.sk), want);
        EXPECT_EQ(fields(construct(h)), want);   // this file's transcription too
        EXPECT_EQ(construct(h).reduction, 0);
    }
}

// pascal's visit sequence equals the replay's, access by access; a shape
// needing reduction blocks is refused with PASCAL_WL_REDUCE.
TEST(StreamK, TraceIsTheLibrarysLaunch)
{
    std::map<std::string, int> seen = {{"refused (reduction blocks)", 0}};
    int failures = 0;
    for (const Shape &h : sweep()) {
        SHAPE_TRACE(h);
        Lib L = construct(h);
        pascal_workload w;
        Walk W;
        int rc = pascal_trace(h, w, W);
        if (L.reduction > 0) {
            EXPECT_EQ(rc, PASCAL_WL_REDUCE);
            seen["refused (reduction blocks)"]++;
            continue;
        }
        ASSERT_EQ(rc, PASCAL_WL_OK);
        EXPECT_FALSE(W.bad_q);
        EXPECT_EQ(w.grid, h.sms * h.occ);
        EXPECT_EQ(fields(w.sk), fields(L));
        int waited;
        std::vector<Acc> R = replay(L, W.g, &waited);
        auto d = std::mismatch(R.begin(), R.end(), W.trace.begin(), W.trace.end());
        if (d.first != R.end() || d.second != W.trace.end()) {
            auto show = [](const std::vector<Acc> &t, std::vector<Acc>::const_iterator i) {
                const Acc a = i != t.end() ? *i : Acc{-1, {}, 0};
                return testing::Message() << "what " << a.what << " key " << a.key[0] << ","
                       << a.key[1] << "," << a.key[2] << "," << a.key[3] << " bytes " << a.bytes;
            };
            ADD_FAILURE() << "traces differ at access " << d.first - R.begin() << " of " << R.size()
                          << " (pascal " << W.trace.size() << "): replay " << show(R, d.first)
                          << ", pascal " << show(W.trace, d.second);
            ASSERT_LE(++failures, 5) << "stopping";
        }
        const std::pair<const char *, bool> classes[] = {
            {"accepted", true}, {"no SK", L.sk_blocks == 0},
            {"SK, 1 region", L.sk_blocks > 0 && L.regions == 1},
            {"regions = sk_tiles > 1", L.sk_blocks > 0 && L.regions == L.sk_tiles && L.regions > 1},
            {"big blocks", L.bigpr > 0}, {"turnstile wait", waited > 0}, {"remap", L.remap},
            {"cohort raster", L.cohort}, {"cohort raster with SK", L.cohort && L.sk_blocks > 0},
            {"dp_first_wave_tiles > 1", L.dp_first > 1},
            {"padding launches", L.launches > L.sk_waves * L.sms + L.dp_blocks}};
        for (const auto &[c, on] : classes)
            seen[c] += on;
    }
    EXPECT_GE(seen["accepted"], 200);
    for (const auto &[c, count] : seen) {   // every class met at least once
        printf("  %-28s %d\n", c.c_str(), count);
        EXPECT_GT(count, 0) << c;
    }
}

// pascal's trace alone: every (tile, K tile) issued once, as a whole
// iteration (A units then B units of one K tile, one CTA); every D tile
// written once, after all its iterations; every partial-sum read after an
// unread write of its slot, and every write read.
TEST(StreamK, EveryIterationOnce)
{
    int checked = 0;
    for (const Shape &h : sweep()) {
        if (construct(h).reduction > 0)
            continue;
        SHAPE_TRACE(h);
        pascal_workload w;
        Walk W;
        ASSERT_EQ(pascal_trace(h, w, W), PASCAL_WL_OK);
        const Geometry &g = W.g;
        const int64_t nt = W.n_t, N = W.N, per = g.ua + g.ub, n = int64_t(W.trace.size());
        std::vector<int> iters(W.m_t * nt * N, 0), left(W.m_t * nt, int(N)), d(W.m_t * nt, 0);
        std::map<int64_t, int> unread;
        for (int64_t x = 0; x < n; x++) {
            const Acc &a = W.trace[x];
            if (a.what == PASCAL_ACCESS_BLOCK) {   // ua A units of row i, ub B units of column j
                int64_t i = a.key[1], j = x + g.ua < n ? W.trace[x + g.ua].key[1] : -1, kt = a.key[3];
                bool ok = x + per <= n && i < W.m_t && j >= 0 && j < nt && kt < N;
                for (int64_t v = 0; v < per && ok; v++) {
                    const Acc &b = W.trace[x + v];
                    bool isa = v < g.ua;
                    ok = b.what == PASCAL_ACCESS_BLOCK && b.key[0] == !isa && b.key[1] == (isa ? i : j) &&
                         b.key[2] == (isa ? v : v - g.ua) && b.key[3] == kt && W.cta[x + v] == W.cta[x];
                }
                ASSERT_TRUE(ok) << "access " << x << " does not start a whole iteration";
                iters[(i * nt + j) * N + kt]++, left[i * nt + j]--;
                x += per - 1;
            } else if (a.key[0] == 0) {   // a D tile
                EXPECT_EQ(a.what, PASCAL_ACCESS_OUT);
                int64_t t = a.key[1] * nt + a.key[2];
                EXPECT_EQ(left[t], 0) << "D tile " << t << " written before its last iteration";
                d[t]++;
            } else if (a.what == PASCAL_ACCESS_OUT) {
                EXPECT_LT(a.key[1], W.m_t * nt + w.sk.sk_blocks) << "slot past the SK blocks";
                unread[a.key[1]]++;
            } else {
                ASSERT_GT(unread[a.key[1]]--, 0) << "slot " << a.key[1] << " read unwritten at " << x;
            }
        }
        EXPECT_TRUE(std::all_of(iters.begin(), iters.end(), [](int c) { return c == 1; }));
        EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](int c) { return c == 1; }));
        for (const auto &kv : unread)
            EXPECT_EQ(kv.second, 0) << "slot " << kv.first << ": a partial sum never read";
        ASSERT_FALSE(HasFailure());
        checked++;
    }
    EXPECT_GE(checked, 200);
}
