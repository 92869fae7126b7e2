/* Exact sizing by search: for each scenario of a spec (one combination of
 * its axes other than the capacity, or one draw of a sampled spec), the
 * smallest capacity C in whole blocks whose target column meets a target
 * such as rho_lru <= 0.05, by bisection on C rather than a grid.
 *
 * The target's column is monotone in C (sweeps/search.h states why for each
 * column and refuses the others), so the predicate "meets" is false up to
 * some C and true from it on; bisection finds that C exactly in
 * ceil(log2(hi - lo + 1)) + 1 evaluations, each at the scenario's own
 * phase vector (built once: every capacity after that is a query).
 *
 * The searched range of a scenario: from the smallest to the largest value
 * of the capacity axis (C, or capacity_bytes / block_bytes at the
 * scenario's block_bytes), or 1..N when the capacity is not swept.  A
 * scenario that misses the target at the top of its range has no answer.
 * Scenarios are searched in parallel and reported in index order, so the
 * results never depend on the thread count. */
#ifndef PASCAL_ENGINE_SIZE_H
#define PASCAL_ENGINE_SIZE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/eval.h"
#include "sweeps/search.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_size_result {
    uint64_t index;          /* raw index of the scenario's point */
    pascal_point point;      /* the scenario; C (and capacity_bytes) at the answer,
                                or at hi when there is none */
    int64_t lo, hi;          /* searched range of C, blocks */
    int64_t C;               /* smallest C meeting the target, blocks; -1 when none */
    double capacity_bytes;   /* C * block_bytes; NaN when none or block_bytes unset */
    double value;            /* the target column at C (at hi when none) */
    int evaluations;         /* model evaluations this search took */
    /* A probed column (pascal_search_probed): 1 when it never rose with C
     * over the capacities evaluated, 0 when it did (the largest step up
     * between neighbouring ones: rise_v[0] at rise_C[0] to rise_v[1] at
     * rise_C[1]); -1 when the column is shown monotone and not probed. */
    int monotone;
    int probes;              /* capacities evaluated, when probed */
    int64_t rise_C[2];
    double rise_v[2];
    /* The band's high end (pascal_size_opts.band_column), searched on the
     * same bound: C (-1 none), bytes, value, monotone as above; band_C is
     * -2 when no band was asked. */
    int64_t band_C;
    double band_bytes, band_value;
    int band_monotone;
} pascal_size_result;

/* Most capacities one probed search keeps (17 probes and a bisection). */
#define PASCAL_SIZE_MAX_PROBES 96

typedef struct pascal_size_opts {
    pascal_target target;
    /* With a target on the answer (answer_traffic, answer_fill_bytes):
     * answer_traffic_hi to size the band's high end on the same bound
     * beside it, else -1 (0 is taken as -1). */
    int band_column;
    int threads;             /* <= 0: OpenMP's default */
    int64_t batch;           /* scenarios per batch; <= 0 chooses */
    /* Every scenario's result, in scenario order; a nonzero return stops the
     * search with that status.  May be NULL (only the worst case is kept). */
    int (*emit)(void *ctx, const pascal_size_result *r);
    void *emit_ctx;
    /* Polled after every batch; nonzero stops with PASCAL_EINTR. */
    int (*should_stop)(void *ctx);
    void *stop_ctx;
    /* A signal handler's flag (NULL: none), read by the check pass and
     * before every scenario: nonzero stops with PASCAL_EINTR within a
     * scenario, emitting nothing of the unfinished batch. */
    const volatile sig_atomic_t *stop_flag;
} pascal_size_opts;

typedef struct pascal_size_stats {
    uint64_t scenarios;      /* searched (kept by `where`) */
    uint64_t met;            /* with an answer */
    uint64_t evaluations;    /* evaluations of the target column */
    uint64_t grid_points;    /* what a grid of every C in each range would evaluate */
    int threads;
    double seconds;
    /* The worst case: the scenario that needs the most capacity (in bytes
     * when block_bytes is known, else blocks), the first with no answer if
     * any; ties go to the smaller index.  Meeting the target in every
     * scenario takes exactly its capacity, each column being monotone. */
    pascal_size_result worst;
} pascal_size_stats;

/* Checks that target can be searched on spec: its model is among the spec's
 * models (else PASCAL_EINPUT naming the models), and pascal_search_check. */
int pascal_size_check(const pascal_spec *spec, const pascal_target *target, pascal_error *err);

/* Searches every scenario.  Plans first: a point error (require, derived
 * values) is returned before anything is emitted.  Returns 0,
 * PASCAL_EINPUT, PASCAL_EINTR when stopped, PASCAL_ENOMEM, or an emit
 * status. */
int pascal_size_run(const pascal_spec *spec, const pascal_size_opts *o, pascal_size_stats *st,
                    pascal_error *err);

/* The searched range of C for the scenario point p. */
void pascal_size_range(const pascal_spec *spec, const pascal_point *p, int64_t *lo, int64_t *hi);

/* One search on a caller's evaluator (the run's summary and the report use
 * it): p is the scenario, [lo, hi] the range.  A column the evaluator's
 * models make probed (pascal_search_probed) is probed, else bisected.
 * Returns 0, or -1 when the point cannot be evaluated. */
int pascal_size_point(pascal_eval *ev, const pascal_point *p, const pascal_target *t,
                      int64_t lo, int64_t hi, pascal_size_result *r);

/* One scenario at a time, for a program that walks the scenarios itself
 * (the report's sizing table, report/report.h's pascal_report_sizer, which
 * these three fill as they are: hence void *).  open: checks "column <=
 * target" on spec (pascal_size_check) and makes an evaluator; NULL with
 * the reason in note when it cannot.  at: the scenario of raw index raw:
 * 1 with *C (blocks; -1 when no C in range meets the target), *bytes
 * (C * block_bytes; NaN when unknown or none) and *value (the column at C,
 * or at the top of the range); 0 when `where` drops the point; -1 when it
 * fails a check or cannot be evaluated.  spec must outlive the searcher. */
void *pascal_size_searcher_open(const pascal_spec *spec, int column, double target, char *note, size_t len);
int pascal_size_searcher_at(void *searcher, uint64_t raw, int64_t *C, double *bytes, double *value);
void pascal_size_searcher_free(void *searcher);

/* 1 when result a needs more capacity than b: no answer (C < 0) needs more
 * than any answer; between two answers, more bytes when both know theirs,
 * else more blocks.  0 on a tie, which callers break by raw index.  The
 * order of the worst case (pascal_size_stats.worst) and of the run's exact
 * sizing. */
int pascal_size_needs_more(const pascal_size_result *a, const pascal_size_result *b);

/* Scenarios of a spec: raw indices with the capacity axis at its first
 * value (or every raw index when the capacity is not a grid axis). */
uint64_t pascal_size_scenarios(const pascal_spec *spec);
uint64_t pascal_size_scenario_index(const pascal_spec *spec, uint64_t k);

#ifdef __cplusplus
}
#endif

#endif
