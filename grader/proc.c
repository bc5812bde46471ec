/* proc.c: the grader's tools started with posix_spawn and waited for with one EINTR policy. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"

extern char **environ;

pid_t tg_proc_wait(pid_t pid, int *status, int flags)
{
    pid_t r;
    while ((r = waitpid(pid, status, flags)) < 0 && errno == EINTR)
        ;
    return r;
}

int tg_proc_run(const char *const argv[], const tg_proc_io *io)
{
    static const tg_proc_io plain = {0};
    if (!io)
        io = &plain;
    int pfd[2] = {-1, -1};
    if (io->out == TG_PROC_CAPTURE && pipe2(pfd, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    int fmode = O_WRONLY | O_CREAT | (io->append ? O_APPEND : O_TRUNC);
    if (io->dir)                       /* first: the files below are opened from there, as by a shell's cd */
        posix_spawn_file_actions_addchdir_np(&fa, io->dir);
    posix_spawn_file_actions_addopen(&fa, 0, io->in ? io->in : "/dev/null", O_RDONLY, 0);
    if (io->out == TG_PROC_NULL)
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    else if (io->out == TG_PROC_CAPTURE)
        posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    else if (io->out == TG_PROC_FILE)
        posix_spawn_file_actions_addopen(&fa, 1, io->path, fmode, 0644);
    if (io->err == TG_PROC_NULL)
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    else if (io->err == TG_PROC_FILE && io->out == TG_PROC_FILE)
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
    else if (io->err == TG_PROC_FILE)
        posix_spawn_file_actions_addopen(&fa, 2, io->path, fmode, 0644);
    /* the child starts with default signal handling and an empty mask, whatever the grader set */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &all);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = (io->search ? posix_spawnp : posix_spawn)(&pid, argv[0], &fa, &at, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (pfd[1] >= 0)
        close(pfd[1]);
    if (rc != 0) {
        if (pfd[0] >= 0)
            close(pfd[0]);
        errno = rc;
        return -1;
    }
    if (pfd[0] >= 0) {
        size_t used = 0;
        for (;;) {
            char tmp[4096];
            ssize_t r = read(pfd[0], tmp, sizeof tmp);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            if (!io->buf) {            /* (CAPTURE into all) */
                if (io->all)
                    tg_buf_add(io->all, tmp, (size_t)r);
                continue;
            }
            size_t take = io->buflen > used + 1 ? io->buflen - 1 - used : 0;
            take = take < (size_t)r ? take : (size_t)r;
            memcpy(io->buf + used, tmp, take);
            used += take;
        }
        if (io->buf && io->buflen)
            io->buf[used] = '\0';
        close(pfd[0]);
    }
    int st;
    if (tg_proc_wait(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int tg_find_tool(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s:/usr/local/cuda/bin", path ? path : "/usr/bin:/bin");
    char *save = NULL;
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    out[0] = '\0';
    return -1;
}
