// Tests for the multi-stream static model (model/static_multi.h): S streams
// sharing one cache.  Every closed form is compared with a brute force
// written here on the actual request trace (built here, not by the model's
// trace generator): reuse distances read off the trace, a fully associative
// LRU replay, a slotted-TTL replay and its boundary occupancy, the time
// since each request's previous request (Theorem 4's intervals), and
// Belady's MIN (model/replay.h, an independent simulator) above the
// residency bound.  Exhaustive tiny cases cover every phase vector, every
// interleaving of the streams in the round and every capacity; seeded
// larger ones go through the fast simulators.  S = 1 must reproduce the
// single-stream workspace exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "model/replay.h"
#include "model/replay_streams.h"
#include "model/static.h"
#include "model/static_multi.h"
#include "model/streams.h"

namespace {

using Vec = std::vector<int64_t>;

constexpr double kExact = 1e-12;      // small integers in doubles
constexpr double kBoundSlack = 1e-9;  // Theorem 4 vs replayed integers
constexpr unsigned kAll = PASCAL_STATIC_RD | PASCAL_STATIC_DELTA;

struct WsDeleter {
    void operator()(pascal_static *ws) const { pascal_static_free(ws); }
};
using Ws = std::unique_ptr<pascal_static, WsDeleter>;

// One instance: streams' ring sizes, and per request (in within-round
// order) its stream and phase.
struct Inst {
    Vec N, stream, phase;
    pascal_streams view() const
    {
        return {(int64_t)N.size(), N.data(), (int64_t)stream.size(), stream.data(),
                phase.data(), nullptr};
    }
    int64_t total() const
    {
        int64_t t = 0;
        for (int64_t n : N)
            t += n;
        return t;
    }
    int64_t max_n() const { return *std::max_element(N.begin(), N.end()); }
};

// ---- brute force --------------------------------------------------------

// Rounds 0..rounds-1; block b of stream s has id (sum of earlier N) + b.
Vec trace_of(const Inst &in, int64_t rounds)
{
    Vec base(in.N.size(), 0), t;
    for (size_t s = 1; s < in.N.size(); s++)
        base[s] = base[s - 1] + in.N[s - 1];
    for (int64_t r = 0; r < rounds; r++)
        for (size_t g = 0; g < in.stream.size(); g++) {
            int64_t s = in.stream[g];
            t.push_back(base[(size_t)s] + (r + in.phase[g]) % in.N[(size_t)s]);
        }
    return t;
}

// Distinct blocks strictly between request t and the previous request to
// its block; -1 if none.
int64_t rd_at(const Vec &trace, size_t t)
{
    std::vector<char> seen(trace.size() + 1, 0);
    std::map<int64_t, int> distinct;
    for (size_t u = t; u-- > 0;) {
        if (trace[u] == trace[t])
            return (int64_t)distinct.size();
        distinct[trace[u]] = 1;
    }
    return -1;
}

// Requests since the previous request to the same block (Theorem 4's
// interval in units of 1/R round); -1 if none.
int64_t gap_at(const Vec &trace, size_t t)
{
    for (size_t u = t; u-- > 0;)
        if (trace[u] == trace[t])
            return (int64_t)(t - u);
    return -1;
}

// Slotted TTL, window T rounds: request in round r misses iff its block was
// requested in none of rounds r-T..r before it.  Per-request verdicts of
// round `at`, and the boundary occupancy before it.
std::vector<int> ttl_round(const Inst &in, int64_t T, int64_t at, int64_t *occupancy)
{
    int64_t R = (int64_t)in.stream.size();
    Vec tr = trace_of(in, at + 1);
    std::map<int64_t, int64_t> last;   // block -> round of latest request
    std::vector<int> miss((size_t)R, 0);
    for (int64_t r = 0; r <= at; r++) {
        if (r == at) {
            *occupancy = 0;
            for (auto &kv : last)
                *occupancy += kv.second >= at - T;
        }
        for (int64_t g = 0; g < R; g++) {
            int64_t b = tr[(size_t)(r * R + g)];
            auto it = last.find(b);
            bool hit = it != last.end() && it->second >= r - T;
            if (r == at)
                miss[(size_t)g] = !hit;
            last[b] = r;
        }
    }
    return miss;
}

// Equal, or both NaN (a query outside its theorem's conditions).
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// ---- one instance against everything ------------------------------------

void check_instance(pascal_static *ws, const Inst &in, bool exhaustive_c)
{
    pascal_streams st = in.view();
    int64_t R = st.R, S = st.S, Nt = in.total(), W = in.max_n();
    ASSERT_EQ(pascal_static_prepare_streams(ws, &st, kAll), 0);
    ASSERT_EQ(pascal_static_N(ws), Nt);
    ASSERT_EQ(pascal_static_M(ws), R);
    ASSERT_EQ(pascal_static_S(ws), S);
    // Round W is in steady state; rounds 0..2W give every interval.
    Vec tr = trace_of(in, W + 1);
    const int64_t *rd = pascal_static_rd(ws), *dn = pascal_static_delta_num(ws);
    int64_t dsum = 0;
    for (int64_t g = 0; g < R; g++) {
        size_t t = (size_t)(W * R + g);
        ASSERT_EQ(rd[g], rd_at(tr, t)) << "request " << g;
        ASSERT_EQ(dn[g], gap_at(tr, t)) << "request " << g;
        dsum += dn[g];
    }
    EXPECT_EQ(dsum, Nt * R);   // the intervals tile N_total rounds per round
    // Lemma 1 per stream: gaps sum to each N_s, all of them to N_total.
    int64_t gsum = 0;
    for (int64_t k = 0; k < pascal_static_D(ws); k++)
        gsum += pascal_static_gaps(ws)[k];
    EXPECT_EQ(gsum, Nt);

    size_t bytes = pascal_static_summary_bytes(ws);
    std::vector<int64_t> mem(bytes / 8 + 1);
    const pascal_static *sum = pascal_static_summarize(ws, mem.data(), bytes);
    ASSERT_NE(sum, nullptr);

    int64_t c_lo = exhaustive_c ? 1 : std::max<int64_t>(1, Nt / 3);
    int64_t c_hi = exhaustive_c ? Nt + 1 : std::min(Nt + 1, c_lo + 3);
    for (int64_t C = c_lo; C <= c_hi; C++) {
        // Exact LRU: a request misses iff its RD >= C, per stream too.
        std::vector<int64_t> per((size_t)S, 0);
        int64_t k = 0;
        for (int64_t g = 0; g < R; g++)
            if (rd_at(tr, (size_t)(W * R + g)) >= C)
                per[(size_t)in.stream[(size_t)g]]++, k++;
        EXPECT_NEAR(pascal_static_k_lru(ws, C), (double)k, kExact) << "C " << C;
        EXPECT_NEAR(pascal_static_k_sdcm(ws, C, C), (double)k, 1e-9);
        for (int64_t s = 0; s < S; s++)
            EXPECT_NEAR(pascal_static_stream_k_lru(ws, s, C), (double)per[(size_t)s], kExact);
        // Theorem 2 with the shared window T*; its occupancy is U(T*) <= C.
        if (C < Nt) {
            int64_t T = pascal_static_tstar(ws, C), occ = -1;
            ASSERT_GE(T, 0);
            std::vector<int> miss = ttl_round(in, T, W, &occ);
            std::vector<int64_t> tper((size_t)S, 0);
            int64_t kt = 0;
            for (int64_t g = 0; g < R; g++)
                if (miss[(size_t)g])
                    tper[(size_t)in.stream[(size_t)g]]++, kt++;
            EXPECT_EQ(pascal_static_k_ttl(ws, C), kt) << "C " << C;
            EXPECT_EQ(occ, pascal_static_U(ws, T));
            EXPECT_LE(occ, C);
            for (int64_t s = 0; s < S; s++)
                EXPECT_EQ(pascal_static_stream_k_ttl(ws, s, C), tper[(size_t)s]);
        }
        // Theorem 3 where D <= C, whole and per stream.
        if (pascal_static_D(ws) <= C) {
            double lo, hi;
            pascal_static_lru_band(ws, C, &lo, &hi);
            EXPECT_LE(lo, (double)k);
            EXPECT_GE(hi, (double)k);
            for (int64_t s = 0; s < S; s++) {
                pascal_static_stream_lru_band(ws, s, C, &lo, &hi);
                EXPECT_LE(lo, (double)per[(size_t)s]) << "C " << C << " s " << s;
                EXPECT_GE(hi, (double)per[(size_t)s]) << "C " << C << " s " << s;
            }
        }
        // The summary answers every per-capacity query the same way.
        double a, b, c, d;
        EXPECT_EQ(pascal_static_k_lru(sum, C), pascal_static_k_lru(ws, C));
        EXPECT_EQ(pascal_static_k_ttl(sum, C), pascal_static_k_ttl(ws, C));
        EXPECT_EQ(pascal_static_residency(sum, C), pascal_static_residency(ws, C));
        EXPECT_TRUE(same(pascal_static_margin(sum, C, 0.5), pascal_static_margin(ws, C, 0.5)));
        EXPECT_TRUE(same(pascal_static_theta(sum, C), pascal_static_theta(ws, C)));
        EXPECT_EQ(pascal_static_k_bound(sum, C, 40.0), pascal_static_k_bound(ws, C, 40.0));
        pascal_static_lru_band(sum, C, &a, &b);
        pascal_static_lru_band(ws, C, &c, &d);
        EXPECT_TRUE((std::isnan(a) && std::isnan(c)) || (a == c && b == d));
        for (int64_t s = 0; s < S; s++) {
            EXPECT_EQ(pascal_static_stream_k_lru(sum, s, C), pascal_static_stream_k_lru(ws, s, C));
            EXPECT_EQ(pascal_static_stream_k_ttl(sum, s, C), pascal_static_stream_k_ttl(ws, s, C));
        }
    }
    EXPECT_EQ(pascal_static_rd(sum), nullptr);
    EXPECT_EQ(pascal_static_gaps(sum), nullptr);
    EXPECT_EQ(pascal_static_prepare(const_cast<pascal_static *>(sum), in.phase.data(), 1, 1, 0), -1);
}

// Theorem 4 against Belady on the empty-cache trace of H = 6 Nmax rounds.
void check_belady(pascal_static *ws, const Inst &in, int64_t C)
{
    pascal_streams st = in.view();
    int64_t H = 6 * in.max_n(), Nt = in.total();
    ASSERT_EQ(pascal_static_prepare_streams(ws, &st, kAll), 0);
    Vec tr = trace_of(in, H);
    pascal_opt *opt = pascal_opt_create(Nt, (int64_t)tr.size());
    ASSERT_NE(opt, nullptr);
    int64_t misses = pascal_opt_replay(opt, tr.data(), (int64_t)tr.size(), C);
    pascal_opt_free(opt);
    ASSERT_GE(misses, 0);
    EXPECT_GE((double)misses / (double)H, pascal_static_k_bound(ws, C, (double)H) - kBoundSlack)
        << "C " << C;
}

// Every interleaving of the streams' requests: positions of each stream in
// the round, as a sequence of stream ids with the given counts.
void each_order(const Vec &counts, std::vector<Vec> &out)
{
    Vec seq;
    for (size_t s = 0; s < counts.size(); s++)
        for (int64_t i = 0; i < counts[s]; i++)
            seq.push_back((int64_t)s);
    std::sort(seq.begin(), seq.end());
    do
        out.push_back(seq);
    while (std::next_permutation(seq.begin(), seq.end()));
}

// Every instance with the given ring sizes and request counts.
int64_t run_exhaustive(pascal_static *ws, const Vec &N, const Vec &M)
{
    std::vector<Vec> orders;
    each_order(M, orders);
    int64_t R = 0, codes = 1, n = 0;
    for (size_t s = 0; s < N.size(); s++) {
        R += M[s];
        for (int64_t i = 0; i < M[s]; i++)
            codes *= N[s];
    }
    for (const Vec &order : orders)
        for (int64_t code = 0; code < codes; code++) {
            Inst in{N, order, Vec((size_t)R)};
            int64_t x = code;
            for (int64_t g = 0; g < R; g++) {
                int64_t ns = N[(size_t)order[(size_t)g]];
                in.phase[(size_t)g] = x % ns;
                x /= ns;
            }
            check_instance(ws, in, true);
            if (::testing::Test::HasFailure())
                return n;
            n++;
        }
    return n;
}

TEST(ModelStreams, ExhaustiveTwoStreamsMatchReplay)
{
    Ws ws(pascal_static_create(8));
    int64_t n = 0;
    for (int64_t n1 = 1; n1 <= 3; n1++)
        for (int64_t n2 = 1; n2 <= 3; n2++)
            for (int64_t m1 = 1; m1 <= 2; m1++)
                for (int64_t m2 = 1; m2 <= 2; m2++) {
                    n += run_exhaustive(ws.get(), {n1, n2}, {m1, m2});
                    ASSERT_FALSE(HasFailure()) << "N " << n1 << "," << n2 << " M " << m1 << "," << m2;
                }
    EXPECT_GT(n, 1000);
}

TEST(ModelStreams, ExhaustiveThreeStreamsMatchReplay)
{
    Ws ws(pascal_static_create(8));
    for (int64_t a = 1; a <= 2; a++)
        for (int64_t b = 1; b <= 2; b++)
            for (int64_t c = 1; c <= 3; c++) {
                run_exhaustive(ws.get(), {a, b, c}, {1, 1, 2});
                ASSERT_FALSE(HasFailure());
            }
}

// A random instance: S streams, random sizes, requests in random order.
Inst random_inst(std::mt19937_64 &rng, int64_t max_S, int64_t max_N, int64_t max_M)
{
    Inst in;
    int64_t S = 1 + (int64_t)(rng() % (uint64_t)max_S);
    for (int64_t s = 0; s < S; s++) {
        in.N.push_back(1 + (int64_t)(rng() % (uint64_t)max_N));
        int64_t m = 1 + (int64_t)(rng() % (uint64_t)max_M);
        bool cluster = rng() % 2;   // half the streams keep few distinct phases
        int64_t c0 = (int64_t)(rng() % (uint64_t)in.N.back());
        for (int64_t i = 0; i < m; i++) {
            in.stream.push_back(s);
            int64_t p = cluster ? (c0 + (int64_t)(rng() % 3)) : (int64_t)(rng() % (uint64_t)in.N.back());
            in.phase.push_back(p % in.N.back());
        }
    }
    // Shuffle the within-round order, keeping (stream, phase) pairs.
    for (size_t i = in.stream.size(); i > 1; i--) {
        size_t j = (size_t)(rng() % i);
        std::swap(in.stream[i - 1], in.stream[j]);
        std::swap(in.phase[i - 1], in.phase[j]);
    }
    return in;
}

TEST(ModelStreams, SeededInstancesMatchReplay)
{
    std::mt19937_64 rng(20250611);
    Ws ws(pascal_static_create(64));
    for (int i = 0; i < 120; i++) {
        Inst in = random_inst(rng, 5, 12, 6);
        check_instance(ws.get(), in, false);
        ASSERT_FALSE(HasFailure()) << "instance " << i;
        int64_t C = 1 + (int64_t)(rng() % (uint64_t)in.total());
        check_belady(ws.get(), in, C);
        ASSERT_FALSE(HasFailure()) << "instance " << i;
    }
}

TEST(ModelStreams, ExhaustiveBeladyAboveResidencyBound)
{
    Ws ws(pascal_static_create(8));
    for (int64_t n1 = 1; n1 <= 3; n1++)
        for (int64_t n2 = 1; n2 <= 3; n2++)
            for (int64_t p = 0; p < n1 * n2 * n2; p++) {
                // Stream 0: one request; stream 1: two, around it.
                Inst in{{n1, n2}, {1, 0, 1}, {(p / n1) % n2, p % n1, p / (n1 * n2)}};
                for (int64_t C = 1; C < n1 + n2; C++)
                    check_belady(ws.get(), in, C);
                ASSERT_FALSE(HasFailure());
            }
}

// Larger instances through the fast simulators (stack-distance LRU, TTL).
TEST(ModelStreams, LargerInstancesMatchFastReplays)
{
    std::mt19937_64 rng(77);
    Ws ws(pascal_static_create(512));
    for (int i = 0; i < 40; i++) {
        Inst in = random_inst(rng, 12, 300, 40);
        pascal_streams st = in.view();
        int64_t Nt = in.total(), R = st.R;
        ASSERT_EQ(pascal_static_prepare_streams(ws.get(), &st, kAll), 0);
        pascal_lru *lru = pascal_lru_create(Nt);
        pascal_ttl *ttl = pascal_ttl_create(Nt);
        Vec off((size_t)st.S), round((size_t)R), rd((size_t)R);
        int64_t C = 1 + (int64_t)(rng() % (uint64_t)(Nt - 1 > 0 ? Nt - 1 : 1));
        int64_t k = pascal_replay_streams_lru(lru, &st, C, off.data(), round.data(), rd.data());
        EXPECT_NEAR(pascal_static_k_lru(ws.get(), C), (double)k, kExact);
        for (int64_t g = 0; g < R; g++)
            ASSERT_EQ(pascal_static_rd(ws.get())[g], rd[(size_t)g]) << "instance " << i;
        if (C < Nt) {
            int64_t T = pascal_static_tstar(ws.get(), C), occ = -1;
            int64_t kt = pascal_replay_streams_ttl(ttl, &st, T, off.data(), round.data(), &occ);
            EXPECT_EQ(pascal_static_k_ttl(ws.get(), C), kt);
            EXPECT_EQ(pascal_static_U(ws.get(), T), occ);
        }
        pascal_lru_free(lru);
        pascal_ttl_free(ttl);
    }
}

// S = 1 reduces exactly to the single-stream workspace: same gaps, reuse
// distances, intervals and answers at every capacity.
TEST(ModelStreams, OneStreamIsTheSingleStreamModel)
{
    std::mt19937_64 rng(5);
    Ws a(pascal_static_create(64)), b(pascal_static_create(64));
    for (int i = 0; i < 300; i++) {
        int64_t N = 1 + (int64_t)(rng() % 50), M = 1 + (int64_t)(rng() % 40);
        Vec ph((size_t)M), zero((size_t)M, 0);
        for (auto &p : ph)
            p = (int64_t)(rng() % (uint64_t)N);
        pascal_streams st{1, &N, M, zero.data(), ph.data(), nullptr};
        ASSERT_EQ(pascal_static_prepare(a.get(), ph.data(), M, N, kAll), 0);
        ASSERT_EQ(pascal_static_prepare_streams(b.get(), &st, kAll), 0);
        int64_t D = pascal_static_D(a.get());
        ASSERT_EQ(pascal_static_D(b.get()), D);
        EXPECT_TRUE(std::equal(pascal_static_gaps(a.get()), pascal_static_gaps(a.get()) + D,
                               pascal_static_gaps(b.get())));
        EXPECT_TRUE(std::equal(pascal_static_rd(a.get()), pascal_static_rd(a.get()) + M,
                               pascal_static_rd(b.get())));
        EXPECT_TRUE(std::equal(pascal_static_delta_num(a.get()), pascal_static_delta_num(a.get()) + M,
                               pascal_static_delta_num(b.get())));
        for (int64_t C = 1; C <= N + 1; C++) {
            EXPECT_EQ(pascal_static_k_ttl(a.get(), C), pascal_static_k_ttl(b.get(), C));
            EXPECT_EQ(pascal_static_k_lru(a.get(), C), pascal_static_k_lru(b.get(), C));
            EXPECT_EQ(pascal_static_residency(a.get(), C), pascal_static_residency(b.get(), C));
            EXPECT_EQ(pascal_static_stream_k_lru(a.get(), 0, C), pascal_static_k_lru(a.get(), C));
            EXPECT_EQ(pascal_static_stream_k_ttl(b.get(), 0, C), pascal_static_k_ttl(a.get(), C));
            EXPECT_TRUE(same(pascal_static_theta(a.get(), C), pascal_static_theta(b.get(), C)));
        }
        ASSERT_FALSE(HasFailure()) << "case " << i;
    }
}

// Two streams that never share: with a cache that holds stream 0 whole but
// not both, stream 0 keeps hitting while stream 1 (a long ring with one
// reader) misses every round: the shared water level decides who keeps its
// blocks.
TEST(ModelStreams, SharedWaterLevelHandPicked)
{
    Ws ws(pascal_static_create(8));
    // Stream 0: N = 4, two readers at phases 0 and 2 (gaps 2, 2);
    // stream 1: N = 20, one reader (gap 20).  Gaps {2, 2, 20}, N_total 24.
    Vec N{4, 20}, stream{0, 1, 0}, phase{0, 7, 2};
    pascal_streams st{2, N.data(), 3, stream.data(), phase.data(), nullptr};
    ASSERT_EQ(pascal_static_prepare_streams(ws.get(), &st, kAll), 0);
    // C = 8: U(t) = 2 + 2 + t for 2 <= t <= 20, so theta = 4, T* = 4.
    EXPECT_DOUBLE_EQ(pascal_static_theta(ws.get(), 8), 4.0);
    EXPECT_EQ(pascal_static_k_ttl(ws.get(), 8), 1);
    EXPECT_EQ(pascal_static_stream_k_ttl(ws.get(), 0, 8), 0);
    EXPECT_EQ(pascal_static_stream_k_ttl(ws.get(), 1, 8), 1);
    // C = 3: U(1) = 3, theta = 1 < 2, every gap above it.
    EXPECT_EQ(pascal_static_k_ttl(ws.get(), 3), 3);
}

TEST(ModelStreams, RejectsMalformedDescriptions)
{
    Ws ws(pascal_static_create(4));
    Vec N{3, 2}, stream{0, 1}, phase{0, 1}, cnt(2);
    pascal_streams ok{2, N.data(), 2, stream.data(), phase.data(), nullptr};
    EXPECT_EQ(pascal_streams_check(&ok, cnt.data()), 0);
    EXPECT_EQ(cnt[0], 1);
    Vec bad_phase{0, 2}, bad_stream{0, 2}, lonely{0, 0}, zeroN{3, 0};
    pascal_streams p1 = ok, p2 = ok, p3 = ok, p4 = ok, p5 = ok;
    p1.phase = bad_phase.data();   // phase 2 on a ring of 2
    p2.stream = bad_stream.data(); // stream 2 of 2
    p3.stream = lonely.data();     // stream 1 has no request
    p4.N = zeroN.data();
    p5.R = 5;                      // more requests than the workspace holds
    for (pascal_streams *p : {&p1, &p2, &p3, &p4})
        EXPECT_EQ(pascal_streams_check(p, cnt.data()), -1);
    for (pascal_streams *p : {&p1, &p2, &p3, &p4, &p5})
        EXPECT_EQ(pascal_static_prepare_streams(ws.get(), p, kAll), -1);
    // A failed prepare leaves the workspace unprepared.
    EXPECT_EQ(pascal_static_D(ws.get()), 0);
    EXPECT_EQ(pascal_static_stream_N(ws.get(), 0), -1);
    EXPECT_EQ(pascal_static_summary_bytes(ws.get()), 0u);
}

} // namespace
