/* test_proc.c: the grader's one way to start its own tools (grader/proc.c): posix_spawn, output to
 * /dev/null, a file (2>&1, appended or afresh) or captured (a tool that prints more than the buffer
 * never blocks; or all of it kept), stdin from a file, another working folder, the status as an
 * exit code or 128 + signal, -1 for a program that cannot start, and a wait that survives signals. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"

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

Test(proc, a_file_takes_stdout_and_stderr_as_2_and_1_and_appends_when_asked, .timeout = 20)
{
    char dir[] = "/tmp/test-proc-XXXXXX";
    cr_assert(mkdtemp(dir));
    char log[sizeof dir + 16];
    snprintf(log, sizeof log, "%s/log", dir);
    const char *first[] = {"sh", "-c", "echo out; echo err >&2", NULL};
    tg_proc_io io = {.out = TG_PROC_FILE, .err = TG_PROC_FILE, .path = log, .search = 1};
    cr_assert_eq(tg_proc_run(first, &io), 0);
    const char *second[] = {"sh", "-c", "echo more; exit 4", NULL};
    tg_proc_io more = {.out = TG_PROC_FILE, .err = TG_PROC_FILE, .path = log, .append = 1, .search = 1};
    cr_assert_eq(tg_proc_run(second, &more), 4);
    char *text = tg_read_file(log, 4096, NULL);
    cr_assert_str_eq(text, "out\nerr\nmore\n");
    free(text);
    const char *again[] = {"sh", "-c", "echo fresh", NULL};
    cr_assert_eq(tg_proc_run(again, &io), 0);          /* without append: made afresh */
    text = tg_read_file(log, 4096, NULL);
    cr_assert_str_eq(text, "fresh\n");
    free(text);
    unlink(log);
    rmdir(dir);
}

Test(proc, stdin_from_a_file_in_a_folder_of_its_own_and_all_of_a_long_output_kept, .timeout = 20)
{
    char dir[] = "/tmp/test-proc-XXXXXX";
    cr_assert(mkdtemp(dir));
    char in[sizeof dir + 16];
    snprintf(in, sizeof in, "%s/in", dir);
    cr_assert_eq(tg_write_atomic(in, "line one\n", 9), 0);
    char out[PATH_MAX + 64];
    const char *argv[] = {"sh", "-c", "pwd; cat", NULL};
    tg_proc_io io = {.out = TG_PROC_CAPTURE, .buf = out, .buflen = sizeof out, .in = in, .dir = dir, .search = 1};
    cr_assert_eq(tg_proc_run(argv, &io), 0);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "%s\nline one\n", dir);
    cr_assert_str_eq(out, want);
    tg_buf all = {0};
    const char *big[] = {"/usr/bin/head", "-c", "300000", "/dev/zero", NULL};
    tg_proc_io grow = {.out = TG_PROC_CAPTURE, .all = &all};
    cr_assert_eq(tg_proc_run(big, &grow), 0);
    cr_assert_eq(all.len, 300000, "kept %zu of 300000 bytes", all.len);
    tg_buf_free(&all);
    const char *nodir[] = {"/bin/true", NULL};
    tg_proc_io gone = {.dir = "/nonexistent/folder"};
    cr_assert_eq(tg_proc_run(nodir, &gone), -1, "a folder that is not there: the tool does not start");
    unlink(in);
    rmdir(dir);
}
