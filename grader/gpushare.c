/* gpushare.c: the GPUs of one host, shared by what can share them (grader/README.md, "The GPUs of a
 * class run"). Each worker grades on one device (its CUDA_VISIBLE_DEVICES, chosen by the parent:
 * the device with the fewest workers). Per device, three kinds of lock files in /tmp, all flock()s
 * (they die with their holder, whichever tl-grade run or kit check it is):
 *   KEY.lock      untimed GPU work (a correctness test, a compute-sanitizer test) holds it shared,
 *                 a timed run (the speed test's reference and student runs) alone;
 *   KEY.gate      the timed runs' queue: a timed run holds it shared while it drains the device
 *                 and runs; untimed work passes it (exclusive, released at once) before it takes
 *                 the lock, so while timed runs queue no new untimed work starts on the device and
 *                 the queued timed runs go one after the other once the running tests end (one
 *                 drain for the whole queue, not one per timed run). A drain has a deadline
 *                 (TG_GPU_DRAIN_S): a test still running then (a program stopped only by its time
 *                 limit) keeps the device, the queue gives the gate back, and untimed work goes
 *                 on; while a test of this run has held the device longer than TG_GPU_LONG_S the
 *                 queue does not close the gate at all (the board below: each test's start);
 *   KEY.slotN     N < cap: one per process sharing the device, so that at most cap of them have
 *                 memory on it at once (tg_gpu_share_cap).
 *   KEY.ncu       the profiled runs (ncu) on the device, one at a time, taken before the device's
 *                 lock (which is then held shared: counters.c): ncu's collection is one process at a
 *                 time per device (an H100 x2, 2026-11-26 21:24 UTC: one ncu on each GPU at once both
 *                 passed, 2.7-3.6 s each; two on one GPU, one failed "An error was reported by the
 *                 driver"; tests/gpu/class-results/h100-x2-2026-11-26-2124Z-ncu-overhead).
 * A worker holds at most one device's locks, and only for one test at a time: between tests, and
 * while it builds or counts work on the CPU, it holds none. */
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
    int  lock_fd, gate_fd, slot_fd, ncu_fd;
    int  how;                          /* TG_GPU_NONE, _SHARED, _QUEUED or _ALONE */
    int  gate_sh;                      /* the gate held shared (queued or alone) */
    int  slot;                         /* the slot's number (slot_fd's), -1 none */
    int  dev;                          /* the device's row on the board */
} G = {.lock_fd = -1, .gate_fd = -1, .slot_fd = -1, .ncu_fd = -1, .slot = -1};

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
    G.slot = -1;
    G.lock_fd = open_in("lock");
    G.gate_fd = open_in("gate");
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

/* One of the device's cap slots, or -1 (all taken). */
static int try_slot(void)
{
    for (int i = 0; i < G.cap && i < TG_GPU_SLOTS; ++i) {
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

/* The board's record of this worker's untimed test on the device: its start (0: none). */
static void test_started(int on)
{
    if (board && G.slot >= 0 && G.slot < TG_GPU_SLOTS && G.dev >= 0 && G.dev < TG_GPU_MAX) {
        __atomic_store_n(&board->pid[G.dev][G.slot], on ? (int)getpid() : 0, __ATOMIC_RELAXED);
        __atomic_store_n(&board->since_ms[G.dev][G.slot], on ? now_ms() : 0, __ATOMIC_RELAXED);
    }
}

/* The longest an untimed test of this run has held the device so far, ms (0: none, or no board). */
static long long longest_test_ms(void)
{
    long long most = 0, t = now_ms();
    for (int i = 0; board && G.dev >= 0 && G.dev < TG_GPU_MAX && i < TG_GPU_SLOTS; ++i) {
        long long s0 = __atomic_load_n(&board->since_ms[G.dev][i], __ATOMIC_RELAXED);
        int pid = __atomic_load_n(&board->pid[G.dev][i], __ATOMIC_RELAXED);
        /* (a worker that died in a test left its row: its slot's flock died with it) */
        if (s0 > 0 && t - s0 > most && pid > 0 && !(kill(pid, 0) != 0 && errno == ESRCH))
            most = t - s0;
    }
    return most;
}

static void let_go(int keep_slot)
{
    if (G.how == TG_GPU_SHARED)
        test_started(0);
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

/* Into the timed queue: once no untimed test of this run has held the device for long, the gate
 * shared (no new untimed work starts). */
static void join_queue(void)
{
    while (!G.gate_sh) {
        while (longest_test_ms() > TG_GPU_LONG_S * 1000)
            pause_ms(50);
        flock_wait(G.gate_fd, LOCK_SH);
        G.gate_sh = 1;
    }
}

void tg_gpu_hold(int how)
{
    if (how == G.how || G.lock_fd < 0)
        return;
    if (how == TG_GPU_NONE) {
        let_go(0);
        return;
    }
    if (how == TG_GPU_SHARED && G.how != TG_GPU_NONE)
        let_go(1);                     /* out of the timed queue: back in line with untimed work */
    if (G.how == TG_GPU_SHARED) {      /* an untimed test ends here (SHARED to QUEUED or ALONE) */
        test_started(0);
        flock(G.lock_fd, LOCK_UN);
        G.how = TG_GPU_NONE;
    }
    waiting(1);
    if (how == TG_GPU_SHARED) {
        /* past the gate (no timed run queued), then a slot, then the lock shared */
        for (;;) {
            flock_wait(G.gate_fd, LOCK_EX);
            flock(G.gate_fd, LOCK_UN);
            if (G.slot_fd >= 0 || (G.slot_fd = try_slot()) >= 0)
                break;
            pause_ms(20);
        }
        flock_wait(G.lock_fd, LOCK_SH);
        test_started(1);
    } else if (how == TG_GPU_QUEUED) {  /* a timed run's untimed preparation (a trusted process only) */
        join_queue();
        while (G.slot_fd < 0 && (G.slot_fd = try_slot()) < 0)
            pause_ms(20);
        flock_wait(G.lock_fd, LOCK_SH);   /* (from ALONE: back to shared) */
    } else {
        /* Alone: the tests running end (the drain), then the lock exclusive. A failed try gives up
         * a shared hold too (flock(2) converts by unlocking first): the preparation is over. */
        for (;;) {
            join_queue();
            long long deadline = now_ms() + TG_GPU_DRAIN_S * 1000;
            int got;
            while (!(got = flock(G.lock_fd, LOCK_EX | LOCK_NB) == 0) && now_ms() < deadline)
                pause_ms(10);
            if (got)
                break;
            flock(G.gate_fd, LOCK_UN);   /* a test outlived the drain: untimed work goes on */
            G.gate_sh = 0;
            pause_ms(200);
        }
    }
    waiting(0);
    G.how = how;
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

void tg_gpu_board_join(tg_gpu_board *b, int dev)
{
    board = b;
    G.dev = dev;
}

int tg_gpu_waiting(const tg_gpu_board *b)
{
    return b ? __atomic_load_n(&b->waiting, __ATOMIC_RELAXED) : 0;
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
