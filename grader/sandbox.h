/* sandbox.h: running untrusted programs (a student's build, a student's lab binary) with the
 * strongest isolation this machine allows, found out at start-up, and saying which was used.
 *
 * Layers, each optional except the first two:
 *   process group + wall-clock limit   kill(-pgid, SIGKILL) at the deadline; always
 *   rlimits                            core 0, files >= 64 (CUDA needs 64), file size cap;
 *                                      no RLIMIT_AS (CUDA reserves ~13.6 GB of address space)
 *   bubblewrap                         own mount, pid, net, ipc, uts namespaces: read-only /usr,
 *                                      the build dir read-only, tmpfs /tmp, no instructor tree
 *   unshare -n                         when bubblewrap does not work: at least no network
 *   cgroup (pids, memory)              fork bombs and memory hogs; NPROC does not bind root
 */
#ifndef TILELAB_GRADER_SANDBOX_H
#define TILELAB_GRADER_SANDBOX_H

#include <sys/types.h>

#include "util.h"

#define TG_CAPTURE_KEEP (64 * 1024)   /* bytes of a program's stdout+stderr kept             */

typedef struct tg_iso {
    int  bwrap;                       /* bubblewrap works here                                 */
    char bwrap_path[256];
    int  unshare_net;                 /* fallback: unshare(CLONE_NEWNET) works                 */
    int  cgroup;                      /* 0 none, 1 cgroup v1 (pids + memory), 2 cgroup v2       */
    char cg_pids[256], cg_mem[256];   /* parent folders to make per-run cgroups in             */
    int  is_root;
    int  gpu_nodes;                   /* /dev/nvidia* present                                  */
    int  seccomp;                     /* the network filter (policy.h) installs and works here  */
    char desc[384];                   /* e.g. "bubblewrap (net, pid, ipc, fs) + cgroup ..."   */
    char notes[768];                  /* what was tried and did not work                       */
} tg_iso;

/* Finds out what works here. Never fails: the weakest level is process group + rlimits. */
void tg_iso_probe(tg_iso *iso);

typedef struct tg_bind {
    const char *host, *inside;        /* inside NULL: the same path                            */
} tg_bind;

typedef struct tg_spawn_opts {
    const char *const *argv;          /* argv[0]: the program's path as the sandbox sees it    */
    tg_bind     ro[8];                /* read-only binds (host NULL ends the list)             */
    tg_bind     rw[4];                /* writable binds                                         */
    const char *host_cwd;             /* working folder when there is no bubblewrap            */
    const char *sandbox_cwd;          /* working folder inside bubblewrap (made on its tmpfs)  */
    int         serve;                /* make fds 3 (requests) and 4 (answers)                 */
    int         gpu;                  /* bind /dev/nvidia* and /sys                             */
    int         max_tasks;            /* pids limit (threads count): CUDA 3, sanitizer 8      */
    long long   mem_bytes;            /* memory limit (cgroup only)                            */
    long long   fsize_bytes;          /* RLIMIT_FSIZE                                           */
    long long   tmp_bytes;            /* size of the sandbox's tmpfs /tmp                       */
    const char *extra_path;           /* prepended to PATH (nvcc, compute-sanitizer)           */
    int         seccomp_net;          /* install the network filter before exec (iso->seccomp) */
} tg_spawn_opts;

typedef struct tg_child {
    pid_t  pid;
    int    to_child, from_child, out;  /* fd 3 writer, fd 4 reader, stdout+stderr reader; -1 */
    tg_buf cap;                       /* the first TG_CAPTURE_KEEP bytes of its output         */
    unsigned long long out_total;     /* all bytes it wrote to stdout+stderr                   */
    char   cg[2][320];                /* its cgroup folders ("" none)                          */
    int    reaped, status;
    int    timed_out;                 /* we killed it at the deadline                           */
    int    oom;                       /* the cgroup's memory limit killed something            */
    long   forks_refused;             /* forks the pids cgroup refused (a fork bomb's trace)   */
    int    via_bwrap;
    int    seccomp;                   /* the network filter was asked for (and probed to work) */
} tg_child;

/* 0 ok; -1 with err set (the grader's problem, not the student's). */
int  tg_spawn(tg_child *c, const tg_iso *iso, const tg_spawn_opts *o, char *err, size_t errlen);

/* Sends req (may be NULL) on fd 3 while collecting fd 4 into ans and the output into cap,
 * until complete(ans) says the answer is whole (1), the child closes fd 4 or dies, or the
 * deadline (tl_now_ms scale) passes. Returns 0 complete, 1 closed/died, 2 timed out (the child
 * is then killed), 3 answer too large (killed). */
int  tg_child_exchange(tg_child *c, const void *req, size_t reqlen, tg_buf *ans, size_t ans_max,
                       int (*complete)(const tg_buf *ans, void *ctx), void *ctx, double deadline_ms);
/* Waits for the child to exit while draining its output; kills it at the deadline.
 * Returns 0 exited, 2 timed out. */
int  tg_child_wait(tg_child *c, double deadline_ms);
/* Kills the whole tree (process group, cgroup), reaps, removes the cgroups. Idempotent. */
void tg_child_kill(tg_child *c);
/* 1 when the child died of SIGSYS under the network filter: it asked for an inet socket. */
int  tg_child_net_killed(const tg_child *c);
/* "exited with status 0", "killed by SIGSEGV", "killed at the time limit", ... */
void tg_child_describe(const tg_child *c, char *buf, size_t len);
void tg_child_free(tg_child *c);

/* Shared by sandbox.c and child.c: writes s to a file (0 or -1); reads "key N" from a cgroup
 * counter file (-1 when absent). */
int  tg_sb_write_str(const char *path, const char *s);
long tg_sb_read_counter(const char *path, const char *key);

#endif
