/* A model step replayed as one program (chain.h, docs/workloads.md 11.2). */
#include "model/chain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/replay_bytes.h"
#include "model/workload.h"

/* Activations of the replayed layers: X_0 .. X_R, then per layer QKV, O, H, GU. */
enum { R_QKV, R_O, R_H, R_GU, ROLES };

typedef struct tensor {
    int64_t rows, cols;
    uint8_t *rcut, *ccut;       /* rows + 1, cols + 1: an edge there */
    int32_t *rcell, *ccell;     /* row (column) -> its cell row (column) */
    int64_t *rstart, *cstart;   /* cell edges, nr + 1 and nc + 1 */
    int64_t nr, nc, base;       /* cells nr x nc, ids base .. */
} tensor;

typedef struct kern {
    pascal_workload w;
    int seg;                    /* 0, 1: a layer; 2: the LM head */
    int a, q, o;                /* tensors read as A or Q, written as output; -1: own */
    int64_t stride;             /* LM head, prefill: A row r is X row r stride + stride - 1 */
    int64_t base, nt, nq;       /* own ids from base: blocks, Q tiles, outputs */
} kern;

struct pascal_chain {
    int64_t layers;
    double cold[3], D;
    int64_t n[3];
    int64_t *need[3], *above[3];   /* needs ascending; bytes of reads with need >= need[i] */
};

typedef struct run {
    pascal_chain *ch;
    tensor *t;
    kern *k;
    int nt, nk, cur, pass, bits, err;
    int64_t sector, M, cap[3];
    int64_t *pairs[3];             /* (need, bytes) of each segment's reads */
    pascal_blru *lru;
    uint8_t *seen;
} run;

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t row_bytes(const run *x, int64_t cols)
{
    int64_t bits = cols * x->bits, b = bits / 8 + (bits % 8 != 0);
    return cdiv(b, x->sector) * x->sector;
}

static int record(run *x, int seg, int64_t need, int64_t bytes)
{
    if (x->ch->n[seg] == x->cap[seg]) {
        int64_t total = x->ch->n[0] + x->ch->n[1] + x->ch->n[2];
        if (total >= PASCAL_CHAIN_MAX_READS)
            return PASCAL_CHAIN_SIZE;
        int64_t cap = x->cap[seg] ? 2 * x->cap[seg] : 4096;
        int64_t *p = realloc(x->pairs[seg], (size_t)cap * 2 * sizeof *p);
        if (!p)
            return PASCAL_CHAIN_SIZE;
        x->pairs[seg] = p, x->cap[seg] = cap;
    }
    x->pairs[seg][2 * x->ch->n[seg]] = need;
    x->pairs[seg][2 * x->ch->n[seg] + 1] = bytes;
    x->ch->n[seg]++;
    return 0;
}

/* One block of the replay, read (a fill when it misses) or written. */
static int access(run *x, int64_t id, int64_t bytes, int write)
{
    int seg = x->k[x->cur].seg;
    int64_t need = pascal_blru_access(x->lru, id, bytes);
    if (need < 0)
        return PASCAL_CHAIN_SIZE;
    if (seg == 1 && !x->seen[id]) {
        x->seen[id] = 1;
        x->ch->D += (double)bytes;
    }
    if (write)
        return 0;
    if (need == 0) {
        x->ch->cold[seg] += (double)bytes;
        return 0;
    }
    return record(x, seg, need, bytes);
}

/* Rows [r0, r1) x columns [c0, c1) of tensor ti: its edges (pass 0), or
 * its cells in row-major order (pass 1), whose bytes must add up to what
 * the kernel's own replay counts for the access. */
static int rect(run *x, int ti, int64_t r0, int64_t r1, int64_t c0, int64_t c1, int write,
                int64_t *bytes)
{
    tensor *t = &x->t[ti];
    r1 = min64(r1, t->rows), c1 = min64(c1, t->cols);
    if (r0 >= r1 || c0 >= c1)
        return 0;
    if (x->pass == 0) {
        t->rcut[r0] = t->rcut[r1] = t->ccut[c0] = t->ccut[c1] = 1;
        return 0;
    }
    for (int64_t ri = t->rcell[r0]; ri <= t->rcell[r1 - 1]; ri++)
        for (int64_t ci = t->ccell[c0]; ci <= t->ccell[c1 - 1]; ci++) {
            int64_t b = (t->rstart[ri + 1] - t->rstart[ri]) * row_bytes(x, t->cstart[ci + 1] - t->cstart[ci]);
            *bytes -= b;
            int rc = access(x, t->base + ri * t->nc + ci, b, write);
            if (rc)
                return rc;
        }
    return 0;
}

/* The query rows [p0, p1) of attention's tile (b, launched head h): runs
 * of one token and consecutive heads, in Q's (or O's) columns h' d. */
static int attn_rows(run *x, const kern *k, int ti, int64_t qid, int write, int64_t *bytes)
{
    const pascal_workload *w = &k->w;
    const pascal_workload_shape *s = &w->shape;
    int64_t t = qid % w->tiles_q, bh = qid / w->tiles_q, b = bh / w->heads, h = bh % w->heads;
    int64_t G = s->q_heads / s->kv_heads, d = s->head_dim;
    int64_t rows = w->packed ? s->seq_q * G : w->folded ? G : s->seq_q;
    int64_t p0 = t * w->tile_q, p1 = min64(rows, p0 + w->tile_q);
    if (!w->packed && !w->folded)
        return rect(x, ti, b * s->seq_q + p0, b * s->seq_q + p1, h * d, h * d + d, write, bytes);
    for (int64_t p = p0; p < p1;) {
        int64_t tok = w->folded ? b : b * s->seq_q + p / G, head = w->folded ? h * G + p : h * G + p % G;
        int64_t q = p + 1;
        while (q < p1 && (w->folded || (b * s->seq_q + q / G == tok)))
            q++;
        int rc = rect(x, ti, tok, tok + 1, head * d, (head + q - p) * d, write, bytes);
        if (rc)
            return rc;
        p = q;
    }
    return 0;
}

static int own(run *x, const kern *k, int64_t id, int64_t bytes, int write)
{
    return x->pass == 0 ? 0 : access(x, k->base + id, bytes, write);
}

static int visit(void *ctx, int what, int64_t c, int64_t id, int64_t bytes)
{
    run *x = ctx;
    const kern *k = &x->k[x->cur];
    const pascal_workload *w = &k->w;
    const pascal_workload_shape *s = &w->shape;
    int64_t left = bytes, q, qid, o, oid;
    int rc = 0;
    if (bytes <= 0)
        return 0;
    if (what == PASCAL_ACCESS_BLOCK) {
        int64_t N = w->blocks, st = id / N, blk = id % N, u = s->tile_m / (w->ua ? w->ua : 1);
        if (s->kind != PASCAL_WORKLOAD_GEMM || k->a < 0 || st >= w->tiles_q * w->ua)
            return own(x, k, id, bytes, 0);
        /* A: unit a of row panel i (one slice), K step blk */
        int64_t i = st / w->ua, a = st % w->ua, r0 = i * s->tile_m + a * u, r1 = min64(r0 + u, s->m);
        int64_t c0 = blk * s->tile_k, c1 = min64(c0 + s->tile_k, s->k);
        if (k->stride == 0) {
            rc = rect(x, k->a, r0, r1, c0, c1, 0, &left);
        } else {
            for (int64_t r = r0; r < r1 && rc == 0; r++)
                rc = rect(x, k->a, r * k->stride + k->stride - 1, r * k->stride + k->stride, c0, c1, 0,
                          &left);
        }
    } else if (what == PASCAL_ACCESS_Q) {
        if (k->q < 0)
            return own(x, k, k->nt + id, bytes, 0);
        rc = attn_rows(x, k, k->q, id, 0, &left);
    } else {
        int write = what == PASCAL_ACCESS_OUT;   /* else a split-K slice reads its partial sum */
        if (k->o < 0)
            return own(x, k, k->nt + k->nq + id, bytes, write);
        if (s->kind == PASCAL_WORKLOAD_GEMM) {
            int64_t i = id / w->tiles_n, j = id % w->tiles_n;
            rc = rect(x, k->o, i * s->tile_m, (i + 1) * s->tile_m, j * s->tile_n, (j + 1) * s->tile_n,
                      write, &left);
        } else {
            pascal_workload_cta_io(w, c, x->sector, &q, &qid, &o, &oid);
            rc = attn_rows(x, k, k->o, qid, write, &left);
        }
    }
    if (rc == 0 && x->pass == 1 && left != 0)
        rc = PASCAL_CHAIN_SECTOR;   /* the cells do not tile the access's sectors */
    return rc;
}

/* Cell edges from the marks of pass 0; every column edge on a sector. */
static int cells(run *x, tensor *t, int64_t *next)
{
    t->rcut[0] = t->rcut[t->rows] = t->ccut[0] = t->ccut[t->cols] = 1;
    for (int dim = 0; dim < 2; dim++) {
        int64_t n = dim ? t->cols : t->rows, k = 0;
        uint8_t *cut = dim ? t->ccut : t->rcut;
        int64_t *start = malloc((size_t)(n + 1) * sizeof *start);
        int32_t *cell = malloc((size_t)(n ? n : 1) * sizeof *cell);
        if (!start || !cell) {
            free(start), free(cell);
            return PASCAL_CHAIN_SIZE;
        }
        for (int64_t i = 0; i <= n; i++) {
            if (!cut[i])
                continue;
            if (dim && i < n && (i * x->bits) % (8 * x->sector) != 0) {
                free(start), free(cell);
                return PASCAL_CHAIN_SECTOR;
            }
            start[k++] = i;
        }
        for (int64_t c = 0, i = 0; i < n; i++) {
            while (start[c + 1] <= i)
                c++;
            cell[i] = (int32_t)c;
        }
        if (dim)
            t->cstart = start, t->ccell = cell, t->nc = k - 1;
        else
            t->rstart = start, t->rcell = cell, t->nr = k - 1;
    }
    t->base = *next;
    *next += t->nr * t->nc;
    return 0;
}

static int walk_all(run *x)
{
    for (x->cur = 0; x->cur < x->nk; x->cur++) {
        const kern *k = &x->k[x->cur];
        int64_t *slots = k->w.persistent ? malloc((size_t)(2 * k->w.grid) * sizeof *slots) : NULL;
        if (k->w.persistent && !slots)
            return PASCAL_CHAIN_SIZE;
        int rc = pascal_workload_walk(&k->w, x->M, NULL, x->sector, slots, visit, x);
        free(slots);
        if (rc)
            return rc < 0 ? PASCAL_CHAIN_SIZE : rc;
    }
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    int64_t p = ((const int64_t *)a)[0], q = ((const int64_t *)b)[0];
    return (p > q) - (p < q);
}

/* Each segment's needs ascending, with the bytes at or above each. */
static int finish(run *x)
{
    pascal_chain *ch = x->ch;
    for (int g = 0; g < 3; g++) {
        int64_t n = ch->n[g], *p = x->pairs[g];
        ch->need[g] = malloc((size_t)(n ? n : 1) * sizeof *ch->need[g]);
        ch->above[g] = malloc((size_t)(n ? n : 1) * sizeof *ch->above[g]);
        if (!ch->need[g] || !ch->above[g])
            return PASCAL_CHAIN_SIZE;
        if (n)
            qsort(p, (size_t)n, 2 * sizeof *p, cmp_pair);
        int64_t run_bytes = 0;
        for (int64_t i = n; i-- > 0;) {
            run_bytes += p[2 * i + 1];
            ch->need[g][i] = p[2 * i];
            ch->above[g][i] = run_bytes;
        }
    }
    return 0;
}

static void free_run(run *x)
{
    for (int i = 0; i < x->nt; i++) {
        tensor *t = &x->t[i];
        free(t->rcut), free(t->ccut), free(t->rcell), free(t->ccell), free(t->rstart), free(t->cstart);
    }
    free(x->t);
    free(x->k);
    for (int g = 0; g < 3; g++)
        free(x->pairs[g]);
    pascal_blru_free(x->lru);
    free(x->seen);
}

int pascal_chain_run(const pascal_step *s, int64_t M, int64_t sector, pascal_chain **out)
{
    *out = NULL;
    run x = {0};
    int R = s->layers >= 2 ? 2 : 1, rc = 0;
    int64_t T = pascal_step_tokens(s), hd = s->heads * s->head_dim;
    int64_t qkv = (s->heads + 2 * s->kv_heads) * s->head_dim;
    if (M < 1 || sector < 1 || T < 1)
        return PASCAL_CHAIN_SHAPE;
    x.ch = calloc(1, sizeof *x.ch);
    x.nt = R + 1 + ROLES * R;
    x.nk = (PASCAL_OP_COUNT - 1) * R + 1;
    x.t = calloc((size_t)x.nt, sizeof *x.t);
    x.k = calloc((size_t)x.nk, sizeof *x.k);
    x.sector = sector;
    x.bits = pascal_dtype_bits[s->kernels.dtype];
    x.M = M;
    if (!x.ch || !x.t || !x.k) {
        free(x.ch);
        free_run(&x);
        return PASCAL_CHAIN_SIZE;
    }
    x.ch->layers = s->layers;
    for (int i = 0; i < x.nt && rc == 0; i++) {
        int layer_t = i > R, role = layer_t ? (i - R - 1) % ROLES : -1;
        tensor *t = &x.t[i];
        t->rows = T;
        t->cols = !layer_t ? s->hidden : role == R_QKV ? qkv : role == R_O ? hd
                  : role == R_H ? s->hidden : 2 * s->intermediate;
        t->rcut = calloc((size_t)t->rows + 1, 1);
        t->ccut = calloc((size_t)t->cols + 1, 1);
        if (!t->rcut || !t->ccut)
            rc = PASCAL_CHAIN_SIZE;
    }
    /* the kernels in step order, each with its tensors and own ids */
    int64_t next = 0;
    for (int n = 0; n < x.nk && rc == 0; n++) {
        kern *k = &x.k[n];
        int l = n / (PASCAL_OP_COUNT - 1), op = n == x.nk - 1 ? PASCAL_OP_LM_HEAD : n % (PASCAL_OP_COUNT - 1);
        int base = R + 1 + ROLES * l;
        pascal_workload_shape sh;
        int64_t count, nq, no;
        if (pascal_step_kernel(s, op, &sh, &count) != PASCAL_WL_OK || pascal_workload_derive(&sh, &k->w) != PASCAL_WL_OK) {
            rc = PASCAL_CHAIN_SHAPE;
            break;
        }
        k->seg = op == PASCAL_OP_LM_HEAD ? 2 : l;
        k->a = k->q = k->o = -1;
        switch (op) {
        case PASCAL_OP_QKV: k->a = l, k->o = base + R_QKV; break;
        case PASCAL_OP_ATTENTION: k->q = base + R_QKV, k->o = k->w.splits > 1 ? -1 : base + R_O; break;
        case PASCAL_OP_O: k->a = base + R_O, k->o = base + R_H; break;
        case PASCAL_OP_GATE_UP: k->a = base + R_H, k->o = base + R_GU; break;
        case PASCAL_OP_DOWN: k->a = base + R_GU, k->o = l + 1; break;
        default:
            k->a = R;
            k->stride = s->phase == PASCAL_PHASE_PREFILL ? s->context : 0;
            break;
        }
        pascal_workload_io_tiles(&k->w, &nq, &no);
        k->base = next;
        k->nt = k->w.streams * k->w.blocks;
        k->nq = nq;
        next += k->nt + nq + no;
    }
    if (rc == 0)
        rc = walk_all(&x);   /* pass 0: the edges */
    for (int i = 0; i < x.nt && rc == 0; i++)
        rc = cells(&x, &x.t[i], &next);
    if (rc == 0 && next > ((int64_t)1 << 28))
        rc = PASCAL_CHAIN_SIZE;
    if (rc == 0) {
        x.lru = pascal_blru_create(next);
        x.seen = calloc((size_t)next, 1);
        if (!x.lru || !x.seen)
            rc = PASCAL_CHAIN_SIZE;
    }
    x.pass = 1;
    if (rc == 0)
        rc = walk_all(&x);   /* pass 1: the replay */
    if (rc == 0)
        rc = finish(&x);
    free_run(&x);
    if (rc) {
        pascal_chain_free(x.ch);
        return rc;
    }
    *out = x.ch;
    return 0;
}

static double seg_fills(const pascal_chain *ch, int g, double C)
{
    int64_t lo = 0, hi = ch->n[g];   /* the first need above C */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((double)ch->need[g][mid] <= C)
            lo = mid + 1;
        else
            hi = mid;
    }
    return ch->cold[g] + (lo < ch->n[g] ? (double)ch->above[g][lo] : 0.0);
}

double pascal_chain_fills(const pascal_chain *ch, double C)
{
    if (!ch || isnan(C))
        return NAN;
    double f = seg_fills(ch, 0, C) + seg_fills(ch, 2, C);
    if (ch->layers == 1)
        return f;
    if (ch->layers > 2 && C > ch->D)
        return NAN;
    return f + (double)(ch->layers - 1) * seg_fills(ch, 1, C);
}

double pascal_chain_layer_bytes(const pascal_chain *ch)
{
    return ch ? ch->D : NAN;
}

void pascal_chain_free(pascal_chain *ch)
{
    if (!ch)
        return;
    for (int g = 0; g < 3; g++)
        free(ch->need[g]), free(ch->above[g]);
    free(ch);
}

double pascal_chain_bytes(const pascal_step *s, int64_t M)
{
    int R = s->layers >= 2 ? 2 : 1;
    double ids = 0, reads = 0, edges = 0;
    (void)M;
    for (int op = 0; op < PASCAL_OP_COUNT; op++) {
        pascal_workload_shape sh;
        pascal_workload w;
        int64_t count, nq, no;
        if (pascal_step_kernel(s, op, &sh, &count) != PASCAL_WL_OK || pascal_workload_derive(&sh, &w) != PASCAL_WL_OK)
            return NAN;
        pascal_workload_io_tiles(&w, &nq, &no);
        double n = op == PASCAL_OP_LM_HEAD ? 1 : R;
        /* its own ids, and a cell per access at most */
        ids += n * ((double)w.streams * (double)w.blocks + (double)nq + (double)no);
        reads += n * ((double)w.requests + (double)w.ctas);
        edges += n * (double)pascal_step_tokens(s) * 13.0;   /* rows: flags, cell, start */
    }
    ids += reads;
    return pascal_blru_bytes((int64_t)fmin(ids, (double)((int64_t)1 << 28))) + ids +
           16.0 * fmin(reads, (double)PASCAL_CHAIN_MAX_READS) * 2 + edges;
}
