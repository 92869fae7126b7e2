// Helpers of the golden sweep tests (tests/golden_test.cc,
// tests/golden_dynamic_test.cc): CSV tables without quoting, the checked-in
// expected table against its independent reference, and pascal's output
// against the golden table column by column.
#ifndef PASCAL_TESTS_GOLDEN_UTIL_H
#define PASCAL_TESTS_GOLDEN_UTIL_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace golden {

using pascal_test::slurp;

inline const std::string kGolden = std::string(PASCAL_SOURCE_DIR) + "/tests/data/golden/";
inline const double kTol = 1e-12; // relative, for columns that are not whole numbers


struct Table {
    std::vector<std::string> cols;
    std::vector<std::vector<std::string>> rows;
    int col(const std::string &name) const
    {
        auto it = std::find(cols.begin(), cols.end(), name);
        return it == cols.end() ? -1 : (int)(it - cols.begin());
    }
};

inline std::vector<std::string> split(const std::string &line)
{
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ','))
        out.push_back(f);
    if (!line.empty() && line.back() == ',')
        out.push_back("");
    return out;
}

// CSV without quoting; lines starting with '#' are comments.
inline Table parse_csv(const std::string &text)
{
    Table t;
    std::stringstream ss(text);
    std::string line;
    while (std::getline(ss, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        if (t.cols.empty())
            t.cols = split(line);
        else
            t.rows.push_back(split(line));
    }
    return t;
}

inline std::string fmt(double v)
{
    char buf[40];
    if (std::isnan(v))
        return "";
    snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

inline double num(const std::string &s)
{
    return s.empty() ? NAN : std::strtod(s.c_str(), nullptr);
}

inline bool close(double got, double want)
{
    if (std::isnan(want) || std::isnan(got))
        return std::isnan(want) && std::isnan(got);
    return std::fabs(got - want) <= kTol * std::max(1.0, std::fabs(want));
}

inline std::string to_csv(const Table &t, const std::string &comment)
{
    std::string out = comment;
    for (size_t j = 0; j < t.cols.size(); j++)
        out += (j ? "," : "") + t.cols[j];
    out += "\n";
    for (const auto &r : t.rows) {
        for (size_t j = 0; j < r.size(); j++)
            out += (j ? "," : "") + r[j];
        out += "\n";
    }
    return out;
}

// The checked-in table equals the reference's (or is rewritten from it).
inline void check_or_write(const Table &ref, const std::string &file, const std::string &comment)
{
    if (std::getenv("PASCAL_GOLDEN_WRITE")) {
        FILE *f = std::fopen(file.c_str(), "w");
        ASSERT_TRUE(f) << file;
        std::string text = to_csv(ref, comment);
        std::fwrite(text.data(), 1, text.size(), f);
        std::fclose(f);
        return;
    }
    Table got = parse_csv(slurp(file));
    ASSERT_EQ(got.cols, ref.cols) << file;
    ASSERT_EQ(got.rows.size(), ref.rows.size()) << file;
    for (size_t i = 0; i < ref.rows.size(); i++)
        for (size_t j = 0; j < ref.cols.size(); j++)
            ASSERT_TRUE(got.rows[i][j] == ref.rows[i][j] || close(num(got.rows[i][j]), num(ref.rows[i][j])))
                << file << " row " << i << " " << ref.cols[j] << ": file " << got.rows[i][j] << ", reference "
                << ref.rows[i][j];
}

// pascal's table against the golden one, column by column: every golden
// column must be there with the same rows.
inline void compare_tables(const Table &golden, const Table &got, const std::string &what)
{
    ASSERT_EQ(got.rows.size(), golden.rows.size()) << what;
    for (size_t j = 0; j < golden.cols.size(); j++) {
        int k = got.col(golden.cols[j]);
        ASSERT_GE(k, 0) << what << ": no column " << golden.cols[j];
        int bad = 0;
        for (size_t i = 0; i < golden.rows.size() && bad < 5; i++) {
            const std::string &w = golden.rows[i][j], &g = got.rows[i][(size_t)k];
            if (w == g || close(num(g), num(w)))
                continue;
            ADD_FAILURE() << what << " row " << i << ", column " << golden.cols[j] << ": pascal " << g
                          << ", golden " << w;
            bad++;
        }
    }
}

} // namespace golden

#endif
