/* core.cpp: blocks, fibers, barriers, the worker pool, launches, the work counters (__shared__
 * storage and its checks: shared.cpp; errors, diagnostics and their verdicts: diag.cpp).
 *
 * A launch runs to completion before it returns. Its blocks are handed out to worker threads (one
 * per core by default). A worker runs one block at a time: each thread of the block is a fiber that
 * runs the kernel until __syncthreads() or its end and then switches straight to the next thread in
 * the chosen order; the last one switches back to the worker's scheduler. The scheduler then checks
 * that all live threads wait at the same barrier, starts the next barrier interval ("epoch") and
 * runs them again, in the same order.
 */
#include "block.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <csetjmp>
#include <csignal>
#include <sys/mman.h>
#include <unistd.h>
#include <fcntl.h>

#include "verdict.h"

__thread tl_emu::Thread *tl_emu_cur_thread;
__thread uint32_t tl_emu_cur_tid;
__thread uint3 threadIdx;
__thread uint3 blockIdx;
__thread dim3 blockDim;
__thread dim3 gridDim;
__thread tl_emu::RegionCtx *tl_emu_rctx;
__thread tl_emu::Counters *tl_emu_cnt;
__thread tl_emu::Counters *tl_emu_scnt;
__thread uintptr_t tl_emu_sarena;   /* block.h: the worker's __shared__ arena where shared accesses count */

namespace tl_emu {

/* ---- settings --------------------------------------------------------------------------------- */
static std::mutex g_mu;                  /* settings, kernels, the work counters */
static int g_threads = 0;                /* 0 = not yet decided */
static int g_order = 0;
static unsigned g_seed = 1;
static int g_check = 1;
static int g_count_shared = 0;
static size_t g_stack_kb = 64;
static std::atomic<bool> g_inited{false};

static void after_fork_in_child(void);
int g_vfd = -1;                          /* TL_EMU_VERDICTS, or -1 */

static void read_env(void) {
    const char *e;
    if ((e = getenv("TL_EMU_THREADS")) && *e) {
        int n = atoi(e);
        if (n < 1 || n > 256) {
            fprintf(stderr, "tilelab-emu: TL_EMU_THREADS='%s' is not a number from 1 to 256; using 1\n", e);
            n = 1;
        }
        g_threads = n;
    }
    if ((e = getenv("TL_EMU_ORDER")) && *e) {
        if (!strcmp(e, "forward")) g_order = 0;
        else if (!strcmp(e, "reverse")) g_order = 1;
        else if (!strncmp(e, "random", 6) && (e[6] == 0 || e[6] == ':')) {
            g_order = 2;
            g_seed = e[6] == ':' ? (unsigned)strtoul(e + 7, nullptr, 10) : 1;
        } else {
            fprintf(stderr, "tilelab-emu: TL_EMU_ORDER='%s' is not forward, reverse or random[:SEED]; using forward\n", e);
        }
    }
    if ((e = getenv("TL_EMU_RACECHECK")) && *e) g_check = strcmp(e, "0") != 0;
    /* the verdict channel (CONTRACTS.md section 10): one JSON line per diagnostic printed */
    if ((e = getenv("TL_EMU_VERDICTS")) && *e) {
        g_vfd = open(e, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (g_vfd < 0)
            fprintf(stderr, "tilelab-emu: TL_EMU_VERDICTS='%s': cannot open it (%s); no verdicts written\n", e,
                    strerror(errno));
    }
    if ((e = getenv("TL_EMU_COUNT_SHARED")) && *e) g_count_shared = strcmp(e, "0") != 0;
    if ((e = getenv("TL_EMU_STACK_KB")) && *e) {
        long kb = atol(e);
        if (kb < 16 || kb > 65536) fprintf(stderr, "tilelab-emu: TL_EMU_STACK_KB='%s' is not from 16 to 65536; using 64\n", e);
        else g_stack_kb = (size_t)kb;
    }
}

void init(void) {
    if (g_inited.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lk(g_mu);
    if (g_inited.load(std::memory_order_relaxed)) return;
    read_env();
    if (g_threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        g_threads = n < 1 ? 1 : (n > 64 ? 64 : (int)n);
    }
    install_segv_handler();
    pthread_atfork(nullptr, nullptr, after_fork_in_child);
    g_inited.store(true, std::memory_order_release);
}

/* ---- kernels ---------------------------------------------------------------------------------- */
enum { MAX_KERNELS = 512 };
static KernelInfo g_kernels[MAX_KERNELS];
static int g_nkernels;

static KernelInfo *kernel_info_locked(const void *key, const char *name) {
    for (int i = 0; i < g_nkernels; i++)
        if (g_kernels[i].key == key) {
            if (name && !g_kernels[i].name[0]) snprintf(g_kernels[i].name, sizeof g_kernels[i].name, "%s", name);
            return &g_kernels[i];
        }
    if (g_nkernels == MAX_KERNELS) return nullptr;
    KernelInfo *k = &g_kernels[g_nkernels++];
    k->key = key;
    snprintf(k->name, sizeof k->name, "%s", name ? name : "");
    k->static_smem = 0;
    k->max_dyn_smem = -1;
    k->carveout = -1;
    k->region = 0;
    k->invoke = nullptr;
    return k;
}
KernelInfo *kernel_info(const void *key, const char *name) {
    std::lock_guard<std::mutex> lk(g_mu);
    return kernel_info_locked(key, name);
}
void register_kernel(const void *key, const char *name, size_t static_smem, int region) {
    std::lock_guard<std::mutex> lk(g_mu);
    KernelInfo *k = kernel_info_locked(key, name);
    if (k && static_smem > k->static_smem) k->static_smem = static_smem;
    if (k) k->region = region;
}
void register_kernel_invoke(const void *key, KernelInvoke invoke) {
    std::lock_guard<std::mutex> lk(g_mu);
    KernelInfo *k = kernel_info_locked(key, nullptr);
    if (k) k->invoke = invoke;
}
KernelInvoke kernel_invoke(const void *key, const char **name) {
    std::lock_guard<std::mutex> lk(g_mu);
    for (int i = 0; i < g_nkernels; i++)
        if (g_kernels[i].key == key) {
            if (name) *name = g_kernels[i].name;
            return g_kernels[i].invoke;
        }
    if (name) *name = nullptr;
    return nullptr;
}
cudaError_t launch_kernel_by_key(const void *key, dim3 grid, dim3 block, void **args, size_t shmem, const char *file,
                                 int line) {
    const char *name = nullptr;
    KernelInvoke inv = kernel_invoke(key, &name);
    if (!inv) {
        /* valid CUDA the emulator cannot run (it knows a kernel's parameters only where its rewrite
         * registered the kernel): never the student's error */
        fprintf(stderr, "tilelab-emu: not-supported: not supported under emulation: cudaLaunchKernel at %s:%d of a "
                        "kernel cast to const void * that the emulator's rewrite did not register (a template "
                        "instantiation?); pass the kernel itself, cudaLaunchKernel(kernel, ...), or launch it with "
                        "<<<...>>> (valid CUDA; on a GPU it runs)\n",
                base_name(file), line);
        exit(1);
    }
    inv(key, name && *name ? name : "kernel", file, line, grid, block, shmem, args);
    return cudaPeekAtLastError();
}

/* ---- the work counters and the harness's controls ------------------------------------------------ */
static tl_emu_counters g_counters;
static std::atomic<int> g_mute{0};
bool kernel_output_muted(void) { return g_mute.load(std::memory_order_relaxed) != 0; }
}
void tl_emu::count_round_trip(void) {
    std::lock_guard<std::mutex> lk(tl_emu::g_mu);
    tl_emu::g_counters.host_round_trips++;
}
extern "C" void tl_emu_counters_get(tl_emu_counters *c) {
    std::lock_guard<std::mutex> lk(tl_emu::g_mu);
    if (c) *c = tl_emu::g_counters;
}
extern "C" void tl_emu_counters_reset(void) {
    std::lock_guard<std::mutex> lk(tl_emu::g_mu);
    memset(&tl_emu::g_counters, 0, sizeof tl_emu::g_counters);
}
extern "C" void tl_emu_mute_kernel_output(int on) { tl_emu::g_mute.store(on != 0); }
extern "C" void tl_emu_set_order(int mode, unsigned seed) {
    tl_emu::init();
    tl_emu::g_order = mode < 0 || mode > 2 ? 0 : mode;
    tl_emu::g_seed = seed;
}
extern "C" void tl_emu_set_race_check(int on) { tl_emu::init(); tl_emu::g_check = on != 0; }
extern "C" int tl_emu_race_check(void) { tl_emu::init(); return tl_emu::g_check; }
extern "C" void tl_emu_set_count_shared(int on) { tl_emu::init(); tl_emu::g_count_shared = on != 0; }
extern "C" void tl_emu_set_threads(int n) { tl_emu::init(); tl_emu::g_threads = n < 1 ? 1 : (n > 256 ? 256 : n); }
extern "C" int tl_emu_threads(void) { tl_emu::init(); return tl_emu::g_threads; }

namespace tl_emu {

/* ---- workers ---------------------------------------------------------------------------------- */
__thread Worker *t_worker;                /* the worker running on this host thread, if any */

bool in_stack_guard(const void *addr, size_t *stack_kb) {
    Worker *w = t_worker;
    if (!w || !w->stacks) return false;
    const char *a = (const char *)addr;
    if (a < w->stacks || a >= w->stacks + MAX_BLOCK_THREADS * w->stride) return false;
    size_t off = (size_t)(a - w->stacks) % w->stride;
    *stack_kb = w->stack_size / 1024;
    return off < STACK_GUARD;
}

static void *map_or_die(size_t bytes, const char *what) {
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "tilelab-emu: cannot reserve %zu bytes for %s: %s\n", bytes, what, strerror(errno));
        exit(1);
    }
    return p;
}

static Worker *new_worker(int id) {
    Worker *w = (Worker *)calloc(1, sizeof(Worker));
    w->id = id;
    w->threads = (Thread *)calloc(MAX_BLOCK_THREADS, sizeof(Thread));
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    w->stack_size = (g_stack_kb * 1024 + page - 1) / page * page;
    w->stride = STACK_GUARD + w->stack_size + COLOR_SPAN;  /* [guard][stack + colour span] */
    w->stacks = (char *)map_or_die(MAX_BLOCK_THREADS * w->stride, "fiber stacks");
    w->arena = (char *)map_or_die(ARENA_BYTES, "__shared__ memory");
    w->sharena = (Shadow *)map_or_die(SHADOW_ELEMS * sizeof(Shadow), "race-check shadow memory");
    return w;
}

/* Guard pages go in as blocks need more stacks (mprotect per stack is not free). */
static void ready_stacks(Worker *w, unsigned n) {
    for (; w->nready < n; w->nready++)
        mprotect(w->stacks + w->nready * w->stride, STACK_GUARD, PROT_NONE);
}

/* The next thread but one will need the top of its stack (its saved registers and the kernel's frame):
 * fetch it while this one runs. With 256 threads the stack tops do not all stay in L1. */
/* always_inline: as a function of its own, g++ 12 finds it free of side effects and drops the call. */
static inline __attribute__((always_inline)) void prefetch_stack(const Thread *t) {
    const char *sp = (const char *)t->f.sp;
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
    __builtin_prefetch(sp + 192);
    __builtin_prefetch(sp + 256);
}

/* A thread that stops (barrier or end) hands the CPU straight to the next runnable thread in this
 * interval's order; the last one returns to the scheduler. One switch per thread and interval. */
void pass_on(Thread *t) {
    Worker *w = t->w;
    unsigned k = w->pos + 1, n = w->nthreads;
    while (k < n && w->threads[w->order[k]].state != T_RUN) k++;
    if (k < n) {
        Thread *nx = &w->threads[w->order[k]];
        if (k + 1 < n) prefetch_stack(&w->threads[w->order[k + 1]]);
        w->pos = k;
        tl_emu_cur_thread = nx;
        tl_emu_cur_tid = nx->lin;
        threadIdx = nx->tid;
        set_thread_epoch(w, nx);
        fiber_switch(&t->f, &nx->f);
    } else {
        fiber_switch(&t->f, &w->sched);
    }
}

static void fiber_main(void *arg) {
    Thread *t = (Thread *)arg;
    const LaunchDesc *d = t->w->L->d;
    d->thunk(d->ctx);
    t->state = T_DONE;
    t->w->ndone++;
    pass_on(t);
    __builtin_trap();                                   /* a finished fiber is never resumed */
}

static void make_order(Worker *w, unsigned n, uint64_t block) {
    Launch *L = w->L;
    for (unsigned i = 0; i < n; i++) w->order[i] = (uint16_t)(L->order == 1 ? n - 1 - i : i);
    if (L->order == 2) {
        uint64_t x = (uint64_t)L->seed * 0x9E3779B97F4A7C15ull + block * 0xBF58476D1CE4E5B9ull + 1;
        for (unsigned i = n - 1; i > 0; i--) {
            x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
            unsigned j = (unsigned)((x * 0x2545F4914F6CDD1Dull) >> 33) % (i + 1);
            uint16_t tmp = w->order[i]; w->order[i] = w->order[j]; w->order[j] = tmp;
        }
    }
}


void abort_launch_block(Worker *w) {
    w->abort_block = true;
    w->L->stop.store(true, std::memory_order_relaxed);
}

/* The threads of one interval have all stopped: at a barrier, finished, or aborted. */
static bool check_barrier(Worker *w, unsigned n) {
    unsigned nwait = 0, ndone = 0, first_wait = 0, first_done = 0, first_other = 0, nother = 0;
    int line = 0; const char *file = nullptr, *name = "__syncthreads()"; int oline = 0;
    const char *ofile = nullptr, *oname = "__syncthreads()";
    for (unsigned i = 0; i < n; i++) {
        Thread *t = &w->threads[i];
        if (t->state == T_WAIT) {
            if (nwait++ == 0) { first_wait = i; line = t->wait_line; file = t->wait_file; name = t->wait_name; }
            else if (t->wait_line != line || (t->wait_file != file && strcmp(t->wait_file, file))) {
                if (nother++ == 0) { first_other = i; oline = t->wait_line; ofile = t->wait_file; oname = t->wait_name; }
            }
        } else if (t->state == T_DONE) {
            if (ndone++ == 0) first_done = i;
        }
    }
    if (nwait == 0) return false;                      /* the block is finished */
    if (ndone == 0 && nother == 0) return true;        /* all at the same barrier */
    char where[512], a[64], b[64];
    fmt_where(where, sizeof where, w);
    fmt_tid(a, sizeof a, w->bi, first_wait);
    if (nother) {
        fmt_tid(b, sizeof b, w->bi, first_other);
        diag_launch("divergent-barrier",
                    "%s: its threads wait at different __syncthreads() calls\n"
                    "  %u thread(s), e.g. thread %s, wait at %s at %s:%d\n"
                    "  %u thread(s), e.g. thread %s, wait at %s at %s:%d\n"
                    "  every thread of a block must reach the same __syncthreads(); a barrier inside an if or a loop\n"
                    "  whose condition differs between threads hangs or corrupts a real GPU",
                    where, nwait - nother, a, name, base_name(file), line, nother, b, oname, base_name(ofile), oline);
    } else {
        fmt_tid(b, sizeof b, w->bi, first_done);
        diag_launch("divergent-barrier",
                    "%s: some threads returned while others wait at a barrier\n"
                    "  %u thread(s), e.g. thread %s, wait at %s at %s:%d\n"
                    "  %u thread(s), e.g. thread %s, have returned from the kernel without reaching it\n"
                    "  every thread of a block must reach each __syncthreads(): keep the barrier outside the bounds\n"
                    "  check (guard the loads, writing 0, and the store instead of skipping the whole tile loop)",
                    where, nwait, a, name, base_name(file), line, ndone, b);
    }
    abort_launch_block(w);
    return false;
}

/* A kernel in region form: called once for the whole block on the worker's own stack; it loops over
 * the threads between barriers itself (tl_emu::rnext) and calls rbarrier at each __syncthreads(). */
/* What a block starts with: its first barrier interval, no __shared__ storage, nothing pending. */
static void reset_block_state(Worker *w) {
    w->bi.epoch = w->bi.bar_epoch = w->gen = 2;   /* 1 is EP_OUTSIDE (tl_emu.h) */
    w->wsplit = false; w->nwarp = 0; w->wrace.have = false;
    w->nslots = 0; w->arena_used = 0; w->sh_used = 0; w->static_bytes = 0;
    w->dyn_data = nullptr; w->dyn_kind = -1;
    w->abort_block = false; w->npend = 0; w->ndone = 0; w->uninit_reported = false;
    pipe_reset();   /* cp.async copies in flight belong to the block (pipeline.cpp) */
}

/* A region's direct copy met an access that needs reporting (tl_emu::Esc): the block runs again from
 * its start in the general copy, which reports it (core.cpp's run_block_region). */
void race_escalate(void) { siglongjmp(t_worker->jb, 2); }

static void run_block_region(Worker *w, uint64_t b) {
    Launch *L = w->L;
    const LaunchDesc *d = L->d;
    unsigned n = w->nthreads;
    w->region = true;
    for (unsigned i = 0; i < n; i++) {
        w->tids[i].x = i % d->block.x;
        w->tids[i].y = (i / d->block.x) % d->block.y;
        w->tids[i].z = i / (d->block.x * d->block.y);
        w->threads[i].state = T_RUN;
        w->threads[i].w = w;
        w->threads[i].lin = i;
        w->threads[i].tid = w->tids[i];
    }
    make_order(w, n, b);
    w->rc.order = w->order;
    w->rc.tids = w->tids;
    w->rc.done = w->done;
    w->rc.n = n;
    w->rc.forward = L->order == 0;
    w->rc.plain = w->rc.forward && !L->check;
    w->rc.ro = false;
    w->rc.ep = &w->bi.epoch;          /* followed by bar_epoch */
    const Counters c0 = w->cnt;
    for (;;) {
        memset(w->done, 0, n);
        w->rc.ndone = 0;
        tl_emu_rctx = &w->rc;
        tl_emu_cur_thread = &w->threads[w->order[0]];
        tl_emu_cur_tid = w->order[0];
        threadIdx = w->tids[w->order[0]];
        int jr = sigsetjmp(w->jb, 1);
        if (jr == 0) {
            w->have_jb = true;
            d->thunk(d->ctx);
        } else if (jr == 2) {
            /* race_escalate: again from the start, in the general copy (the same order), as if the
             * first run had not been: its __shared__ storage, shadow and counts are dropped */
            reset_block_state(w);
            w->cnt = c0;
            w->rc.forward = false;
            w->rc.ro = false;
            continue;
        } else {
            w->abort_block = true;
        }
        break;
    }
    w->have_jb = false;
    tl_emu_cur_thread = nullptr;
    tl_emu_rctx = nullptr;
    if (!w->abort_block && (w->npend || w->wrace.have)) report_pending(w);
}

bool rbarrier(const char *file, int line) {
    Worker *w = t_worker;
    RegionCtx *r = &w->rc;
    r->ro = false;
    if (r->ndone == r->n) return true;                 /* every thread has returned: the block is done */
    if (r->ndone > 0) {
        unsigned first_wait = 0, first_done = 0;
        while (first_wait < r->n && r->done[first_wait]) first_wait++;
        while (first_done < r->n && !r->done[first_done]) first_done++;
        char where[512], a[64], bb[64];
        fmt_where(where, sizeof where, w);
        fmt_tid(a, sizeof a, w->bi, first_wait);
        fmt_tid(bb, sizeof bb, w->bi, first_done);
        diag_launch("divergent-barrier",
                    "%s: some threads returned while others wait at a barrier\n"
                    "  %u thread(s), e.g. thread %s, wait at __syncthreads() at %s:%d\n"
                    "  %u thread(s), e.g. thread %s, have returned from the kernel without reaching it\n"
                    "  every thread of a block must reach each __syncthreads(): keep the barrier outside the bounds\n"
                    "  check (guard the loads, writing 0, and the store instead of skipping the whole tile loop)",
                    where, r->n - r->ndone, a, base_name(file), line, r->ndone, bb);
        abort_launch_block(w);
        siglongjmp(w->jb, 1);
    }
    if (w->npend || w->wrace.have) report_pending(w);
    w->bi.bar_epoch = ++w->bi.epoch;
    return false;
}

static void run_block(Worker *w, uint64_t b) {
    Launch *L = w->L;
    const LaunchDesc *d = L->d;
    unsigned n = L->nthreads;
    w->bi.bidx.x = (unsigned)(b % d->grid.x);
    w->bi.bidx.y = (unsigned)((b / d->grid.x) % d->grid.y);
    w->bi.bidx.z = (unsigned)(b / ((uint64_t)d->grid.x * d->grid.y));
    w->bi.bdim = d->block;
    w->bi.gdim = d->grid;
    reset_block_state(w);
    blockIdx = w->bi.bidx;
    blockDim = w->bi.bdim;
    gridDim = w->bi.gdim;

    w->nthreads = n;
    if (L->ki && L->ki->region) { run_block_region(w, b); return; }
    w->region = false;
    for (unsigned i = 0; i < n; i++) {
        Thread *t = &w->threads[i];
        t->lin = i;
        t->tid.x = i % d->block.x;
        t->tid.y = (i / d->block.x) % d->block.y;
        t->tid.z = i / (d->block.x * d->block.y);
        t->state = T_RUN;
        t->w = w;
        size_t color = (i * 64) % COLOR_SPAN;
        fiber_init(&t->f, w->stacks + i * w->stride + STACK_GUARD, w->stack_size + COLOR_SPAN - color, fiber_main, t);
    }
    make_order(w, n, b);
    if (sigsetjmp(w->jb, 1) != 0) {                   /* a fault in one of its threads */
        w->have_jb = false;
        tl_emu_cur_thread = nullptr;
        return;
    }
    w->have_jb = true;
    w->nwait = 0;
    w->bar_mismatch = false;
    for (;;) {
        unsigned k = 0;
        while (k < n && w->threads[w->order[k]].state != T_RUN) k++;
        if (k < n) {
            Thread *t = &w->threads[w->order[k]];
            w->pos = k;
            tl_emu_cur_thread = t;
            tl_emu_cur_tid = t->lin;
            threadIdx = t->tid;
            set_thread_epoch(w, t);
            fiber_switch(&w->sched, &t->f);           /* returns when the last thread of the pass stops */
        }
        tl_emu_cur_thread = nullptr;
        if (w->abort_block) break;
        if (w->nwarp) {                               /* lanes at warp operations: the warps meet */
            if (resolve_warps(w)) continue;           /* another pass in the same interval */
            break;                                    /* they never can: reported */
        }
        if (w->npend || w->wrace.have) report_pending(w);
        if (w->nwait == 0) break;                                       /* every thread has returned */
        if ((w->ndone > 0 || w->bar_mismatch) && !check_barrier(w, n)) break;
        w->bi.epoch = w->bi.bar_epoch = ++w->gen;
        w->wsplit = false;
        for (unsigned i = 0; i < n; i++)
            if (w->threads[i].state == T_WAIT) w->threads[i].state = T_RUN;
        w->nwait = 0;
        w->bar_mismatch = false;
    }
    w->have_jb = false;
    tl_emu_cur_thread = nullptr;
    if (!w->abort_block && (w->npend || w->wrace.have)) report_pending(w);
}

} /* namespace tl_emu */

/* assert() in a kernel: glibc's assert calls __assert_fail, which this definition replaces in the
 * program. In a kernel it names the thread and block and stops the launch with cudaErrorAssert, as a
 * GPU does; in host code it does what glibc does. */
extern "C" void __assert_fail(const char *expr, const char *file, unsigned int line, const char *func) noexcept {
    using namespace tl_emu;
    Worker *w = t_worker;
    if (!w || !w->L || !tl_emu_cur_thread || !w->have_jb) {
        fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, func, expr);
        abort();
    }
    char where[512], t[64];
    fmt_where(where, sizeof where, w);
    fmt_tid(t, sizeof t, w->bi, tl_emu_cur_tid);
    diag_at(file, (int)line);
    diag_launch("assert", "assertion '%s' failed at %s:%u in %s, thread %s of %s\n"
                "  the kernel stops; cudaGetLastError() returns cudaErrorAssert, as on a GPU",
                expr, base_name(file), line, func, t, where);
    w->L->asserted.store(true);
    abort_launch_block(w);
    if (w->region) siglongjmp(w->jb, 1);
    Thread *th = tl_emu_cur_thread;
    th->state = T_ABORT;
    fiber_switch(&th->f, &w->sched);
    __builtin_trap();
}

namespace tl_emu {

void fault_in_kernel(const char *msg, void *pc) {
    Worker *w = t_worker;
    if (!w || !w->L || !w->have_jb) {
        fputs(msg, stderr);
        print_source_line(pc);
        _exit(1);
    }
    Launch *L = w->L;
    if (!L->faulted.exchange(true)) {
        char body[2048];
        const char *m = msg + strlen("tilelab-emu: global-out-of-bounds: ");
        snprintf(body, sizeof body, "%s", strncmp(msg, "tilelab-emu: global-out-of-bounds: ", 35) ? msg : m);
        size_t bl = strlen(body);
        if (bl && body[bl - 1] == '\n') body[bl - 1] = 0;
        char src[2048];
        source_lines(pc, src, sizeof src, true);        /* the student's file and line: the verdict's place */
        diag_launch("global-out-of-bounds", "%s", body);
        fputs(src, stderr);
        fputs("  the kernel stops here; cudaGetLastError() returns cudaErrorIllegalAddress, as on a GPU "
              "(where it may also go unnoticed and leave wrong data)\n", stderr);
    } else {
        diag_forget();                         /* another worker reported it: this one's facts go */
    }
    abort_launch_block(w);
    w->have_jb = false;
    siglongjmp(w->jb, 1);
}

static void run_blocks(Worker *w, Launch *L) {
    t_worker = w;
    w->L = L;
    memset(&w->cnt, 0, sizeof w->cnt);
    tl_emu_cnt = &w->cnt;
    tl_emu_scnt = L->count_shared ? &w->cnt : nullptr;
    tl_emu_sarena = L->count_shared ? (uintptr_t)w->arena : 0;
    uint64_t ran = 0;
    ready_stacks(w, L->nthreads);
    for (;;) {
        if (L->stop.load(std::memory_order_relaxed)) break;
        uint64_t b = L->next.fetch_add(1, std::memory_order_relaxed);
        if (b >= L->nblocks) break;
        run_block(w, b);
        ran++;
    }
    blockIdx = uint3{0, 0, 0};
    tl_emu_cnt = nullptr;
    tl_emu_scnt = nullptr;
    tl_emu_sarena = 0;
    L->blocks_run.fetch_add(ran, std::memory_order_relaxed);
    w->L = nullptr;
}

/* ---- the pool ---------------------------------------------------------------------------------- */
static std::mutex g_launch_mu;           /* one launch at a time */
static Worker *g_workers[256];
static int g_nworkers;
static pthread_mutex_t g_pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_pool_go = PTHREAD_COND_INITIALIZER, g_pool_done = PTHREAD_COND_INITIALIZER;
static Launch *g_pool_launch;
static uint64_t g_pool_gen;
static int g_pool_busy, g_pool_want;

static void *worker_loop(void *arg) {
    Worker *w = (Worker *)arg;
    ensure_altstack();
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&g_pool_mu);
        while (g_pool_gen == seen || w->id >= g_pool_want) {
            if (g_pool_gen != seen) seen = g_pool_gen;     /* a launch that does not need this worker */
            pthread_cond_wait(&g_pool_go, &g_pool_mu);
        }
        seen = g_pool_gen;
        Launch *L = g_pool_launch;
        pthread_mutex_unlock(&g_pool_mu);
        run_blocks(w, L);
        pthread_mutex_lock(&g_pool_mu);
        if (--g_pool_busy == 0) pthread_cond_signal(&g_pool_done);
        pthread_mutex_unlock(&g_pool_mu);
    }
    return nullptr;
}

/* fork() keeps only the calling thread: the child starts its own pool when it first needs one. */
static void after_fork_in_child(void) {
    g_nworkers = g_workers[0] ? 1 : 0;
    for (int i = 1; i < 256; i++) g_workers[i] = nullptr;
    pthread_mutex_init(&g_pool_mu, nullptr);
    pthread_cond_init(&g_pool_go, nullptr);
    pthread_cond_init(&g_pool_done, nullptr);
    g_pool_busy = 0;
}

static void run_launch(Launch *L) {
    int want = g_threads;
    if ((uint64_t)want > L->nblocks) want = (int)L->nblocks;
    if (!g_workers[0]) { g_workers[0] = new_worker(0); g_nworkers = 1; }
    while (g_nworkers < want) {
        Worker *w = new_worker(g_nworkers);
        if (pthread_create(&w->th, nullptr, worker_loop, w) != 0) break;
        g_workers[g_nworkers++] = w;
    }
    if (want > g_nworkers) want = g_nworkers;
    if (want > 1) {
        pthread_mutex_lock(&g_pool_mu);
        g_pool_launch = L;
        g_pool_want = want;
        g_pool_busy = want - 1;
        g_pool_gen++;
        pthread_cond_broadcast(&g_pool_go);
        pthread_mutex_unlock(&g_pool_mu);
    }
    run_blocks(g_workers[0], L);
    if (want > 1) {
        pthread_mutex_lock(&g_pool_mu);
        while (g_pool_busy > 0) pthread_cond_wait(&g_pool_done, &g_pool_mu);
        pthread_mutex_unlock(&g_pool_mu);
    }
}

/* ---- launches ---------------------------------------------------------------------------------- */
static bool config_error(const LaunchDesc *d, const KernelInfo *ki, cudaError_t *err, char *why, size_t n) {
    const Model &m = model();
    const dim3 g = d->grid, b = d->block;
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    *err = cudaErrorInvalidConfiguration;
    if (b.x == 0 || b.y == 0 || b.z == 0) { snprintf(why, n, "a block dimension is 0"); return true; }
    if ((int)b.x > m.max_block_x || (int)b.y > m.max_block_y || (int)b.z > m.max_block_z) {
        snprintf(why, n, "block (%u,%u,%u) exceeds the %s limits of %d x %d x %d per dimension", b.x, b.y, b.z,
                 m.name, m.max_block_x, m.max_block_y, m.max_block_z);
        return true;
    }
    if (threads > (unsigned long long)m.max_threads_block) {
        snprintf(why, n, "a block of %u x %u x %u = %llu threads exceeds the %s limit of %d threads per block", b.x,
                 b.y, b.z, threads, m.name, m.max_threads_block);
        return true;
    }
    if (g.x == 0 || g.y == 0 || g.z == 0) {
        snprintf(why, n, "grid (%u,%u,%u) has a dimension of 0 (is the ceiling division right?)", g.x, g.y, g.z);
        return true;
    }
    if ((long long)g.x > m.max_grid_x || (int)g.y > m.max_grid_y || (int)g.z > m.max_grid_z) {
        snprintf(why, n, "grid (%u,%u,%u) exceeds the %s limits of %d x %d x %d", g.x, g.y, g.z, m.name, m.max_grid_x,
                 m.max_grid_y, m.max_grid_z);
        return true;
    }
    if (ki->static_smem > m.smem_block) {
        *err = cudaErrorInvalidValue;
        snprintf(why, n,
                 "its static __shared__ arrays take %zu bytes, over the %s limit of %zu bytes for static shared memory\n"
                 "  (nvcc refuses to compile such a kernel; above 48 KiB use extern __shared__ and cudaFuncSetAttribute)",
                 ki->static_smem, m.name, m.smem_block);
        return true;
    }
    size_t dyn_limit = ki->max_dyn_smem >= 0 ? (size_t)ki->max_dyn_smem
                       : (m.smem_block > ki->static_smem ? m.smem_block - ki->static_smem : 0);
    if (d->shmem > dyn_limit || ki->static_smem + d->shmem > m.smem_block_optin) {
        *err = cudaErrorInvalidValue;
        snprintf(why, n,
                 "%zu bytes of dynamic shared memory (+ %zu static) exceed what the kernel may use: %zu bytes%s", d->shmem,
                 ki->static_smem, dyn_limit,
                 ki->max_dyn_smem >= 0 ? "" : " (raise it with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))");
        return true;
    }
    return false;
}

void launch(const LaunchDesc *d) {
    init();
    std::lock_guard<std::mutex> lk(g_launch_mu);
    KernelInfo *ki = kernel_info(d->key, d->name);
    if (sticky_error() != cudaSuccess) { set_error(sticky_error()); return; }
    cudaError_t err;
    char why[512];
    diag_launch_start();
    if (config_error(d, ki, &err, why, sizeof why)) {
        diag_at(d->file, d->line);
        diag_launch("invalid-launch",
                    "%s<<<(%u,%u,%u), (%u,%u,%u), %zu>>> at %s:%d: %s\n"
                    "  the kernel did not run; cudaGetLastError() returns %s, as on a GPU",
                    d->name, d->grid.x, d->grid.y, d->grid.z, d->block.x, d->block.y, d->block.z, d->shmem,
                    base_name(d->file), d->line, why, cudaGetErrorName(err));
        set_error(err);
        return;
    }
    Launch L;
    L.d = d;
    L.ki = ki;
    L.nblocks = (uint64_t)d->grid.x * d->grid.y * d->grid.z;
    L.nthreads = d->block.x * d->block.y * d->block.z;
    L.next.store(0);
    L.stop.store(false);
    L.check = g_check != 0;
    L.count_shared = g_count_shared != 0;
    L.order = g_order;
    L.seed = g_seed;
    L.blocks_run.store(0);
    L.faulted.store(false);
    L.asserted.store(false);
    guard_launch_begin();     /* the kernel reaches device memory; host code, outside it, does not */
    run_launch(&L);
    guard_launch_end();
    {
        std::lock_guard<std::mutex> lk2(g_mu);
        g_counters.launches++;
        if (!L.check) g_counters.unchecked_launches++;
        uint64_t br = L.blocks_run.load();
        g_counters.blocks += br;
        g_counters.threads += br * L.nthreads;
        for (int i = 0; i < g_nworkers; i++) {
            Worker *w = g_workers[i];
            if (!w) continue;
            g_counters.global_loads += w->cnt.gld; g_counters.global_stores += w->cnt.gst;
            g_counters.shared_loads += w->cnt.sld; g_counters.shared_stores += w->cnt.sst;
            memset(&w->cnt, 0, sizeof w->cnt);
        }
    }
    if (diag_launch_end() > 0) {   /* (diag.cpp said how many it did not show) */
        cudaError_t fe = L.faulted.load() ? cudaErrorIllegalAddress
                         : L.asserted.load() ? cudaErrorAssert : cudaErrorLaunchFailure;
        fprintf(stderr, "tilelab-emu: kernel %s launched at %s:%d failed: the launch reports %s "
                        "(from cudaGetLastError() and cudaDeviceSynchronize())\n",
                d->name, base_name(d->file), d->line, cudaGetErrorName(fe));
        set_sticky(fe);
    }
}

/* ---- barriers ------------------------------------------------------------------------------------ */
void syncthreads(const char *file, int line) {
    Thread *t = tl_emu_cur_thread;
    if (!t) not_in_kernel("__syncthreads()", file, line);
    Worker *w = t->w;
    if (w->region) {
        /* the rewrite ran this kernel's threads as loops (region form) because it saw no barrier
         * here: valid CUDA the emulator cannot run, never the student's error */
        diag_at(file, line);   /* printed and sent as a verdict (TL_EMU_VERDICTS): the grader reads its pattern */
        diag_now("not-supported", "not supported under emulation: __syncthreads() at %s:%d in a "
                        "function the emulator's rewrite did not see holding a barrier (a template __device__ "
                        "function, or one written through a macro) (valid CUDA; on a GPU it runs)",
                base_name(file), line);
        exit(1);
    }
    t->state = T_WAIT;
    t->wait_line = line;
    t->wait_file = file;
    t->wait_name = "__syncthreads()";
    if (w->nwait++ == 0) { w->bar_line = line; w->bar_file = file; }
    else if (line != w->bar_line || (file != w->bar_file && strcmp(file, w->bar_file))) w->bar_mismatch = true;
    pass_on(t);
}

} /* namespace tl_emu */
