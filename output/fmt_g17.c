/* Exact "%.17g" without printf (see output/fmt.h for why).
 *
 * A finite double is x = m * 2^e2 with m < 2^53.  Printing 17 significant
 * digits means finding N = round(x * 10^p) in [1e16, 1e17) with p = 16 - k,
 * k = floor(log10 x), and rounding half-to-even on the exact binary value.
 * With 10^p = 5^p * 2^p, N is m * 5^p shifted by e2 + p bits (p >= 0) or
 * (m << (e2 - q)) / 5^q (p = -q < 0): both are exact integer operations as
 * long as 5^|p| fits in 128 bits (p <= 54) or 64 bits (q <= 27).  Values
 * outside that window, NaN and infinities go to snprintf. */
#include "output/fmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;

#define P_MAX 54 /* 5^54 < 2^128 as 5^27 * 5^27 */
#define Q_MAX 27 /* 5^27 < 2^64 */

static const uint64_t pow5_64[28] = {
    0x1u, 0x5u, 0x19u,
    0x7du, 0x271u, 0xc35u,
    0x3d09u, 0x1312du, 0x5f5e1u,
    0x1dcd65u, 0x9502f9u, 0x2e90eddu,
    0xe8d4a51u, 0x48c27395u, 0x16bcc41e9u,
    0x71afd498du, 0x2386f26fc1u, 0xb1a2bc2ec5u,
    0x3782dace9d9u, 0x1158e460913du, 0x56bc75e2d631u,
    0x1b1ae4d6e2ef5u, 0x878678326eac9u, 0x2a5a058fc295edu,
    0xd3c21bcecceda1u, 0x422ca8b0a00a425u, 0x14adf4b7320334b9u,
    0x6765c793fa10079du,
};

static int bit_at(const uint64_t t[3], int i)
{
    return (int)((t[i >> 6] >> (i & 63)) & 1u);
}

/* Whether any of the bits 0..n-1 of t is set. */
static int any_below(const uint64_t t[3], int n)
{
    int limb = n >> 6;
    for (int i = 0; i < limb; i++)
        if (t[i])
            return 1;
    return limb < 3 && (n & 63) && (t[limb] & ((UINT64_C(1) << (n & 63)) - 1));
}

/* round_half_even(t / 2^r) for 0 < r < 192, when the quotient is < 2^64. */
static uint64_t shr_round(const uint64_t t[3], int r)
{
    int limb = r >> 6, sh = r & 63;
    uint64_t q = t[limb] >> sh;
    if (sh && limb < 2)
        q |= t[limb + 1] << (64 - sh);
    if (bit_at(t, r - 1) && (any_below(t, r - 1) || (q & 1u)))
        q++;
    return q;
}

/* N = round(m * 2^e2 * 10^p); returns 0 when p or the shift is out of the
 * exact window. */
static int scale(uint64_t m, int e2, int p, uint64_t *n)
{
    if (p > P_MAX)
        return 0;
    if (p >= 0) {
        u128 f = p <= Q_MAX ? pow5_64[p] : (u128)pow5_64[Q_MAX] * pow5_64[p - Q_MAX];
        int s = e2 + p;
        if (s >= 0) { /* x * 10^p is an integer below 1e18 */
            *n = (uint64_t)((u128)m * f) << s;
            return 1;
        }
        if (p <= Q_MAX && -s < 128) { /* the product fits in 117 bits */
            u128 prod = (u128)m * (uint64_t)f, half = (u128)1 << (-s - 1);
            u128 q = prod >> -s, rem = prod & ((half << 1) - 1);
            *n = (uint64_t)q + (rem > half || (rem == half && (q & 1u)));
            return 1;
        }
        u128 lo = (u128)m * (uint64_t)f, hi = (u128)m * (uint64_t)(f >> 64);
        u128 mid = (lo >> 64) + (uint64_t)hi;
        uint64_t t[3] = {(uint64_t)lo, (uint64_t)mid, (uint64_t)(hi >> 64) + (uint64_t)(mid >> 64)};
        if (-s >= 192)
            return 0;
        *n = shr_round(t, -s);
        return 1;
    }
    int q = -p, s = e2 - q;
    if (q > Q_MAX || s < 0 || s > 74)
        return 0;
    u128 num = (u128)m << s, d = pow5_64[q];
    u128 quo = num / d, rem = num % d;
    if (2 * rem > d || (2 * rem == d && (quo & 1u))) /* d is odd: no ties */
        quo++;
    *n = (uint64_t)quo;
    return 1;
}

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes the last 2*npairs digits of v (zero-padded) ending just before end. */
static void put_pairs(uint32_t v, int npairs, char *end)
{
    for (int i = 0; i < npairs; i++, v /= 100)
        memcpy(end - 2 * (i + 1), digit_pairs + 2 * (v % 100), 2);
}

static int put_uint(uint64_t v, char *out)
{
    char tmp[24];
    int n = 0, len;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    len = n;
    while (n)
        *out++ = tmp[--n];
    return len;
}

/* The 17 digits of N < 1e17, zero-padded, as 9 + 8 digits in 32-bit halves. */
static void digits17(uint64_t N, char d[17])
{
    uint32_t hi = (uint32_t)(N / 100000000u), lo = (uint32_t)(N % 100000000u);
    put_pairs(lo, 4, d + 17);
    put_pairs(hi % 100000000u, 4, d + 9);
    d[0] = (char)('0' + hi / 100000000u);
}

/* Lays out the 17 digits of N (1e16 <= N < 1e17) with decimal exponent k
 * the way %g does: plain for -4 <= k < 17, else d.ddde+XX; trailing zeros of
 * the fraction and a bare '.' are dropped. */
static int emit(int neg, uint64_t N, int k, char *out)
{
    char d[17];
    int nd = 17, len = 0;
    digits17(N, d);
    if (neg)
        out[len++] = '-';
    if (k < -4 || k >= 17) {
        while (nd > 1 && d[nd - 1] == '0')
            nd--;
        out[len++] = d[0];
        if (nd > 1) {
            out[len++] = '.';
            memcpy(out + len, d + 1, (size_t)(nd - 1));
            len += nd - 1;
        }
        out[len++] = 'e';
        out[len++] = k < 0 ? '-' : '+';
        if (k > -10 && k < 10)
            out[len++] = '0';
        len += put_uint((uint64_t)(k < 0 ? -k : k), out + len);
    } else {
        int ipart = k >= 0 ? k + 1 : 0; /* digits before the point */
        while (nd > ipart && d[nd - 1] == '0')
            nd--;
        if (k >= 0) {
            memcpy(out + len, d, (size_t)ipart);
            len += ipart;
        } else {
            out[len++] = '0';
        }
        if (nd > ipart) {
            out[len++] = '.';
            for (int z = 0; z < -k - 1; z++)
                out[len++] = '0';
            memcpy(out + len, d + ipart, (size_t)(nd - ipart));
            len += nd - ipart;
        }
    }
    out[len] = '\0';
    return len;
}

int pascal_fmt_g17(double x, char *out)
{
    uint64_t bits, m;
    int neg, ebits, e2, k;
    memcpy(&bits, &x, sizeof bits);
    neg = (int)(bits >> 63);
    ebits = (int)((bits >> 52) & 0x7ff);
    m = bits & ((UINT64_C(1) << 52) - 1);
    if (ebits == 0x7ff)
        return snprintf(out, PASCAL_FMT_G17_MAX, "%.17g", x);
    if (ebits == 0 && m == 0)
        return (int)(strcpy(out, neg ? "-0" : "0"), neg ? 2 : 1);
    if (fabs(x) < 9007199254740992.0 && x == (double)(int64_t)x) {
        int len = neg ? 1 : 0;
        out[0] = '-';
        len += put_uint((uint64_t)(neg ? -(int64_t)x : (int64_t)x), out + len);
        out[len] = '\0';
        return len;
    }
    if (ebits) {
        m |= UINT64_C(1) << 52;
        e2 = ebits - 1075;
    } else {
        e2 = -1074;
    }
    /* floor(floor(log2 x) * 78913 / 2^18) is floor(log10 x) or one off
     * either way (78913 / 2^18 ~ log10 2); the offset keeps the shifted
     * value positive.  A wrong guess shows as N outside [1e16, 1e17). */
    k = (int)((((int64_t)(e2 + 63 - __builtin_clzll(m)) * 78913) + ((int64_t)4096 << 18)) >> 18) -
        4096;
    uint64_t N;
    for (int tries = 0; tries < 3; tries++) {
        if (!scale(m, e2, 16 - k, &N))
            break;
        if (N >= UINT64_C(100000000000000000))
            k++;
        else if (N < UINT64_C(10000000000000000))
            k--;
        else
            return emit(neg, N, k, out);
    }
    return snprintf(out, PASCAL_FMT_G17_MAX, "%.17g", x);
}
