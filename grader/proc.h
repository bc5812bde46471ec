/* proc.h: the one way the grader starts a tool of its own outside the sandbox (cp, gnuplot,
 * sbatch/squeue/scancel): posix_spawn, no shell, stdin from /dev/null, stdout to /dev/null, ours,
 * or captured into a buffer, stderr ours or /dev/null; and the one wait, retried on EINTR. The
 * student's programs start through sandbox.c (tg_spawn), whose child must set limits, a uid and a
 * filter before exec, so it forks itself; it waits through tg_proc_wait too. */
#ifndef TILELAB_GRADER_PROC_H
#define TILELAB_GRADER_PROC_H

#include <stddef.h>
#include <sys/types.h>

enum { TG_PROC_INHERIT = 0, TG_PROC_NULL = 1, TG_PROC_CAPTURE = 2 };

typedef struct tg_proc_io {
    int    out;        /* TG_PROC_INHERIT, TG_PROC_NULL or TG_PROC_CAPTURE (into buf)           */
    int    err;        /* TG_PROC_INHERIT or TG_PROC_NULL                                       */
    char  *buf;        /* CAPTURE: the first buflen - 1 bytes of stdout, NUL-terminated (the rest
                          is read and dropped, so the tool never blocks on a full pipe)          */
    size_t buflen;
    int    search;     /* 1: argv[0] is looked up on PATH (posix_spawnp)                        */
} tg_proc_io;

/* Runs argv to its end. Returns its exit status (0..255), 128 + N when signal N ended it, or -1
 * when it could not be started (errno set). io NULL: everything inherited, argv[0] a path. */
int tg_proc_run(const char *const argv[], const tg_proc_io *io);
/* waitpid(pid, status, flags) retried while interrupted by a signal: the grader's one policy.
 * Returns what waitpid returns. */
pid_t tg_proc_wait(pid_t pid, int *status, int flags);

#endif
