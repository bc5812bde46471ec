/* run_capture.h: run a kit program from a test and capture what it prints (header-only helper). */
#ifndef TILELAB_TEST_SPAWN_H
#define TILELAB_TEST_SPAWN_H

#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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
    size_t cap = 1 << 16;
    r->out = malloc(cap);
    for (;;) {
        if (r->len + 4096 + 1 > cap)
            r->out = realloc(r->out, cap *= 2);
        ssize_t got = read(fds[0], r->out + r->len, 4096);
        if (got <= 0)
            break;
        r->len += (size_t)got;
    }
    r->out[r->len] = '\0';
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
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
