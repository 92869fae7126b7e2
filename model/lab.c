/* The cache lab (model/lab.h): exact fully associative LRU over a cyclic
 * request stream.  The recency list is an array, most recent first; a request
 * costs O(capacity), and capacity is at most 64 lines. */
#include "model/lab.h"

static int valid_capacity(int c)
{
    return c >= 1 && c <= PASCAL_LAB_MAX_CAPACITY;
}

static int valid_stride(int s)
{
    return s >= 1 && s <= PASCAL_LAB_MAX_STRIDE;
}

int pascal_lab_address(const pascal_lab *lab, int64_t i)
{
    return (int)(i % lab->stride);
}

/* One request: hit iff resident; the line moves (or is filled) to the front,
 * and a miss in a full cache evicts the last line, the least recently used. */
static void request(pascal_lab *lab)
{
    int a = pascal_lab_address(lab, lab->requests), pos = -1;
    for (int i = 0; i < lab->used; i++)
        if (lab->lines[i] == a) {
            pos = i;
            break;
        }
    if (pos >= 0) {
        lab->hits++;
        lab->last = PASCAL_LAB_HIT;
    } else {
        lab->misses++;
        lab->last = PASCAL_LAB_MISS;
        if (lab->used < lab->capacity)
            lab->used++;
        pos = lab->used - 1; /* the free slot, or the LRU line evicted */
    }
    for (int i = pos; i > 0; i--)
        lab->lines[i] = lab->lines[i - 1];
    lab->lines[0] = a;
    lab->last_address = a;
    lab->requests++;
}

/* Empties the cache and counts n requests from the start of the stream. */
static void replay(pascal_lab *lab, int64_t n)
{
    lab->requests = lab->hits = lab->misses = 0;
    lab->used = 0;
    lab->last_address = -1;
    lab->last = PASCAL_LAB_NONE;
    for (int64_t i = 0; i < n; i++)
        request(lab);
}

int pascal_lab_init(pascal_lab *lab, int capacity, int stride)
{
    if (!lab || !valid_capacity(capacity) || !valid_stride(stride))
        return -1;
    lab->capacity = capacity;
    lab->stride = stride;
    replay(lab, PASCAL_LAB_START);
    return 0;
}

void pascal_lab_reset(pascal_lab *lab)
{
    replay(lab, PASCAL_LAB_START);
}

int pascal_lab_set_capacity(pascal_lab *lab, int capacity)
{
    if (!valid_capacity(capacity))
        return -1;
    lab->capacity = capacity;
    replay(lab, lab->requests);
    return 0;
}

int pascal_lab_set_stride(pascal_lab *lab, int stride)
{
    if (!valid_stride(stride))
        return -1;
    lab->stride = stride;
    replay(lab, lab->requests);
    return 0;
}

int pascal_lab_step(pascal_lab *lab, int64_t k)
{
    if (k < 0 || k > PASCAL_LAB_MAX_REQUESTS - lab->requests)
        return -1;
    for (int64_t i = 0; i < k; i++)
        request(lab);
    return 0;
}
