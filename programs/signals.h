/* The process's signal handling and the files it removes when interrupted:
 * the only process-wide state of pascal, kept in the program so that the
 * library owns none (output/fs/tmpfile.h).  docs/reliability.md states the
 * guarantees.
 *
 *   - From main (cli_signals_install): the library reports every temporary
 *     and lock file it creates, and Ctrl-C or SIGTERM removes those this
 *     process still holds, says "pascal: interrupted; nothing written" and
 *     exits 130.
 *   - Around a stage that stops gracefully (cli_stop_begin .. cli_stop_end):
 *     the first signal only asks the stage to stop (cli_stop_requested);
 *     a second ends the process at once with 130, removing the files as
 *     above unless keep_files (a run, whose journal names them for
 *     --resume). */
#ifndef PASCAL_PROGRAMS_SIGNALS_H
#define PASCAL_PROGRAMS_SIGNALS_H

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

void cli_signals_install(void);

void cli_stop_begin(int keep_files);
void cli_stop_end(void);
/* 1 once a stop was asked for (a should_stop callback; ctx unused). */
int cli_stop_requested(void *ctx);
/* The flag itself, for options that take a signal handler's flag. */
volatile sig_atomic_t *cli_stop_flag(void);

#ifdef __cplusplus
}
#endif

#endif
