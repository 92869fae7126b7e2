/* The one OpenMP team launch; see parallel.h. */
#include "engine/parallel.h"

#include <omp.h>

int pascal_parallel_threads(int requested)
{
    return requested > 0 ? requested : omp_get_max_threads();
}

int pascal_parallel_cores(void)
{
    return omp_get_num_procs();
}

void pascal_parallel(int threads, void (*body)(void *ctx), void *ctx)
{
    int n = pascal_parallel_threads(threads);
#pragma omp parallel num_threads(n)
    body(ctx);
}

int pascal_parallel_stop_seen(const volatile sig_atomic_t *flag, int *halt)
{
    int s;
#pragma omp atomic read
    s = *halt;
    if (!s && flag && *flag) {
#pragma omp atomic write
        *halt = 1;
        s = 1;
    }
    return s;
}
