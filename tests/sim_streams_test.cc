// Tests for the progress simulator over several streams (model/sim.h,
// pascal_sim_work; model/sim_work.c).  The cache is checked against
// independent references: with a grid barrier per round the steady-state
// fills per round equal the exact multi-stream LRU replay of
// model/replay_streams.h on every small instance (streams, ring sizes,
// within-round orders, owners, phases, capacities) and on seeded larger
// ones; the open scan's cache is a naive LRU over its own request log and
// every CTA reads each block of its streams once.  The timing is checked
// against Theorem 6 with a step's requests as one stage (eq. 11 with beta
// the step's consume time), and a table that describes one ring gives the
// plain run bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "model/progress.h"
#include "model/replay.h"
#include "model/replay_streams.h"
#include "model/sim.h"
#include "model/streams.h"

namespace {

using Vec = std::vector<int64_t>;

// A device with high-entropy values (none is a round number).
pascal_sim_timing test_timing()
{
    pascal_sim_timing t{};
    t.hit_ns = 241.3;
    t.l2_bytes_per_ns = 2087.9;
    t.sm_bytes_per_ns = 39.7;
    t.sm_spread = 0.0413;
    t.dram_ns = 173.1;
    t.dram_bytes_per_ns = 266.9;
    t.consume_ns = 51.7;
    t.loop_ns = 9.3;
    t.wmma_ns = 12.9;
    t.wmma_sm_ns = 7.1;
    t.launch_ns = 203.0;
    t.barrier_ns = 1011.0;
    t.jitter_ns = 0;
    return t;
}

struct Sim {
    pascal_sim *ws = nullptr;
    ~Sim() { pascal_sim_free(ws); }
    int run(const pascal_sim_timing &t, const pascal_sim_config &c, pascal_sim_result *r)
    {
        EXPECT_EQ(pascal_sim_fit(&ws, &c), 0);
        return pascal_sim_run(ws, &t, &c, r);
    }
};

// One multi-stream instance and its work table.
struct Inst {
    Vec N, stream, phase, owner;
    Vec base, len, ph, off;
    pascal_sim_work work{};
    pascal_streams view() const
    {
        return {(int64_t)N.size(), N.data(), (int64_t)stream.size(), stream.data(), phase.data(),
                owner.empty() ? nullptr : owner.data()};
    }
    int table()
    {
        size_t R = stream.size();
        base.assign(R, 0), len.assign(R, 0), ph.assign(R, 0), off.assign(N.size(), 0);
        pascal_streams st = view();
        return pascal_sim_work_of_streams(&st, base.data(), len.data(), ph.data(), off.data(),
                                          &work);
    }
    int64_t total() const
    {
        int64_t t = 0;
        for (int64_t n : N)
            t += n;
        return t;
    }
};

// Misses of round Nmax after Nmax warm-up rounds: the exact replay.
int64_t replay_k(Inst &in, int64_t C)
{
    pascal_lru *lru = pascal_lru_create(in.total());
    Vec off(in.N.size()), round(in.stream.size());
    pascal_streams st = in.view();
    int64_t k = pascal_replay_streams_lru(lru, &st, C, off.data(), round.data(), nullptr);
    pascal_lru_free(lru);
    return k;
}

// The barrier scan of the instance's one wave for 2 Nmax rounds: its
// K_steady measures rounds Nmax..2Nmax-1.
pascal_sim_config barrier_config(const Inst &in, int64_t C, int64_t sms)
{
    pascal_sim_config c = pascal_sim_default_config();
    int64_t nmax = *std::max_element(in.N.begin(), in.N.end());
    c.sms = sms;
    c.occupancy = in.work.ctas / sms;
    c.N = 2 * nmax;
    c.C = C;
    c.barrier = 1;
    c.work = &in.work;
    return c;
}

// Every distinct ordering of a multiset of stream labels.
std::vector<Vec> orders_of(Vec labels)
{
    std::vector<Vec> out;
    std::sort(labels.begin(), labels.end());
    do
        out.push_back(labels);
    while (std::next_permutation(labels.begin(), labels.end()));
    return out;
}

// Owners grouping consecutive requests `units` at a time (0: none given).
Vec owners_of(int64_t R, int64_t units)
{
    Vec o;
    for (int64_t g = 0; units && g < R; g++)
        o.push_back(100 - g / units); // any distinct labels
    return o;
}

// Every instance with S = 2 (N_s <= 3, M_s <= 2) and S = 3 (N_s <= 3,
// M_s = 1): every within-round order, every phase vector, every grouping
// of consecutive requests into equal CTAs, every capacity 1..N_total + 1.
TEST(SimStreams, BarrierEqualsExactReplayOnEverySmallInstance)
{
    Sim sim;
    pascal_sim_timing t = test_timing();
    int64_t cases = 0;
    for (int S = 2; S <= 3; S++) {
        int64_t shapes = 1;
        for (int s = 0; s < S; s++)
            shapes *= S == 2 ? 6 : 3; // (N_s, M_s): 3 x 2 for S = 2, 3 x 1 for S = 3
        for (int64_t code = 0; code < shapes; code++) {
            Inst in;
            Vec labels;
            for (int64_t s = 0, x = code; s < S; s++) {
                int64_t k = S == 2 ? x % 6 : x % 3;
                x /= S == 2 ? 6 : 3;
                in.N.push_back(1 + k % 3);
                for (int64_t m = 0; m < 1 + k / 3; m++)
                    labels.push_back(s);
            }
            int64_t R = (int64_t)labels.size();
            for (const Vec &order : orders_of(labels)) {
                int64_t combos = 1;
                for (int64_t s : order)
                    combos *= in.N[(size_t)s];
                for (int64_t pc = 0; pc < combos; pc++)
                    for (int64_t units = 0; units <= R; units++) {
                        if (units && R % units)
                            continue;
                        in.stream = order;
                        in.phase.clear();
                        for (int64_t g = 0, x = pc; g < R; g++) {
                            in.phase.push_back(x % in.N[(size_t)order[(size_t)g]]);
                            x /= in.N[(size_t)order[(size_t)g]];
                        }
                        in.owner = owners_of(R, units);
                        ASSERT_EQ(in.table(), 0);
                        ASSERT_EQ(in.work.units, units ? units : 1);
                        for (int64_t C = 1; C <= in.total() + 1; C++) {
                            pascal_sim_result r;
                            int64_t sms = pc % 2 ? in.work.ctas : 1;
                            ASSERT_EQ(sim.run(t, barrier_config(in, C, sms), &r), PASCAL_SIM_OK);
                            ASSERT_EQ(r.K_steady, (double)replay_k(in, C))
                                << "S " << S << " shape " << code << " phases " << pc
                                << " units " << units << " C " << C;
                            cases++;
                        }
                    }
            }
        }
    }
    // Instances x orders x phase vectors x groupings (owner none or CTAs of
    // every divisor of R) x capacities, as a separate enumeration counts them.
    EXPECT_EQ(cases, 70152);
}

// Seeded larger instances: up to 8 streams of up to 60 blocks, CTAs of 1-4
// requests on random streams and phases, several SMs, jitter and seeds.
TEST(SimStreams, BarrierEqualsExactReplayOnSeededLargerInstances)
{
    Sim sim;
    std::mt19937_64 rng(20261130);
    for (int k = 0; k < 300; k++) {
        pascal_sim_timing t = test_timing();
        Inst in;
        int64_t S = 1 + (int64_t)(rng() % 8), units = 1 + (int64_t)(rng() % 4);
        int64_t sms = 1 + (int64_t)(rng() % 4), ctas = sms * (1 + (int64_t)(rng() % 6));
        for (int64_t s = 0; s < S; s++)
            in.N.push_back(1 + (int64_t)(rng() % 60));
        for (int64_t g = 0; g < ctas * units; g++) {
            int64_t s = g < S ? g : (int64_t)(rng() % (uint64_t)S); // every stream read
            in.stream.push_back(s);
            in.phase.push_back((int64_t)(rng() % (uint64_t)in.N[(size_t)s]));
            in.owner.push_back(g / units);
        }
        if ((int64_t)in.stream.size() < S)
            continue;
        std::shuffle(in.stream.begin(), in.stream.end(), rng);
        for (size_t g = 0; g < in.stream.size(); g++)
            in.phase[g] = (int64_t)(rng() % (uint64_t)in.N[(size_t)in.stream[g]]);
        ASSERT_EQ(in.table(), 0);
        int64_t C = 1 + (int64_t)(rng() % (uint64_t)(in.total() + 5));
        t.jitter_ns = (double)(rng() % 400);
        pascal_sim_config c = barrier_config(in, C, sms);
        c.seed = rng();
        pascal_sim_result r;
        ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
        ASSERT_EQ(r.K_steady, (double)replay_k(in, C)) << "case " << k;
        EXPECT_EQ(r.requests, c.N * ctas * units);
        EXPECT_EQ(r.hits + r.merged + r.fills, r.requests);
    }
}

// A table that describes the one ring (one request per CTA, base 0, phase
// 0) is the plain run, bit for bit: results, per-wave K and request log.
TEST(SimStreams, OneRingTableIsThePlainRun)
{
    for (int path = 0; path < 2; path++)
        for (int64_t d : {1, 2, 4})
            for (int64_t o : {1, 2, 3}) {
                if (path == PASCAL_SIM_SYNC && d > 1)
                    continue;
                pascal_sim_timing t = test_timing();
                t.jitter_ns = 41.9;
                t.sm_spread = 0.2;
                pascal_sim_config c = pascal_sim_default_config();
                c.sms = 3, c.occupancy = o, c.path = path, c.depth = d, c.compute = 3;
                c.N = 83, c.C = 29, c.W = 4.5, c.seed = 7;
                int64_t ctas = llround(c.W * (double)(c.sms * o)), n = ctas * c.N;
                Vec base((size_t)ctas, 0), len((size_t)ctas, c.N), ph((size_t)ctas, 0);
                pascal_sim_work work{ctas, 1, c.N, base.data(), len.data(), ph.data()};
                double kw[2][16];
                std::vector<int32_t> blk[2];
                std::vector<uint8_t> out[2];
                pascal_sim_result r[2];
                for (int k = 0; k < 2; k++) {
                    Sim sim;
                    blk[k].assign((size_t)n, 0), out[k].assign((size_t)n, 0);
                    pascal_sim_config ck = c;
                    ck.work = k ? &work : nullptr;
                    ck.K_wave = kw[k], ck.max_waves = 16;
                    ck.req_max = n, ck.req_block = blk[k].data(), ck.req_outcome = out[k].data();
                    ASSERT_EQ(sim.run(t, ck, &r[k]), PASCAL_SIM_OK);
                }
                EXPECT_EQ(std::memcmp(&r[0], &r[1], sizeof r[0]), 0) << path << d << o;
                EXPECT_EQ(std::memcmp(kw[0], kw[1], sizeof kw[0]), 0);
                EXPECT_EQ(blk[0], blk[1]);
                EXPECT_EQ(out[0], out[1]);
            }
}

// A GEMM-like table: CTA c reads A panel c / 4 (two unit streams) and B
// panel c mod 4, rings of 37 blocks, phases spread.
struct Panels {
    int64_t ctas = 24, units = 3, N = 37;
    Vec base, len, ph;
    pascal_sim_work work{};
    Panels()
    {
        for (int64_t c = 0; c < ctas; c++) {
            int64_t a = c / 4, b = c % 4, p = (c * 11) % N;
            for (int64_t s : {2 * a, 2 * a + 1, 12 + b}) {
                base.push_back(s * N), len.push_back(N), ph.push_back(p);
            }
        }
        work = {ctas, units, 16 * N, base.data(), len.data(), ph.data()};
    }
};

std::vector<bool> naive_lru_misses(const std::vector<int32_t> &log, int64_t C)
{
    std::vector<int32_t> stack;
    std::vector<bool> miss;
    for (int32_t b : log) {
        auto it = std::find(stack.begin(), stack.end(), b);
        miss.push_back(it == stack.end());
        if (it != stack.end())
            stack.erase(it);
        stack.insert(stack.begin(), b);
        if ((int64_t)stack.size() > C)
            stack.pop_back();
    }
    return miss;
}

// The open scan over several streams: its cache is LRU in the order the
// requests reach it (a naive LRU on its log fills at the same requests),
// and the run reads, CTA by CTA, every block of every stream of the table
// once: the multiset of logged blocks is the table's.
TEST(SimStreams, OpenScanIsLruAndReadsEveryBlockOnce)
{
    for (int path = 0; path < 2; path++) {
        Sim sim;
        Panels pn;
        pascal_sim_timing t = test_timing();
        t.jitter_ns = 250;
        t.sm_spread = 0.3;
        pascal_sim_config c = pascal_sim_default_config();
        c.sms = 4, c.occupancy = 2, c.path = path, c.depth = 3, c.compute = 2;
        c.N = pn.N, c.C = 41, c.work = &pn.work;
        int64_t n = pn.ctas * pn.units * pn.N;
        std::vector<int32_t> blocks((size_t)n);
        std::vector<uint8_t> outcome((size_t)n);
        c.req_max = n, c.req_block = blocks.data(), c.req_outcome = outcome.data();
        pascal_sim_result r;
        ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
        ASSERT_EQ(r.requests, n);
        EXPECT_EQ(r.ctas, pn.ctas);
        EXPECT_EQ(r.waves, 3);
        std::vector<bool> miss = naive_lru_misses(blocks, c.C);
        int64_t fills = 0;
        for (int64_t i = 0; i < n; i++) {
            ASSERT_EQ(outcome[(size_t)i] == 2, miss[(size_t)i]) << "request " << i;
            fills += outcome[(size_t)i] == 2;
        }
        EXPECT_EQ(fills, r.fills);
        std::vector<int32_t> want;
        for (size_t i = 0; i < pn.base.size(); i++)
            for (int64_t b = 0; b < pn.N; b++)
                want.push_back((int32_t)(pn.base[i] + b));
        std::sort(want.begin(), want.end());
        std::sort(blocks.begin(), blocks.end());
        EXPECT_EQ(blocks, want);
        EXPECT_DOUBLE_EQ(r.H, (double)pn.ctas * (double)pn.N / 8.0);
    }
}

// Fixed latencies (no bandwidth limit), u requests per step: a step is one
// pipeline stage, so a lone CTA's period per step is eq. 11 with beta the
// step's consume time u x consume_ns, and the tma depth counts steps
// (the sync path, d = 1: lambda + beta + alpha per step).
TEST(SimStreams, StepPeriodIsTheorem6WithTheStepsConsume)
{
    pascal_sim_timing t = test_timing();
    t.l2_bytes_per_ns = t.sm_bytes_per_ns = t.dram_bytes_per_ns = INFINITY;
    t.sm_spread = 0;
    const int64_t N = 3000;
    for (int64_t u : {2, 3})
        for (int64_t d : {1, 2, 3, 5}) {
            Sim sim;
            Vec base, len, ph;
            for (int64_t c = 0; c < 2; c++) // the second CTA reads the first's streams
                for (int64_t i = 0; i < u; i++)
                    base.push_back(i * N), len.push_back(N), ph.push_back(0);
            pascal_sim_work w1{1, u, u * N, base.data(), len.data(), ph.data()};
            pascal_sim_work w2 = w1;
            w2.ctas = 2;
            pascal_sim_config c = pascal_sim_default_config();
            c.path = d > 1 ? PASCAL_SIM_TMA : PASCAL_SIM_SYNC, c.depth = d, c.compute = 5;
            c.N = N;
            double alpha = t.loop_ns + 5 * t.wmma_ns, beta = (double)u * t.consume_ns;
            double lm = t.hit_ns + t.dram_ns, lh = t.hit_ns;
            std::vector<double> st(2), en(2);
            c.cta_start_ns = st.data(), c.cta_end_ns = en.data();
            pascal_sim_result r;
            c.C = 1, c.work = &w1; // every request misses
            ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
            double p_miss = (en[0] - st[0]) / (double)N;
            c.C = u * N, c.work = &w2; // the second CTA hits everything
            ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
            double p_hit = (en[1] - st[1]) / (double)N;
            double tol = 2 * (lm + beta + alpha) / (double)N;
            // d = 1 is the sync path: the whole latency, then the step.
            auto period = [&](double lambda) {
                return d > 1 ? pascal_thm6_period(alpha, beta, lambda, d) : lambda + beta + alpha;
            };
            EXPECT_NEAR(p_miss, period(lm), tol) << u << " " << d;
            EXPECT_NEAR(p_hit, period(lh), tol) << u << " " << d;
        }
}

TEST(SimStreams, WorkFromStreamsAndItsRefusals)
{
    Inst in;
    in.N = {3, 5};
    in.stream = {0, 1, 1, 0};
    in.phase = {2, 4, 0, 1};
    ASSERT_EQ(in.table(), 0); // no owners: each request its own CTA
    EXPECT_EQ(in.work.ctas, 4);
    EXPECT_EQ(in.work.units, 1);
    EXPECT_EQ(in.work.blocks, 8);
    EXPECT_EQ(in.base, (Vec{0, 3, 3, 0}));
    EXPECT_EQ(in.len, (Vec{3, 5, 5, 3}));
    EXPECT_EQ(in.ph, (Vec{2, 4, 0, 1}));
    in.owner = {7, 7, 9, 9};
    ASSERT_EQ(in.table(), 0);
    EXPECT_EQ(in.work.ctas, 2);
    EXPECT_EQ(in.work.units, 2);
    in.owner = {7, 9, 7, 9}; // owner 7's requests are not adjacent
    EXPECT_EQ(in.table(), -1);
    in.owner = {7, 7, 7, 9}; // CTAs of 3 and 1 requests
    EXPECT_EQ(in.table(), -1);
    in.owner = {7, 7, 7, 7};
    ASSERT_EQ(in.table(), 0);
    EXPECT_EQ(in.work.ctas, 1);
    in.phase[1] = 5; // out of stream 1's ring
    EXPECT_EQ(in.table(), -1);
}

TEST(SimStreams, RejectsBadTables)
{
    pascal_sim_timing t = test_timing();
    Vec base = {0, 10, 20, 30}, len = {10, 10, 10, 10}, ph = {0, 3, 9, 4};
    pascal_sim_work ok{2, 2, 40, base.data(), len.data(), ph.data()};
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 2, c.N = 10, c.C = 7, c.work = &ok;
    Sim sim;
    pascal_sim_result r;
    ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    EXPECT_EQ(r.requests, 40);
    auto bad = [&](auto edit) {
        pascal_sim_work w = ok;
        Vec b = base, l = len, p = ph;
        w.base = b.data(), w.len = l.data(), w.phase = p.data();
        edit(w, b, l, p);
        pascal_sim_config ck = c;
        ck.work = &w;
        return pascal_sim_run(sim.ws, &t, &ck, &r);
    };
    EXPECT_EQ(bad([](pascal_sim_work &w, Vec &, Vec &, Vec &) { w.ctas = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &w, Vec &, Vec &, Vec &) { w.units = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &w, Vec &, Vec &, Vec &) {
                  w.units = PASCAL_SIM_MAX_UNITS + 1;
              }),
              PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &, Vec &b, Vec &, Vec &) { b[3] = 31; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &, Vec &b, Vec &, Vec &) { b[0] = -1; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &, Vec &, Vec &l, Vec &) { l[1] = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &, Vec &, Vec &, Vec &p) { p[2] = 10; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &w, Vec &, Vec &, Vec &) { w.base = nullptr; }),
              PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](pascal_sim_work &w, Vec &, Vec &, Vec &) { w.blocks = 400; }),
              PASCAL_SIM_ESIZE); // more ids than the workspace holds
}

} // namespace
