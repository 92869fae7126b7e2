/* Signals and the files to remove when interrupted (programs/signals.h).
 *
 * The list: a fixed table, so that a signal handler can walk it.  Threads
 * add and remove names under a mutex; a slot's state is read atomically,
 * and a slot is filled before it is marked held and marked free before it
 * is cleared, so the handler (which takes no lock) unlinks only names that
 * were complete.  A name removed by its owner while the handler runs may
 * be unlinked twice: harmless, the file is gone or renamed.
 *
 * A file's creation and its entry in the list must not be split by the
 * handler: begin blocks SIGINT and SIGTERM in the creating thread until
 * end, and counts the creation; a handler running meanwhile in another
 * thread (an OpenMP worker) waits for the count to reach zero, a few
 * system calls, for at most END_WAIT_MS.  Once a handler has begun, begin
 * refuses new files. */
#include "programs/signals.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/fs/tmpfile.h"

#define SLOTS 64             /* files one process holds at once: a few */
#define PATH_BYTES 4096
#define END_WAIT_MS 200      /* the most a handler waits for a creation */

enum { FREE = 0, HELD = 1 };

static char slot_path[SLOTS][PATH_BYTES];
static int slot_state[SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static int creating, ending;
static _Thread_local sigset_t saved_mask;
static _Thread_local int guard_depth;

static void hold(const char *path)
{
    if (strlen(path) >= PATH_BYTES)
        return;
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < SLOTS; i++)
        if (__atomic_load_n(&slot_state[i], __ATOMIC_SEQ_CST) == FREE) {
            memcpy(slot_path[i], path, strlen(path) + 1);
            __atomic_store_n(&slot_state[i], HELD, __ATOMIC_SEQ_CST);
            break;
        }
    pthread_mutex_unlock(&slots_lock);
}

static void let_go(const char *path)
{
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < SLOTS; i++)
        if (__atomic_load_n(&slot_state[i], __ATOMIC_SEQ_CST) == HELD &&
            strcmp(slot_path[i], path) == 0) {
            __atomic_store_n(&slot_state[i], FREE, __ATOMIC_SEQ_CST);
            break;
        }
    pthread_mutex_unlock(&slots_lock);
}

static int on_begin(void *ctx)
{
    sigset_t block, old;
    (void)ctx;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    __atomic_add_fetch(&creating, 1, __ATOMIC_SEQ_CST);
    /* Each side raises its own flag before it reads the other's: either the
     * handler sees this creation and waits for it, or this sees the
     * handler and creates nothing. */
    if (__atomic_load_n(&ending, __ATOMIC_SEQ_CST)) {
        __atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return -1;
    }
    if (guard_depth++ == 0)
        saved_mask = old;
    return 0;
}

static void on_end(void *ctx, const char *path)
{
    (void)ctx;
    if (path)
        hold(path);
    __atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
    if (--guard_depth == 0)
        pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
}

/* The last destination this process completed, for the handler's message
 * (a journal or a partial file is not one). */
static char published[PATH_BYTES];
static int published_ok;

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

static void on_done(void *ctx, const char *path, const char *dest)
{
    (void)ctx;
    let_go(path);
    if (dest && strlen(dest) < PATH_BYTES && !ends_with(dest, ".journal") &&
        !ends_with(dest, ".partial")) {
        __atomic_store_n(&published_ok, 0, __ATOMIC_SEQ_CST);
        memcpy(published, dest, strlen(dest) + 1);
        __atomic_store_n(&published_ok, 1, __ATOMIC_SEQ_CST);
    }
}

/* Async-signal-safe: atomics, nanosleep and unlink. */
static void remove_held(void)
{
    struct timespec ms = {0, 1000000};
    __atomic_store_n(&ending, 1, __ATOMIC_SEQ_CST);
    for (int t = 0; __atomic_load_n(&creating, __ATOMIC_SEQ_CST) && t < END_WAIT_MS; t++)
        nanosleep(&ms, NULL);
    for (int i = 0; i < SLOTS; i++)
        if (__atomic_load_n(&slot_state[i], __ATOMIC_SEQ_CST) == HELD)
            unlink(slot_path[i]);
}

/* Async-signal-safe: write(2) only. */
static void say(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(2, s, n);
        if (w <= 0)
            return;
        s += w, n -= (size_t)w;
    }
}

/* "nothing written", or, when the process had already completed its
 * output (the signal came after the publishing rename), that it had. */
static void on_interrupt(int sig)
{
    (void)sig;
    remove_held();
    if (__atomic_load_n(&published_ok, __ATOMIC_SEQ_CST)) {
        say("pascal: interrupted after writing ");
        say(published);
        say(" (complete)\n");
    } else {
        say("pascal: interrupted; nothing written\n");
    }
    _exit(130);
}

/* Before main, as soon as the program's own code runs (the shared
 * libraries are loaded by then): a signal from then on ends it with 130,
 * not by the signal.  Started by the `pascal` launcher (programs/launch.c),
 * which held SIGINT and SIGTERM off while the libraries loaded, it lets
 * them in now: one that came meanwhile is handled here. */
__attribute__((constructor)) static void install_early(void)
{
    const char *held = getenv("PASCAL_SIGNALS_HELD");
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);
    if (held) {
        sigset_t let_in;
        sigemptyset(&let_in);
        if (strstr(held, "INT"))
            sigaddset(&let_in, SIGINT);
        if (strstr(held, "TERM"))
            sigaddset(&let_in, SIGTERM);
        unsetenv("PASCAL_SIGNALS_HELD"); /* not for the programs it starts */
        pthread_sigmask(SIG_UNBLOCK, &let_in, NULL);
    }
}

void cli_signals_install(void)
{
    static const pascal_files_hooks hooks = {NULL, on_begin, on_end, on_done};
    pascal_files_hooks_set(&hooks);
    /* A file size limit (ulimit -f) makes a write fail with EFBIG, which is
     * reported like a full disk, rather than kill the process. */
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);
}

static volatile sig_atomic_t stop_asked, keep_held;

static void on_stop(int sig)
{
    (void)sig;
    if (!stop_asked) {
        stop_asked = 1;
        return;
    }
    if (!keep_held)
        remove_held();
    _exit(130);
}

void cli_stop_begin(int keep_files)
{
    keep_held = keep_files != 0;
    stop_asked = 0;
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
}

void cli_stop_end(void)
{
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);
}

int cli_stop_requested(void *ctx)
{
    (void)ctx;
    return stop_asked;
}

volatile sig_atomic_t *cli_stop_flag(void)
{
    return &stop_asked;
}
