// The replay sweep models (lru_replay, belady) through a parsed spec and the
// point evaluator: exact LRU replay against the static model's K_lru,
// Belady against a naive Belady of the point's trace written here and
// against the residency bound, the `rounds` default (6N), and the rejection
// of a bad `rounds`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "vocab/params.h"
#include "sweeps/spec.h"

namespace {

using Vec = std::vector<int64_t>;

// Belady by definition on the explicit trace of eq. 1, from empty.
int64_t naive_belady(const Vec &s, int64_t N, int64_t rounds, int64_t C)
{
    Vec t;
    for (int64_t r = 0; r < rounds; r++)
        for (int64_t x : s)
            t.push_back((r + x) % N);
    Vec cache;
    int64_t misses = 0;
    for (size_t i = 0; i < t.size(); i++) {
        if (std::find(cache.begin(), cache.end(), t[i]) != cache.end())
            continue;
        misses++;
        if ((int64_t)cache.size() < C) {
            cache.push_back(t[i]);
            continue;
        }
        size_t victim = 0, far = 0;
        for (size_t j = 0; j < cache.size(); j++) {
            size_t u = i + 1;
            while (u < t.size() && t[u] != cache[j])
                u++;
            if (u > far)
                far = u, victim = j;
        }
        cache[victim] = t[i];
    }
    return misses;
}

struct Spec {
    pascal_spec *s = nullptr;
    ~Spec() { pascal_spec_free(s); }
};

int col_index(const pascal_spec *spec, const char *name)
{
    int id = pascal_column_from_name(name);
    for (int j = 0; j < pascal_spec_ncolumns(spec); j++)
        if (pascal_spec_columns(spec)[j] == id)
            return j;
    return -1;
}

}  // namespace

TEST(ReplaySweep, ReplayColumnsMatchClosedFormsAndNaiveBelady)
{
    const std::string text =
        "name: t\nmodels: [lru, lru_replay, residency, belady]\n"
        "fixed: {N: 23, horizon: 138, pattern: explicit}\n"
        "axes:\n  phases: [[0, 0, 5, 17], [3, 9, 10, 22, 4, 4], [7]]\n"
        "  C: {from: 1, to: 24, step: 1}\n";
    Spec spec;
    pascal_error err = {};
    ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "t.yaml", &spec.s, &err), 0)
        << err.msg;
    int kl = col_index(spec.s, "K_lru"), kr = col_index(spec.s, "K_lru_replay");
    int rr = col_index(spec.s, "rho_lru_replay"), kb = col_index(spec.s, "K_belady");
    int rb = col_index(spec.s, "rho_belady"), bound = col_index(spec.s, "K_bound");
    ASSERT_TRUE(kl >= 0 && kr >= 0 && rr >= 0 && kb >= 0 && rb >= 0 && bound >= 0);
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec.s));
    ASSERT_NE(ev, nullptr);
    int n = pascal_spec_ncolumns(spec.s);
    for (uint64_t i = 0; i < pascal_spec_size(spec.s); i++) {
        pascal_point p;
        ASSERT_EQ(pascal_spec_point(spec.s, i, &p, &err), 1) << err.msg;
        std::vector<double> out((size_t)n);
        ASSERT_EQ(pascal_eval_point(ev, &p, pascal_spec_columns(spec.s), n, out.data()), 0);
        int64_t M = (int64_t)p.v[PASCAL_P_M], C = (int64_t)p.v[PASCAL_P_C];
        SCOPED_TRACE("point " + std::to_string(i));
        EXPECT_EQ(out[(size_t)kr], out[(size_t)kl]);
        EXPECT_DOUBLE_EQ(out[(size_t)rr], out[(size_t)kr] / (double)M);
        // rounds unset: the 6N = 138-round empty-cache trace.
        Vec s(p.phases, p.phases + M);
        EXPECT_DOUBLE_EQ(out[(size_t)kb], (double)naive_belady(s, 23, 138, C) / 138.0);
        EXPECT_DOUBLE_EQ(out[(size_t)rb], out[(size_t)kb] / (double)M);
        EXPECT_GE(out[(size_t)kb], out[(size_t)bound] - 1e-12);
    }
    pascal_eval_free(ev);
}

// An explicit `rounds` sets the Belady trace: 1 round misses each distinct
// block once (4 here); longer traces match the naive Belady.
TEST(ReplaySweep, RoundsSetsTheBeladyTrace)
{
    const std::string text =
        "name: t\nmodels: [belady]\n"
        "fixed: {N: 40, C: 3, pattern: explicit, phases: [0, 3, 3, 17, 30]}\n"
        "axes:\n  rounds: [1, 7, 240]\n";
    Spec spec;
    pascal_error err = {};
    ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "t.yaml", &spec.s, &err), 0)
        << err.msg;
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec.s));
    int kb = col_index(spec.s, "K_belady"), n = pascal_spec_ncolumns(spec.s);
    const Vec s = {0, 3, 3, 17, 30};
    const int64_t rounds[] = {1, 7, 240};
    for (uint64_t i = 0; i < 3; i++) {
        pascal_point p;
        ASSERT_EQ(pascal_spec_point(spec.s, i, &p, &err), 1);
        std::vector<double> out((size_t)n);
        ASSERT_EQ(pascal_eval_point(ev, &p, pascal_spec_columns(spec.s), n, out.data()), 0);
        EXPECT_DOUBLE_EQ(out[(size_t)kb],
                         (double)naive_belady(s, 40, rounds[i], 3) / (double)rounds[i]);
        if (i == 0)
            EXPECT_EQ(out[(size_t)kb], 4.0);
    }
    pascal_eval_free(ev);
}

TEST(ReplaySweep, RejectsBadRounds)
{
    const std::string text = "name: t\nmodels: [belady]\nfixed: {N: 40, M: 5, rounds: 0}\n"
                             "axes:\n  C: [1, 2]\n";
    Spec spec;
    pascal_error err = {};
    EXPECT_NE(pascal_spec_parse(text.c_str(), text.size(), "t.yaml", &spec.s, &err), 0);
    EXPECT_NE(std::string(err.msg).find("rounds"), std::string::npos) << err.msg;
    EXPECT_EQ(std::string(err.msg).rfind("t.yaml:3:", 0), 0u) << err.msg;
}
