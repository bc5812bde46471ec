/* gpushare.c: the GPUs of one host, shared by what can share them (grader/README.md, "The GPUs of a
 * class run"). Each worker grades on one device (its CUDA_VISIBLE_DEVICES, chosen by the parent:
 * the device with the fewest workers). Per device, three kinds of lock files in /tmp, all flock()s
 * (they die with their holder, whichever tl-grade run or kit check it is):
 *   KEY.lock      untimed GPU work (a correctness test, a compute-sanitizer test) holds it shared,
 *                 a timed run (the speed test's reference and student runs) alone;
 *   KEY.gate      the timed runs' queue: a timed run holds it shared from the moment it asks until
 *                 it is done; untimed work passes it (exclusive, released at once) before it takes
 *                 the lock, so while timed runs queue no new untimed work starts on the device and
 *                 the queued timed runs go one after the other once the running tests end (one
 *                 drain for the whole queue, not one per timed run);
 *   KEY.slotN     N < cap: one per process sharing the device, so that at most cap of them have
 *                 memory on it at once (tg_gpu_share_cap).
 * A worker holds at most one device's locks, and only for one test at a time: between tests, and
 * while it builds or counts work on the CPU, it holds none. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"

static struct {
    char dir[200], key[80];
    int  cap;
    int  lock_fd, gate_fd, slot_fd;
    int  how;                          /* TG_GPU_NONE, _SHARED, _QUEUED or _ALONE */
    int  gate_sh;                      /* the gate held shared (queued or alone) */
} G = {.lock_fd = -1, .gate_fd = -1, .slot_fd = -1};

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
    snprintf(p, sizeof p, "%s/tilelab-gpu-%ld-%s.%s", G.dir, (long)getuid(), G.key, name);
    return open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
}

void tg_gpu_use(const char *dir, const char *key, int cap)
{
    /* fds from a parent that held locks are closed, not unlocked: the locks are the parent's */
    int *fds[] = {&G.lock_fd, &G.gate_fd, &G.slot_fd};
    for (int i = 0; i < 3; ++i)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
    G.how = TG_GPU_NONE;
    G.gate_sh = 0;
    snprintf(G.dir, sizeof G.dir, "%s", dir && *dir ? dir : "/tmp");
    snprintf(G.key, sizeof G.key, "%s", key);
    G.cap = cap < 1 ? 1 : cap;
    G.lock_fd = open_in("lock");
    G.gate_fd = open_in("gate");
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
    for (int i = 0; i < G.cap; ++i) {
        char name[32];
        snprintf(name, sizeof name, "slot%d", i);
        int fd = open_in(name);
        if (fd < 0)
            return -1;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return fd;
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

static void let_go(int keep_slot)
{
    flock(G.lock_fd, LOCK_UN);
    if (G.gate_sh)
        flock(G.gate_fd, LOCK_UN);
    G.gate_sh = 0;
    if (G.slot_fd >= 0 && !keep_slot) {
        close(G.slot_fd);
        G.slot_fd = -1;
    }
    G.how = TG_GPU_NONE;
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
    } else {
        if (!G.gate_sh) {              /* in the queue: no new untimed work starts from now */
            flock_wait(G.gate_fd, LOCK_SH);
            G.gate_sh = 1;
        }
        if (how == TG_GPU_QUEUED) {    /* a timed run's untimed preparation (a trusted process only) */
            while (G.slot_fd < 0 && (G.slot_fd = try_slot()) < 0)
                pause_ms(20);
            flock_wait(G.lock_fd, LOCK_SH);   /* (from ALONE: back to shared) */
        } else {
            flock_wait(G.lock_fd, LOCK_EX);   /* (from SHARED or QUEUED: shared given up first, flock(2)) */
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

void tg_gpu_board_join(tg_gpu_board *b)
{
    board = b;
}

int tg_gpu_waiting(const tg_gpu_board *b)
{
    return b ? __atomic_load_n(&b->waiting, __ATOMIC_RELAXED) : 0;
}

long long tg_gpu_mem_mib(void)
{
    /* the smallest device of the host, as nvidia-smi says (0: not known) */
    FILE *f = popen("nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null", "r");
    if (!f)
        return 0;
    long long least = 0, v;
    char line[128];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%lld", &v) == 1 && v > 0 && (least == 0 || v < least))
            least = v;
    pclose(f);
    return least;
}

void tg_gpu_take(const grun *R, int how)
{
    if (!R->lab->gpu || !R->gpu_ok || R->emulate || !R->iso.gpu_nodes || G.lock_fd < 0 || how == G.how)
        return;
    if (how != TG_GPU_NONE)
        tg_stage(how == TG_GPU_ALONE ? "waiting: GPU alone" : how == TG_GPU_QUEUED ? "waiting: GPU queue" : "waiting: GPU");
    tg_gpu_hold(how);
}

/* The words of a device whose memory another process took (the kit's cudaMalloc, the driver's,
 * a CUDA context that could not be made) in a test's output. */
int tg_gpu_crowded_out(const tres *tr)
{
    static const char *const words[] = {"cudaErrorMemoryAllocation", "out of memory", "CUDA_ERROR_OUT_OF_MEMORY",
                                        "cudaErrorDevicesUnavailable", "the grader's reference ran on this device"};
    if (!tr->out.s)
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i)
        if (strstr(tr->out.s, words[i]))
            return 1;
    return 0;
}
