/* The simulator's event queue (model/sim_internal.h): the SMs' earliest
 * events in a sorted array.  An SM's CTAs keep their pending events in the
 * per-slot arrays and the queue holds only each SM's earliest, so it has at
 * most one entry per SM.  Taking the earliest event is a step of the start
 * index; an SM's next event is usually later than most of the others' (the
 * SMs take turns), so it is placed by walking a few entries from the back,
 * and only when that walk runs long by binary search and one move.  The
 * order is (time, slot), ties to the smaller slot, as in a heap over the
 * slots, so the simulation is the same event for event. */
#include <string.h>

#include "model/sim_internal.h"

void sim_queue_reset(sim_queue *q)
{
    q->h = 0, q->n = 0;
}

void sim_queue_compact(sim_queue *q)
{
    memmove(q->buf, q->buf + q->h, (size_t)q->n * sizeof *q->buf);
    q->h = 0;
}

void sim_queue_insert_far(sim_queue *q, int64_t hole, sim_key k)
{
    sim_key *b = q->buf + q->h;
    int64_t lo = 0, hi = hole - 1; /* k belongs before b[hole - 1] */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (k < b[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    memmove(b + lo + 1, b + lo, (size_t)(hole - lo) * sizeof *b);
    b[lo] = k;
    q->n++;
}
