/* block.h: what the scheduler (core.cpp) and the __shared__ storage and race checking (shared.cpp)
 * share: the worker, its block's threads and the launch (not for kits or students). */
#ifndef TL_EMU_BLOCK_H
#define TL_EMU_BLOCK_H

#include "internal.h"

#include <csetjmp>

/* The running worker's __shared__ arena (its start; ARENA_BYTES long) while a launch counts shared
 * accesses, else 0: the counting build's access hooks (count.cpp) count an address inside it as a
 * shared load or store. */
extern __thread uintptr_t tl_emu_sarena;

namespace tl_emu {

/* A thread is alive (T_RUN, T_WAIT at a barrier, T_WARP at a warp operation) or not (T_DONE, T_ABORT).
 * A pass runs the threads in T_RUN in the order until each stops; the scheduler then resumes the lanes
 * of the warp operations that every lane has reached (another pass in the same interval) or, when all
 * wait at the barrier, starts the next interval with all of them in T_RUN. */
enum { T_RUN, T_WAIT, T_WARP, T_DONE, T_ABORT };
static inline bool alive(int state) { return state <= T_WARP; }
enum { MAX_SLOTS = 64, MAX_PENDING = 16, MAX_BLOCK_THREADS = 1024 };
static const size_t ARENA_BYTES = 256 * 1024;       /* above any model's per-block limit */
static const size_t SHADOW_ELEMS = 256 * 1024;
/* Below each fiber stack: as much as the compiler's stack-clash probing may skip at once (4 KiB on
 * x86-64, 64 KiB on arm64), so that a big frame faults in its own guard, not in a neighbour. */
static const size_t STACK_GUARD = 64 * 1024;
/* Stack tops are staggered by cache lines over this span (added to each stack, so that every thread
 * still has TL_EMU_STACK_KB): tops at one offset modulo the stride would share a few cache sets. */
static const size_t COLOR_SPAN = 16 * 1024;

struct Worker;
struct Thread {
    Fiber f;
    uint3 tid;
    uint32_t lin;
    int state;
    int wait_line;
    const char *wait_file;
    const char *wait_name;          /* the barrier it waits at: "__syncthreads()", "__syncthreads_count()" */
    Worker *w;
    /* at a warp operation (T_WARP): what it is, and its result once the warp has met */
    int wkind, warg, wwidth, wline;
    unsigned wmask;
    const char *wfile;
    uint64_t wval, wres;
};

struct Pending { const Slot *s; size_t i; uint32_t ep; uint16_t tid; int line; };

struct Launch {
    const LaunchDesc *d;
    KernelInfo *ki;
    uint64_t nblocks;
    unsigned nthreads;              /* per block */
    std::atomic<uint64_t> next;
    std::atomic<bool> stop;         /* a diagnostic: start no further blocks */
    std::atomic<uint64_t> blocks_run;
    std::atomic<bool> faulted;      /* a global-out-of-bounds access: cudaErrorIllegalAddress */
    std::atomic<bool> asserted;     /* an assert() failed: cudaErrorAssert */
    bool check;
    bool count_shared;              /* count every __shared__ access (tl_emu_set_count_shared) */
    int order;
    unsigned seed;
};

struct Worker {
    int id;
    Fiber sched;
    Thread *threads;
    char *stacks;                   /* MAX_BLOCK_THREADS stacks, each above a STACK_GUARD */
    size_t stack_size, stride;
    size_t nready;                  /* stacks whose guard is set up */
    BlockInfo bi;
    Slot slots[MAX_SLOTS];
    size_t slot_esz[MAX_SLOTS];     /* bytes an element of each (pipeline.cpp finds a copy's elements) */
    int nslots;
    char *arena; size_t arena_used;
    Shadow *sharena; size_t sh_used;
    size_t static_bytes;
    void *dyn_data; int dyn_kind;   /* -1 until an extern __shared__ declaration ran in this block */
    Launch *L;
    bool abort_block;
    Pending pend[MAX_PENDING]; int npend;
    bool uninit_reported;           /* one uninitialized-shared-read per block is enough */
    uint16_t order[MAX_BLOCK_THREADS];
    unsigned nthreads;              /* of the running block */
    unsigned pos;                   /* index in order[] of the running thread */
    unsigned nwait, ndone;          /* this pass: threads that reached a barrier; all passes: finished */
    int bar_line; const char *bar_file; bool bar_mismatch;   /* the first barrier reached this pass */
    bool region;                    /* the running block is a kernel in region form */
    /* warps: lanes at warp operations, the epoch race checking gives each warp (after a __syncwarp()),
     * the last epoch handed out, and whether any warp has an epoch of its own in this interval */
    unsigned nwarp;
    uint32_t gen, wgen[MAX_BLOCK_THREADS / 32];
    bool wsplit;
    /* the first race of the interval between two lanes of one warp: reported at the end of the interval,
     * when it is known whether other warps used the array too (then it is __syncthreads() that is
     * missing, else __syncwarp()) */
    struct { bool have; const Slot *s; size_t i; uint16_t a, b; int la, lb, kind; } wrace;
    Counters cnt;                   /* of the running launch */
    sigjmp_buf jb;                  /* where an aborted block (region form) or a fault resumes */
    bool have_jb;
    RegionCtx rc;
    uint3 tids[MAX_BLOCK_THREADS];
    uint8_t done[MAX_BLOCK_THREADS];
    pthread_t th;
};


extern __thread Worker *t_worker;                 /* the worker running on this host thread, if any */

/* describing things in diagnostics (diag.cpp) */
void fmt_tid(char *b, size_t n, const BlockInfo &bi, uint32_t lin);
const char *base_name(const char *p);
void fmt_where(char *b, size_t n, const Worker *w);
void fmt_decl(char *b, size_t n, const Slot *s);
void fmt_elem(char *b, size_t n, const Slot *s, size_t i);
/* false once this launch has printed its share of diagnostics (the caller then only counts) */
bool diag_quota(void);
void abort_launch_block(Worker *w);               /* start no further blocks; this one ends */
/* shared.cpp: reads of unwritten elements, reported at the end of their barrier interval */
void report_pending(Worker *w);
/* warp.cpp: after a pass, resumes the lanes of each warp operation that all lanes of its mask have
 * reached (true if any); otherwise, with lanes still waiting, reports the divergence (false). */
bool resolve_warps(Worker *w);
/* The epoch race checking stamps a lane's accesses with (its warp's, after a __syncwarp()). */
static inline void set_thread_epoch(Worker *w, const Thread *t) {
    if (__builtin_expect(w->wsplit, 0)) w->bi.epoch = w->wgen[t->lin >> 5];
}
/* pipeline.cpp: forgets the running block's cp.async copies (a new block, or a block run again) */
void pipe_reset(void);
/* core.cpp: hands the CPU to the next runnable thread of the pass (or back to the scheduler) */
void pass_on(Thread *t);

} /* namespace tl_emu */

#endif
