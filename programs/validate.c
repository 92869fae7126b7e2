/* pascal validate: re-derives the paper's section 5.2 abstract checks on
 * this machine and prints a table; the campaign itself is
 * pascal_validate_run (validate/validate.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/cli.h"
#include "validate/validate.h"

static const char *usage_text =
    "usage: pascal validate [-o OUT.h5] [--seed S] [--threads N] [--quiet]\n\n"
    "Checks the static model's closed forms against exact cache replay on the\n"
    "exhaustive enumeration N = 2..6, M = 1..3, every phase vector, 1 <= C < N\n"
    "(2254 cases) and 500 seeded larger cases (N <= 256, M <= 32), then Theorem 5\n"
    "on random progress histories and its sharpness construction, Theorem 6\n"
    "against the issue-time recurrence, and the multi-stream forms (several\n"
    "streams sharing one cache) on 7752 exhaustive and 300 seeded instances.\n"
    "Exit status 0 only when every check\n"
    "holds; otherwise the smallest failing case is printed as a `pascal point`\n"
    "command.  With -o, one HDF5 row per case.";

enum { F_OUTPUT, F_SEED, F_THREADS, F_QUIET, F_FAULT, F_COUNT };

static int read_flags(cli_flag *f, pascal_validate_opts *o)
{
    int64_t v;
    if (f[F_SEED].given) {
        if (cli_int("validate", &f[F_SEED], 0, &v) != CLI_OK)
            return CLI_USAGE;
        o->seed = (uint64_t)v;
    }
    if (f[F_THREADS].given && cli_threads("validate", &f[F_THREADS], &o->threads) != CLI_OK)
        return CLI_USAGE;
    if (f[F_FAULT].given) {
        int k = pascal_vcheck_from_name(f[F_FAULT].value);
        if (k < 0 || k == PASCAL_VCHECK_THM5 || k == PASCAL_VCHECK_THM5_SHARP) {
            fprintf(stderr, "pascal validate: --fault: expected one of rd, lru, sdcm, set, "
                            "band, ttl, belady, thm6, ms_rd, ms_lru, ms_ttl, ms_band, "
                            "ms_belady, ms_one, got \"%s\"\n", f[F_FAULT].value);
            return CLI_USAGE;
        }
        o->fault = 1 + k;
    }
    o->out_path = f[F_OUTPUT].value;
    return CLI_OK;
}

static void print_table(FILE *out, const pascal_validate_result *r)
{
    const pascal_validate_opts *o = &r->opts;
    fprintf(out, "pascal validate: section 5.2 abstract checks, seed %llu, %d threads\n",
            (unsigned long long)o->seed, r->threads);
    fprintf(out, "  %lld static cases = %lld exhaustive (N = 2..6, M = 1..3, every phase "
                 "vector, 1 <= C < N)\n    + %lld seeded (N <= %lld, M <= %lld)\n\n",
            (long long)r->ncases, (long long)r->n_exhaustive, (long long)r->n_seeded,
            (long long)o->max_N, (long long)o->max_M);
    fprintf(out, "  %lld multi-stream cases = %lld exhaustive (S = 2: N_s = 1..3, M_s = 1..2; "
                 "S = 3: N_s = 1..2;\n    every order, phase vector and 1 <= C < N_total) + "
                 "%lld seeded (S <= %lld, N_s <= %lld)\n\n",
            (long long)r->nmcases, (long long)r->nm_exhaustive, (long long)r->nm_seeded,
            (long long)o->multi_max_S, (long long)o->multi_max_N);
    fprintf(out, "  %-62s %7s %7s\n", "check", "cases", "failed");
    for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
        fprintf(out, "  %-62s %7lld %7lld\n", pascal_vcheck_descriptions[k],
                (long long)r->checked[k], (long long)r->failed[k]);
    fprintf(out, "\n  Belady slack over the bound: at least %.4g misses/round; "
                 "Theorem 6: max |I_n/n - P_d| = %.3g at n = %lld\n",
            r->belady_min_slack, r->thm6_max_error, (long long)o->thm6_steps);
    fprintf(out, "  Theorem 5: %lld events in %lld random histories\n",
            (long long)r->thm5_events, (long long)r->checked[PASCAL_VCHECK_THM5]);
    fprintf(out, "  time: %.3f s (static cases %.3f s, progress checks %.3f s)\n",
            r->seconds, r->static_seconds, r->progress_seconds);
}

static void print_verdict(FILE *out, const pascal_validate_result *r)
{
    char cmd[4096];
    if (r->ok) {
        fprintf(out, "all checks hold (%lld static cases, %lld multi-stream cases)\n",
                (long long)r->ncases, (long long)r->nmcases);
        return;
    }
    int64_t failed = 0;
    for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
        failed += r->failed[k];
    fprintf(out, "FAILED: %lld disagreements\n", (long long)failed);
    if (r->smallest >= 0) {
        const pascal_vcase *c = &r->cases[r->smallest];
        pascal_validate_point_command(r, r->smallest, cmd, sizeof cmd);
        fprintf(out, "smallest failing case (case %lld; failed:", (long long)r->smallest);
        for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
            if (c->failed & (1u << k))
                fprintf(out, " %s", pascal_vcheck_names[k]);
        fprintf(out, "):\n  %s\n", cmd);
    }
    if (r->msmallest >= 0) {
        const pascal_vcase *c = &r->mcases[r->msmallest];
        pascal_validate_multi_describe(r, r->msmallest, cmd, sizeof cmd);
        fprintf(out, "smallest failing multi-stream case (case %lld; failed:",
                (long long)r->msmallest);
        for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
            if (c->failed & (1u << k))
                fprintf(out, " %s", pascal_vcheck_names[k]);
        fprintf(out, "):\n  %s\n", cmd);
    }
    if (r->progress_failure[0])
        fprintf(out, "first progress failure: %s\n", r->progress_failure);
}


int cli_validate(int argc, char **argv)
{
    cli_flag f[F_COUNT] = {
        [F_OUTPUT] = {"output", "PATH", "HDF5 file, one row per case (alias -o)", 0, 0},
        [F_SEED] = {"seed", "S", "seed of the seeded cases and histories (default 1)", 0, 0},
        [F_THREADS] = {"threads", "N", "OpenMP threads (default: all cores)", 0, 0},
        [F_QUIET] = {"quiet", NULL, "print only the verdict", 0, 0},
        [F_FAULT] = {"fault", "CHECK", "corrupt one check's model side (tests the report)", 0, 0},
    };
    char *pos[1], *cmdline;
    int npos, rc;
    pascal_validate_opts o;
    pascal_validate_result *r = NULL;
    pascal_error err = {0};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("validate", usage_text, argc, argv, f, F_COUNT, pos, 0, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    pascal_validate_defaults(&o);
    if ((rc = read_flags(f, &o)) != CLI_OK)
        return rc;
    cmdline = cli_command_line("validate", argc, argv);
    o.command_line = cmdline;
    rc = pascal_validate_run(&o, &r, &err);
    free(cmdline);
    if (rc == PASCAL_EINPUT && o.out_path) {
        fprintf(stderr, "pascal validate: --output: expected a writable path, got \"%s\" (%s)\n",
                o.out_path, err.msg);
        return CLI_USAGE;
    }
    if (rc != 0) {
        fprintf(stderr, "pascal validate: %s\n", err.msg);
        return rc == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
    }
    if (!f[F_QUIET].given)
        print_table(stdout, r);
    print_verdict(stdout, r);
    if (o.out_path && !f[F_QUIET].given)
        printf("wrote %s (%lld rows)\n", o.out_path, (long long)r->ncases);
    rc = r->ok ? CLI_OK : CLI_FAIL;
    pascal_validate_free(r);
    return rc;
}
