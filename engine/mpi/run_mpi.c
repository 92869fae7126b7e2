/* The MPI driver of a sweep run (run_mpi.h).
 *
 * Order of the rows.  The plan gives every chunk of rows the raw indices its
 * points come from (plan_mpi.c), so any rank can compute any chunk.  The
 * run goes window by window: a window is whole chunks of rows, its raw
 * indices are cut into pieces (at most a batch each, about 16 per rank), and
 * ranks take pieces from a counter on rank 0 (MPI_Fetch_and_op on an MPI-3
 * window), each piece evaluated on the rank's threads.  A rank whose points
 * are slow takes fewer pieces; the only wait is at the end of a window, for
 * the last pieces in flight.  The ranks then agree on the rows each piece
 * gave, which places every piece's rows in the file, and write the window
 * together (output/sink_mpi.h): the canonical order of one process, bit for
 * bit.
 *
 * Memory: a rank holds the rows of its pieces of one window; windows are
 * sized so that a fair share is half of RANK_BYTES (or 16 batches, when
 * smaller), and a rank stops taking pieces at twice its share, which can
 * never stop them all.
 *
 * Stops.  A rank that is asked to stop (Ctrl-C, SIGTERM from mpirun or the
 * scheduler) finishes its piece and raises a flag beside the counter, which
 * every rank reads before taking the next piece; the window's finished rows,
 * cut to whole chunks, are written and the file is kept as "<out>.partial",
 * as in one process.  A rank killed outright takes the job with it; rank
 * 0's journal has every chunk of the windows written before. */
#include "engine/mpi/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error_mpi.h"
#include "common/clock.h"
#include "engine/parallel.h"
#include "engine/run_guard.h"
#include "output/sink_mpi.h"

#define RANK_BYTES ((int64_t)64 << 20)
#define PIECES_PER_RANK 16

/* One window of whole chunks [c0, c1): rows [row0, row1), raw indices
 * [raw0, raw1) cut into npieces pieces of `piece` raw points. */
typedef struct window {
    int64_t c0, c1, row0, row1, npieces;
    uint64_t raw0, raw1, piece;
} window;

/* The write loop of one rank. */
typedef struct writer {
    pascal_sink *sink;
    MPI_Win win;
    uint64_t *shared;          /* rank 0's memory: [0] next piece, [1] stop */
    int ncols, npc;
    void **cols;               /* ncols arrays of cap 8-byte values */
    int64_t cap, held, most;   /* rows the arrays take, hold, may hold */
    int64_t wchunks;           /* chunks per window */
    int64_t *got;              /* per piece of the window: rows, -1 not done */
    int64_t got_cap;
    pascal_sink_range *ranges; /* this rank's pieces: piece index in `row` */
    int nranges, ranges_cap;
    int stopped;
    int report;                /* rank 0 with a progress callback */
    uint64_t first, total;     /* progress: raw indices from `first` */
    uint64_t evaluated;        /* rows this rank evaluated */
    double busy, cpu;          /* seconds this rank spent evaluating, and
                                  CPU seconds of its threads meanwhile */
    double write_seconds;
    uint64_t write_bytes;
} writer;

static int writer_init(pascal_mpi_run *r, writer *wr, pascal_error *err)
{
    const pascal_column_desc *pc, *rc;
    pascal_sink_meta *meta;
    int np, nr;
    int64_t row_bytes, share;
    pascal_run_work_meta(r->w, &meta, &pc, &np, &rc, &nr, NULL);
    wr->npc = np;
    wr->ncols = np + nr;
    row_bytes = 8 * (int64_t)(wr->ncols > 0 ? wr->ncols : 1);
    share = RANK_BYTES / 2 / row_bytes;
    if (share > PIECES_PER_RANK * (int64_t)pascal_run_work_batch(r->w))
        share = PIECES_PER_RANK * (int64_t)pascal_run_work_batch(r->w);
    wr->wchunks = share * r->size / r->chunk > 1 ? share * r->size / r->chunk : 1;
    /* A rank takes no piece once it holds twice a fair share: if all had
     * stopped taking, they would hold twice the window. */
    wr->most = 2 * wr->wchunks * r->chunk / r->size > 0 ? 2 * wr->wchunks * r->chunk / r->size : 1;
    if (!(wr->cols = calloc((size_t)wr->ncols + 1, sizeof *wr->cols)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    return 0;
}

/* Room for n more rows in this rank's arrays (at most `most` plus a batch). */
static int make_room(writer *wr, int64_t n, pascal_error *err)
{
    int64_t cap = wr->cap;
    while (wr->held + n > cap)
        cap = 2 * cap + 4096;
    for (int j = 0; cap != wr->cap && j < wr->ncols; j++) {
        void *grown = realloc(wr->cols[j], (size_t)cap * 8);
        if (!grown)
            return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for %lld rows",
                                    (long long)cap);
        wr->cols[j] = grown;
    }
    wr->cap = cap;
    return 0;
}

static void writer_free(writer *wr)
{
    for (int j = 0; wr->cols && j < wr->ncols; j++)
        free(wr->cols[j]);
    free(wr->cols), free(wr->got), free(wr->ranges);
}

static window window_at(const pascal_mpi_run *r, const writer *wr, int64_t c0)
{
    window w;
    uint64_t n, per = (uint64_t)PIECES_PER_RANK * (uint64_t)r->size;
    w.c0 = c0;
    w.c1 = c0 + wr->wchunks < r->nchunks ? c0 + wr->wchunks : r->nchunks;
    w.row0 = c0 * r->chunk;
    w.row1 = w.c1 * r->chunk < (int64_t)r->st->rows ? w.c1 * r->chunk : (int64_t)r->st->rows;
    w.raw0 = r->cstart[w.c0];
    w.raw1 = r->cstart[w.c1];
    n = w.raw1 - w.raw0;
    w.piece = (n + per - 1) / per;
    if (w.piece > pascal_run_work_batch(r->w))
        w.piece = pascal_run_work_batch(r->w);
    if (w.piece < 1)
        w.piece = 1;
    w.npieces = (int64_t)((n + w.piece - 1) / w.piece);
    return w;
}

/* The next piece from the counter on rank 0 (npieces or more: none left),
 * and whether some rank has stopped. */
static int64_t take_piece(writer *wr, int *stop)
{
    uint64_t one = 1, k = 0, s = 0;
    MPI_Fetch_and_op(&one, &k, MPI_UINT64_T, 0, 0, MPI_SUM, wr->win);
    MPI_Fetch_and_op(NULL, &s, MPI_UINT64_T, 0, 1, MPI_NO_OP, wr->win);
    MPI_Win_flush(0, wr->win);
    *stop = s != 0;
    return (int64_t)k;
}

static void set_shared(writer *wr, int slot, uint64_t v)
{
    uint64_t old;
    MPI_Fetch_and_op(&v, &old, MPI_UINT64_T, 0, slot, MPI_REPLACE, wr->win);
    MPI_Win_flush(0, wr->win);
}

/* The caller's progress callback (rank 0 only): raw points done of the
 * run's, less those a resumed run kept. */
static void show_progress(const pascal_mpi_run *r, const writer *wr, uint64_t done)
{
    if (wr->report)
        r->o->progress(r->o->progress_ctx, done, wr->total);
}

/* CPU seconds of this process, all threads: a measure of the work a rank
 * did that other load on its node does not inflate. */
static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Evaluates piece k of the window into this rank's arrays. */
static int eval_piece(pascal_mpi_run *r, writer *wr, const window *w, int64_t k,
                      pascal_error *err)
{
    uint64_t b0 = w->raw0 + (uint64_t)k * w->piece;
    uint64_t b1 = b0 + w->piece < w->raw1 ? b0 + w->piece : w->raw1;
    const void *const *pts;
    const double *const *res;
    int64_t n;
    double t = pascal_now(), c = cpu_seconds();
    int rc = pascal_run_work_eval(r->w, b0, b1, &n, &pts, &res, err);
    wr->busy += pascal_now() - t;
    wr->cpu += cpu_seconds() - c;
    if (rc == PASCAL_EINTR) /* Ctrl-C within the piece: it stays undone */
        return rc;
    if (rc == 0)
        rc = make_room(wr, n, err);
    if (rc)
        return rc;
    for (int j = 0; n > 0 && j < wr->ncols; j++) /* n = 0: the arrays may not exist yet */
        memcpy((char *)wr->cols[j] + (size_t)wr->held * 8,
               j < wr->npc ? pts[j] : (const void *)res[j - wr->npc], (size_t)n * 8);
    if (wr->nranges == wr->ranges_cap) {
        int cap = 2 * wr->ranges_cap + 16;
        pascal_sink_range *grown = realloc(wr->ranges, (size_t)cap * sizeof *grown);
        if (!grown)
            return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
        wr->ranges = grown, wr->ranges_cap = cap;
    }
    wr->ranges[wr->nranges++] = (pascal_sink_range){k, n, wr->held};
    wr->got[k] = n;
    wr->held += n;
    wr->evaluated += (uint64_t)n;
    return 0;
}

/* Takes and evaluates pieces until the window has none left, this rank
 * holds its most, or a rank has stopped. */
static int fill_window(pascal_mpi_run *r, writer *wr, const window *w, pascal_error *err)
{
    const pascal_run_opts *o = r->o;
    int rc = 0, stop = 0;
    while (rc == 0 && !wr->stopped && wr->held < wr->most) {
        int64_t k = take_piece(wr, &stop);
        if (k >= w->npieces || stop)
            break; /* a piece taken after a stop stays undone: a hole */
        rc = eval_piece(r, wr, w, k, err);
        /* Pieces are taken in order: those before k are done or in flight. */
        show_progress(r, wr, w->raw0 + (uint64_t)k * w->piece - wr->first);
        if (rc == PASCAL_EINTR || (rc == 0 && o->should_stop && o->should_stop(o->stop_ctx))) {
            rc = 0;
            wr->stopped = 1;
            set_shared(wr, 1, 1);
        }
    }
    return rc;
}

/* After the ranks agreed on got[]: the rows of the window that are done,
 * as this rank's ranges of file rows, and the rows the file will hold.  A
 * stopped window keeps its first finished pieces, cut to whole chunks. */
static int64_t place_pieces(const pascal_mpi_run *r, writer *wr, const window *w, int stop)
{
    int64_t end = w->row0, k = 0, row = w->row0, kept = 0;
    while (k < w->npieces && wr->got[k] >= 0)
        end += wr->got[k++];
    if (k < w->npieces || (stop && end < (int64_t)r->st->rows))
        end -= (end - w->row0) % r->chunk;
    for (int i = 0, next = 0; i < wr->nranges; i++) {
        pascal_sink_range *g = &wr->ranges[i];
        int64_t piece = g->row;
        for (; next < piece; next++)
            row += wr->got[next] >= 0 ? wr->got[next] : 0;
        g->row = row;
        g->n = row >= end ? 0 : g->n < end - row ? g->n : end - row;
        kept += g->n;
    }
    wr->write_bytes += (uint64_t)kept * 8 * (uint64_t)wr->ncols;
    return end;
}

/* One window: fill, agree, write.  *rows: rows in the file afterwards. */
static int run_window(pascal_mpi_run *r, writer *wr, const window *w, int64_t *rows,
                      int *stop, pascal_error *err)
{
    int rc, flags[2], all[2];
    double t;
    if (w->npieces > wr->got_cap) {
        free(wr->got);
        wr->got_cap = w->npieces;
        if (!(wr->got = malloc((size_t)wr->got_cap * sizeof *wr->got)))
            wr->got_cap = 0;
    }
    rc = wr->got ? 0 : pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (int64_t k = 0; rc == 0 && k < w->npieces; k++)
        wr->got[k] = -1;
    wr->held = 0, wr->nranges = 0;
    if (r->rank == 0)
        set_shared(wr, 0, 0);
    MPI_Barrier(r->comm); /* nobody takes a piece before the reset */
    if (rc == 0)
        rc = fill_window(r, wr, w, err);
    if ((rc = pascal_mpi_agree(r->comm, rc, err)))
        return rc;
    MPI_Allreduce(MPI_IN_PLACE, wr->got, (int)w->npieces, MPI_INT64_T, MPI_MAX, r->comm);
    flags[0] = wr->stopped, flags[1] = 0;
    MPI_Allreduce(flags, all, 2, MPI_INT, MPI_MAX, r->comm);
    *stop = all[0];
    *rows = place_pieces(r, wr, w, *stop);
    if (!wr->sink)
        return 0;
    t = pascal_now();
    rc = pascal_sink_mpi_write(wr->sink, *rows, wr->ranges, wr->nranges,
                               (const void *const *)wr->cols,
                               (const double *const *)(wr->cols + wr->npc), err);
    wr->write_seconds += pascal_now() - t;
    return rc;
}

static int run_windows(pascal_mpi_run *r, writer *wr, int *stopped, pascal_error *err)
{
    uint64_t begin = r->st->rows_resumed ? r->cstart[r->st->rows_resumed / (uint64_t)r->chunk]
                                         : r->st->raw_begin;
    int64_t c = (int64_t)(r->st->rows_resumed / (uint64_t)r->chunk), rows = 0;
    int rc = 0, stop = 0;
    MPI_Win_allocate(r->rank == 0 ? 2 * sizeof(uint64_t) : 0, sizeof(uint64_t), MPI_INFO_NULL,
                     r->comm, &wr->shared, &wr->win);
    if (r->rank == 0)
        wr->shared[0] = wr->shared[1] = 0;
    MPI_Win_lock_all(0, wr->win);
    MPI_Win_sync(wr->win);
    MPI_Barrier(r->comm);
    wr->first = begin;
    wr->total = r->st->raw_end - begin;
    wr->report = r->rank == 0 && r->o->progress;
    show_progress(r, wr, 0);
    while (rc == 0 && !stop && c < r->nchunks) {
        window w = window_at(r, wr, c);
        rc = run_window(r, wr, &w, &rows, &stop, err);
        c = w.c1;
        if (rc == 0 && !stop)
            show_progress(r, wr, r->cstart[c] - begin);
    }
    MPI_Win_unlock_all(wr->win);
    MPI_Win_free(&wr->win);
    r->st->rows_done = rc == 0 && !stop ? r->st->rows : (uint64_t)rows;
    *stopped = stop && r->st->rows_done < r->st->rows;
    return rc;
}

/* Rank 0, before the file opens: what killed runs left (run_guard.h), and
 * for --resume the check of the partial file and the headline of its rows,
 * with the one-process resume (pascal_sink_resume), then closed again. */
static int prepare_root(pascal_mpi_run *r, pascal_sink_meta *meta, int *resume,
                        pascal_error *err)
{
    const pascal_column_desc *pc, *rc_cols;
    pascal_sink_meta *m;
    pascal_sink_meta quiet;
    pascal_sink *old = NULL;
    pascal_run_stats *st = r->st;
    int64_t kept = 0;
    int np, nr, rc;
    pascal_run_work_meta(r->w, &m, &pc, &np, &rc_cols, &nr, NULL);
    rc = pascal_run_prepare_output(meta, pc, np, rc_cols, nr, resume, st, err);
    if (rc || !*resume)
        return rc;
    quiet = *meta;
    quiet.journal = 0; /* rank 0 only reads it here */
    if ((rc = pascal_sink_resume(&quiet, pc, np, rc_cols, nr, &old, &kept, err)))
        return rc;
    /* The ranks write whole chunks: a stop's shorter last chunk is redone
     * (output/h5_sink.c, pascal_h5sink_reopen). */
    kept -= kept % pascal_sink_mpi_chunk(old);
    st->rows_resumed = (uint64_t)kept;
    if (st->rows_resumed > st->rows)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s.partial: holds %llu rows, this run has "
                              "%llu", meta->path, (unsigned long long)st->rows_resumed,
                              (unsigned long long)st->rows);
    if (rc == 0)
        rc = pascal_run_work_replay(r->w, old, err);
    if (rc == 0)
        return pascal_sink_suspend(old, &kept, err);
    pascal_sink_suspend(old, &kept, NULL);
    return rc;
}

/* Rank 0's time and thread count, and the ranks, for the file. */
static void shared_provenance(pascal_mpi_run *r, pascal_sink_meta *meta, char created[32],
                              char ranks[16], pascal_attr *attrs)
{
    struct tm tm;
    time_t now = time(NULL);
    int threads = r->st->threads;
    created[0] = '\0';
    if (r->rank == 0 && gmtime_r(&now, &tm))
        strftime(created, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    MPI_Bcast(created, 32, MPI_CHAR, 0, r->comm);
    MPI_Bcast(&threads, 1, MPI_INT, 0, r->comm);
    snprintf(ranks, 16, "%d", r->size);
    memcpy(attrs, meta->attrs, (size_t)meta->nattrs * sizeof *attrs);
    attrs[meta->nattrs] = (pascal_attr){"ranks", ranks};
    meta->attrs = attrs;
    meta->nattrs++;
    meta->created = created;
    meta->threads = threads;
    meta->parallel_for = NULL;
}

#define MAX_ATTRS 32

static int open_output(pascal_mpi_run *r, writer *wr, char created[32], char ranks[16],
                       pascal_attr attrs[MAX_ATTRS], pascal_error *err)
{
    const pascal_column_desc *pc, *rc_cols;
    pascal_sink_meta *meta;
    pascal_run_stats *st = r->st;
    uint64_t counts[4] = {0};
    int np, nr, rc, resume = r->o->resume;
    int64_t have = 0;
    rc = pascal_run_work_meta(r->w, &meta, &pc, &np, &rc_cols, &nr, err);
    if (rc == 0 && meta->nattrs >= MAX_ATTRS)
        rc = pascal_error_set(err, PASCAL_EINTERNAL, "too many attributes");
    if ((rc = pascal_mpi_agree(r->comm, rc, err)))
        return rc;
    shared_provenance(r, meta, created, ranks, attrs);
    if (r->rank == 0)
        rc = prepare_root(r, meta, &resume, err);
    if ((rc = pascal_mpi_agree(r->comm, rc, err)))
        return rc;
    counts[0] = (uint64_t)resume, counts[1] = st->rows_resumed;
    counts[2] = st->rows_recovered, counts[3] = st->temporaries_removed;
    MPI_Bcast(counts, 4, MPI_UINT64_T, 0, r->comm);
    MPI_Bcast(&st->resumed_nothing, 1, MPI_INT, 0, r->comm);
    resume = (int)counts[0], st->rows_resumed = counts[1];
    st->rows_recovered = counts[2], st->temporaries_removed = counts[3];
    rc = pascal_sink_mpi_open(r->comm, meta, pc, np, rc_cols, nr, resume, &wr->sink, &have,
                              err);
    if (rc == 0 && (uint64_t)have != st->rows_resumed) /* the file changed under us */
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s.partial: held %llu rows, now %lld",
                              meta->path, (unsigned long long)st->rows_resumed,
                              (long long)have);
    if (rc == 0)
        r->chunk = pascal_sink_mpi_chunk(wr->sink);
    return pascal_mpi_agree(r->comm, rc, err);
}

/* Ends the file: complete, kept for --resume, or removed. */
static int close_output(pascal_mpi_run *r, writer *wr, int rc, int stopped, pascal_error *err)
{
    pascal_error sub = {0};
    int64_t kept = 0;
    if (rc != 0) {
        pascal_sink_mpi_abort(wr->sink);
        return rc;
    }
    if (!stopped)
        return pascal_sink_mpi_finish(wr->sink, err);
    if ((rc = pascal_sink_mpi_suspend(wr->sink, &kept, &sub)) != 0) {
        r->st->rows_done = 0; /* nothing to continue from */
        return pascal_error_set(err, sub.code, "stopped; nothing kept: %s", sub.msg);
    }
    r->st->rows_done = (uint64_t)kept;
    return pascal_error_set(err, PASCAL_EINTR, "stopped: %lld of %llu rows kept in "
                            "%s.partial; continue with --resume", (long long)kept,
                            (unsigned long long)r->st->rows, r->o->out_path);
}

/* Per-rank figures into the statistics every rank returns. */
static void gather_stats(pascal_mpi_run *r, const writer *wr)
{
    pascal_run_stats *st = r->st;
    uint64_t lo = wr->evaluated, hi = wr->evaluated, bytes = wr->write_bytes;
    double rate = wr->busy > 0 ? (double)wr->evaluated / wr->busy : 0;
    int threads = st->threads;
    MPI_Allreduce(MPI_IN_PLACE, &rate, 1, MPI_DOUBLE, MPI_SUM, r->comm);
    st->rank_rows_per_s = rate / r->size;
    MPI_Allreduce(&wr->cpu, &st->rank_cpu_min, 1, MPI_DOUBLE, MPI_MIN, r->comm);
    MPI_Allreduce(&wr->cpu, &st->rank_cpu_max, 1, MPI_DOUBLE, MPI_MAX, r->comm);
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, r->comm);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, r->comm);
    MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_UINT64_T, MPI_SUM, r->comm);
    MPI_Bcast(&threads, 1, MPI_INT, 0, r->comm);
    st->rows_rank_min = lo, st->rows_rank_max = hi;
    st->write_bytes = bytes;
    st->write_seconds = wr->write_seconds;
    MPI_Bcast(&st->write_seconds, 1, MPI_DOUBLE, 0, r->comm);
    st->threads = threads;
    st->ranks = r->size;
}

/* The run once the output is claimed (rank 0) and the plan is made. */
static int run_planned(pascal_mpi_run *r, double t0, pascal_error *err)
{
    pascal_run_stats *st = r->st;
    char created[32], ranks[16];
    pascal_attr attrs[MAX_ATTRS];
    writer wr;
    int rc, stopped = 0;
    memset(&wr, 0, sizeof wr);
    if (r->o->out_path)
        rc = open_output(r, &wr, created, ranks, attrs, err);
    else /* evaluate only (benchmarks): chunks as a file would have them */
        rc = (r->chunk = 65536, 0);
    if (rc == 0)
        rc = pascal_run_mpi_chunks(r, err);
    if (rc == 0)
        rc = pascal_mpi_agree(r->comm, writer_init(r, &wr, err), err);
    if (rc == 0)
        rc = run_windows(r, &wr, &stopped, err);
    st->eval_seconds = pascal_now() - t0 - st->plan_seconds;
    if (wr.sink)
        rc = close_output(r, &wr, rc, stopped, err);
    else if (rc == 0 && stopped)
        rc = pascal_error_set(err, PASCAL_EINTR, "stopped after %llu of %llu rows",
                              (unsigned long long)st->rows_done, (unsigned long long)st->rows);
    gather_stats(r, &wr);
    if (rc == 0)
        rc = pascal_run_mpi_headline(r, err);
    writer_free(&wr);
    st->total_seconds = pascal_now() - t0;
    return rc;
}

static int run_claimed(pascal_mpi_run *r, pascal_error *err)
{
    pascal_run_stats *st = r->st;
    const pascal_run_opts *o = r->o;
    double t0 = pascal_now();
    int rc;
    st->threads = pascal_parallel_threads(o->threads);
    st->metric = -1;
    st->cap_axis = st->group_axis = -1;
    st->raw_end = pascal_spec_size(r->spec);
    if (o->shard_count > 1)
        pascal_run_shard_range(st->raw_end, o->shard_index, o->shard_count, &st->raw_begin,
                               &st->raw_end);
    rc = pascal_run_work_create(r->spec, o, st, &r->w, err);
    if ((rc = pascal_mpi_agree(r->comm, rc, err)) == 0)
        rc = pascal_run_mpi_plan(r, err);
    st->plan_seconds = pascal_now() - t0;
    MPI_Bcast(&st->plan_seconds, 1, MPI_DOUBLE, 0, r->comm);
    if (rc == 0 && o->dry_run) {
        int threads = st->threads;
        MPI_Bcast(&threads, 1, MPI_INT, 0, r->comm);
        st->threads = threads, st->ranks = r->size;
        st->total_seconds = st->plan_seconds;
        return 0;
    }
    return rc ? rc : run_planned(r, t0, err);
}

int pascal_run_mpi(const pascal_spec *spec, const pascal_run_opts *o, pascal_run_stats *st,
                   pascal_error *err)
{
    pascal_mpi_run r;
    pascal_lock *lock = NULL;
    int rc = 0, started = 0, ended = 0;
    memset(&r, 0, sizeof r);
    memset(st, 0, sizeof *st);
    MPI_Initialized(&started);
    MPI_Finalized(&ended);
    if (!started || ended)
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_run_mpi: MPI is not running");
    r.spec = spec, r.o = o, r.st = st;
    MPI_Comm_dup(MPI_COMM_WORLD, &r.comm);
    MPI_Comm_rank(r.comm, &r.rank);
    MPI_Comm_size(r.comm, &r.size);
    if (o->out_path && !o->dry_run && (o->format != PASCAL_SINK_HDF5 || !strcmp(o->out_path, "-")))
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: --format csv under mpirun: expected an "
                              "HDF5 output, which the ranks write together, got CSV; run CSV "
                              "output in one process", o->out_path);
    /* One claim for the run, rank 0's, before any work (run_guard.h). */
    if (rc == 0 && r.rank == 0)
        rc = pascal_run_claim(spec, o, &lock, err);
    if ((rc = pascal_mpi_agree(r.comm, rc, err)) == 0)
        rc = run_claimed(&r, err);
    pascal_run_work_free(r.w);
    free(r.kept);
    free(r.cstart);
    pascal_output_release(lock);
    MPI_Comm_free(&r.comm);
    return rc;
}
