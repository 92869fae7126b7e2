/* Test hooks, compiled into build/tests/pascal-hooked only (PASCAL_TEST_HOOKS,
 * CMakeLists.txt); the pascal that users run has none.
 *
 *   PASCAL_TEST_RAISE_AT=NAME:SIGNAL   raise SIGNAL (KILL, INT or TERM) the
 *       first time the test point NAME is reached (common/testpoint.h);
 *   PASCAL_TEST_KILL_AFTER_BATCH=K     SIGKILL the process once batch K
 *       (0-based) of a run is written, as the OOM killer or a scheduler
 *       would, without warning;
 *   PASCAL_TEST_SLOW_BATCH_MS=T        make every batch of a run take T ms
 *       longer (under mpirun, given to one rank: the others must take its
 *       share of the work). */
#ifdef PASCAL_TEST_HOOKS

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/testpoint.h"
#include "programs/cli.h"

static char raise_at[64];
static int raise_signal;
static long kill_after_batch = -1, batches_done, slow_batch_ms;

void pascal_testpoint(const char *name)
{
    int sig = raise_signal;
    if (sig && strcmp(name, raise_at) == 0) {
        raise_signal = 0;
        raise(sig);
    }
}

void cli_test_hooks_arm(void)
{
    static const struct {
        const char *name;
        int sig;
    } sigs[] = {{"KILL", SIGKILL}, {"INT", SIGINT}, {"TERM", SIGTERM}};
    const char *v = getenv("PASCAL_TEST_RAISE_AT"), *colon = v ? strrchr(v, ':') : NULL;
    if (getenv("PASCAL_TEST_KILL_AFTER_BATCH"))
        kill_after_batch = atol(getenv("PASCAL_TEST_KILL_AFTER_BATCH"));
    if (getenv("PASCAL_TEST_SLOW_BATCH_MS"))
        slow_batch_ms = atol(getenv("PASCAL_TEST_SLOW_BATCH_MS"));
    if (!colon || (size_t)(colon - v) >= sizeof raise_at)
        return;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (strcmp(colon + 1, sigs[i].name) == 0)
            raise_signal = sigs[i].sig;
    memcpy(raise_at, v, (size_t)(colon - v));
}

void cli_test_hook_batch(void)
{
    if (kill_after_batch >= 0 && batches_done++ == kill_after_batch)
        raise(SIGKILL);
    if (slow_batch_ms > 0)
        usleep((useconds_t)slow_batch_ms * 1000);
}

#else
typedef int pascal_no_test_hooks; /* an ordinary build has none */
#endif
