/* The cache lab: an exact fully associative LRU toy for teaching reuse
 * distance (the "cache lab" of the device-cache note, shared/seeds/003).
 *
 * A cache of `capacity` lines serves a request stream that cycles over
 * `stride` distinct addresses: request i (counted from 0) reads address
 * i mod stride.  A request hits when its address is resident; a miss fills
 * the address and, when the cache is full, evicts the least recently used
 * line.  The lab starts empty with PASCAL_LAB_START requests already counted;
 * reset returns to that state under the current capacity and stride; changing
 * the capacity or the stride replays the counted requests from an empty cache
 * under the new setting, so the counters always describe one exact run.
 *
 * It is not a GPU cache: no sectors, no associativity conflicts, no cache
 * operators, no hardware replacement policy.
 *
 * Pure state machine: a plain struct, no allocation, no I/O.  The same rules
 * are implemented in the HTML report's lab panel (web/lab.js). */
#ifndef PASCAL_MODEL_LAB_H
#define PASCAL_MODEL_LAB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    PASCAL_LAB_START = 16,           /* requests counted at start and after reset */
    PASCAL_LAB_DEFAULT_CAPACITY = 4, /* a first look: a cycle one address too */
    PASCAL_LAB_DEFAULT_STRIDE = 5,   /* long for the cache never hits under LRU */
    PASCAL_LAB_MAX_CAPACITY = 64,    /* lines */
    PASCAL_LAB_MAX_STRIDE = 4096     /* distinct addresses in the cycle */
};
#define PASCAL_LAB_MAX_REQUESTS 1000000 /* the most requests a run may count */

/* Result of the most recent request. */
typedef enum pascal_lab_event {
    PASCAL_LAB_NONE = 0, /* no request counted yet */
    PASCAL_LAB_HIT = 1,
    PASCAL_LAB_MISS = 2
} pascal_lab_event;

typedef struct pascal_lab {
    int capacity;          /* lines, 1..PASCAL_LAB_MAX_CAPACITY */
    int stride;            /* addresses in the cycle, 1..PASCAL_LAB_MAX_STRIDE */
    int64_t requests;      /* counted so far */
    int64_t hits, misses;  /* hits + misses == requests */
    int used;              /* resident lines, <= capacity */
    int lines[PASCAL_LAB_MAX_CAPACITY]; /* addresses, most recent first */
    int last_address;      /* address of the last request, -1 if none */
    pascal_lab_event last; /* what the last request did */
} pascal_lab;

/* Starts a lab: empty, then PASCAL_LAB_START requests.  Returns 0, or -1
 * (lab untouched) when capacity or stride is out of range. */
int pascal_lab_init(pascal_lab *lab, int capacity, int stride);
/* Back to the starting state under the current capacity and stride. */
void pascal_lab_reset(pascal_lab *lab);
/* Replays the counted requests from an empty cache under the new setting.
 * Return -1 (lab untouched) when the value is out of range. */
int pascal_lab_set_capacity(pascal_lab *lab, int capacity);
int pascal_lab_set_stride(pascal_lab *lab, int stride);
/* Adds k >= 0 requests.  Returns -1 (lab untouched) when k < 0 or the total
 * would pass PASCAL_LAB_MAX_REQUESTS. */
int pascal_lab_step(pascal_lab *lab, int64_t k);
/* Address read by request i (counted from 0): i mod stride. */
int pascal_lab_address(const pascal_lab *lab, int64_t i);

#ifdef __cplusplus
}
#endif

#endif
