/* FROZEN REGRESSION ORACLE (see ref_sim.h): model/sim_queue.c before the simulator
 * was made faster, names prefixed with ref_, functions static.  Its
 * original comment follows. */
/* The simulator's event queue (model/sim_internal.h): a calendar queue.
 * Every slot has at most one pending event, so lists thread through a
 * per-slot `next` array and nothing is allocated.  Taking the earliest event
 * walks the bitmap of non-empty ref_buckets from the current bucket; a bucket
 * whose first event belongs to a later turn of the calendar is passed over.
 * Ties in time go to the smaller slot, as the heap it replaces did, so the
 * simulation is the same event for event. */
#include <math.h>

#include "ref_sim_internal.h"

static inline int ref_earlier(double ta, int32_t sa, double tb, int32_t sb)
{
    return ta < tb || (ta == tb && sa < sb);
}

static inline int64_t ref_bucket_of(const ref_queue *q, double t)
{
    return (int64_t)(t * q->inv_width);
}

static void ref_queue_reset(ref_queue *q, int64_t nb, double width, int64_t slots)
{
    q->nb = nb;
    q->mask = nb - 1;
    q->width = width;
    q->inv_width = 1 / width;
    q->cur = 0;
    q->n = 0;
    for (int64_t b = 0; b < nb; b++)
        q->head[b] = -1;
    for (int64_t k = 0; k < nb / 64; k++)
        q->bits[k] = 0;
    for (int64_t s = 0; s < slots; s++)
        q->t[s] = INFINITY;
}

static void ref_queue_push(ref_queue *q, int32_t s, double t)
{
    int64_t b = ref_bucket_of(q, t) & q->mask;
    int32_t *p = &q->head[b];
    while (*p >= 0 && !ref_earlier(t, s, q->t[*p], *p))
        p = &q->next[*p];
    q->next[s] = *p;
    *p = s;
    q->t[s] = t;
    q->bits[b >> 6] |= 1ULL << (b & 63);
    q->n++;
}

/* The first non-empty bucket at or after bucket i, cyclically (n > 0). */
static int64_t ref_next_nonempty(const ref_queue *q, int64_t i)
{
    int64_t w = i >> 6, nw = q->nb >> 6;
    uint64_t word = q->bits[w] & (~0ULL << (i & 63));
    while (!word) {
        w = (w + 1) & (nw - 1);
        word = q->bits[w];
    }
    return (w << 6) | __builtin_ctzll(word);
}

/* Every bucket was passed over: the calendar jumps to the earliest event's
 * turn (rare: only when all events lie a whole turn ahead). */
static void ref_jump(ref_queue *q)
{
    int64_t best = -1;
    for (int64_t b = 0; b < q->nb; b++)
        if (q->head[b] >= 0) {
            int64_t a = ref_bucket_of(q, q->t[q->head[b]]);
            if (best < 0 || a < best)
                best = a;
        }
    q->cur = best;
}

static int32_t ref_queue_pop(ref_queue *q, double *t)
{
    int64_t passed = 0;
    if (q->n == 0)
        return -1;
    for (;;) {
        int64_t i = q->cur & q->mask, j = ref_next_nonempty(q, i);
        int32_t h;
        passed += (j - i) & q->mask;
        q->cur += (j - i) & q->mask;
        h = q->head[j];
        if (ref_bucket_of(q, q->t[h]) <= q->cur) {
            q->head[j] = q->next[h];
            if (q->head[j] < 0)
                q->bits[j >> 6] &= ~(1ULL << (j & 63));
            q->n--;
            *t = q->t[h];
            q->t[h] = INFINITY; /* no pending event */
            return h;
        }
        if (passed >= q->nb) {
            ref_jump(q);
            passed = 0;
        } else {
            q->cur++;
            passed++;
        }
    }
}
