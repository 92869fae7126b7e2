// CUPTI range profiling of one launch at a time (meter.h).
//
// Set-up: initialise the profiler, find the chip's name and the context's
// counter availability, build a one-pass configuration for the fill counter
// (the first the chip accepts), size a counter-data image for one range.
// Each measurement then re-initialises the image, sets the configuration,
// and brackets the launch with Start/PushRange ... PopRange/Stop, user range
// and user replay, so nothing outside the bracket (the scrub, a warm-up) is
// counted.  The counter is evaluated on the host to a value, scaled to bytes.
#include "kernels/cuda/meter.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/ncu.h"

struct pascal_meter {
    CUcontext ctx = nullptr;
    CUpti_RangeProfiler_Object *rp = nullptr;
    CUpti_Profiler_Host_Object *host = nullptr;
    bool initialized = false;
    std::string chip, metric;
    double scale = 1;
    std::vector<uint8_t> avail, config, counter;
};

namespace {

// A CUPTI parameter block: zeroed, with its structSize set.
template <class T> T params(size_t size)
{
    T p{};
    p.structSize = size;
    return p;
}
#define PARAMS(T) params<T>(T##_STRUCT_SIZE)

int fail(pascal_error *err, CUptiResult r, const char *what)
{
    const char *s = nullptr;
    cuptiGetResultString(r, &s);
    return pascal_error_set(err, -1, "CUPTI %s: %s", what, s ? s : "unknown error");
}

#define PASCAL_CUPTI(call, what)                 \
    do {                                         \
        CUptiResult r_ = (call);                 \
        if (r_ != CUPTI_SUCCESS)                 \
            return fail(err, r_, what);          \
    } while (0)

// The primary context of `device`, without linking the driver library.
int current_context(int device, CUcontext *ctx, pascal_error *err)
{
    typedef CUresult (*get_fn)(CUcontext *);
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess ||
        cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        !fn || ((get_fn)fn)(ctx) != CUDA_SUCCESS || !*ctx)
        return pascal_error_set(err, -1, "CUPTI: cannot get the device's CUDA context");
    return 0;
}

int start_session(pascal_meter *m, int device, pascal_error *err)
{
    auto ip = PARAMS(CUpti_Profiler_Initialize_Params);
    auto cp = PARAMS(CUpti_Device_GetChipName_Params);
    auto ep = PARAMS(CUpti_RangeProfiler_Enable_Params);
    auto ap = PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    PASCAL_CUPTI(cuptiProfilerInitialize(&ip), "profiler initialisation");
    m->initialized = true;
    cp.deviceIndex = (size_t)device;
    PASCAL_CUPTI(cuptiDeviceGetChipName(&cp), "chip name");
    m->chip = cp.pChipName ? cp.pChipName : "";
    if (current_context(device, &m->ctx, err) != 0)
        return -1;
    // Availability first: the query may fail once a session is active.
    ap.ctx = m->ctx;
    PASCAL_CUPTI(cuptiProfilerGetCounterAvailability(&ap), "counter availability size");
    m->avail.resize(ap.counterAvailabilityImageSize);
    ap.pCounterAvailabilityImage = m->avail.data();
    PASCAL_CUPTI(cuptiProfilerGetCounterAvailability(&ap), "counter availability");
    ep.ctx = m->ctx;
    PASCAL_CUPTI(cuptiRangeProfilerEnable(&ep), "range profiler");
    m->rp = ep.pRangeProfilerObject;
    return 0;
}

void host_free(pascal_meter *m)
{
    if (m->host) {
        auto dp = PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        dp.pHostObject = m->host;
        cuptiProfilerHostDeinitialize(&dp);
        m->host = nullptr;
    }
}

// A one-pass configuration image for `metric`, or an error.
int configure(pascal_meter *m, const char *metric, pascal_error *err)
{
    auto hp = PARAMS(CUpti_Profiler_Host_Initialize_Params);
    auto ap = PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    auto sp = PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    auto gp = PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    auto np = PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    const char *names[] = {metric};
    host_free(m);
    hp.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hp.pChipName = m->chip.c_str();
    hp.pCounterAvailabilityImage = m->avail.data();
    PASCAL_CUPTI(cuptiProfilerHostInitialize(&hp), "host initialisation");
    m->host = hp.pHostObject;
    ap.pHostObject = m->host;
    ap.ppMetricNames = names;
    ap.numMetrics = 1;
    PASCAL_CUPTI(cuptiProfilerHostConfigAddMetrics(&ap), metric);
    sp.pHostObject = m->host;
    PASCAL_CUPTI(cuptiProfilerHostGetConfigImageSize(&sp), "configuration size");
    m->config.resize(sp.configImageSize);
    gp.pHostObject = m->host;
    gp.configImageSize = m->config.size();
    gp.pConfigImage = m->config.data();
    PASCAL_CUPTI(cuptiProfilerHostGetConfigImage(&gp), "configuration image");
    np.configImageSize = m->config.size();
    np.pConfigImage = m->config.data();
    PASCAL_CUPTI(cuptiProfilerHostGetNumOfPasses(&np), "pass count");
    if (np.numOfPasses != 1)
        return pascal_error_set(err, -1, "CUPTI: %s needs %zu passes; only one-pass counters "
                                "keep the cold/warm state of a launch", metric, np.numOfPasses);
    return 0;
}

int size_counter(pascal_meter *m, pascal_error *err)
{
    auto p = PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    const char *names[] = {m->metric.c_str()};
    p.pRangeProfilerObject = m->rp;
    p.pMetricNames = names;
    p.numMetrics = 1;
    p.maxNumOfRanges = 1;
    p.maxNumRangeTreeNodes = 1;
    PASCAL_CUPTI(cuptiRangeProfilerGetCounterDataSize(&p), "counter data size");
    m->counter.resize(p.counterDataSize);
    return 0;
}

// Chooses the first counter the chip accepts (or the user's).
int choose_metric(pascal_meter *m, int cc_major, const char *metric, pascal_error *err)
{
    int n = 0;
    const pascal_ncu_metric *c = pascal_ncu_metric_candidates(cc_major, &n);
    std::string tried;
    if (metric) {
        m->scale = pascal_ncu_metric_scale(metric);
        if (!(m->scale > 0))
            return pascal_error_set(err, PASCAL_EINPUT, "--metric: expected a counter of bytes "
                                    "or sectors, got \"%s\"", metric);
        m->metric = metric;
        return configure(m, metric, err);
    }
    for (int i = 0; i < n; i++) {
        if (configure(m, c[i].name, err) == 0) {
            m->metric = c[i].name;
            m->scale = c[i].bytes_per_unit;
            return 0;
        }
        tried += (tried.empty() ? "" : "; ") + std::string(err->msg);
    }
    return pascal_error_set(err, -1, "%s", tried.c_str());
}

}  // namespace

extern "C" int pascal_meter_create(int device, int cc_major, const char *metric,
                                   pascal_meter **out, char *metric_used, size_t len,
                                   pascal_error *err)
{
    pascal_meter *m = new (std::nothrow) pascal_meter();
    *out = nullptr;
    if (!m)
        return pascal_error_set(err, PASCAL_ENOMEM, "CUPTI: out of memory");
    if (start_session(m, device, err) != 0 || choose_metric(m, cc_major, metric, err) != 0 ||
        size_counter(m, err) != 0) {
        int code = err->code == PASCAL_EINPUT ? PASCAL_EINPUT : -1;
        pascal_meter_free(m);
        return code;
    }
    snprintf(metric_used, len, "%s", m->metric.c_str());
    *out = m;
    return 0;
}

extern "C" int pascal_meter_begin(pascal_meter *m, pascal_error *err)
{
    auto ip = PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    auto sp = PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    auto st = PARAMS(CUpti_RangeProfiler_Start_Params);
    auto pp = PARAMS(CUpti_RangeProfiler_PushRange_Params);
    ip.pRangeProfilerObject = m->rp;
    ip.counterDataSize = m->counter.size();
    ip.pCounterData = m->counter.data();
    PASCAL_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&ip), "counter data image");
    sp.pRangeProfilerObject = m->rp;
    sp.configSize = m->config.size();
    sp.pConfig = m->config.data();
    sp.counterDataImageSize = m->counter.size();
    sp.pCounterDataImage = m->counter.data();
    sp.range = CUPTI_UserRange;
    sp.replayMode = CUPTI_UserReplay;
    sp.maxRangesPerPass = 1;
    sp.numNestingLevels = 1;
    sp.minNestingLevel = 1;
    sp.passIndex = 0;
    sp.targetNestingLevel = 1;
    PASCAL_CUPTI(cuptiRangeProfilerSetConfig(&sp), "set configuration");
    st.pRangeProfilerObject = m->rp;
    PASCAL_CUPTI(cuptiRangeProfilerStart(&st), "start");
    pp.pRangeProfilerObject = m->rp;
    pp.pRangeName = "pascal_measured_launch";
    PASCAL_CUPTI(cuptiRangeProfilerPushRange(&pp), "push range");
    return 0;
}

extern "C" int pascal_meter_end(pascal_meter *m, double *bytes, pascal_error *err)
{
    auto pp = PARAMS(CUpti_RangeProfiler_PopRange_Params);
    auto sp = PARAMS(CUpti_RangeProfiler_Stop_Params);
    auto dp = PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    auto ep = PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    const char *names[] = {m->metric.c_str()};
    double v = 0;
    pp.pRangeProfilerObject = m->rp;
    PASCAL_CUPTI(cuptiRangeProfilerPopRange(&pp), "pop range");
    sp.pRangeProfilerObject = m->rp;
    PASCAL_CUPTI(cuptiRangeProfilerStop(&sp), "stop");
    if (!sp.isAllPassSubmitted)
        return pascal_error_set(err, -1, "CUPTI: the counter needed more than one pass");
    dp.pRangeProfilerObject = m->rp;
    PASCAL_CUPTI(cuptiRangeProfilerDecodeData(&dp), "decode");
    if (dp.numOfRangeDropped)
        return pascal_error_set(err, -1, "CUPTI: the measured range was dropped");
    ep.pHostObject = m->host;
    ep.pCounterDataImage = m->counter.data();
    ep.counterDataImageSize = m->counter.size();
    ep.rangeIndex = 0;
    ep.ppMetricNames = names;
    ep.numMetrics = 1;
    ep.pMetricValues = &v;
    PASCAL_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ep), "evaluate");
    *bytes = v * m->scale;
    return 0;
}

extern "C" void pascal_meter_free(pascal_meter *m)
{
    if (!m)
        return;
    host_free(m);
    if (m->rp) {
        auto dp = PARAMS(CUpti_RangeProfiler_Disable_Params);
        dp.pRangeProfilerObject = m->rp;
        cuptiRangeProfilerDisable(&dp);
    }
    if (m->initialized) {
        auto dp = PARAMS(CUpti_Profiler_DeInitialize_Params);
        cuptiProfilerDeInitialize(&dp);
    }
    delete m;
}
