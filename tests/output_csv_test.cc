// Tests of the CSV sink (output/sink.h) and of its "%.17g" formatter
// (output/fmt.h): the exact text of a small table, doubles that parse back
// to the same bits, the formatter against glibc's snprintf on millions of
// values, stdout output, and the temporary-file protocol.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "output/fmt.h"
#include "output/sink.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

const char *const kLabels[] = {"seq", "a,b", "say \"hi\""};

using pascal_test::slurp;
const auto Listing = pascal_test::list_dir;


class OutputCsv : public pascal_test::TempDirTest {};

// The small table of ExactText: every kind of field.
struct Small {
    pascal_column_desc points[3] = {
        {"n", "", "an integer", PASCAL_COLTYPE_I64, nullptr, 0},
        {"x", "bytes", "a double", PASCAL_COLTYPE_F64, nullptr, 0},
        {"pat", "", "an enum", PASCAL_COLTYPE_ENUM, kLabels, 3}};
    pascal_column_desc results[2] = {{"r", "1", "", PASCAL_COLTYPE_F64, nullptr, 0},
                                     {"cost, \"ns\"", "ns", "", PASCAL_COLTYPE_F64, nullptr, 0}};
    std::vector<int64_t> n{-5, 0, 9007199254740993, INT64_MIN}, pat{0, 1, 2, 0};
    std::vector<double> x{0.1, 2.5, 1e300, -0.0};
    std::vector<double> r{NAN, 1.0 / 3.0, 5e-324, INFINITY};
    std::vector<double> cost{100.0, -1e-5, 123456789012345678.0, 1e16};

    int Write(const std::string &path, pascal_error *err)
    {
        pascal_sink_meta meta{};
        meta.format = PASCAL_SINK_CSV;
        meta.path = path.c_str();
        pascal_sink *sink = nullptr;
        int rc = pascal_sink_open(&meta, points, 3, results, 2, &sink, err);
        if (rc)
            return rc;
        for (int64_t at : {0, 1}) { // two batches: 1 row, then 3
            int64_t rows = at == 0 ? 1 : 3;
            const void *pts[3] = {n.data() + at, x.data() + at, pat.data() + at};
            const double *res[2] = {r.data() + at, cost.data() + at};
            if ((rc = pascal_sink_append(sink, rows, pts, res, err))) {
                pascal_sink_abort(sink);
                return rc;
            }
        }
        return pascal_sink_finish(sink, err);
    }
};

const char kSmallText[] =
    "n,x,pat,r,\"cost, \"\"ns\"\"\"\n"
    "-5,0.10000000000000001,seq,,100\n"
    "0,2.5,\"a,b\",0.33333333333333331,-1.0000000000000001e-05\n"
    "9007199254740993,1.0000000000000001e+300,\"say \"\"hi\"\"\",4.9406564584124654e-324,"
    "1.2345678901234568e+17\n"
    "-9223372036854775808,-0,seq,inf,10000000000000000\n";

}  // namespace

TEST_F(OutputCsv, ExactText)
{
    const std::string path = dir + "/t.csv";
    Small s;
    pascal_error err{};
    ASSERT_EQ(s.Write(path, &err), 0) << err.msg;
    EXPECT_EQ(slurp(path), kSmallText);
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"t.csv"});
}

TEST_F(OutputCsv, StdoutDashWritesDirectly)
{
    const std::string path = dir + "/captured.txt";
    Small s;
    pascal_error err{};
    std::fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_GE(saved, 0);
    dup2(fd, STDOUT_FILENO);
    close(fd);
    int rc = s.Write("-", &err);
    std::fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    ASSERT_EQ(rc, 0) << err.msg;
    EXPECT_EQ(slurp(path), kSmallText);
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"captured.txt"});
}

// Splits one CSV line of plain (unquoted) fields.
std::vector<std::string> Fields(const std::string &line)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t comma = line.find(',', start);
        out.push_back(line.substr(start, comma - start));
        if (comma == std::string::npos)
            return out;
        start = comma + 1;
    }
}

TEST_F(OutputCsv, DoublesParseBackToTheSameBits)
{
    const std::string path = dir + "/bits.csv";
    const int64_t n = 200000;
    std::mt19937_64 rng(0x5eed);
    std::vector<double> a(n), b(n);
    for (int64_t i = 0; i < n; i++) {
        uint64_t bits = rng();
        std::memcpy(&a[i], &bits, sizeof bits);  // every exponent, NaNs, infinities
        b[i] = i % 5 == 0 ? NAN : std::ldexp((double)(rng() >> 11), (int)(rng() % 120) - 90);
    }
    pascal_column_desc pc{"a", "", "", PASCAL_COLTYPE_F64, nullptr, 0};
    pascal_column_desc rc{"b", "", "", PASCAL_COLTYPE_F64, nullptr, 0};
    pascal_sink_meta meta{};
    meta.format = PASCAL_SINK_CSV;
    meta.path = path.c_str();
    pascal_sink *sink = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_sink_open(&meta, &pc, 1, &rc, 1, &sink, &err), 0) << err.msg;
    for (int64_t at = 0; at < n; at += 65536) {
        int64_t rows = std::min<int64_t>(65536, n - at);
        const void *pts[1] = {a.data() + at};
        const double *res[1] = {b.data() + at};
        ASSERT_EQ(pascal_sink_append(sink, rows, pts, res, &err), 0) << err.msg;
    }
    ASSERT_EQ(pascal_sink_finish(sink, &err), 0) << err.msg;

    std::ifstream in(path);
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(line, "a,b");
    for (int64_t i = 0; i < n; i++) {
        ASSERT_TRUE(std::getline(in, line)) << "row " << i;
        std::vector<std::string> f = Fields(line);
        ASSERT_EQ(f.size(), 2u) << line;
        const double want[2] = {a[i], b[i]};
        for (int k = 0; k < 2; k++) {
            if (std::isnan(want[k])) {
                ASSERT_EQ(f[k], "") << "row " << i;
                continue;
            }
            double got = std::strtod(f[k].c_str(), nullptr);
            ASSERT_EQ(std::memcmp(&got, &want[k], sizeof got), 0)
                << "row " << i << ": " << f[k];
        }
    }
    EXPECT_FALSE(std::getline(in, line));
}

void ExpectSameAsPrintf(double x)
{
    char mine[PASCAL_FMT_G17_MAX], libc[64];
    int n = pascal_fmt_g17(x, mine);
    std::snprintf(libc, sizeof libc, "%.17g", x);
    ASSERT_STREQ(mine, libc) << std::hexfloat << x;
    ASSERT_EQ(n, (int)std::strlen(libc));
}

TEST(OutputFmt, EdgeCasesMatchPrintf)
{
    const double fixed[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e-4, 9.9999999999999995e-5,
                            1e-5, 1e16, 1e17, 99999999999999999.0, 1e22, 1e23, 9007199254740992.0,
                            9007199254740993.0, -9007199254740991.0, DBL_MAX, -DBL_MAX, DBL_MIN,
                            DBL_TRUE_MIN, 1e-38, 1e-39, 1e43, 1e44, 123456.789, 2.385,
                            INFINITY, -INFINITY, NAN, 0.30000000000000004, 1.0 / 3.0};
    for (double x : fixed)
        ExpectSameAsPrintf(x);
    // Powers of ten and their neighbours, where the decimal exponent changes.
    for (int e = -330; e <= 308; e++) {
        double p = std::pow(10.0, e);
        ExpectSameAsPrintf(p);
        ExpectSameAsPrintf(std::nextafter(p, 0.0));
        ExpectSameAsPrintf(std::nextafter(p, INFINITY));
        ExpectSameAsPrintf(-p);
    }
    // Dyadic values with long exact expansions: the 18th digit is often a 5
    // followed by zeros, so round-half-even is exercised.
    for (int e = -80; e <= 80; e++)
        for (int64_t m = 1; m < 4000; m += 7)
            ExpectSameAsPrintf(std::ldexp((double)m, e));
}

TEST(OutputFmt, RandomValuesMatchPrintf)
{
    std::mt19937_64 rng(12345);
    for (int i = 0; i < 3000000; i++) {
        uint64_t u = rng();
        double x;
        switch (i % 4) {
        case 0:
            std::memcpy(&x, &u, sizeof x);
            break;
        case 1:
            x = (double)(u >> 11) * 0x1p-53 * 1000.0;
            break;
        case 2:
            x = (double)((int64_t)(u % 2000001) - 1000000) / (double)(1 + rng() % 1000);
            break;
        default:
            x = std::ldexp((double)(u >> (11 + rng() % 40)), (int)(rng() % 260) - 150);
        }
        ExpectSameAsPrintf(x);
    }
}

TEST_F(OutputCsv, AbortAndBadCodeLeaveDestinationIntact)
{
    const std::string path = dir + "/t.csv";
    std::ofstream(path, std::ios::binary) << "precious,data\n1,2\n";
    const std::string before = slurp(path);
    Small s;
    pascal_sink_meta meta{};
    meta.format = PASCAL_SINK_CSV;
    meta.path = path.c_str();
    pascal_sink *sink = nullptr;
    pascal_error err{};

    ASSERT_EQ(pascal_sink_open(&meta, s.points, 3, s.results, 2, &sink, &err), 0) << err.msg;
    const void *pts[3] = {s.n.data(), s.x.data(), s.pat.data()};
    const double *res[2] = {s.r.data(), s.cost.data()};
    ASSERT_EQ(pascal_sink_append(sink, 4, pts, res, &err), 0) << err.msg;
    EXPECT_EQ(Listing(dir).size(), 2u);
    pascal_sink_abort(sink);
    EXPECT_EQ(slurp(path), before);
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"t.csv"});

    ASSERT_EQ(pascal_sink_open(&meta, s.points, 3, s.results, 2, &sink, &err), 0) << err.msg;
    s.pat[2] = -1;
    EXPECT_EQ(pascal_sink_append(sink, 4, pts, res, &err), PASCAL_EINTERNAL);
    EXPECT_NE(std::string(err.msg).find("row 2: code -1 is not in 0..2"), std::string::npos)
        << err.msg;
    EXPECT_NE(pascal_sink_finish(sink, &err), 0);
    EXPECT_EQ(slurp(path), before);
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"t.csv"});
}

TEST_F(OutputCsv, UnwritableDestinationFailsAtOpen)
{
    const std::string path = dir + "/missing/t.csv";
    Small s;
    pascal_sink_meta meta{};
    meta.format = PASCAL_SINK_CSV;
    meta.path = path.c_str();
    pascal_sink *sink = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_sink_open(&meta, s.points, 3, s.results, 2, &sink, &err), PASCAL_EIO);
    EXPECT_EQ(std::string(err.msg).rfind("cannot create " + path + ".tmp.", 0), 0u) << err.msg;
    EXPECT_NE(std::string(err.msg).find("No such file or directory"), std::string::npos);
    EXPECT_EQ(sink, nullptr);
    EXPECT_TRUE(Listing(dir).empty());
}
