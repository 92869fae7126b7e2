/* The simulator's event queue (model/sim_internal.h): the pending events
 * that touch shared state, at most one per slot, in a sorted array.  Taking
 * the earliest is a step of the start index.  A slot's next event is
 * usually later than most of the others' (the slots take turns), so it is
 * placed by walking a few entries from the back; when that walk runs long,
 * by binary search and one move from the nearer end.  The order is (time,
 * slot), ties to the smaller slot, as in a heap over the slots, so the
 * simulation is the same event for event. */
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
    int64_t n = q->n, lo = 0, len = hole - 1;
    /* The walk left b[hole] free and moved b[hole .. n) up by one; k belongs
     * before b[hole - 1].  Branch-free lower bound over b[0 .. hole - 1):
     * where k falls among them is close to random. */
    while (len > 0) {
        int64_t half = len / 2;
        lo = b[lo + half] < k ? lo + len - half : lo;
        len = half;
    }
    if (lo < hole - lo && q->h > 0) {
        /* Nearer the front: close the walk's hole, move the entries before
         * k down by one. */
        memmove(b + hole, b + hole + 1, (size_t)(n - hole) * sizeof *b);
        memmove(b - 1, b, (size_t)lo * sizeof *b);
        b[lo - 1] = k;
        q->h--;
    } else {
        memmove(b + lo + 1, b + lo, (size_t)(hole - lo) * sizeof *b);
        b[lo] = k;
    }
    q->n++;
}
