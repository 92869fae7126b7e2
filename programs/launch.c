/* The `pascal` command users start: it holds off SIGINT and SIGTERM, then
 * replaces itself (execv, the same process) with the program proper,
 * pascal-core, which installs its handlers before main and lets the held
 * signals in (programs/signals.c).
 *
 * Why: pascal-core links about 50 shared libraries (HDF5 and what it links:
 * curl, TLS, Kerberos, LDAP; the CUDA runtime), and the dynamic loader
 * takes some 9 ms to map them and run their constructors before any code
 * of pascal's can install a handler: a Ctrl-C or SIGTERM then killed the
 * process by the signal (status 143) instead of exit 130.  A blocked signal
 * stays pending across execv, and the signal mask is inherited, so from the
 * moment this small, statically linked program has blocked them (its first
 * call) to the last instruction of pascal-core, a signal ends the process
 * with 130.
 *
 * The program proper is looked for beside this one (the build tree), then
 * where the install puts it, PASCAL_CORE_FROM_BIN from the folder of this
 * one (../libexec/pascal by default).  Only signals this program
 * blocked are let in again: a caller that started pascal with them blocked
 * keeps them blocked. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CORE "pascal-core"
#ifndef PASCAL_CORE_FROM_BIN
#define PASCAL_CORE_FROM_BIN "../libexec/pascal"
#endif
#define HELD_ENV "PASCAL_SIGNALS_HELD" /* read and removed by pascal-core */

/* Async-signal-safe enough for a process about to end: write(2) only. */
static void say(const char *a, const char *b, const char *c)
{
    const char *parts[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (parts[i] && write(2, parts[i], strlen(parts[i])) < 0)
            return;
}

/* A signal that came while the program could not be started: as it would
 * have ended pascal-core, with nothing written. */
static void exit_if_signalled(void)
{
    sigset_t pending;
    if (sigpending(&pending) == 0 &&
        (sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1)) {
        say("pascal: interrupted; nothing written\n", NULL, NULL);
        _exit(130);
    }
}

int main(int argc, char **argv)
{
    sigset_t hold, was;
    char self[PATH_MAX], path[PATH_MAX + 32];
    const char *held = "";
    ssize_t n;
    char *slash;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigprocmask(SIG_BLOCK, &hold, &was);
    if (sigismember(&was, SIGINT) != 1 && sigismember(&was, SIGTERM) != 1)
        held = "INT TERM";
    else if (sigismember(&was, SIGINT) != 1)
        held = "INT";
    else if (sigismember(&was, SIGTERM) != 1)
        held = "TERM";
    (void)argc;
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || (size_t)n >= sizeof self - 1) {
        exit_if_signalled();
        say("pascal: cannot find its own path (/proc/self/exe): ", strerror(errno), "\n");
        return 1;
    }
    self[n] = '\0';
    slash = strrchr(self, '/');
    *slash = '\0';
    if (held[0] && setenv(HELD_ENV, held, 1) != 0)
        held = "";
    snprintf(path, sizeof path, "%s/%s", self, CORE);
    execv(path, argv);
    snprintf(path, sizeof path, "%s/" PASCAL_CORE_FROM_BIN "/%s", self, CORE);
    execv(path, argv);
    exit_if_signalled();
    say("pascal: cannot run " CORE " beside this program or in ", self,
        "/" PASCAL_CORE_FROM_BIN "/: ");
    say(strerror(errno), "\n", NULL);
    return 1;
}
