/* A program that embeds libpascal (docs/library.md): the static model at a
 * configuration worked out by hand below, and a shipped device profile and
 * sweep spec read from the installed share folder given as argv[1].
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
 * The GB10 profile says 48 SMs and an effective L2 of 20 MiB = 20971520
 * bytes; default.yaml sweeps 4 occupancies x 5 patterns x 64 capacities =
 * 1280 points, the first at occupancy 1 (M = 48 x 1), 4 MiB of 16 KiB
 * blocks (C = 256), N = 8192. */
#include <stdio.h>

#include <pascal/common/error.h>
#include <pascal/common/version.h>
#include <pascal/devices/profile.h>
#include <pascal/model/static.h>
#include <pascal/sweeps/spec.h>

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
    pascal_point p;
    pascal_error err = {0};
    snprintf(path, sizeof path, "%s/devices/gb10.yaml", datadir);
    if (pascal_device_facts_load(path, &dev, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    printf("device %s: %g SMs, effective L2 %.0f bytes\n", dev.name, dev.sms, dev.capacity_bytes);
    snprintf(path, sizeof path, "%s/default.yaml", datadir);
    if (pascal_spec_load(path, &spec, &err) != 0 || pascal_spec_point(spec, 0, &p, &err) != 1) {
        fprintf(stderr, "%s\n", err.msg);
        pascal_spec_free(spec);
        return 2;
    }
    printf("spec %s: %llu points; point 0: N %g, M %g, C %g\n", pascal_spec_name(spec),
           (unsigned long long)pascal_spec_size(spec), p.v[PASCAL_P_N], p.v[PASCAL_P_M],
           p.v[PASCAL_P_C]);
    pascal_spec_free(spec);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer SHARE_DIR   (the installed share/pascal)\n");
        return 2;
    }
    printf("pascal %s\n", pascal_version());
    if (static_model() != 0)
        return 1;
    return shipped(argv[1]);
}
