/* The engine's clock: monotonic seconds, for the timings a run or a
 * calibration reports (and the benchmarks). */
#ifndef PASCAL_COMMON_CLOCK_H
#define PASCAL_COMMON_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

double pascal_now(void);        /* monotonic seconds */

#ifdef __cplusplus
}
#endif

#endif
