/* sandbox.h: running untrusted programs (a student's build, a student's lab binary) with the
 * strongest isolation this machine allows, found out at start-up, and saying which was used.
 *
 * Layers, each optional except the first two:
 *   process group + wall-clock limit   kill(-pgid, SIGKILL) at the deadline; always
 *   rlimits                            core 0, files >= 64 (CUDA needs 64), file size cap;
 *                                      no RLIMIT_AS (CUDA reserves ~13.6 GB of address space)
 *   bubblewrap                         own user, mount, pid, net, ipc, uts namespaces: read-only
 *                                      /usr, the build dir read-only, tmpfs /tmp, no instructor
 *                                      tree; no capabilities (bounding and ambient sets empty),
 *                                      no_new_privs; as root the grader drops to TG_SANDBOX_UID
 *                                      before bubblewrap, so the user namespace maps to an
 *                                      unprivileged uid outside too
 *   unshare -n                         when bubblewrap does not work: at least no network
 *   cgroup (pids, memory)              fork bombs and memory hogs; NPROC does not bind root
 */
#ifndef TILELAB_GRADER_SANDBOX_H
#define TILELAB_GRADER_SANDBOX_H

#include <sys/types.h>

#include "util.h"

#define TG_CAPTURE_KEEP (64 * 1024)   /* bytes of a program's stdout+stderr kept             */
#define TG_SANDBOX_UID  65534         /* nobody: who the student's processes are, grader as root */
#define TG_SANDBOX_GID  65534

/* How the sandbox's uid relates to the host (tg_iso.uid_mode). */
enum {
    TG_UID_USER = 0,     /* the grader is not root: bubblewrap's user namespace maps to the grader's uid */
    TG_UID_DROPPED,      /* root: setuid to TG_SANDBOX_UID, then bubblewrap (unprivileged outside)      */
    TG_UID_MAPPED_ROOT,  /* root, a drop not possible: user namespace as 65534, root outside, no caps   */
};

typedef struct tg_iso {
    int  bwrap;                       /* bubblewrap works here                                 */
    char bwrap_path[256];
    int  uid_mode;                    /* TG_UID_* (bubblewrap only)                             */
    int  old_bwrap;                   /* bubblewrap before 0.8: no --disable-userns              */
    char grant[4096];                 /* a grader-owned folder (the out dir's state): tg_spawn
                                         may make folders under it traversable (o+x, never o+r)
                                         and give rw binds under it to TG_SANDBOX_UID ("" none) */
    int  unshare_net;                 /* fallback: unshare(CLONE_NEWNET) works                 */
    int  cgroup;                      /* 0 none, 1 cgroup v1 (pids + memory), 2 cgroup v2       */
    char cg_pids[256], cg_mem[256];   /* parent folders to make per-run cgroups in             */
    int  is_root;
    int  gpu_nodes;                   /* /dev/nvidia* present                                  */
    int  seccomp;                     /* the network filter (policy.h) installs and works here  */
    long long mem_total;              /* this machine's memory, bytes                          */
    char desc[384];                   /* e.g. "bubblewrap (net, pid, ipc, fs) + cgroup ..."   */
    char notes[768];                  /* what was tried and did not work                       */
} tg_iso;

/* Finds out what works here. Never fails: the weakest level is process group + rlimits. */
void tg_iso_probe(tg_iso *iso);
/* A memory limit for one sandboxed run from what the lab wants and what this machine has: at
 * most three quarters of its memory shared by the runs at once (jobs), never under 256 MiB. */
long long tg_mem_limit(const tg_iso *iso, long long want, int jobs);
/* 1 when the filesystem and the processes are isolated (bubblewrap works): ./kit grade refuses
 * to grade otherwise unless the instructor passes --unsafe-no-sandbox. */
int  tg_iso_contained(const tg_iso *iso);

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
    int         cpu_seconds;          /* RLIMIT_CPU of every process (0 none): a compiler stuck
                                         in a macro bomb dies, whatever the wall-clock limit   */
    const char *env[3];               /* more NAME=VALUE for its environment (NULL ends): the
                                         emulator's verdict channel, TL_EMU_VERDICTS, CUDA's  */
    const char *emu_model;            /* TL_EMU_MODEL for an emulated program (NULL: its default) */
    int         nice;                 /* added niceness (0: the grader's): a GPU run's builds, so
                                         a timed run beside them gets the CPU first (gpushare.c) */
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
    int    uid_mode;                  /* TG_UID_* this run got                                   */
    int    seccomp;                   /* the network filter was asked for (and probed to work) */
    /* The CPU-time limit of one exchange (tg_child_exchange): set by the caller, 0 none. The
     * verdict's limit is CPU time, the same at any load; the exchange's deadline is only the
     * wall-clock backstop for a process that sleeps or waits. */
    double cpu_limit_ms;              /* CPU the tree may use from cpu_start_ms on               */
    double cpu_start_ms;              /* tg_child_cpu_ms when the exchange began                  */
    double cpu_used_ms;               /* the tree's CPU since cpu_start_ms, last measured         */
    double cpu_read_at;               /* tl_now_ms of that measurement                            */
    int    cpu_out;                   /* killed at the CPU-time limit (timed_out is set too)      */
    int    runnable;                  /* a process of the tree was running or waiting for a CPU at
                                       * the last reading: the wall clock then waits (a loaded
                                       * machine starves it; it does not sleep)                  */
    double cpu_seen_ms;               /* the most tg_child_cpu_ms read (the class run's profile)  */
    double cpu_seen_at;               /* tl_now_ms of that reading                                */
    /* Called about every 100 ms while an exchange waits for the answer (NULL: none): the device's
     * scheduling (gpushare.c, tg_gpu_req_tick) may stop the tree for a timed run meanwhile. It
     * returns the milliseconds the tree was stopped: the wall-clock backstop does not count them
     * (a stopped tree uses no CPU, so the CPU-time limit needs nothing). */
    double (*tick)(struct tg_child *c, void *ctx);
    void  *tick_ctx;
} tg_child;

/* Stops (stop 1: SIGSTOP) or continues (0: SIGCONT) every process of the child's tree, as
 * tg_child_cpu_ms finds it (its session, process group, cgroup, their descendants), pass after
 * pass until none is left running. Returns how many processes of the tree are still not stopped
 * (0: the whole tree is stopped, or continued; a process inside an uninterruptible wait stops only
 * when it leaves it: the caller then continues the tree and does not count on it). */
int  tg_child_stop(tg_child *c, int stop);
/* 1 when a process of the child's tree is running or waiting for a CPU now (state R). */
int  tg_child_running(const tg_child *c);

/* CPU seconds of this process's sandboxed trees that never reached it through wait (bubblewrap's
 * pid namespace keeps its children's time from its parent): what the trees were last seen to use,
 * less what their reaping passed up. The class run's profile adds it to getrusage's figures. */
double tg_sandbox_cpu_s(void);

/* The uid mode (TG_UID_*) a tg_spawn with these binds runs in: TG_UID_DROPPED (uid 65534) only where
 * every bind is within its reach (its writable binds are given to it, as tg_spawn does), else the
 * iso's fallback. Files a build writes belong to that uid, so what one mode built the other may not
 * be able to write over (build.c keys its kit cache on it). */
int  tg_spawn_uid_mode(const tg_iso *iso, const tg_spawn_opts *o);
/* 0 ok; -1 with err set (the grader's problem, not the student's). */
int  tg_spawn(tg_child *c, const tg_iso *iso, const tg_spawn_opts *o, char *err, size_t errlen);
/* CPU seconds used so far by root and its live descendants (and their reaped children); -1 when
 * root is gone. Not thread-safe (one caller: build.c's idle watch). */
double tg_tree_cpu_s(pid_t root);
/* The same, and in *busy (when not NULL) how many of the tree's processes are runnable or in a disk
 * wait (state R or D): a tree starved of CPU on a loaded machine is not idle. */
double tg_tree_cpu_busy(pid_t root, int *busy);

/* Sends req (may be NULL) on fd 3 while collecting fd 4 into ans and the output into cap,
 * until complete(ans) says the answer is whole (1), the child closes fd 4 or dies, or the
 * deadline (tl_now_ms scale) passes. Returns 0 complete, 1 closed/died, 2 timed out (the child
 * is then killed), 3 answer too large (killed). */
int  tg_child_exchange(tg_child *c, const void *req, size_t reqlen, tg_buf *ans, size_t ans_max,
                       int (*complete)(const tg_buf *ans, void *ctx), void *ctx, double deadline_ms);
/* The same with the request in two parts sent one after the other (a case's line, then its inputs
 * as made once per size: no copy of them per request). */
int  tg_child_exchange2(tg_child *c, const void *req, size_t reqlen, const void *req2, size_t req2len, tg_buf *ans,
                        size_t ans_max, int (*complete)(const tg_buf *ans, void *ctx), void *ctx, double deadline_ms);
/* The CPU time (user + system, ms) of the child's whole tree so far: the cgroup's own count
 * (v2 cpu.stat) where it has one, else every process of its session, process group, cgroup or
 * descent, read from /proc (reaped children's time is in their parent's). -1 when unknown. */
double tg_child_cpu_ms(const tg_child *c);
/* How long the child's tree has waited so far for a core while it was runnable, ms: the cgroup's
 * CPU pressure (v2 cpu.pressure, "some" total: time in which one of its tasks waited) where it has
 * one, else the sum of its live tasks' run delays (/proc/PID/task/TID/schedstat). -1 when unknown.
 * A speed test leaves it out of the wall clock it checks a reported median against (speed.c): on a
 * busy machine a timed program that spins on its kernels is descheduled between them. */
double tg_child_waited_ms(const tg_child *c);
/* Waits for the child to exit while draining its output; kills it at the deadline.
 * Returns 0 exited, 2 timed out. */
int  tg_child_wait(tg_child *c, double deadline_ms);
/* Kills the whole tree (process group, cgroup), reaps, removes the cgroups. Idempotent. */
void tg_child_kill(tg_child *c);
/* 1 when the child died of SIGSYS under the network filter: it asked for an inet socket. */
int  tg_child_net_killed(const tg_child *c);
/* "exited with status 0", "killed by SIGSEGV", "killed at the time limit", ... */
void tg_child_describe(const tg_child *c, char *buf, size_t len);
/* Runs a program in the sandbox without the serve channel, output captured; desc gets how it
 * ended. Returns 0 when it exited 0, 1 when it failed or timed out, -1 grader problem (child.c). */
int tg_run_sandboxed(const tg_iso *iso, const tg_spawn_opts *o, double limit_s, tg_buf *output,
                     char *desc, size_t desclen, char *err, size_t errlen);
/* The signal that ended the program (bubblewrap's 128+N read back), 0 none or not known. */
int  tg_child_signal(const tg_child *c);
void tg_child_free(tg_child *c);

/* Shared by sandbox.c and child.c: writes s to a file (0 or -1); reads "key N" from a cgroup
 * counter file (-1 when absent). */
int  tg_sb_write_str(const char *path, const char *s);
long tg_sb_read_counter(const char *path, const char *key);

#endif
