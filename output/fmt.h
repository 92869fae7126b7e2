/* Number formatting for the CSV sink.
 *
 * printf("%.17g") prints every double so that strtod gives back the same
 * bits, but glibc's implementation costs about 300 ns a value, which makes a
 * ten-million-row CSV take most of a minute.  pascal_fmt_g17() produces the
 * same characters as snprintf(buf, n, "%.17g", x) (round-half-even on the
 * exact binary value, as glibc does in the default rounding mode) with exact
 * 64/128/192-bit integer arithmetic for values between about 1e-38 and 1e43,
 * and calls snprintf for everything else.  tests/output_csv_test.cc compares
 * it with snprintf on millions of values. */
#ifndef PASCAL_OUTPUT_FMT_H
#define PASCAL_OUTPUT_FMT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Longest text pascal_fmt_g17 writes, with its terminating NUL. */
#define PASCAL_FMT_G17_MAX 32

/* Writes x as "%.17g" into out (at least PASCAL_FMT_G17_MAX bytes), NUL
 * terminated; returns the number of characters before the NUL. */
int pascal_fmt_g17(double x, char *out);

#ifdef __cplusplus
}
#endif

#endif
