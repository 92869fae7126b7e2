/* A program that embeds libpascal (docs/library.md) through its public
 * headers alone: the static model at a configuration worked out by hand
 * below, a shipped device profile and sweep spec read from the installed
 * share folder (argv[1]), and a sweep of the worked example run into a file
 * in argv[2], read back and sized.
 *
 * Ring of N = 10 blocks, M = 3 workers at phases 0, 2 and 7, a cache of
 * C = 7 blocks.
 *   Lemma 1: distinct phases 0 < 2 < 7, gaps 2, 5 and 3 (the last wraps:
 *     0 + 10 - 7).  U(t) = min(2,t) + min(5,t) + min(3,t).
 *   Eq. 3: on [2, 3], U(t) = 2 + 2t, which is 7 at theta = 2.5; T* = 2.
 *   Theorem 2: K_ttl = #{gaps > 2} = 2 misses per round.
 *   Theorem 3: K(T*+1) = #{gaps > 3} = 1 <= K_lru <= K(T*-1) = #{gaps > 1} = 3.
 *   Eq. 15: worker 0 (block k in round k) last saw its block requested by
 *     worker 1 two rounds earlier, with blocks k+5, k-1, k+1, k+6 between:
 *     RD = 4; worker 1 (block k+2), last requested by worker 2 five rounds
 *     earlier: 9 distinct blocks between; worker 2 (block k+7), by worker 0
 *     three rounds earlier: 8.  RD >= C for two of them: K_lru = 2.
 *   Che: 1 - C/N = 0.3.
 * Over C = 1..10, K_lru = #{RD >= C} is 3 up to C = 4, 2 up to 8, 1 at 9
 * and 0 at 10: rho_lru = K_lru / 3 is 2/3 at C = 7, and the smallest C with
 * rho_lru <= 0.34 is 9.
 * The GB10 profile says 48 SMs and an effective L2 of 20 MiB = 20971520
 * bytes; default.yaml sweeps 4 occupancies x 5 patterns x 64 capacities =
 * 1280 points, the first at occupancy 1 (M = 48 x 1), 4 MiB of 16 KiB
 * blocks (C = 256), N = 8192. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pascal/pascal.h>

static int static_model(void)
{
    const int64_t phases[3] = {0, 2, 7};
    double lo, hi;
    pascal_static *ws = pascal_static_create(3);
    if (!ws || pascal_static_prepare(ws, phases, 3, 10, PASCAL_STATIC_RD) != 0) {
        fprintf(stderr, "consumer: cannot prepare the static model\n");
        pascal_static_free(ws);
        return 1;
    }
    pascal_static_lru_band(ws, 7, &lo, &hi);
    printf("static: theta %g, K_ttl %lld, K_lru %g, band [%g, %g], rho_che %g\n",
           pascal_static_theta(ws, 7), (long long)pascal_static_k_ttl(ws, 7),
           pascal_static_k_lru(ws, 7), lo, hi, pascal_che_miss_rate(7, 10));
    pascal_static_free(ws);
    return 0;
}

static int shipped(const char *datadir)
{
    char path[4096];
    pascal_device_facts dev;
    pascal_spec *spec = NULL;
    double N, M, C;
    pascal_error err = {0};
    snprintf(path, sizeof path, "%s/devices/gb10.yaml", datadir);
    if (pascal_device_facts_load(path, &dev, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    printf("device %s: %g SMs, effective L2 %.0f bytes\n", dev.name, dev.sms, dev.capacity_bytes);
    snprintf(path, sizeof path, "%s/default.yaml", datadir);
    if (pascal_spec_load(path, &spec, &err) != 0 || pascal_spec_value(spec, 0, "N", &N, &err) != 1 ||
        pascal_spec_value(spec, 0, "M", &M, &err) != 1 ||
        pascal_spec_value(spec, 0, "C", &C, &err) != 1) {
        fprintf(stderr, "%s\n", err.msg);
        pascal_spec_free(spec);
        return 2;
    }
    printf("spec %s: %llu points; point 0: N %g, M %g, C %g\n", pascal_spec_name(spec),
           (unsigned long long)pascal_spec_size(spec), N, M, C);
    pascal_spec_free(spec);
    return 0;
}

/* The worked example swept over C = 1..10, written, read back and sized. */
static int sweep(const char *workdir)
{
    static const char text[] = "name: worked-example\n"
                               "models: [ttl, lru]\n"
                               "fixed: {N: 10, pattern: explicit, phases: [0, 2, 7]}\n"
                               "axes:\n  C: {from: 1, to: 10, step: 1}\n";
    char out[4096];
    pascal_spec *spec = NULL;
    pascal_run_options o;
    pascal_run_summary sum;
    pascal_sweep_file *f = NULL;
    pascal_size_answer ans;
    double *rho = NULL;
    int64_t n = 0;
    pascal_error err = {0};
    int rc;
    snprintf(out, sizeof out, "%s/worked.h5", workdir);
    memset(&o, 0, sizeof o);
    o.out_path = out;
    o.format = PASCAL_FORMAT_HDF5;
    if ((rc = pascal_spec_parse(text, strlen(text), NULL, &spec, &err)) != 0 ||
        (rc = pascal_run_sweep(spec, &o, &sum, &err)) != 0 ||
        (rc = pascal_sweep_file_open(out, &f, &err)) != 0 ||
        (rc = pascal_sweep_file_read(f, "results", "rho_lru", &rho, &n, &err)) != 0 ||
        (rc = pascal_size_worst(spec, "rho_lru <= 0.34", 1, &ans, &err)) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        pascal_sweep_file_close(f);
        pascal_spec_free(spec);
        return 2;
    }
    printf("sweep %s: %llu rows, %lld read back, rho_lru at C = 7: %.6f; smallest C with "
           "rho_lru <= 0.34: %lld\n", pascal_sweep_file_attr(f, "spec_name"),
           (unsigned long long)sum.rows, (long long)n, n == 10 ? rho[6] : -1.0, (long long)ans.C);
    free(rho);
    pascal_sweep_file_close(f);
    pascal_spec_free(spec);
    return 0;
}

int main(int argc, char **argv)
{
    int rc;
    if (argc != 3) {
        fprintf(stderr, "usage: consumer SHARE_DIR WORK_DIR   (the installed share/pascal)\n");
        return 2;
    }
    printf("pascal %s (headers %s)\n", pascal_version(), PASCAL_VERSION_STRING);
    if ((rc = static_model()) != 0 || (rc = shipped(argv[1])) != 0)
        return rc;
    return sweep(argv[2]);
}
