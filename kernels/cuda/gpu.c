/* The GPU runner over the CUDA runtime API (gpu.h): device properties and
 * provenance, buffers, the scrub that makes a start cold, and one measured
 * launch at a time bracketed by the meter and by device events.
 *
 * A measurement: (cold) scrub the L2 by reading an unrelated buffer of
 * several times its size, or (warm) run the very same launch unmeasured;
 * synchronise; open the meter's range; record an event, launch, record an
 * event; synchronise; close the range.  The scrub and the warm-up are outside
 * the range.  Every CUDA call is checked; a failure is PASCAL_EIO naming the
 * call. */
#include "kernels/gpu.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "kernels/cuda/launch.h"
#include "kernels/cuda/meter.h"

_Static_assert(PASCAL_CU_MAX_DEPTH == PASCAL_SPOT_MAX_DEPTH, "one TMA depth limit");

struct pascal_gpu {
    int dev;
    pascal_spot_device info;
    cudaStream_t stream;
    cudaEvent_t ev0, ev1;
    pascal_meter *meter;      /* NULL: launches are not counted here */
    void *data;               /* scan data, grown on demand */
    int64_t data_bytes;
    void *scrub;              /* scrub buffer, several times the L2 */
    int64_t scrub_bytes;
    unsigned long long *out;  /* one result word per CTA */
    int64_t out_words;
    unsigned long long *host_out;
    long long *phases;        /* static scan phases */
    int64_t phases_len;
};

int pascal_gpu_built(void)
{
    return 1;
}

static int cuda_fail(pascal_error *err, cudaError_t e, const char *what)
{
    return pascal_error_set(err, PASCAL_EIO, "CUDA %s: %s (%s)", what, cudaGetErrorString(e),
                            cudaGetErrorName(e));
}

#define CU(call, what)                       \
    do {                                     \
        cudaError_t e_ = (call);             \
        if (e_ != cudaSuccess)               \
            return cuda_fail(err, e_, what); \
    } while (0)

/* ---- provenance: NVML (from the driver, loaded at run time if present) ---- */

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_bus_fn)(const char *, void **);
typedef int (*nvml_clock_fn)(void *, int, unsigned *);
typedef int (*nvml_driver_fn)(char *, unsigned);

static void nvml_clocks(int dev, pascal_spot_device *d)
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL), *nd = NULL;
    char bus[64];
    unsigned sm = 0, mem = 0;
    if (!h)
        return;
    nvml_init_fn init = (nvml_init_fn)dlsym(h, "nvmlInit_v2");
    nvml_init_fn shut = (nvml_init_fn)dlsym(h, "nvmlShutdown");
    nvml_by_bus_fn by_bus = (nvml_by_bus_fn)dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml_clock_fn clock = (nvml_clock_fn)dlsym(h, "nvmlDeviceGetClockInfo");
    nvml_driver_fn drv = (nvml_driver_fn)dlsym(h, "nvmlSystemGetDriverVersion");
    if (init && shut && by_bus && clock && drv && init() == 0) {
        drv(d->driver_string, sizeof d->driver_string);
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, dev) == cudaSuccess && by_bus(bus, &nd) == 0) {
            if (clock(nd, 1 /* NVML_CLOCK_SM */, &sm) == 0)
                d->sm_clock_now_mhz = (int)sm;
            if (clock(nd, 2 /* NVML_CLOCK_MEM */, &mem) == 0)
                d->mem_clock_now_mhz = (int)mem;
        }
        shut();
    }
    dlclose(h);
}

static int read_device(pascal_gpu *g, pascal_error *err)
{
    struct cudaDeviceProp p;
    pascal_spot_device *d = &g->info;
    CU(cudaGetDeviceProperties(&p, g->dev), "cudaGetDeviceProperties");
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->index = g->dev;
    d->cc_major = p.major, d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    d->l2_bytes = p.l2CacheSize;
    CU(cudaDeviceGetAttribute(&d->sm_clock_khz, cudaDevAttrClockRate, g->dev), "clock rate");
    CU(cudaDeviceGetAttribute(&d->mem_clock_khz, cudaDevAttrMemoryClockRate, g->dev),
       "memory clock rate");
    CU(cudaDriverGetVersion(&d->driver_version), "cudaDriverGetVersion");
    CU(cudaRuntimeGetVersion(&d->runtime_version), "cudaRuntimeGetVersion");
    snprintf(d->meter, sizeof d->meter, "none");
    nvml_clocks(g->dev, d);
    return 0;
}

static int open_device(pascal_gpu *g, int index, pascal_error *err)
{
    int count = 0, coop = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count < 1)
        return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE,
                                "no CUDA device available: %s",
                                e != cudaSuccess ? cudaGetErrorString(e) : "no device found");
    if (index >= count)
        return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE,
                                "--device: expected a device index below %d, got %d", count, index);
    g->dev = index < 0 ? 0 : index;
    CU(cudaSetDevice(g->dev), "cudaSetDevice");
    CU(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, g->dev), "cooperative launch");
    if (!coop)
        return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE,
                                "device %d cannot launch cooperative kernels (grid barriers)",
                                g->dev);
    if (read_device(g, err) != 0)
        return err->code;
    CU(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking), "cudaStreamCreate");
    CU(cudaEventCreate(&g->ev0), "cudaEventCreate");
    CU(cudaEventCreate(&g->ev1), "cudaEventCreate");
    return 0;
}

int pascal_gpu_open(int index, pascal_gpu **out, pascal_error *err)
{
    pascal_gpu *g = calloc(1, sizeof *g);
    int rc;
    *out = NULL;
    if (!g)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if ((rc = open_device(g, index, err)) != 0) {
        pascal_gpu_close(g);
        return rc;
    }
    *out = g;
    return 0;
}

void pascal_gpu_close(pascal_gpu *g)
{
    if (!g)
        return;
    pascal_meter_free(g->meter);
    cudaFree(g->data);
    cudaFree(g->scrub);
    cudaFree(g->out);
    cudaFree(g->phases);
    free(g->host_out);
    if (g->ev0)
        cudaEventDestroy(g->ev0);
    if (g->ev1)
        cudaEventDestroy(g->ev1);
    if (g->stream)
        cudaStreamDestroy(g->stream);
    free(g);
}

pascal_spot_device *pascal_gpu_device(pascal_gpu *g)
{
    return &g->info;
}

static int ensure_out(pascal_gpu *g, int64_t words, pascal_error *err);

/* One counted launch of a tiny kernel: permissions (counters restricted to
 * administrators show up only when a range starts) and the profiler's
 * libraries are checked now, while falling back to ncu is still possible. */
static int probe_meter(pascal_gpu *g, pascal_error *err)
{
    double bytes = 0;
    cudaError_t e;
    if (ensure_out(g, 1024, err) != 0)
        return err->code;
    if (pascal_meter_begin(g->meter, err) != 0)
        return -1;
    e = (cudaError_t)pascal_cu_fill(g->out, 1024 * sizeof *g->out, 1, g->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(g->stream);
    if (pascal_meter_end(g->meter, &bytes, err) != 0)
        return -1;
    return e == cudaSuccess ? 0 : cuda_fail(err, e, "meter probe");
}

int pascal_gpu_meter_cupti(pascal_gpu *g, const char *metric, pascal_error *err)
{
    int rc;
    pascal_meter_free(g->meter);
    g->meter = NULL;
    rc = pascal_meter_create(g->dev, g->info.cc_major, metric, &g->meter, g->info.metric,
                             sizeof g->info.metric, err);
    if (rc == 0 && probe_meter(g, err) != 0) {
        pascal_meter_free(g->meter);
        g->meter = NULL;
        rc = -1;
    }
    if (rc != 0)
        return rc == PASCAL_EINPUT ? rc : (err->code = PASCAL_GPU_UNAVAILABLE);
    snprintf(g->info.meter, sizeof g->info.meter, "cupti");
    return 0;
}

void pascal_gpu_meter_off(pascal_gpu *g)
{
    pascal_meter_free(g->meter);
    g->meter = NULL;
}

/* ---- buffers ----------------------------------------------------------- */

static int ensure_data(pascal_gpu *g, int64_t bytes, pascal_error *err)
{
    if (bytes <= g->data_bytes)
        return 0;
    cudaFree(g->data);
    g->data = NULL, g->data_bytes = 0;
    CU(cudaMalloc(&g->data, (size_t)bytes), "cudaMalloc (scan data)");
    CU((cudaError_t)pascal_cu_fill(g->data, bytes, 0x70617363616cULL, g->stream), "fill");
    CU(cudaStreamSynchronize(g->stream), "fill");
    g->data_bytes = bytes;
    return 0;
}

static int ensure_out(pascal_gpu *g, int64_t words, pascal_error *err)
{
    if (words <= g->out_words)
        return 0;
    cudaFree(g->out);
    free(g->host_out);
    g->out = NULL, g->out_words = 0;
    if (!(g->host_out = malloc((size_t)words * sizeof *g->host_out)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    CU(cudaMalloc((void **)&g->out, (size_t)words * sizeof *g->out), "cudaMalloc (results)");
    g->out_words = words;
    return 0;
}

/* Scrub buffer: four times the L2, at least 64 MiB, filled once. */
static int scrub(pascal_gpu *g, pascal_error *err)
{
    int64_t want = 4 * g->info.l2_bytes;
    want = want < ((int64_t)64 << 20) ? (int64_t)64 << 20 : want;
    if (!g->scrub) {
        CU(cudaMalloc(&g->scrub, (size_t)want), "cudaMalloc (scrub)");
        CU((cudaError_t)pascal_cu_fill(g->scrub, want, 0x7363727562ULL, g->stream), "fill");
        g->scrub_bytes = want;
    }
    if (ensure_out(g, 8 * g->info.sms, err) != 0)
        return err->code;
    CU((cudaError_t)pascal_cu_scrub(g->scrub, g->scrub_bytes, g->out, 8 * g->info.sms,
                                    g->stream), "scrub launch");
    CU(cudaStreamSynchronize(g->stream), "scrub");
    return 0;
}

/* ---- one measurement ------------------------------------------------------ */

typedef int (*launch_fn)(pascal_gpu *g, const void *job);

static int launch_checked(pascal_gpu *g, launch_fn fn, const void *job, pascal_error *err)
{
    CU((cudaError_t)fn(g, job), "launch");
    return 0;
}

static int measure(pascal_gpu *g, launch_fn fn, const void *job, int64_t ctas,
                   pascal_spot_start start, pascal_spot_measure *m, pascal_error *err)
{
    float ms = 0;
    int rc = start == PASCAL_SPOT_COLD ? scrub(g, err) : launch_checked(g, fn, job, err);
    memset(m, 0, sizeof *m);
    m->fill_bytes = NAN;
    m->start = start;
    if (rc != 0)
        return rc;
    CU(cudaStreamSynchronize(g->stream), "warm-up");
    if (g->meter && pascal_meter_begin(g->meter, err) != 0)
        return err->code = PASCAL_EIO;
    CU(cudaEventRecord(g->ev0, g->stream), "cudaEventRecord");
    if ((rc = launch_checked(g, fn, job, err)) != 0)
        return rc;
    CU(cudaEventRecord(g->ev1, g->stream), "cudaEventRecord");
    CU(cudaEventSynchronize(g->ev1), "measured launch");
    if (g->meter && pascal_meter_end(g->meter, &m->fill_bytes, err) != 0)
        return err->code = PASCAL_EIO;
    CU(cudaEventElapsedTime(&ms, g->ev0, g->ev1), "cudaEventElapsedTime");
    m->elapsed_ms = ms;
    CU(cudaMemcpy(g->host_out, g->out, (size_t)ctas * sizeof *g->out, cudaMemcpyDeviceToHost),
       "copying results");
    for (int64_t i = 0; i < ctas; i++)
        m->checksum = (m->checksum << 5 | m->checksum >> 59) ^ g->host_out[i];
    return 0;
}

/* ---- Algorithm 1 ----------------------------------------------------------- */

static int launch_static(pascal_gpu *g, const void *p)
{
    const pascal_gpu_static_job *j = p;
    return pascal_cu_static_scan(g->data, j->N, j->block_bytes, g->phases, (int)j->M, j->rounds,
                                 g->out, g->stream);
}

int pascal_gpu_run_static(pascal_gpu *g, const pascal_gpu_static_job *j, pascal_spot_measure *m,
                          pascal_error *err)
{
    int max_ctas = 0, threads = pascal_cu_static_threads(j->block_bytes);
    CU((cudaError_t)pascal_cu_static_max_ctas(g->dev, threads, &max_ctas), "occupancy");
    if (j->M > max_ctas)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "M = %lld CTAs cannot all be resident for a grid barrier on %s "
                                "(at most %d with %d threads each)",
                                (long long)j->M, g->info.name, max_ctas, threads);
    if (ensure_data(g, j->N * j->block_bytes, err) != 0 || ensure_out(g, j->M, err) != 0)
        return err->code;
    if (j->M > g->phases_len) {
        cudaFree(g->phases);
        g->phases = NULL, g->phases_len = 0;
        CU(cudaMalloc((void **)&g->phases, (size_t)j->M * sizeof *g->phases), "cudaMalloc");
        g->phases_len = j->M;
    }
    CU(cudaMemcpy(g->phases, j->phases, (size_t)j->M * sizeof *g->phases,
                  cudaMemcpyHostToDevice), "copying phases");
    return measure(g, launch_static, j, j->M, j->start, m, err);
}

/* ---- Algorithm 2 ----------------------------------------------------------- */

typedef struct open_launch {
    const pascal_gpu_open_job *job;
    int64_t ctas;
    size_t smem;
    long long *t_start, *t_end;
    int *sm;
} open_launch;

static int launch_open(pascal_gpu *g, const void *p)
{
    const open_launch *o = p;
    const pascal_gpu_open_job *j = o->job;
    return pascal_cu_open_scan(j->path == PASCAL_SPOT_TMA, g->data, j->N, j->block_bytes, j->depth,
                               j->compute, o->ctas, o->smem, g->out, o->t_start, o->t_end, o->sm,
                               g->stream);
}

static int copy_markers(const pascal_gpu_open_job *j, const open_launch *o, pascal_error *err)
{
    size_t n = (size_t)o->ctas;
    CU(cudaMemcpy(j->t_start, o->t_start, n * sizeof(long long), cudaMemcpyDeviceToHost), "markers");
    CU(cudaMemcpy(j->t_end, o->t_end, n * sizeof(long long), cudaMemcpyDeviceToHost), "markers");
    CU(cudaMemcpy(j->sm, o->sm, n * sizeof(int), cudaMemcpyDeviceToHost), "markers");
    return 0;
}

int pascal_gpu_run_open(pascal_gpu *g, const pascal_gpu_open_job *j, pascal_spot_measure *m,
                        pascal_error *err)
{
    char why[256] = "";
    open_launch o = {j, (int64_t)g->info.sms * j->occupancy * j->W, 0, NULL, NULL, NULL};
    int tma = j->path == PASCAL_SPOT_TMA, rc;
    if (tma && (j->depth < 1 || j->depth > PASCAL_CU_MAX_DEPTH))
        return pascal_error_set(err, PASCAL_EINPUT, "depth: expected 1 to %d TMA stages, got %d",
                                PASCAL_CU_MAX_DEPTH, j->depth);
    if (tma && g->info.cc_major < 9)
        return pascal_error_set(err, PASCAL_EINPUT, "path tma: needs compute capability 9.0 or "
                                "newer, %s has %d.%d", g->info.name, g->info.cc_major, g->info.cc_minor);
    rc = pascal_cu_open_config(g->dev, tma, j->depth, j->block_bytes, j->occupancy, &o.smem, why,
                               sizeof why);
    if (rc < 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s", why);
    CU((cudaError_t)rc, "occupancy");
    if (ensure_data(g, j->N * j->block_bytes, err) != 0 || ensure_out(g, o.ctas, err) != 0)
        return err->code;
    if (j->t_start) {
        CU(cudaMalloc((void **)&o.t_start, (size_t)o.ctas * sizeof(long long)), "cudaMalloc");
        CU(cudaMalloc((void **)&o.t_end, (size_t)o.ctas * sizeof(long long)), "cudaMalloc");
        CU(cudaMalloc((void **)&o.sm, (size_t)o.ctas * sizeof(int)), "cudaMalloc");
    }
    rc = measure(g, launch_open, &o, o.ctas, j->start, m, err);
    if (rc == 0 && j->t_start)
        rc = copy_markers(j, &o, err);
    cudaFree(o.t_start), cudaFree(o.t_end), cudaFree(o.sm);
    return rc;
}

/* ---- Figure 2 -------------------------------------------------------------- */

typedef struct capacity_launch {
    const pascal_gpu_capacity_job *job;
    int grid;
} capacity_launch;

static int launch_capacity(pascal_gpu *g, const void *p)
{
    const capacity_launch *c = p;
    return pascal_cu_capacity_scan(g->data, c->job->footprint_bytes, c->job->passes, c->grid,
                                   g->out, g->stream);
}

int pascal_gpu_run_capacity(pascal_gpu *g, const pascal_gpu_capacity_job *j,
                            pascal_spot_measure *m, pascal_error *err)
{
    capacity_launch c = {j, 0};
    CU((cudaError_t)pascal_cu_capacity_grid(g->dev, &c.grid), "occupancy");
    if (c.grid < 1)
        return pascal_error_set(err, PASCAL_EINPUT, "the capacity scan kernel cannot run on %s",
                                g->info.name);
    if (ensure_data(g, j->alloc_bytes, err) != 0 || ensure_out(g, c.grid, err) != 0)
        return err->code;
    return measure(g, launch_capacity, &c, c.grid, j->start, m, err);
}

/* ---- the program player ---------------------------------------------------- */

typedef struct play_launch {
    const pascal_gpu_play_job *job;
    size_t smem;
    long long *cta_step, *step_req, *req_lane;
    int *req_lanes;
} play_launch;

static int launch_play(pascal_gpu *g, const void *p)
{
    const play_launch *l = p;
    return pascal_cu_play(g->data, l->cta_step, l->step_req, l->req_lane, l->req_lanes,
                          l->job->ctas, l->job->compute, l->smem, g->out, g->stream);
}

/* Copies the program to the device (offsets and sizes in 16-byte lanes). */
static int play_upload(const pascal_gpu_play_job *j, play_launch *l, pascal_error *err)
{
    size_t n = (size_t)j->requests;
    long long *lane = malloc((n ? n : 1) * sizeof *lane);
    int *lanes = malloc((n ? n : 1) * sizeof *lanes);
    if (!lane || !lanes) {
        free(lane), free(lanes);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    for (size_t r = 0; r < n; r++)
        lane[r] = j->req_offset[r] / 16, lanes[r] = j->req_bytes[r] / 16;
    cudaError_t e = cudaMalloc((void **)&l->cta_step, (size_t)(j->ctas + 1) * sizeof(long long));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&l->step_req, (size_t)(j->steps + 1) * sizeof(long long));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&l->req_lane, (n ? n : 1) * sizeof(long long));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&l->req_lanes, (n ? n : 1) * sizeof(int));
    if (e == cudaSuccess)
        e = cudaMemcpy(l->cta_step, j->cta_step, (size_t)(j->ctas + 1) * sizeof(long long),
                       cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(l->step_req, j->step_req, (size_t)(j->steps + 1) * sizeof(long long),
                       cudaMemcpyHostToDevice);
    if (e == cudaSuccess && n)
        e = cudaMemcpy(l->req_lane, lane, n * sizeof(long long), cudaMemcpyHostToDevice);
    if (e == cudaSuccess && n)
        e = cudaMemcpy(l->req_lanes, lanes, n * sizeof(int), cudaMemcpyHostToDevice);
    free(lane), free(lanes);
    return e == cudaSuccess ? 0 : cuda_fail(err, e, "copying the program");
}

int pascal_gpu_run_play(pascal_gpu *g, const pascal_gpu_play_job *j, pascal_spot_measure *m,
                        pascal_error *err)
{
    char why[256] = "";
    play_launch l = {j, 0, NULL, NULL, NULL, NULL};
    if (j->ctas < 1 || j->ctas > 0x7fffffff)
        return pascal_error_set(err, PASCAL_EINPUT, "a program of %lld CTAs: expected 1 to 2^31 - 1",
                                (long long)j->ctas);
    for (int64_t r = 0; r < j->requests; r++)
        if (j->req_offset[r] % 16 || j->req_bytes[r] % 16 || j->req_bytes[r] < 16 ||
            j->req_offset[r] + j->req_bytes[r] > j->data_bytes)
            return pascal_error_set(err, PASCAL_EINPUT, "request %lld: expected whole 16-byte lanes "
                                    "inside the %lld-byte buffer, got %d bytes at %lld",
                                    (long long)r, (long long)j->data_bytes, (int)j->req_bytes[r],
                                    (long long)j->req_offset[r]);
    int rc = pascal_cu_play_config(g->dev, j->occupancy, &l.smem, why, sizeof why);
    if (rc < 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s", why);
    CU((cudaError_t)rc, "occupancy");
    if (ensure_data(g, j->data_bytes, err) != 0 || ensure_out(g, j->ctas, err) != 0)
        return err->code;
    rc = play_upload(j, &l, err);
    if (rc == 0)
        rc = measure(g, launch_play, &l, j->ctas, j->start, m, err);
    cudaFree(l.cta_step), cudaFree(l.step_req), cudaFree(l.req_lane), cudaFree(l.req_lanes);
    return rc;
}
