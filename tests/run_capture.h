/* run_capture.h: run a kit program from a test and capture what it prints (header-only helper). */
#ifndef TILELAB_TEST_SPAWN_H
#define TILELAB_TEST_SPAWN_H

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef RUN_CAPTURE_MAX
#define RUN_CAPTURE_MAX (4u << 20)   /* bytes of a program's output kept for the assertions */
#endif

typedef struct run_result {
    int   exit_code;       /* -1 when killed by a signal */
    int   signal;
    char *out;             /* stdout and stderr together, NUL-terminated, malloc'ed */
    size_t len;
} run_result;

/* Runs argv[0] with argv, stdin from /dev/null; returns 0 when it could be started. */
static inline int run_capture(char *const argv[], run_result *r)
{
    memset(r, 0, sizeof *r);
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", 0, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    /* Keep at most RUN_CAPTURE_MAX bytes; read and drop the rest so the child never blocks. */
    size_t cap = 1 << 16;
    char sink[4096];
    r->out = malloc(cap);
    for (;;) {
        if (r->len + 4096 + 1 > cap && cap < RUN_CAPTURE_MAX)
            r->out = realloc(r->out, cap *= 2);
        int keep = r->len + 4096 + 1 <= cap;
        ssize_t got = read(fds[0], keep ? r->out + r->len : sink, 4096);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (keep)
            r->len += (size_t)got;
    }
    r->out[r->len] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return 0;
}

static inline void run_free(run_result *r)
{
    free(r->out);
    r->out = NULL;
}

#endif
