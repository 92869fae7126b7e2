// The chunk encoder of the HDF5 sink (output/zchunk.h), checked against
// zlib's own inflate and a plain byte-by-byte shuffle: every level, element
// size, shuffle setting and kind of data must decode to the chunk it was
// given, padded with zeros.
#include <gtest/gtest.h>

#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "output/zchunk.h"
}

namespace {

enum class Kind { Random, Zeros, Ramp, Constant, Mixed };

std::vector<unsigned char> Make(Kind kind, size_t n, size_t esize, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<unsigned char> v(n * esize);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = 0;
        double d = 0;
        switch (kind) {
        case Kind::Random: x = rng(); break;
        case Kind::Zeros: x = 0; break;
        case Kind::Ramp: d = 0.25 + 1e-3 * (double)i, std::memcpy(&x, &d, 8); break;
        case Kind::Constant: x = 0x0123456789abcdefULL; break;
        case Kind::Mixed: // a smooth high half, random low bytes (a computed double)
            d = 1.0 + (double)(i / 64) / 1024.0, std::memcpy(&x, &d, 8);
            x ^= rng() & 0xffffffULL;
            break;
        }
        std::memcpy(&v[i * esize], &x, esize);
    }
    return v;
}

// What HDF5's shuffle filter stores: byte b of value i at b * rows + i.
std::vector<unsigned char> Shuffled(const std::vector<unsigned char> &v, size_t rows,
                                    size_t esize, bool shuffle)
{
    std::vector<unsigned char> padded(rows * esize, 0), out(rows * esize, 0);
    std::memcpy(padded.data(), v.data(), v.size());
    if (!shuffle || esize == 1)
        return padded;
    for (size_t i = 0; i < rows; i++)
        for (size_t b = 0; b < esize; b++)
            out[b * rows + i] = padded[i * esize + b];
    return out;
}

std::vector<unsigned char> Inflate(const unsigned char *z, size_t len, size_t expect)
{
    std::vector<unsigned char> out(expect + 1);
    uLongf n = (uLongf)out.size();
    EXPECT_EQ(uncompress(out.data(), &n, z, (uLong)len), Z_OK);
    out.resize(n);
    return out;
}

TEST(ZChunk, EveryLevelSizeAndKindDecodesThroughZlib)
{
    const Kind kinds[] = {Kind::Random, Kind::Zeros, Kind::Ramp, Kind::Constant, Kind::Mixed};
    for (int level : {1, 2, 3, 9})
        for (size_t esize : {1u, 2u, 8u})
            for (int shuffle : {0, 1})
                for (size_t rows : {1u, 9u, 4096u, 70000u}) // 70000 B planes: two stored blocks
                    for (Kind kind : kinds) {
                        SCOPED_TRACE("level " + std::to_string(level) + " esize " +
                                     std::to_string(esize) + " shuffle " + std::to_string(shuffle) +
                                     " rows " + std::to_string(rows) + " kind " +
                                     std::to_string((int)kind));
                        pascal_zchunk *z = pascal_zchunk_new(rows, esize, level, shuffle);
                        ASSERT_NE(z, nullptr);
                        for (size_t n : {rows, rows / 2 + 1}) {
                            auto v = Make(kind, n, esize, 7 + n);
                            const unsigned char *out = nullptr;
                            size_t len = 0;
                            ASSERT_EQ(pascal_zchunk_encode(z, v.data(), n, &out, &len), 0);
                            auto want = Shuffled(v, rows, esize, shuffle);
                            EXPECT_EQ(Inflate(out, len, want.size()), want);
                            if (kind == Kind::Random && n == rows && rows >= 4096)
                                EXPECT_LE(len, want.size() + want.size() / 1000 + 64)
                                    << "random planes are stored, not expanded";
                            if ((kind == Kind::Zeros || kind == Kind::Constant) && rows >= 4096)
                                EXPECT_LT(len, want.size() / 20) << "constant planes deflate";
                        }
                        pascal_zchunk_free(z);
                    }
}

// A chunk's bytes depend on that chunk alone: encoders that saw other
// chunks first give what a fresh one gives, so a resumed or sharded run
// stores the same file.
TEST(ZChunk, BytesDependOnTheChunkAlone)
{
    const size_t rows = 65536;
    auto a = Make(Kind::Mixed, rows, 8, 1), b = Make(Kind::Ramp, rows, 8, 2),
         c = Make(Kind::Random, rows, 8, 3);
    for (int level : {1, 2, 6}) {
        SCOPED_TRACE("level " + std::to_string(level));
        pascal_zchunk *fresh = pascal_zchunk_new(rows, 8, level, 1);
        pascal_zchunk *used = pascal_zchunk_new(rows, 8, level, 1);
        ASSERT_TRUE(fresh && used);
        const unsigned char *out;
        size_t len;
        ASSERT_EQ(pascal_zchunk_encode(used, c.data(), rows, &out, &len), 0);
        ASSERT_EQ(pascal_zchunk_encode(used, a.data(), rows, &out, &len), 0);
        ASSERT_EQ(pascal_zchunk_encode(used, b.data(), rows / 3, &out, &len), 0);
        std::vector<unsigned char> after(out, out + len);
        ASSERT_EQ(pascal_zchunk_encode(fresh, b.data(), rows / 3, &out, &len), 0);
        EXPECT_EQ(after, std::vector<unsigned char>(out, out + len));
        pascal_zchunk_free(fresh);
        pascal_zchunk_free(used);
    }
}

TEST(ZChunk, RefusesLevelsOutsideDeflates)
{
    EXPECT_EQ(pascal_zchunk_new(100, 8, 0, 1), nullptr);
    EXPECT_EQ(pascal_zchunk_new(100, 8, 10, 1), nullptr);
    EXPECT_EQ(pascal_zchunk_new(0, 8, 1, 1), nullptr);
    pascal_zchunk_free(nullptr);
}

} // namespace
