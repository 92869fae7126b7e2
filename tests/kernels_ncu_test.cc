// The ncu fallback (kernels/ncu.h): the report parser on a report written by
// hand in ncu's CSV layout, the mapping of scan launches to measurements
// (warm starts have an unmeasured warm-up first), the command line, and the
// counters chosen per architecture.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/ncu.h"

namespace {

const char *kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
    "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
    "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

std::string row(int id, const char *kernel, const char *metric, const char *unit,
                const char *value)
{
    char buf[1024];
    snprintf(buf, sizeof buf,
             "\"%d\",\"4242\",\"pascal\",\"host\",\"%s\",\"1\",\"13\",\"(256, 1, 1)\","
             "\"(264, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"%s\",\"%s\","
             "\"%s\"\n",
             id, kernel, metric, unit, value);
    return buf;
}

std::vector<double> parse(const std::string &text, const char *metric, int *rc, std::string *msg)
{
    double *v = nullptr;
    int64_t n = 0;
    pascal_error err = {};
    *rc = pascal_ncu_parse(text.data(), text.size(), metric, &v, &n, &err);
    *msg = err.msg;
    std::vector<double> out(v, v + n);
    free(v);
    return out;
}

TEST(KernelsNcu, ParsesScanRowsInLaunchOrderInBytes)
{
    const char *m = "dram__bytes_read.sum";
    std::string text = "==PROF== Connected to process 4242 (/usr/bin/pascal)\n";
    text += "==PROF== Profiling \"pascal_k_static_scan\" - 0: 0%....50%....100% - 1 pass\n";
    text += kHeader;
    text += row(0, "pascal_k_static_scan", m, "byte", "65,536,000");
    text += row(1, "pascal_k_static_scan", "gpu__time_duration.sum", "nsecond", "12,000");
    text += row(2, "pascal_k_scrub", m, "byte", "209,715,200");  // not a scan kernel
    text += row(3, "pascal_k_tma_scan", m, "Kbyte", "1.5");
    text += row(4, "pascal_k_capacity_scan(const uint4 *, long long, int, unsigned long long *)",
                m, "byte", "7");
    text += "==PROF== Disconnected from process 4242\n";
    int rc;
    std::string msg;
    auto v = parse(text, m, &rc, &msg);
    ASSERT_EQ(rc, 0) << msg;
    EXPECT_EQ(v, (std::vector<double>{65536000.0, 1500.0, 7.0}));

    const char *s = "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum";
    std::string sectors = std::string(kHeader) + row(0, "pascal_k_sync_scan", s, "sector", "1,000");
    v = parse(sectors, s, &rc, &msg);
    ASSERT_EQ(rc, 0) << msg;
    EXPECT_EQ(v, (std::vector<double>{32000.0}));
}

TEST(KernelsNcu, RejectsReportsWithoutNumbers)
{
    const char *m = "dram__bytes_read.sum";
    int rc;
    std::string msg;
    parse(std::string(kHeader) + row(0, "pascal_k_static_scan", m, "", "n/a"), m, &rc, &msg);
    EXPECT_EQ(rc, PASCAL_EIO);
    EXPECT_EQ(msg.rfind("ncu report line 2: dram__bytes_read.sum: expected a number, got \"n/a\"",
                        0), 0u) << msg;
    EXPECT_NE(msg.find("--metric"), std::string::npos);
    parse(std::string(kHeader) + row(0, "pascal_k_static_scan", m, "msecond", "3"), m, &rc, &msg);
    EXPECT_EQ(rc, PASCAL_EIO);
    EXPECT_NE(msg.find("expected a unit in bytes or sectors, got \"msecond\""), std::string::npos);
    parse("==PROF== No kernels were profiled.\n", m, &rc, &msg);
    EXPECT_EQ(rc, PASCAL_EIO);
    EXPECT_EQ(msg.rfind("ncu report: expected a CSV table, got none", 0), 0u) << msg;
    parse("\"ID\",\"Kernel Name\"\n", m, &rc, &msg);
    EXPECT_EQ(rc, PASCAL_EIO);
    EXPECT_NE(msg.find("expected the columns Kernel Name, Metric Name"), std::string::npos);
}

TEST(KernelsNcu, WarmStartsSkipTheirWarmUpLaunch)
{
    // Scan launches: m0 (cold), warm-up of m1, m1, m2 (cold), warm-up of m3, m3.
    const double values[] = {10, 99, 20, 30, 98, 40};
    const pascal_spot_start starts[] = {PASCAL_SPOT_COLD, PASCAL_SPOT_WARM, PASCAL_SPOT_COLD,
                                        PASCAL_SPOT_WARM};
    double fills[4];
    pascal_error err = {};
    ASSERT_EQ(pascal_ncu_assign(values, 6, starts, 4, fills, &err), 0) << err.msg;
    EXPECT_EQ(fills[0], 10);
    EXPECT_EQ(fills[1], 20);
    EXPECT_EQ(fills[2], 30);
    EXPECT_EQ(fills[3], 40);
    EXPECT_EQ(pascal_ncu_assign(values, 5, starts, 4, fills, &err), PASCAL_EIO);
    EXPECT_EQ(std::string(err.msg), "ncu report: expected 6 scan-kernel launches, got 5");
    EXPECT_EQ(pascal_ncu_scan_launches(PASCAL_SPOT_COLD), 1);
    EXPECT_EQ(pascal_ncu_scan_launches(PASCAL_SPOT_WARM), 2);
}

TEST(KernelsNcu, CommandLeavesCachesAndClocksAlone)
{
    char *args[] = {(char *)"spotcheck", (char *)"s.yaml", (char *)"--sample", (char *)"2"};
    char **argv = pascal_ncu_argv("/opt/ncu", "dram__bytes_read.sum", "/tmp/r.csv",
                                  "/usr/bin/pascal", 4, args);
    ASSERT_NE(argv, nullptr);
    std::vector<std::string> a;
    for (char **p = argv; *p; p++)
        a.push_back(*p);
    pascal_ncu_argv_free(argv);
    ASSERT_GE(a.size(), 6u);
    EXPECT_EQ(a[0], "/opt/ncu");
    auto after = [&](const std::string &flag) {
        for (size_t i = 0; i + 1 < a.size(); i++)
            if (a[i] == flag)
                return a[i + 1];
        return std::string("<missing>");
    };
    EXPECT_EQ(after("--cache-control"), "none");
    EXPECT_EQ(after("--clock-control"), "none");
    EXPECT_EQ(after("--metrics"), "dram__bytes_read.sum");
    EXPECT_EQ(after("--log-file"), "/tmp/r.csv");
    EXPECT_EQ(after("--print-units"), "base");
    EXPECT_EQ(after("-k"), "regex:^pascal_k_[a-z_]+_scan$");
    std::vector<std::string> tail(a.end() - 5, a.end());
    EXPECT_EQ(tail, (std::vector<std::string>{"/usr/bin/pascal", "spotcheck", "s.yaml",
                                              "--sample", "2"}));
}

TEST(KernelsNcu, CountersPerArchitecture)
{
    int n = 0;
    const pascal_ncu_metric *h = pascal_ncu_metric_candidates(9, &n);
    ASSERT_GE(n, 1);
    EXPECT_STREQ(h[0].name, "dram__bytes_read.sum");
    EXPECT_EQ(h[0].bytes_per_unit, 1);
    const pascal_ncu_metric *b = pascal_ncu_metric_candidates(12, &n);
    ASSERT_EQ(n, 2);
    EXPECT_STREQ(b[1].name, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum");
    EXPECT_EQ(b[1].bytes_per_unit, 32);
    EXPECT_EQ(pascal_ncu_metric_scale("dram__bytes_read.sum"), 1);
    EXPECT_EQ(pascal_ncu_metric_scale("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"), 32);
    EXPECT_TRUE(std::isnan(pascal_ncu_metric_scale("sm__cycles_elapsed.avg")));
}

}  // namespace
