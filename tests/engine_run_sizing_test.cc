// The run summary's exact sizing (engine/run_sizing.h): per pattern, the
// capacity the neediest scenario needs, against brute force over every C;
// the same whatever the thread count or batch size, after a resume, and
// from the spec's search: target; a note instead when a rule reads C.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "engine/run.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

struct Spec {
    pascal_spec *s = nullptr;
    explicit Spec(const std::string &text)
    {
        pascal_error err{};
        if (pascal_spec_parse(text.data(), text.size(), "t.yaml", &s, &err) != 0)
            ADD_FAILURE() << err.msg;
    }
    ~Spec() { pascal_spec_free(s); }
};

class RunSizing : public pascal_test::TempDirTest {
protected:
    pascal_run_stats run(const pascal_spec *spec, int threads, int64_t batch, double target,
                         const std::string &out = "")
    {
        pascal_run_opts o{};
        pascal_run_stats st{};
        pascal_error err{};
        o.out_path = out.empty() ? nullptr : out.c_str();
        o.threads = threads;
        o.batch_points = batch;
        o.compression = -1;
        o.target = target;
        EXPECT_EQ(pascal_run(spec, &o, &st, &err), 0) << err.msg;
        return st;
    }
};

const char *kSpec = "name: h\nmodels: [ttl, lru]\nfixed: {N: 700, M: 24, block_bytes: 2KiB}\n"
                    "axes:\n  pattern: [aligned, equal, uniform, gaussian]\n  sigma: [30]\n"
                    "  seed: [1, 2, 3]\n  capacity_bytes: {from: 64KiB, to: 1400KiB, num: 9}\n";

// Smallest C in [lo, hi] whose column meets `<= target`, by evaluating every
// C; -1 when none does.
int64_t brute_force(pascal_eval *ev, pascal_point p, int col, double target, int64_t lo, int64_t hi)
{
    for (int64_t c = lo; c <= hi; c++) {
        double v;
        p.v[PASCAL_P_C] = (double)c;
        EXPECT_EQ(pascal_eval_point(ev, &p, &col, 1, &v), 0);
        if (v <= target)
            return c;
    }
    return -1;
}

TEST_F(RunSizing, NeediestScenarioPerPatternByBruteForce)
{
    Spec spec(kSpec);
    ASSERT_NE(spec.s, nullptr);
    for (double target : {0.05, 0.3}) {
        pascal_run_stats st = run(spec.s, 2, 0, target);
        ASSERT_EQ(st.sizing_exact, 1) << st.sizing_note;
        ASSERT_EQ(st.ngroups, 4);
        EXPECT_EQ(st.sizing_target.column, PASCAL_COL_RHO_LRU);
        pascal_eval *ev = pascal_eval_create(1u << PASCAL_MODEL_LRU);
        for (int g = 0; g < 4; g++) {
            int64_t want = 0;
            for (uint64_t scen = 0; scen < 3; scen++) {   // the seeds of pattern g
                pascal_point p;
                // raw index: pattern g, seed scen, first capacity (9 per seed)
                ASSERT_EQ(pascal_spec_point(spec.s, (uint64_t)g * 27 + scen * 9, &p, nullptr), 1);
                int64_t c = brute_force(ev, p, PASCAL_COL_RHO_LRU, target, 32, 700);
                want = (want < 0 || c < 0) ? -1 : std::max(want, c);
            }
            EXPECT_EQ(st.sizing[g].exact_C, want) << "pattern group " << g << ", target " << target;
            if (want > 0) {
                EXPECT_EQ(st.sizing[g].exact_bytes, want * 2048.0);
                EXPECT_LE(st.sizing[g].exact_value, target);
                EXPECT_EQ(st.sizing[g].at_exact.v[PASCAL_P_C], (double)want);
                // The grid's answer is a swept capacity at or above it.
                EXPECT_GE(st.sizing[g].cap_value, want * 2048.0);
            }
        }
        pascal_eval_free(ev);
    }
}

TEST_F(RunSizing, SameAnswersWhateverThreadsBatchesOrResume)
{
    std::string text = std::string(kSpec) + "output: {chunk_rows: 8}\n";
    Spec spec(text);
    ASSERT_NE(spec.s, nullptr);
    pascal_run_stats ref = run(spec.s, 1, 0, 0.05);
    for (auto tb : {std::pair<int, int64_t>{2, 5}, {3, 64}, {2, 1}}) {
        pascal_run_stats st = run(spec.s, tb.first, tb.second, 0.05);
        for (int g = 0; g < 4; g++) {
            EXPECT_EQ(st.sizing[g].exact_C, ref.sizing[g].exact_C) << tb.first << " threads, batch " << tb.second;
            EXPECT_EQ(std::memcmp(&st.sizing[g].at_exact, &ref.sizing[g].at_exact, sizeof(pascal_point)), 0);
        }
    }
    // Stop after a few batches, resume: the resumed rows' scenarios are searched too.
    std::string out = dir + "/r.h5";
    pascal_run_opts o{};
    pascal_run_stats st{};
    pascal_error err{};
    int left = 6;
    o.out_path = out.c_str();
    o.threads = 2;
    o.batch_points = 9;
    o.compression = -1;
    o.target = 0.05;
    o.stop_ctx = &left;
    o.should_stop = [](void *ctx) { return --*static_cast<int *>(ctx) < 0 ? 1 : 0; };
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINTR) << err.msg;
    o.should_stop = nullptr;
    o.resume = 1;
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), 0) << err.msg;
    ASSERT_GT(st.rows_resumed, 9u);
    ASSERT_EQ(st.sizing_exact, 1);
    for (int g = 0; g < 4; g++) {
        EXPECT_EQ(st.sizing[g].exact_C, ref.sizing[g].exact_C) << "resumed, group " << g;
        EXPECT_EQ(st.sizing[g].exact_value, ref.sizing[g].exact_value);
    }
}

TEST_F(RunSizing, SearchTargetAndNotes)
{
    Spec searched(std::string(kSpec) + "search: {target: 'K_ttl < 3'}\n");
    ASSERT_NE(searched.s, nullptr);
    pascal_run_stats st = run(searched.s, 2, 0, 0.05);
    ASSERT_EQ(st.sizing_exact, 1);
    EXPECT_EQ(st.sizing_target.column, PASCAL_COL_K_TTL);
    EXPECT_EQ(st.sizing_target.op, PASCAL_TARGET_LT);
    pascal_eval *ev = pascal_eval_create(1u << PASCAL_MODEL_TTL);
    pascal_point p = st.sizing[2].at_exact;   // uniform
    int col = PASCAL_COL_K_TTL;
    double v;
    ASSERT_GT(st.sizing[2].exact_C, 32);
    ASSERT_EQ(pascal_eval_point(ev, &p, &col, 1, &v), 0);
    EXPECT_LT(v, 3);
    p.v[PASCAL_P_C] -= 1;
    ASSERT_EQ(pascal_eval_point(ev, &p, &col, 1, &v), 0);
    EXPECT_GE(v, 3);
    pascal_eval_free(ev);

    Spec filtered(std::string(kSpec) + "where: 'C < N'\n");
    ASSERT_NE(filtered.s, nullptr);
    st = run(filtered.s, 2, 0, 0.05);
    EXPECT_EQ(st.sizing_exact, 0);
    EXPECT_NE(std::string(st.sizing_note).find("t.yaml:9:8: where: expected a rule that does not read C"),
              std::string::npos) << st.sizing_note;
    auto r = pascal_test::run_cli(dir, std::string("run ") + write("w.yaml", std::string(kSpec) + "where: 'C < N'\n") +
                              " -o " + dir + "/w.h5");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("(swept capacities only; no exact search: "), std::string::npos) << r.out;
    r = pascal_test::run_cli(dir, std::string("run ") + write("k.yaml", kSpec) + " -o " + dir + "/k.h5");
    EXPECT_NE(r.out.find("exact to a block"), std::string::npos) << r.out;
}

}  // namespace
