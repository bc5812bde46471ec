/* proc.h: the one way the grader starts a tool of its own outside the sandbox (cp, gnuplot, git,
 * nvidia-smi, meson and ninja for the reference, sim_c, sbatch/squeue/scancel): posix_spawn, no
 * shell, stdin from /dev/null or a file, stdout to /dev/null, ours, a file, or captured (into a
 * fixed buffer or a growing tg_buf), stderr ours, /dev/null or the same file, in our folder or
 * another; and the one wait, retried on EINTR. What is not a tool starts otherwise, each saying
 * why where it forks: the student's programs through sandbox.c (tg_spawn), whose child must set
 * limits, a uid and a filter before exec; the grader's own code in a child (a class run's workers
 * and its reference build, run.c and workers.c; the memcheck pass, oob.c; the archive reader under
 * limits, unpack.c). They wait through tg_proc_wait too. */
#ifndef TILELAB_GRADER_PROC_H
#define TILELAB_GRADER_PROC_H

#include <stddef.h>
#include <sys/types.h>

enum { TG_PROC_INHERIT = 0, TG_PROC_NULL = 1, TG_PROC_CAPTURE = 2, TG_PROC_FILE = 3 };

struct tg_buf;

typedef struct tg_proc_io {
    int    out;        /* TG_PROC_INHERIT, TG_PROC_NULL, TG_PROC_CAPTURE (into buf or all) or
                          TG_PROC_FILE (path)                                                   */
    int    err;        /* TG_PROC_INHERIT, TG_PROC_NULL or TG_PROC_FILE (path: with out
                          TG_PROC_FILE, the same open file, as a shell's 2>&1)                   */
    char  *buf;        /* CAPTURE: the first buflen - 1 bytes of stdout, NUL-terminated (the rest
                          is read and dropped, so the tool never blocks on a full pipe)          */
    size_t buflen;
    struct tg_buf *all;   /* CAPTURE with buf NULL: every byte of stdout appended here          */
    const char *path;  /* FILE: the file (made 0644), truncated, or appended to with append = 1 */
    int    append;
    const char *in;    /* stdin from this file (NULL: /dev/null)                                 */
    const char *dir;   /* the tool's working folder (NULL: ours)                                 */
    int    search;     /* 1: argv[0] is looked up on PATH (posix_spawnp)                        */
} tg_proc_io;

/* Runs argv to its end. Returns its exit status (0..255), 128 + N when signal N ended it, or -1
 * when it could not be started (errno set). io NULL: everything inherited, argv[0] a path. */
int tg_proc_run(const char *const argv[], const tg_proc_io *io);
/* waitpid(pid, status, flags) retried while interrupted by a signal: the grader's one policy.
 * Returns what waitpid returns. */
pid_t tg_proc_wait(pid_t pid, int *status, int flags);
/* A tool's path: the first NAME on PATH, then in /usr/local/cuda/bin, that we may execute, into
 * out. 0 found, -1 not (out ""). */
int   tg_find_tool(const char *name, char *out, size_t len);

#endif
