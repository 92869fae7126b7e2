/* What one kernel of a model step leaves in L2 for the next
 * (docs/workloads.md section 11.2): the step's kernels replayed as one
 * program, in bytes, through one LRU cache.
 *
 * The kernels of step.h run one after another, each in its own lock-step
 * order (pascal_workload_walk), and share the activations between them:
 *
 *   qkv_proj   reads X_l (its A),        writes QKV_l (its C)
 *   attention  reads Q from QKV_l,       writes O_l (split-KV: fp32 partials,
 *                                        its own; the combine is not replayed)
 *   o_proj     reads O_l,                writes H_l
 *   gate_up    reads H_l,                writes GU_l = [gate | up]
 *   down       reads the gate half of GU_l (the SiLU product taken as
 *              written over it in place), writes X_(l+1)
 *   lm_head    reads X_L's rows (prefill: each prompt's last), writes logits
 *
 * Weights, the KV cache, partials and logits are each kernel's own.  Norms,
 * RoPE, the SiLU product and the residual adds are not replayed (step.h).
 * Each activation is a row-major matrix, and each access a rectangle of
 * it; the replay's blocks are the cells of the grid that every rectangle's
 * edges cut, so that a cell is always read or written whole and its LRU
 * need is that of each of its sectors (every column edge must fall on a
 * sector: else no answer).
 *
 * Layers are alike up to renaming, so the replay runs the first two layers
 * and the LM head: a layer that touches D distinct bytes leaves in a cache
 * of C <= D bytes only what it touched itself, so from the third layer on
 * each layer meets the cache as the second did.  The step's fills are
 * F_1 + (L - 1) F_2 + F_head, exact for L <= 2 and for C <= D (else NaN).
 *
 * Pure model code: no I/O, no globals; the replay allocates its tables. */
#ifndef PASCAL_MODEL_CHAIN_H
#define PASCAL_MODEL_CHAIN_H

#include <stdint.h>

#include "model/step.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_chain pascal_chain;

/* Why pascal_chain_run gave no replay. */
enum {
    PASCAL_CHAIN_OK = 0,
    PASCAL_CHAIN_SHAPE = 1,     /* a kernel's shape is refused (pascal_workload_derive) */
    PASCAL_CHAIN_SECTOR = 2,    /* an activation's column edge is not on a sector */
    PASCAL_CHAIN_SIZE = 3,      /* past PASCAL_CHAIN_MAX_READS reads, or memory */
};
/* Most reads the replay records (16 bytes each). */
#define PASCAL_CHAIN_MAX_READS ((int64_t)1 << 25)

/* Replays step s with M resident CTAs per wave (a persistent kernel: its
 * grid), sectors of `sector` bytes.  *out is the replay (free it), or NULL
 * with the reason returned. */
int pascal_chain_run(const pascal_step *s, int64_t M, int64_t sector, pascal_chain **out);
/* The step's DRAM fills with a cache of C bytes: NaN where the two-layer
 * replay does not give them (L > 2 and C above a layer's distinct bytes). */
double pascal_chain_fills(const pascal_chain *ch, double C);
/* Distinct bytes the second replayed layer touches (D above; 0 for one layer). */
double pascal_chain_layer_bytes(const pascal_chain *ch);
void pascal_chain_free(pascal_chain *ch);
/* About the most bytes pascal_chain_run(s, M, ...) allocates at its peak
 * (its block table, its recorded reads, its edges), NaN for a refused
 * shape; cost O(1) a kernel. */
double pascal_chain_bytes(const pascal_step *s, int64_t M);

#ifdef __cplusplus
}
#endif

#endif
