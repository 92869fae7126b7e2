// where/require expressions (sweeps/expr.h): values, precedence, NaN for
// unset parameters, pattern-name literals, and every compile error with
// the offset it reports.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sweeps/expr.h"
#include "vocab/params.h"

namespace {

struct Vals {
    double v[PASCAL_NPARAM];
    Vals()
    {
        for (double &x : v)
            x = NAN;
    }
};

double eval(const std::string &text, const Vals &vals = Vals())
{
    pascal_expr *e = nullptr;
    pascal_error err{};
    size_t off = 0;
    int rc = pascal_expr_compile(text.c_str(), &e, &off, &err);
    EXPECT_EQ(rc, 0) << text << ": " << err.msg;
    if (rc)
        return NAN;
    double r = pascal_expr_eval(e, vals.v);
    pascal_expr_free(e);
    return r;
}

// Compiles text that must fail; returns the message, and the offset in *off.
std::string compile_error(const std::string &text, size_t *off)
{
    pascal_expr *e = nullptr;
    pascal_error err{};
    int rc = pascal_expr_compile(text.c_str(), &e, off, &err);
    EXPECT_EQ(rc, PASCAL_EINPUT) << text;
    EXPECT_EQ(e, nullptr);
    pascal_expr_free(e);
    return err.msg;
}

TEST(SpecExpr, ArithmeticAndPrecedence)
{
    EXPECT_DOUBLE_EQ(eval("1 + 2 * 3"), 7);
    EXPECT_DOUBLE_EQ(eval("(1 + 2) * 3"), 9);
    EXPECT_DOUBLE_EQ(eval("2 - 3 - 4"), -5);   // left-associative
    EXPECT_DOUBLE_EQ(eval("64 / 4 / 2"), 8);
    EXPECT_DOUBLE_EQ(eval("-2.385 * 2"), -4.77);
    EXPECT_DOUBLE_EQ(eval("- -3"), 3);
    EXPECT_DOUBLE_EQ(eval("+4"), 4);
    EXPECT_DOUBLE_EQ(eval("7 % 4"), 3);
    EXPECT_DOUBLE_EQ(eval("7.5 % 2"), 1.5);   // fmod
    EXPECT_DOUBLE_EQ(eval("10 / 4"), 2.5);
    EXPECT_DOUBLE_EQ(eval("1e3 + .5"), 1000.5);
    EXPECT_DOUBLE_EQ(eval("2.5E-1"), 0.25);
}

TEST(SpecExpr, LoadPathNames)
{
    Vals tma, sync;
    tma.v[PASCAL_P_PATH] = 1;
    sync.v[PASCAL_P_PATH] = 0;
    EXPECT_EQ(eval("path == \"tma\"", tma), 1);
    EXPECT_EQ(eval("path == \"tma\"", sync), 0);
    EXPECT_EQ(eval("\"sync\" == path", sync), 1);   // either side
    EXPECT_EQ(eval("path != \"sync\" && pattern == \"lag\"", tma), 0);  // pattern unset: NaN
    size_t off = 0;
    std::string msg = compile_error("path == \"dma\"", &off);
    EXPECT_EQ(off, 9u);
    EXPECT_EQ(msg.rfind("expected a load path name (sync, tma), got \"dma\"", 0), 0u) << msg;
    msg = compile_error("pattern == \"tma\"", &off);
    EXPECT_EQ(msg.rfind("expected a pattern name", 0), 0u) << msg;
}

TEST(SpecExpr, SizesWithUnits)
{
    EXPECT_DOUBLE_EQ(eval("20MiB"), 20.0 * 1048576);
    EXPECT_DOUBLE_EQ(eval("1.5KiB"), 1536);
    EXPECT_DOUBLE_EQ(eval("2GB"), 2e9);
    EXPECT_DOUBLE_EQ(eval("16KiB * 1280"), 20.0 * 1048576);
}

TEST(SpecExpr, ComparisonsAndLogic)
{
    EXPECT_EQ(eval("1 < 2"), 1);
    EXPECT_EQ(eval("2 <= 2"), 1);
    EXPECT_EQ(eval("2 > 2"), 0);
    EXPECT_EQ(eval("3 >= 2"), 1);
    EXPECT_EQ(eval("3 == 3"), 1);
    EXPECT_EQ(eval("3 != 3"), 0);
    EXPECT_EQ(eval("1 < 2 && 2 < 1"), 0);
    EXPECT_EQ(eval("1 < 2 || 2 < 1"), 1);
    EXPECT_EQ(eval("!0"), 1);
    EXPECT_EQ(eval("!5"), 0);
    EXPECT_EQ(eval("0.5 && 2"), 1);        // nonzero is true
    // && binds tighter than ||; comparisons tighter than both.
    EXPECT_EQ(eval("1 || 0 && 0"), 1);
    EXPECT_EQ(eval("(1 || 0) && 0"), 0);
    EXPECT_EQ(eval("1 + 1 == 2"), 1);
    EXPECT_EQ(eval("1 < 2 == 1"), 1);       // relational before equality
}

TEST(SpecExpr, ParametersAndNaN)
{
    Vals v;
    v.v[PASCAL_P_C] = 1280;
    v.v[PASCAL_P_N] = 8192;
    v.v[PASCAL_P_CLUSTERS] = 3;
    v.v[PASCAL_P_M] = 96;
    EXPECT_EQ(eval("C < N && clusters <= M", v), 1);
    EXPECT_EQ(eval("C * 16KiB == 20MiB", v), 1);
    EXPECT_DOUBLE_EQ(eval("N % C", v), 512);
    // sms is unset: every comparison with NaN is false, even !=.
    EXPECT_EQ(eval("sms > 0", v), 0);
    EXPECT_EQ(eval("sms <= 0", v), 0);
    EXPECT_EQ(eval("sms == sms", v), 0);
    EXPECT_EQ(eval("sms != 1", v), 0);
    EXPECT_EQ(eval("!(sms > 0)", v), 1);
    EXPECT_TRUE(std::isnan(eval("sms + 1", v)));
    EXPECT_EQ(pascal_expr_truth(NAN), 0);
    EXPECT_EQ(pascal_expr_truth(0.0), 0);
    EXPECT_EQ(pascal_expr_truth(-0.25), 1);
}

TEST(SpecExpr, PatternLiterals)
{
    Vals v;
    v.v[PASCAL_P_PATTERN] = 1;  // clusters
    EXPECT_EQ(eval("pattern == \"clusters\"", v), 1);
    EXPECT_EQ(eval("\"clusters\" == pattern", v), 1);
    EXPECT_EQ(eval("pattern != \"aligned\"", v), 1);
    EXPECT_EQ(eval("pattern == \"explicit\"", v), 0);
    v.v[PASCAL_P_PATTERN] = 6;
    EXPECT_EQ(eval("pattern == \"explicit\" || pattern == \"lag\"", v), 1);
    EXPECT_EQ(eval("(pattern) == \"explicit\"", v), 1);
}

TEST(SpecExpr, ParamsMask)
{
    pascal_expr *e = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_expr_compile("C < N && capacity_bytes > 1MiB", &e, nullptr, &err), 0);
    uint64_t want = (1ull << PASCAL_P_C) | (1ull << PASCAL_P_N) | (1ull << PASCAL_P_CAPACITY_BYTES);
    EXPECT_EQ(pascal_expr_params(e), want);
    pascal_expr_free(e);
}

struct BadCase {
    const char *text;
    size_t offset;
    const char *message_prefix;
};

TEST(SpecExpr, CompileErrorsReportOffsetAndExpectation)
{
    const BadCase cases[] = {
        {"", 0, "expected an expression, got the end of the expression"},
        {"C < N &&", 8, "expected a number, a parameter, a name in quotes or \"(\", got the end"},
        {"C < N & M", 6, "expected \"&&\", got \"&\""},
        {"C | N", 2, "expected \"||\", got \"|\""},
        {"C = N", 2, "expected \"==\", got \"=\""},
        {"C <> N", 3, "expected a number, a parameter, a name in quotes or \"(\", got \">\""},
        {"C N", 2, "expected an operator or the end of the expression, got \"N\""},
        {"(C < N", 6, "expected \")\" or an operator, got the end of the expression"},
        {"C < N)", 5, "expected an operator or the end of the expression, got \")\""},
        {"C @ N", 2, "expected a number, a parameter, an operator or a parenthesis, got \"@\""},
        {"C < NN", 4, "expected a parameter name (N, M, C, data_bytes"},
        {"capacity_bytes > 20MiBs", 17, "expected a number or a size like 20MiB, got \"20MiBs\""},
        {"pattern == \"nope\"", 12, "expected a pattern name (aligned, clusters"},
        {"pattern == \"clusters", 11, "expected a closing '\"'"},
        {"C == \"clusters\"", 0, "expected pattern or path to compare with a quoted name"},
        {"\"clusters\" == \"lag\"", 14, "expected pattern or path on one side of the comparison"},
        {"\"clusters\"", 0, "expected a number, got a quoted name"},
        {"pattern < \"lag\"", 10, "expected a number, got a quoted name"},
        {"-\"lag\"", 1, "expected a number, got a quoted name"},
    };
    for (const BadCase &c : cases) {
        size_t off = 12345;
        std::string msg = compile_error(c.text, &off);
        EXPECT_EQ(off, c.offset) << c.text << ": " << msg;
        EXPECT_EQ(msg.rfind(c.message_prefix, 0), 0u) << c.text << ": " << msg;
    }
}

TEST(SpecExpr, DepthLimits)
{
    // A left-leaning chain keeps at most two operands pending.
    std::string chain = "1";
    for (int i = 0; i < 200; i++)
        chain += " + 1";
    EXPECT_DOUBLE_EQ(eval(chain), 201);

    // Right-nested sums keep one pending operand per level.
    std::string deep;
    for (int i = 0; i < PASCAL_EXPR_STACK + 2; i++)
        deep += "1 + (";
    deep += "1";
    for (int i = 0; i < PASCAL_EXPR_STACK + 2; i++)
        deep += ")";
    size_t off = 0;
    std::string msg = compile_error(deep, &off);
    EXPECT_EQ(msg.rfind("expected a simpler expression", 0), 0u) << msg;

    // Just under the limit compiles and evaluates.
    std::string ok;
    for (int i = 0; i < PASCAL_EXPR_STACK - 1; i++)
        ok += "1 + (";
    ok += "1";
    for (int i = 0; i < PASCAL_EXPR_STACK - 1; i++)
        ok += ")";
    EXPECT_DOUBLE_EQ(eval(ok), PASCAL_EXPR_STACK);

    std::string parens(100, '(');
    parens += "1" + std::string(100, ')');
    msg = compile_error(parens, &off);
    EXPECT_EQ(msg.rfind("expected at most 64 nested parentheses", 0), 0u) << msg;
    std::string nots(100, '!');
    msg = compile_error(nots + "1", &off);
    EXPECT_EQ(msg.rfind("expected at most 64 nested unary operators", 0), 0u) << msg;
}

}  // namespace
