// "Did you mean" (common/suggest.h): the edit distance against a brute-force
// recursion of its definition on seeded random strings, textbook values,
// and the suggestion rules on names a person mistypes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/suggest.h"

namespace {

// Optimal string alignment by its recursive definition (no table reuse):
// d(i, j) over the prefixes a[0..i), b[0..j), case folded.
int osa_recursive(const std::string &a, const std::string &b, size_t i, size_t j)
{
    auto eq = [](char x, char y) { return std::tolower((unsigned char)x) == std::tolower((unsigned char)y); };
    if (i == 0)
        return (int)j;
    if (j == 0)
        return (int)i;
    int best = std::min({osa_recursive(a, b, i - 1, j) + 1, osa_recursive(a, b, i, j - 1) + 1,
                         osa_recursive(a, b, i - 1, j - 1) + (eq(a[i - 1], b[j - 1]) ? 0 : 1)});
    if (i > 1 && j > 1 && eq(a[i - 1], b[j - 2]) && eq(a[i - 2], b[j - 1]))
        best = std::min(best, osa_recursive(a, b, i - 2, j - 2) + 1);
    return best;
}

TEST(Suggest, DistanceMatchesTheRecursiveDefinition)
{
    std::mt19937_64 rng(2385);
    const std::string alphabet = "abcAB_";
    for (int t = 0; t < 400; t++) {
        std::string a, b;
        for (size_t n = rng() % 7; n > 0; n--)
            a += alphabet[rng() % alphabet.size()];
        for (size_t n = rng() % 7; n > 0; n--)
            b += alphabet[rng() % alphabet.size()];
        ASSERT_EQ(pascal_edit_distance(a.c_str(), b.c_str()), osa_recursive(a, b, a.size(), b.size()))
            << "\"" << a << "\" vs \"" << b << "\"";
    }
}

TEST(Suggest, TextbookDistances)
{
    EXPECT_EQ(pascal_edit_distance("kitten", "sitting"), 3);  // 2 substitutions, 1 insertion
    EXPECT_EQ(pascal_edit_distance("", "abc"), 3);
    EXPECT_EQ(pascal_edit_distance("lur", "lru"), 1);          // one swap of neighbours
    EXPECT_EQ(pascal_edit_distance("ca", "abc"), 3);           // OSA, not unrestricted Damerau (2)
    EXPECT_EQ(pascal_edit_distance("RHO_lru", "rho_LRU"), 0);  // case is ignored
}

TEST(Suggest, MistypedNames)
{
    const char *params[] = {"N", "M", "C", "data_bytes", "capacity_bytes", "block_bytes", "occupancy"};
    const int n = 7;
    auto s = [&](const char *name) {
        const char *r = pascal_suggest(name, params, n);
        return std::string(r ? r : "");
    };
    EXPECT_EQ(s("capcity_bytes"), "capacity_bytes");   // one deletion
    EXPECT_EQ(s("capacity_btyes"), "capacity_bytes");  // one swap
    EXPECT_EQ(s("ocupancy"), "occupancy");
    EXPECT_EQ(s("capacity"), "capacity_bytes");        // the start of exactly one name
    EXPECT_EQ(s("n"), "N");                            // a case slip
    EXPECT_EQ(s("X"), "");                             // one letter: no guess
    EXPECT_EQ(s("bytes"), "");                         // nothing near, no unique start
    EXPECT_EQ(s("zzzzzzzz"), "");
    EXPECT_EQ(s("C"), "");                             // valid: nothing to suggest
    EXPECT_EQ(s(""), "");
    EXPECT_EQ(pascal_suggest(nullptr, params, n), nullptr);
}

TEST(Suggest, TiesGoToTheEarlierNameAndPrefixesMustBeUnique)
{
    const char *cols[] = {"rho_ttl", "rho_lru", "rho_che", "K_lru_lo", "K_lru_hi"};
    EXPECT_STREQ(pascal_suggest("rho_tll", cols, 5), "rho_ttl");
    EXPECT_STREQ(pascal_suggest("rho_xxx", cols, 5), nullptr);   // 3 edits from each, limit 2
    EXPECT_EQ(pascal_suggest("rho", cols, 5), nullptr);         // begins three names
    EXPECT_STREQ(pascal_suggest("K_lru_l", cols, 5), "K_lru_lo"); // 1 edit, K_lru_hi 2
    EXPECT_STREQ(pascal_suggest("rho_tlu", cols, 5), "rho_ttl");  // 2 edits from rho_ttl and rho_lru
}

TEST(Suggest, HintText)
{
    const char *models[] = {"ttl", "lru_band", "lru"};
    char buf[96];
    EXPECT_STREQ(pascal_suggest_hint("lur", models, 3, buf, sizeof buf), " (did you mean 'lru'?)");
    EXPECT_STREQ(pascal_suggest_hint("qqqq", models, 3, buf, sizeof buf), "");
    char small[8];
    pascal_suggest_hint("lur", models, 3, small, sizeof small);
    EXPECT_EQ(std::string(small).size(), 7u);  // cut, still terminated
}

} // namespace
