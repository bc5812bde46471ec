/* gpushare.c: the GPUs of one host, shared by what can share them (grader/README.md, "The GPUs of a
 * class run"). Each worker grades on one device (its CUDA_VISIBLE_DEVICES, chosen by the parent:
 * the device with the fewest workers). Per device, lock files in /tmp, all flock()s (they die with
 * their holder, whichever tl-grade run or kit check it is):
 *   KEY.lock      held shared by each REQUEST of a session on the device (session.c: from before the
 *                 request is sent, or the program started, until its answer is read; the session's
 *                 end too: its exit runs the student's destructors), and alone by the timed requests;
 *   KEY.gate      the timed queue: a speed test holds it shared from joining the queue until its
 *                 timed requests are done; a request passes it (exclusive, released at once) before
 *                 it takes the lock, so while timed requests queue no new request starts on the
 *                 device and the queued ones go one after the other once the requests in flight end
 *                 (one drain for the whole queue);
 *   KEY.slotN     N < cap: one per worker using the device (a test on it), so that at most cap
 *                 processes have memory on it at once (tg_gpu_share_cap);
 *   KEY.ncu       the profiled runs (ncu) on the device, one at a time (counters.c).
 *
 * A speed test (speed.c): its programs (the reference's, the student's) are started, sent their
 * inputs and warmed by an untimed request each with the device shared, like any request; then the
 * device alone for the requests whose time counts (the reference's second untimed and its timed
 * one where no fresh timing of it serves, the student's), given back once the student's timed answer
 * is read (tg_gpu_window_end, from session.c: the grader judges that answer with the device shared).
 *
 * The drain. A request in flight when a timed run queues ends by itself (most take well under a
 * second), or, when it still runs TG_GPU_YIELD_MS later and its processes were on the CPU at
 * least TG_GPU_YIELD_CPU of that time and one is running (a computation on the host: the host
 * multiply of tests/wrong/03/host-computes.cu at 4096 runs 25-30 s; a compute-sanitizer's start,
 * seconds of CPU), its owner stops its whole tree (SIGSTOP, tg_child_stop), keeps the device
 * TG_GPU_SETTLE_MS more, gives the lock up, waits for the queue to pass and continues it
 * (tg_gpu_req_tick, the exchange's tick: the stopped time does not count against its wall-clock
 * backstop; a stopped tree uses no CPU, so its CPU-time limit, the verdict's, is as it was). A
 * request that does not qualify (a profiled one, one waiting for its kernel) holds the device:
 * the queue waits for it while it has held the device at most TG_GPU_LONG_S (the run's board
 * below: each request's start and whether it holds; every queued worker sees it) or, for a holder
 * the board does not show (another run's, kit check's), TG_GPU_DRAIN_S; then it gives the gate
 * back so that untimed work goes on, and does not close it again while such a request holds the
 * device that long.
 *
 * What a timed request is guaranteed (while it runs, alone, on its device):
 *   - no other request of any session on the device is in flight, except stopped ones: every
 *     request of this user's runs and kit checks holds the lock shared, the timed one alone;
 *   - no other session's process runs on the CPU or starts GPU work: a session between requests
 *     runs none of the student's code (the link gate, policy.c, refuses threads, host callbacks,
 *     graphs; the student's code runs inside the kit's calls of a request, at the program's start
 *     and at its exit, all three under a request's hold), its kernels have ended (the kit's serve
 *     loop synchronizes the device after the student's launcher, before it answers), and a session
 *     whose owner waits at the gate is stopped meanwhile; a stopped request's tree is stopped whole;
 *   - NOT guaranteed: a stop does not end a kernel already running on the GPU. The stopped request
 *     was on the CPU (running, and for much of the last TG_GPU_YIELD_MS): an honest lab program then
 *     has no kernel running (the kit waits for the kernel asleep: TL_CUDA_SYNC=blocking), and a
 *     compute-sanitizer's process may be on the CPU while its program's instrumented kernel runs
 *     (at the lab's safety sizes, milliseconds: TG_GPU_SETTLE_MS lets it end; a wait, not a proof);
 *     but a launcher that launches a long kernel and then computes on the host keeps that kernel
 *     running beside the timed requests of its device, at most until its request's CPU-time limit.
 *     No lab needs that; a class where it matters sets TL_GRADE_GPU_YIELD_CPU above 1 (nothing
 *     stopped: the queue waits for every request). Processes of another user, or of a program that
 *     takes none of these locks, are not seen at all (the class's machine is the grader's).
 * A worker holds at most one device's locks; between tests, and while it builds or counts work on
 * the CPU, it holds none. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"
#include "proc.h"

static struct {
    char dir[200], key[80];
    char ncu_path[400];                /* this device's profiler lock file ("" none: no lock taken) */
    int  cap;
    int  cap_max;                      /* slots beyond cap, up to this, while the cores idle (0: none) */
    int  lock_fd, gate_fd, slot_fd, ncu_fd;
    int  how;                          /* TG_GPU_NONE, _SHARED or _ALONE */
    int  gate_sh;                      /* the gate held shared (in the timed queue, or alone) */
    int  slot;                         /* the slot's number (slot_fd's), -1 none */
    int  dev;                          /* the device's row on the board */
    int  seq;                          /* this worker's start order (tg_gpu_order; 0 none) */
    int  req, req_yields;              /* a request's hold (the lock shared); it stops for timed runs */
    long long queued_at, ticked_at;    /* the request saw a timed run queued since (0: none); its last look */
    double queued_cpu;                 /* its tree's CPU then, ms */
    int  yields;                       /* requests of this process stopped for timed runs, so far */
    tg_gpu_win win;                    /* the last hold alone: its queue and drain */
    long long alone_at;                /* when this hold alone began (0: not alone) */
    pid_t pid;                         /* the process these files were opened in */
    int  row;                          /* this worker's row on the board (the timed phase; -1 none) */
} G = {.lock_fd = -1, .gate_fd = -1, .slot_fd = -1, .ncu_fd = -1, .slot = -1, .row = -1};

static tg_gpu_board *board;           /* the parent's table, shared with its workers (or NULL) */

int tg_gpu_list(const char *cvd, int nodes, char ids[][TG_GPU_ID_LEN], int max)
{
    int n = 0;
    if (cvd) {                         /* the devices this process may use, as CUDA names them */
        const char *p = cvd;
        while (*p && n < max) {
            size_t l = strcspn(p, ",");
            while (l && isspace((unsigned char)*p))
                ++p, --l;
            size_t e = l;
            while (e && isspace((unsigned char)p[e - 1]))
                --e;
            if (e > 0 && e < TG_GPU_ID_LEN) {
                memcpy(ids[n], p, e);
                ids[n][e] = '\0';
                /* CUDA stops at the first entry that is not a device ("-1", "none"): so does this */
                if (strcmp(ids[n], "-1") == 0 || strcmp(ids[n], "none") == 0 || strcmp(ids[n], "NoDevFiles") == 0)
                    break;
                ++n;
            }
            p += l;
            if (*p == ',')
                ++p;
        }
        return n;
    }
    for (int i = 0; i < nodes && n < max; ++i, ++n)   /* every device of the host: 0 .. nodes-1 */
        snprintf(ids[n], TG_GPU_ID_LEN, "%d", i);
    return n;
}

int tg_gpu_nodes(void)
{
    glob_t g;                          /* /dev/nvidia0, /dev/nvidia1, ...: one per device */
    int n = 0;
    if (glob("/dev/nvidia[0-9]*", 0, NULL, &g) == 0) {
        n = (int)g.gl_pathc;
        globfree(&g);
    }
    return n;
}

int tg_gpu_pick(const int *workers, int ndev)
{
    int best = 0;
    for (int d = 1; d < ndev; ++d)
        if (workers[d] < workers[best])
            best = d;
    return best;
}

int tg_gpu_share_cap(long long dev_mem_mib, int jobs)
{
    int cap;
    if (dev_mem_mib <= 0)               /* not known: as if the device had 16 GiB */
        dev_mem_mib = 16 * 1024;
    /* a tenth of the device kept free (the driver's own, a timed run's second process) */
    cap = (int)((dev_mem_mib - dev_mem_mib / 10) / TG_GPU_SLOT_MIB);
    if (cap > jobs)
        cap = jobs;
    if (cap > TG_GPU_SLOTS)
        cap = TG_GPU_SLOTS;
    return cap < 1 ? 1 : cap;
}

void tg_gpu_key(const char *job, const char *id, char *out, size_t len)
{
    if (job && *job)                   /* a Slurm job's device numbers are the job's own */
        snprintf(out, len, "job%.30s-%.40s", job, id);
    else
        snprintf(out, len, "%.60s", id && *id ? id : "all");
    for (char *c = out; *c; ++c)
        if (!isalnum((unsigned char)*c) && *c != '-')
            *c = '_';
}

static int open_in(const char *name)
{
    char p[400];
    tg_gpu_lock_path(G.dir, G.key, name, p, sizeof p);
    return open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
}

void tg_gpu_lock_path(const char *dir, const char *key, const char *what, char *out, size_t len)
{
    snprintf(out, len, "%s/tilelab-gpu-%ld-%s.%s", dir && *dir ? dir : "/tmp", (long)getuid(), key, what);
}

void tg_gpu_ncu_at(const char *dir, const char *key)
{
    if (G.ncu_fd >= 0) {               /* (a lock held through it is given back with the fd) */
        close(G.ncu_fd);
        G.ncu_fd = -1;
    }
    tg_gpu_lock_path(dir, key, "ncu", G.ncu_path, sizeof G.ncu_path);
}

void tg_gpu_use(const char *dir, const char *key, int cap)
{
    /* fds from a parent that held locks are closed, not unlocked: the locks are the parent's */
    int *fds[] = {&G.lock_fd, &G.gate_fd, &G.slot_fd, &G.ncu_fd};
    for (int i = 0; i < 4; ++i)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
    G.how = TG_GPU_NONE;
    G.gate_sh = 0;
    snprintf(G.dir, sizeof G.dir, "%s", dir && *dir ? dir : "/tmp");
    snprintf(G.key, sizeof G.key, "%s", key);
    G.cap = cap < 1 ? 1 : cap > TG_GPU_SLOTS ? TG_GPU_SLOTS : cap;
    G.cap_max = 0;
    G.slot = -1;
    G.lock_fd = open_in("lock");
    G.gate_fd = open_in("gate");
    G.req = 0;
    G.pid = getpid();
    tg_gpu_ncu_at(G.dir, G.key);       /* the device's profiler lock: opened when first taken */
}

static void flock_wait(int fd, int how)
{
    while (fd >= 0 && flock(fd, how) != 0 && errno == EINTR)
        ;
}

static void pause_ms(int ms)
{
    struct timespec ts = {0, ms * 1000L * 1000L};
    nanosleep(&ts, NULL);
}

/* This worker on the board's list of those waiting for a slot of its device (on: 1), or off it; its
 * entry (-1: none, no board or no order). */
static int want_slot(int on, int e)
{
    if (!board || G.seq <= 0 || G.dev < 0 || G.dev >= TG_GPU_MAX || G.pid != getpid())
        return -1;
    if (!on) {
        if (e >= 0)
            __atomic_store_n(&board->want_pid[G.dev][e], 0, __ATOMIC_SEQ_CST);
        return -1;
    }
    for (int i = 0; i < TG_GPU_WORKERS_MAX; ++i) {
        int none = 0;                  /* (taken as -pid first: its order is written before it counts) */
        if (__atomic_load_n(&board->want_pid[G.dev][i], __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(&board->want_pid[G.dev][i], &none, -(int)getpid(), 0, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST)) {
            __atomic_store_n(&board->want_seq[G.dev][i], G.seq, __ATOMIC_SEQ_CST);
            __atomic_store_n(&board->want_pid[G.dev][i], (int)getpid(), __ATOMIC_SEQ_CST);
            return i;
        }
    }
    return -1;
}

/* Whether a worker that started before this one waits for a slot of the device (alive): it goes first. */
static int older_waits(int mine)
{
    for (int i = 0; mine >= 0 && i < TG_GPU_WORKERS_MAX; ++i) {
        int pid = __atomic_load_n(&board->want_pid[G.dev][i], __ATOMIC_SEQ_CST);
        if (i != mine && pid > 0 && __atomic_load_n(&board->want_seq[G.dev][i], __ATOMIC_SEQ_CST) < G.seq &&
            !(kill(pid, 0) != 0 && errno == ESRCH))
            return 1;
    }
    return 0;
}

void tg_gpu_cap_max(int most)
{
    G.cap_max = most > TG_GPU_SLOTS ? TG_GPU_SLOTS : most;
}

/* Whether the host's cores idle now: fewer processes running than 3/4 of its cores (/proc/loadavg's
 * running count, the reader included). 0 where it cannot be read. */
static int cores_idle_now(void)
{
    char buf[128];
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC), running = 0, total = 0;
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return sscanf(buf, "%*s %*s %*s %d/%d", &running, &total) == 2 && cores > 0 && running < cores * 3 / 4;
}
int (*tg_gpu_cores_idle)(void) = cores_idle_now;

/* One of the device's first lim slots, or -1 (all taken). */
static int try_slot_of(int lim)
{
    for (int i = 0; i < lim && i < TG_GPU_SLOTS; ++i) {
        char name[32];
        snprintf(name, sizeof name, "slot%d", i);
        int fd = open_in(name);
        if (fd < 0)
            return -1;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            G.slot = i;
            return fd;
        }
        close(fd);
    }
    return -1;
}

/* One of the device's cap slots; beyond them, up to cap_max, while the host's cores idle (the builds
 * ahead are done: more workers test at once, so that the class's last submissions keep the cores
 * busy); -1: none now. */
static int try_slot(void)
{
    int fd = try_slot_of(G.cap);
    if (fd < 0 && G.cap_max > G.cap && tg_gpu_cores_idle())
        fd = try_slot_of(G.cap_max);
    return fd;
}

static void waiting(int on)
{
    if (board)
        __atomic_add_fetch(&board->waiting, on ? 1 : -1, __ATOMIC_RELAXED);
}

int tg_gpu_held(void)
{
    return G.how;
}

/* (the kit's CLOCK_MONOTONIC, the same in every process of the host: the board compares workers' starts) */
static long long now_ms(void)
{
    return (long long)tl_now_ms();
}

/* The board's row of this worker's request on the device (the worker's slot): its start (0: none)
 * and whether it gives the device up for a timed run (stops) or holds it. Not in a forked child of
 * the worker (kit check's memcheck pass): the row is its parent's. */
static void request_row(int on, int yields)
{
    if (board && G.pid == getpid() && G.slot >= 0 && G.slot < TG_GPU_SLOTS && G.dev >= 0 && G.dev < TG_GPU_MAX) {
        __atomic_store_n(&board->holds[G.dev][G.slot], on && !yields, __ATOMIC_RELAXED);
        __atomic_store_n(&board->kind[G.dev][G.slot], on ? tg_stage_kind() : 0, __ATOMIC_RELAXED);
        __atomic_store_n(&board->pid[G.dev][G.slot], on ? (int)getpid() : 0, __ATOMIC_RELAXED);
        __atomic_store_n(&board->since_ms[G.dev][G.slot], on ? now_ms() : 0, __ATOMIC_RELAXED);
    }
}

/* The longest a request of this run that does not give the device up (a sanitizer's, a profiled
 * one, one waiting on the GPU) has held the device so far, ms (0: none, or no board); kind, when
 * given: its stage's kind (TG_PROF_*), -1 none. */
static long long longest_hold_kind_ms(int *kind)
{
    long long most = 0, t = now_ms();
    if (kind)
        *kind = -1;
    for (int i = 0; board && G.dev >= 0 && G.dev < TG_GPU_MAX && i < TG_GPU_SLOTS; ++i) {
        long long s0 = __atomic_load_n(&board->since_ms[G.dev][i], __ATOMIC_RELAXED);
        int pid = __atomic_load_n(&board->pid[G.dev][i], __ATOMIC_RELAXED);
        int holds = __atomic_load_n(&board->holds[G.dev][i], __ATOMIC_RELAXED);
        /* (a worker that died in a request left its row: its locks died with it) */
        if (holds && s0 > 0 && t - s0 > most && pid > 0 && !(kill(pid, 0) != 0 && errno == ESRCH)) {
            most = t - s0;
            if (kind)
                *kind = __atomic_load_n(&board->kind[G.dev][i], __ATOMIC_RELAXED);
        }
    }
    return most;
}

static long long longest_hold_ms(void)
{
    return longest_hold_kind_ms(NULL);
}

/* Whether a timed run waits in the device's queue now: the gate held (shared) by someone. The try
 * takes the gate for an instant, as passing it does. */
static int queue_waits(void)
{
    if (flock(G.gate_fd, LOCK_EX | LOCK_NB) == 0) {
        flock(G.gate_fd, LOCK_UN);
        return 0;
    }
    return errno == EWOULDBLOCK;
}

/* Past the gate: waits while a timed run is queued (tree, when given and alive: this worker's idle
 * session, stopped meanwhile; the wait is the profile's waiting_gpu, not the test's). */
static void pass_gate(tg_child *tree)
{
    int closed = queue_waits(), stopped = closed && tree && tree->pid > 0 && !tree->reaped;
    char stage[64];
    int kind = TG_PROF_OTHER;
    if (closed) {
        tg_stage_name(stage, sizeof stage);
        kind = tg_stage_kind();
        tg_stage(TG_PROF_GPU_WAIT, "waiting: GPU (timed runs)");
    }
    if (stopped)
        tg_child_stop(tree, 1);        /* (whole or not: continued below all the same) */
    flock_wait(G.gate_fd, LOCK_EX);
    flock(G.gate_fd, LOCK_UN);
    if (stopped)
        tg_child_stop(tree, 0);
    if (closed)
        tg_stage(kind, "%s", stage);
}

/* The board's mark of this run's window on the device (the worker holding it alone), and whether one
 * is running now (its worker alive). */
static void window_mark(int on)
{
    if (board && G.pid == getpid() && G.dev >= 0 && G.dev < TG_GPU_MAX)
        __atomic_store_n(&board->alone_pid[G.dev], on ? (int)getpid() : 0, __ATOMIC_RELAXED);
}

static int window_running(void)
{
    int pid = board && G.dev >= 0 && G.dev < TG_GPU_MAX ? __atomic_load_n(&board->alone_pid[G.dev], __ATOMIC_RELAXED) : 0;
    return pid > 0 && pid != (int)getpid() && !(kill(pid, 0) != 0 && errno == ESRCH);
}

/* The end of a hold alone: its time, once (tg_gpu_window_end may have taken it at the last answer). */
static void alone_ends(void)
{
    if (G.alone_at > 0)
        G.win.alone_ms = now_ms() - G.alone_at;
    G.alone_at = 0;
}

static void let_go(int keep_slot)
{
    if (G.how == TG_GPU_ALONE) {
        alone_ends();
        window_mark(0);
    }
    if (G.req)
        request_row(0, 0);
    G.req = 0;
    flock(G.lock_fd, LOCK_UN);
    if (G.gate_sh)
        flock(G.gate_fd, LOCK_UN);
    G.gate_sh = 0;
    if (G.slot_fd >= 0 && !keep_slot) {
        close(G.slot_fd);
        G.slot_fd = -1;
        G.slot = -1;
    }
    G.how = TG_GPU_NONE;
}

/* Into the timed queue: once no request of this run that holds the device has held it for long,
 * the gate shared (no new request starts on the device). */
static void join_queue(void)
{
    while (!G.gate_sh) {
        while (longest_hold_ms() > TG_GPU_LONG_S * 1000)
            pause_ms(50);
        flock_wait(G.gate_fd, LOCK_SH);
        G.gate_sh = 1;
    }
}

void tg_gpu_hold(int how)
{
    if (how == TG_GPU_QUEUED)          /* (the name of before: a timed test's untimed part is shared work) */
        how = TG_GPU_SHARED;
    if (how == G.how || G.lock_fd < 0)
        return;
    if (how == TG_GPU_NONE) {
        let_go(0);
        return;
    }
    if (G.req) {                       /* (a request's hold ends with the request: tg_gpu_req_end) */
        request_row(0, 0);
        flock(G.lock_fd, LOCK_UN);
        G.req = 0;
    }
    if (G.how == TG_GPU_ALONE) {       /* the timed requests are done: the lock and the queue given back */
        alone_ends();
        window_mark(0);
        flock(G.lock_fd, LOCK_UN);
        flock(G.gate_fd, LOCK_UN);
        G.gate_sh = 0;
        G.how = TG_GPU_NONE;
    }
    waiting(1);
    if (G.slot_fd < 0) {               /* a slot: this worker's process may use the device; the oldest first */
        int e = want_slot(1, -1);
        while (older_waits(e) || (G.slot_fd = try_slot()) < 0)
            pause_ms(20);
        want_slot(0, e);
    }
    if (how == TG_GPU_ALONE) {
        /* Alone: the requests in flight end or stop (the drain), then the lock exclusive. A drain
         * that a request holding the device outlives (a sanitizer's, one waiting on the GPU: longer
         * than TG_GPU_LONG_S as the run's board shows, which every queued worker sees at once; or
         * TG_GPU_DRAIN_S, for holders the board does not show: another run's, kit check's) gives
         * the gate back, so that untimed work goes on, and tries again once no such request holds
         * the device for long. */
        long long t0 = now_ms();
        memset(&G.win, 0, sizeof G.win);
        G.win.gave_up_kind = G.win.longest_kind = -1;
        for (;;) {
            join_queue();
            long long joined = now_ms(), deadline = joined + TG_GPU_DRAIN_S * 1000, held = 0, last = joined;
            int got, hk = -1;
            while (!(got = flock(G.lock_fd, LOCK_EX | LOCK_NB) == 0) && now_ms() < deadline &&
                   (held = longest_hold_kind_ms(&hk)) <= TG_GPU_LONG_S * 1000) {
                if (held > G.win.longest_ms) {
                    G.win.longest_ms = held;
                    G.win.longest_kind = hk;
                }
                long long t = now_ms();
                if (window_running()) {  /* another queued run's window: not the drain's time */
                    deadline = t + TG_GPU_DRAIN_S * 1000;
                    G.win.ahead_ms += t - last;
                }
                last = t;
                pause_ms(5);
            }
            G.win.drain_ms += now_ms() - joined;
            if (got) {
                window_mark(1);
                G.alone_at = now_ms();
                break;
            }
            G.win.retries++;
            G.win.gave_up_kind = hk;   /* (-1: no request of this run held it: another run's, or one not yet judged) */
            flock(G.gate_fd, LOCK_UN);
            G.gate_sh = 0;
            pause_ms(200);
        }
        G.win.wait_ms = now_ms() - t0;
    }
    waiting(0);
    G.how = how;
}

void tg_gpu_window(tg_gpu_win *w)
{
    *w = G.win;
}

void tg_gpu_window_end(void)
{
    if (G.how != TG_GPU_ALONE)
        return;
    alone_ends();
    tg_gpu_hold(TG_GPU_SHARED);
}

/* ------------------------------------------------------------------ one request's hold */

int tg_gpu_req_begin(tg_child *tree, int yields)
{
    if (G.how != TG_GPU_SHARED || G.req || G.lock_fd < 0)
        return 0;
    if (G.pid != getpid()) {           /* a forked child of the holder (kit check's memcheck pass): */
        int fds[] = {G.lock_fd, G.gate_fd};   /* its own open files, so that its unlock is not its parent's */
        G.lock_fd = open_in("lock");
        G.gate_fd = open_in("gate");
        for (int i = 0; i < 2; ++i)
            if (fds[i] >= 0)
                close(fds[i]);
        G.slot_fd = -1;                /* (the parent's slot covers it, as before) */
        G.gate_sh = 0;
        G.pid = getpid();
        board = NULL;
    }
    waiting(1);
    pass_gate(tree);
    flock_wait(G.lock_fd, LOCK_SH);
    waiting(0);
    G.req = 1;
    G.req_yields = yields;
    G.queued_at = 0;
    request_row(1, yields);
    return 1;
}

void tg_gpu_req_end(void)
{
    if (!G.req)
        return;
    request_row(0, 0);
    flock(G.lock_fd, LOCK_UN);
    G.req = 0;
}

double tg_gpu_req_tick(tg_child *c, void *ctx)
{
    (void)ctx;
    if (!G.req || !G.req_yields)
        return 0;
    long long t = now_ms();
    if (t - G.ticked_at < 100)
        return 0;
    G.ticked_at = t;
    if (!queue_waits()) {
        G.queued_at = 0;
        return 0;
    }
    double cpu = tg_child_cpu_ms(c);
    if (!G.queued_at) {                /* a timed run queued: the request may end by itself first */
        G.queued_at = t;
        G.queued_cpu = cpu;
        return 0;
    }
    if (t - G.queued_at < TG_GPU_YIELD_MS)
        return 0;
    /* Still running: it gives the device up only if its tree was busy on the CPU all along (a
     * computation on the host), stopped whole. Otherwise it may be waiting for its kernel, which a
     * stop would not end: it holds the device, and the queue's drain deadline decides. */
    double share = cpu >= 0 && G.queued_cpu >= 0 ? (cpu - G.queued_cpu) / (double)(t - G.queued_at) : 0;
    const char *e = getenv("TL_GRADE_GPU_YIELD_CPU");
    double least = e && *e ? atof(e) : TG_GPU_YIELD_CPU;
    if (share < least || !tg_child_running(c) || tg_child_stop(c, 1) != 0) {
        tg_child_stop(c, 0);
        G.req_yields = 0;
        request_row(1, 0);             /* (its start is now: the queue's patience starts over) */
        return 0;
    }
    char stage[64];                    /* the run's profile: this wait is the device's */
    tg_stage_name(stage, sizeof stage);
    int kind = tg_stage_kind();
    tg_stage(TG_PROF_STOPPED, "stopped for a timed run");
    pause_ms(TG_GPU_SETTLE_MS);        /* (a kernel it had running at the lab's sizes ends meanwhile) */
    request_row(0, 0);
    flock(G.lock_fd, LOCK_UN);
    waiting(1);
    flock_wait(G.gate_fd, LOCK_EX);    /* the queued timed runs go; then the request on */
    flock(G.gate_fd, LOCK_UN);
    flock_wait(G.lock_fd, LOCK_SH);
    waiting(0);
    request_row(1, 1);
    tg_child_stop(c, 0);
    tg_stage(kind, "%s", stage);
    G.queued_at = 0;
    G.yields++;
    return (double)(now_ms() - t);
}

int tg_gpu_req_yields(void)
{
    return G.yields;
}

tg_gpu_board *tg_gpu_board_new(int ndev)
{
    if (ndev < 1)
        ndev = 1;
    if (ndev > TG_GPU_MAX)
        ndev = TG_GPU_MAX;
    tg_gpu_board *b = mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED)
        return NULL;
    memset(b, 0, sizeof *b);
    b->ndev = ndev;
    return b;
}

void tg_gpu_order(int seq)
{
    G.seq = seq;
}

void tg_gpu_board_join(tg_gpu_board *b, int dev)
{
    board = b;
    G.dev = dev;
}

int tg_gpu_waiting(const tg_gpu_board *b)
{
    return b ? __atomic_load_n(&b->waiting, __ATOMIC_RELAXED) : 0;
}

/* ------------------------------------------------------------------ the timed phase
 *
 * Where speed tests interleave with untimed work (the default), each timed window closes the
 * device's queue and waits for the requests in flight to end (the drain: 1-2 s a window in a class
 * of 100 on an H100, the sanitizers' and profiled runs' requests the longest), while the cores idle.
 * With the timed phase (TL_GRADE_GPU_TIMED=last) a device's untimed work runs first with the queue
 * never closed, then its speed tests one after the other: the windows then wait only for the warm-up
 * requests of the speed tests beside them. A worker waiting for the phase holds nothing of the device
 * (no slot, no lock: it counts as waiting, and the parent starts the next submission meanwhile). */

int tg_gpu_row_add(tg_gpu_board *b, int dev)
{
    for (int i = 0; b && dev >= 0 && dev < TG_GPU_MAX && i < TG_GPU_WORKERS_MAX; ++i)
        if (__atomic_load_n(&b->row_pid[dev][i], __ATOMIC_SEQ_CST) == 0) {
            __atomic_store_n(&b->row_state[dev][i], TG_ROW_AHEAD, __ATOMIC_SEQ_CST);
            __atomic_store_n(&b->row_pid[dev][i], -1, __ATOMIC_SEQ_CST);   /* (being forked: counted as alive) */
            return i;
        }
    return -1;
}

void tg_gpu_row_set(tg_gpu_board *b, int dev, int row, int pid)
{
    if (b && dev >= 0 && dev < TG_GPU_MAX && row >= 0 && row < TG_GPU_WORKERS_MAX)
        __atomic_store_n(&b->row_pid[dev][row], pid, __ATOMIC_SEQ_CST);
}

/* The device's rows in state (alive: a worker that died before its parent reaped it is not counted). */
static int rows_in(const tg_gpu_board *b, int dev, int state)
{
    int n = 0;
    for (int i = 0; i < TG_GPU_WORKERS_MAX; ++i) {
        int pid = __atomic_load_n(&b->row_pid[dev][i], __ATOMIC_SEQ_CST);
        if (pid != 0 && __atomic_load_n(&b->row_state[dev][i], __ATOMIC_SEQ_CST) == state &&
            (pid < 0 || !(kill(pid, 0) != 0 && errno == ESRCH)))
            ++n;
    }
    return n;
}

/* A row leaves the phase (its speed test done, or its worker gone): the phase ends with its last. */
static void phase_leave(tg_gpu_board *b, int dev, int row)
{
    __atomic_store_n(&b->row_state[dev][row], 0, __ATOMIC_SEQ_CST);
    if (!rows_in(b, dev, TG_ROW_TIMED))
        __atomic_store_n(&b->phase_open[dev], 0, __ATOMIC_SEQ_CST);
}

void tg_gpu_row_free(tg_gpu_board *b, int dev, int row)
{
    if (!b || dev < 0 || dev >= TG_GPU_MAX || row < 0 || row >= TG_GPU_WORKERS_MAX)
        return;
    __atomic_store_n(&b->row_pid[dev][row], 0, __ATOMIC_SEQ_CST);
    phase_leave(b, dev, row);
}

void tg_gpu_row(int row)
{
    G.row = row;
}

int tg_gpu_timed_phase(void)
{
    return board && __atomic_load_n(&board->timed_last, __ATOMIC_RELAXED) && G.row >= 0 && G.pid == getpid() &&
           G.dev >= 0 && G.dev < TG_GPU_MAX;
}

void tg_gpu_timed_turn(void)
{
    if (!tg_gpu_timed_phase())
        return;
    __atomic_store_n(&board->row_state[G.dev][G.row], TG_ROW_TIMED, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&board->phase_open[G.dev], __ATOMIC_SEQ_CST))
        return;
    char stage[64];
    tg_stage_name(stage, sizeof stage);
    int kind = tg_stage_kind();
    tg_stage(TG_PROF_QUEUE_WAIT, "waiting: the timed phase");
    waiting(1);
    while (!__atomic_load_n(&board->phase_open[G.dev], __ATOMIC_SEQ_CST)) {
        if (!__atomic_load_n(&board->more_coming, __ATOMIC_SEQ_CST) && !rows_in(board, G.dev, TG_ROW_AHEAD)) {
            __atomic_store_n(&board->phase_open[G.dev], 1, __ATOMIC_SEQ_CST);
            break;
        }
        pause_ms(20);
    }
    waiting(0);
    tg_stage(kind, "%s", stage);
}

int tg_gpu_phase_is_open(void)
{
    return tg_gpu_timed_phase() && __atomic_load_n(&board->phase_open[G.dev], __ATOMIC_SEQ_CST);
}

double tg_gpu_fast_case(int variant, double ms)
{
    if (!board || G.pid != getpid() || G.dev < 0 || G.dev >= TG_GPU_MAX || variant < 0 || variant >= TL_LAB_MAX_VARIANTS)
        return 0;
    long long *p = &board->fast_case_us[G.dev][variant], cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    long long us = ms > 0 ? (long long)(ms * 1000.0) + 1 : 0;   /* (+1: a case of 0 us is still one) */
    while (us > 0 && (cur == 0 || us < cur) &&
           !__atomic_compare_exchange_n(p, &cur, us, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        ;                              /* (cur reloaded by a failed exchange) */
    cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    return cur / 1000.0;
}

void tg_gpu_timed_done(void)
{
    if (tg_gpu_timed_phase())
        phase_leave(board, G.dev, G.row);
}

void tg_gpu_ncu(int on)
{
    if (!on) {
        if (G.ncu_fd >= 0)
            flock(G.ncu_fd, LOCK_UN);
        return;
    }
    /* the device's (tg_gpu_use, tg_gpu_ncu_at): every run and kit check of the user on that device */
    if (G.ncu_fd < 0 && G.ncu_path[0])
        G.ncu_fd = open(G.ncu_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    waiting(1);
    flock_wait(G.ncu_fd, LOCK_EX);
    waiting(0);
}

void tg_gpu_ncu_first(void)
{
    char ids[TG_GPU_MAX][TG_GPU_ID_LEN], key[160];
    int n = tg_gpu_list(getenv("CUDA_VISIBLE_DEVICES"), tg_gpu_nodes(), ids, TG_GPU_MAX);
    tg_gpu_key(getenv("SLURM_JOB_ID"), n > 0 ? ids[0] : "", key, sizeof key);
    tg_gpu_ncu_at(getenv("TL_GRADE_LOCK_DIR"), key);
}

tg_ref_time *tg_gpu_ref_time(void)
{
    if (!board || G.dev < 0 || G.dev >= TG_GPU_MAX || G.how != TG_GPU_ALONE)
        return NULL;
    return &board->ref[G.dev];
}

int tg_gpu_ref_time_hint(const char *key, int reuse, int max_age_s)
{
    if (!board || G.dev < 0 || G.dev >= TG_GPU_MAX)
        return 0;
    tg_ref_time t;   /* a copy read without the device (another worker may be writing it): a hint only */
    memcpy(&t, (const void *)&board->ref[G.dev], sizeof t);
    t.key[sizeof t.key - 1] = '\0';
    return tg_ref_time_reuse(&t, key, now_ms(), reuse, max_age_s);
}

int tg_ref_time_reuse(const tg_ref_time *t, const char *key, long long now_ms, int reuse, int max_age_s)
{
    return t && key && t->key[0] && strcmp(t->key, key) == 0 && t->median_ms > 0 && t->uses < reuse &&
           now_ms >= t->at_ms && now_ms - t->at_ms <= (long long)max_age_s * 1000;
}

long long tg_gpu_mem_mib(void)
{
    /* the smallest device of the host, as nvidia-smi says (0: not known) */
    const char *argv[] = {"nvidia-smi", "--query-gpu=memory.total", "--format=csv,noheader,nounits", NULL};
    char out[4096] = "";
    tg_proc_io io = {.out = TG_PROC_CAPTURE, .buf = out, .buflen = sizeof out, .err = TG_PROC_NULL, .search = 1};
    if (tg_proc_run(argv, &io) < 0)
        return 0;
    long long least = 0, v;
    for (const char *line = out; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0'))
        if (sscanf(line, "%lld", &v) == 1 && v > 0 && (least == 0 || v < least))
            least = v;
    return least;
}

void tg_gpu_take(const grun *R, int how)
{
    if (!R->lab->gpu || !R->env.gpu_ok || R->opt->emulate || !R->env.iso.gpu_nodes || G.lock_fd < 0 || how == G.how)
        return;
    if (how != TG_GPU_NONE)
        tg_stage(how == TG_GPU_ALONE || how == TG_GPU_QUEUED ? TG_PROF_QUEUE_WAIT : TG_PROF_GPU_WAIT,
                 how == TG_GPU_ALONE ? "waiting: GPU alone" : how == TG_GPU_QUEUED ? "waiting: GPU queue" : "waiting: GPU");
    tg_gpu_hold(how);
}

/* A device whose memory another process took: a case the program answered "no device" where the
 * grader's reference ran (its verdict), or the CUDA runtime's and driver's names for memory or a
 * context it could not get (cudaMalloc, a context that could not be made) in a test's output. */
int tg_gpu_crowded_words(const char *text)
{
    static const char *const words[] = {"cudaErrorMemoryAllocation", "out of memory", "CUDA_ERROR_OUT_OF_MEMORY",
                                        "cudaErrorDevicesUnavailable"};
    for (size_t i = 0; text && i < sizeof words / sizeof words[0]; ++i)
        if (strstr(text, words[i]))
            return 1;
    return 0;
}

int tg_gpu_crowded_out(const tres *tr)
{
    for (int i = 0; i < tr->ncases; ++i)
        if (tr->cases[i].v.kind == TL_V_ERROR && tl_verdict_pattern_is(&tr->cases[i].v, "no-device-claimed"))
            return 1;
    return tg_gpu_crowded_words(tr->out.s);
}
