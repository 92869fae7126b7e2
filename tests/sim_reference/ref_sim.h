/* FROZEN REGRESSION ORACLE, not part of the program.
 *
 * The progress simulator (model/sim.h) as it was before it was made faster
 * (the files model/sim.c, sim_scan.c, sim_queue.c, sim_barrier.c and
 * sim_internal.h of that version, here ref_*.c with every name prefixed
 * with ref_ and every function static).  Including this header compiles
 * that implementation into the including file, as C (bench/bench_sim.c, its
 * in-process baseline) or as C++ (tests/sim_equivalence_test.cc):
 *
 *   ref_sim *ws = NULL;
 *   ref_sim_fit(&ws, &cfg);
 *   ref_sim_run(ws, &timing, &cfg, &result);   // as pascal_sim_run
 *   ref_sim_free(ws);
 *
 * Its use: the new implementation must give the same outputs (fills, hits,
 * merges, K per wave, times, request log, trajectories), bit for bit, on
 * every configuration.  Where an independent source exists (the static
 * model's exact LRU for the barrier scan, Theorem 6 for the timing) the
 * tests in tests/sim_test.cc check against that; this copy covers the
 * dynamic outputs, for which no independent source exists.  It is the old
 * implementation, not a record of the program's printed output.  Do not
 * edit its logic: a change here would change what the new code is held to. */
#ifndef PASCAL_TESTS_REF_SIM_H
#define PASCAL_TESTS_REF_SIM_H

#include "ref_sim_internal.h"
#include "ref_sim_queue.c"
#include "ref_sim.c"
#include "ref_sim_barrier.c"
#include "ref_sim_scan.c"

#endif
