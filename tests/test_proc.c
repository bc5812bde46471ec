/* test_proc.c: the grader's one way to start its own tools (grader/proc.c): posix_spawn, output to
 * /dev/null or captured (a tool that prints more than the buffer never blocks), the status as an
 * exit code or 128 + signal, -1 for a program that cannot start, and a wait that survives signals. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "proc.h"

Test(proc, captures_stdout_and_gives_the_exit_status, .timeout = 20)
{
    char out[64];
    const char *argv[] = {"sh", "-c", "echo hello; exit 3", NULL};
    tg_proc_io io = {.out = TG_PROC_CAPTURE, .buf = out, .buflen = sizeof out, .search = 1};
    cr_assert_eq(tg_proc_run(argv, &io), 3);
    cr_assert_str_eq(out, "hello\n");
}

Test(proc, a_long_output_is_cut_to_the_buffer_and_never_blocks_the_tool, .timeout = 20)
{
    char out[16];
    const char *argv[] = {"/usr/bin/head", "-c", "4000000", "/dev/zero", NULL};
    tg_proc_io io = {.out = TG_PROC_CAPTURE, .buf = out, .buflen = sizeof out};
    cr_assert_eq(tg_proc_run(argv, &io), 0);
    cr_assert_eq(out[15], '\0');
}

Test(proc, a_program_that_cannot_start_is_minus_one_and_a_signal_is_128_plus_n, .timeout = 20)
{
    const char *missing[] = {"/nonexistent/tool", NULL};
    cr_assert_eq(tg_proc_run(missing, NULL), -1);
    cr_assert_eq(errno, ENOENT);
    const char *killed[] = {"/bin/sh", "-c", "kill -TERM $$", NULL};
    cr_assert_eq(tg_proc_run(killed, NULL), 128 + SIGTERM);
    const char *quiet[] = {"/bin/sh", "-c", "echo not shown", NULL};
    tg_proc_io io = {.out = TG_PROC_NULL, .err = TG_PROC_NULL};
    cr_assert_eq(tg_proc_run(quiet, &io), 0);
}

static volatile sig_atomic_t ticks;
static void on_alarm(int s) { (void)s; ++ticks; }

Test(proc, the_wait_survives_signals_that_interrupt_it, .timeout = 20)
{
    struct sigaction sa = {.sa_handler = on_alarm};   /* no SA_RESTART: waitpid sees EINTR */
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_REAL, &it, NULL);
    const char *argv[] = {"/bin/sleep", "0.3", NULL};
    int st = tg_proc_run(argv, NULL);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    cr_assert_eq(st, 0, "sleep ended with %d", st);
    cr_assert_gt(ticks, 0, "the timer never fired during the wait");
}
