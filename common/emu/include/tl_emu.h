/* tl_emu.h: tilelab's emulation mode, force-included (-include) into every file built with tl_emu_dep.
 *
 * A student's .cu goes through tl-emu-rewrite (launches, __shared__ declarations) and is then compiled
 * by the host C++ compiler against this header and libtl_emu. In C files only the runtime API
 * (tl_emu_api.h) is visible. How it works and where it differs from a GPU: common/emu/README.md.
 */
#ifndef TL_EMU_H
#define TL_EMU_H

#include "tl_emu_api.h"
#include "tl_emu_marks.h"     /* TL_EMU_PENDING_MARK: an element whose cp.async copy has not landed */

/* CUDA's function and variable qualifiers mean nothing on the host: host and device are one. */
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
/* Not __noinline__: libstdc++ writes __attribute__((__noinline__)), which such a macro would break
 * (<memory> then fails to compile); tl-emu-rewrite turns the student's __noinline__ into the
 * attribute instead. __restrict__ is a GNU keyword already. */
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
/* __shared__ must go through tl-emu-rewrite; left alone it names this on purpose in the error. */
#define __shared__ tilelab_emu_error_shared_needs_the_tl_emu_rewrite

#ifdef __cplusplus

#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>
#include <math.h>

/* ---- vector types --------------------------------------------------------------------------- */
struct uint3 { unsigned int x, y, z; };
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
struct int2 { int x, y; };
struct int3 { int x, y, z; };
struct int4 { int x, y, z, w; };
struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct double2 { double x, y; };
static inline int2 make_int2(int x, int y) { return int2{x, y}; }
static inline int3 make_int3(int x, int y, int z) { return int3{x, y, z}; }
static inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
static inline float2 make_float2(float x, float y) { return float2{x, y}; }
static inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
static inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
static inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }

/* ---- device functions that CUDA C kernels commonly call -------------------------------------- */
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline long max(long a, long b) { return a > b ? a : b; }
static inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
static inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
/* Mixed integer and floating types, as CUDA's overloads allow them (min(int, unsigned) is unsigned). */
template <class A, class B, class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                                             !std::is_same<A, B>::value>::type>
static inline typename std::common_type<A, B>::type min(A a, B b) {
    using C = typename std::common_type<A, B>::type;
    return (C)a < (C)b ? (C)a : (C)b;
}
template <class A, class B, class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                                             !std::is_same<A, B>::value>::type>
static inline typename std::common_type<A, B>::type max(A a, B b) {
    using C = typename std::common_type<A, B>::type;
    return (C)a > (C)b ? (C)a : (C)b;
}
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline float __fdividef(float a, float b) { return a / b; }
/* __expf, __logf, __sinf, __cosf: glibc's libm has them under the same names. */
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
static inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
static inline int __float2int_rn(float f) { return (int)nearbyintf(f); }
template <class T> static inline T __ldg(const T *p) { return *p; }
/* bit counts, as warp code uses them on ballots */
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline unsigned __brev(unsigned x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1); x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4); return __builtin_bswap32(x);
}
static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
[[noreturn]] static inline void __trap(void) { __builtin_trap(); }

/* Atomics: blocks run on several host threads, so global-memory atomics are real atomics. */
static inline int atomicAdd(int *a, int v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }
static inline unsigned atomicAdd(unsigned *a, unsigned v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }
static inline unsigned long long atomicAdd(unsigned long long *a, unsigned long long v) {
    return __atomic_fetch_add(a, v, __ATOMIC_RELAXED);
}
template <class F> static inline F tl_emu_atomic_float_add(F *a, F v) {
    F old, want;
    __atomic_load(a, &old, __ATOMIC_RELAXED);   /* the generic form: gcc's _n forms take integers only */
    do { want = old + v; } while (!__atomic_compare_exchange(a, &old, &want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
static inline float atomicAdd(float *a, float v) { return tl_emu_atomic_float_add(a, v); }
static inline double atomicAdd(double *a, double v) { return tl_emu_atomic_float_add(a, v); }
static inline int atomicSub(int *a, int v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); }
static inline int atomicExch(int *a, int v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }
static inline unsigned atomicExch(unsigned *a, unsigned v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }
static inline unsigned long long atomicExch(unsigned long long *a, unsigned long long v) {
    return __atomic_exchange_n(a, v, __ATOMIC_RELAXED);
}
static inline float atomicExch(float *a, float v) {   /* CUDA's float overload (the generic form: no _n for floats) */
    float old;
    __atomic_exchange(a, &v, &old, __ATOMIC_RELAXED);
    return old;
}
static inline int atomicMax(int *a, int v) {
    int old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (old < v && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline int atomicMin(int *a, int v) {
    int old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (old > v && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline int atomicCAS(int *a, int cmp, int v) {
    __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;
}
static inline unsigned atomicCAS(unsigned *a, unsigned cmp, unsigned v) {
    __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;
}

static constexpr int warpSize = 32;

namespace tl_emu {

/* ---- the state of the running block and thread (set by the scheduler on every switch) -------- */
struct Thread;
struct BlockCtx;
/* epoch: the barrier interval of the running thread, as race checking stamps its accesses; bar_epoch:
 * the interval of the last __syncthreads(). They differ only after a __syncwarp(): each warp then has
 * an epoch of its own (>= bar_epoch), so an access of another lane of the same warp before it no longer
 * conflicts, while accesses of other warps since the barrier still do. bar_epoch follows epoch: the
 * shadow's inline checks read it as epp[1]. */
struct BlockInfo { uint3 bidx; dim3 bdim; dim3 gdim; uint32_t epoch; uint32_t bar_epoch; };

/* What the kernels running on one worker did (summed into tl_emu_counters after each launch). */
struct Counters { uint64_t gld, gst, sld, sst; };
/* Whether the __shared__ views count the accesses made through them (c below). Not in the counting
 * build (-fsanitize=thread, TL_EMU_COUNT_ACCESSES): there every load and store is counted at its
 * address (src/count.cpp), the views' included, and so are those the views never see (a helper
 * filling a tile through an array parameter, a row pointer, a reference, a float4 cast). */
#ifdef TL_EMU_COUNT_ACCESSES
static constexpr bool VIEW_COUNTS = false;
#else
static constexpr bool VIEW_COUNTS = true;
#endif

/* One __shared__ declaration, as written (the rewrite emits one static Site per declaration). */
struct Site { const char *name; const char *file; int line; const char *type; };

/* Per element of a __shared__ array, while race checking is on: the last write and the readers
 * in the current barrier interval ("epoch"; epoch 0 = never written in this block). */
struct alignas(32) Shadow {      /* 32 bytes: one record never straddles two cache lines */
    uint32_t w_ep, w_line;
    uint32_t r_ep, r_line, r_line2;
    uint16_t w_tid, r_tid, r_tid2, pad;
    uint32_t sat_ep;             /* = the interval when two threads have read it, none writing in it:
                                  * a further read can change nothing (one compare) */
};
static constexpr uint16_t NO_TID = 0xFFFF;

/* One __shared__ declaration's storage in the current block of one worker. */
struct Slot {
    void       *data;
    Shadow     *sh;       /* null when race checking is off */
    size_t      n;        /* elements */
    size_t      esize;    /* bytes of one element */
    long        d0, d1, d2;   /* dimensions as declared (d0 = n for 1-D; 0 for scalars) */
    int         ndim;     /* 0 scalar, 1, 2, 3; -1 extern (dynamic) */
    const Site *site;
    const BlockInfo *blk;
    bool        allw;     /* every element written at least once in this block (race checking on) */
    size_t      wscan;    /* elements before this one are known to be written */
    mutable bool esc;     /* converted to a plain pointer in this block (shared_escape has its line) */
};

enum { KIND_BYTES = 0, KIND_FLOAT = 1, KIND_DOUBLE = 2 };
template <class U> constexpr int kind_of() {
    return std::is_same<U, float>::value ? KIND_FLOAT : std::is_same<U, double>::value ? KIND_DOUBLE : KIND_BYTES;
}

Slot *shared_slot(const Site *site, size_t elem_size, int kind, int ndim, long d0, long d1, long d2);
[[noreturn]] __attribute__((cold)) void shared_oob(const Slot *s, int line, int dim, long index, long outer);
/* The array cast to a plain pointer at line ((float (*)[T])smem, which the rewrite writes as
 * (float (*)[T])&*smem(__LINE__)): what goes through that pointer is not race-checked, so an
 * order-dependent result names the array and the line (tl_emu_shared_escapes). Once per slot and
 * block: the inline test is s->esc. */
__attribute__((cold)) void shared_escape(const Slot *s, int line);
/* cold: the compiler then keeps what is live across them in registers, spilling only on their path */
__attribute__((cold)) void race_read(const Slot *s, size_t i, int line);    /* a read that needs reporting or a record */
__attribute__((cold)) void race_write(const Slot *s, size_t i, int line);
void syncthreads(const char *file, int line);
[[noreturn]] void not_in_kernel(const char *what, const char *file, int line);

} /* namespace tl_emu */

extern __thread tl_emu::Thread *tl_emu_cur_thread;   /* null outside a kernel */
extern __thread tl_emu::Counters *tl_emu_cnt;        /* the running worker's counters */
extern __thread tl_emu::Counters *tl_emu_scnt;       /* the same where shared accesses are counted, else null */
extern __thread uint32_t tl_emu_cur_tid;             /* linear index in the block of the running thread */

/* The built-in variables are real (thread-local) variables, not macros, as under nvcc: host code may
 * still name a local variable blockDim or gridDim. The scheduler sets them on every switch and block. */
extern __thread uint3 threadIdx;
extern __thread uint3 blockIdx;
extern __thread dim3 blockDim;
extern __thread dim3 gridDim;

#define __syncthreads() tl_emu::syncthreads(__FILE__, __LINE__)

/* ---- region form: a block's threads as a loop between barriers ------------------------------------
 * tl-emu-rewrite puts a kernel in this form when it can (barriers only as statements of the body or of
 * loops whose bounds are the same for the whole block, locals that live across a barrier kept per
 * thread): the kernel is then called once per block and runs each stretch between barriers as a loop
 * over the block's threads, with no fiber switch at all. Other kernels run as fibers. */
namespace tl_emu {
/* plain: race checking is off and the order is forward, so that a region may run its threads as plain
 * nested loops (z, y, x) with bounds-checked views and nothing else per access (rplain below) */
struct RegionCtx { const uint16_t *order; const uint3 *tids; uint8_t *done; unsigned n, ndone; bool plain, forward; const uint32_t *ep;
                   bool ro; /* a read-only region runs as plain loops under race checking (rplain) */ };
/* Whether every __shared__ element of the running block has been written at least once (shared.cpp). */
bool rallw(void);
}
extern __thread tl_emu::RegionCtx *tl_emu_rctx;
namespace tl_emu {
static constexpr unsigned MAX_THREADS = 1024;     /* per block: the size of a local's per-thread slots */
/* The next thread of the block's order that has not returned, from position i on. */
static inline __attribute__((always_inline)) bool rnext(unsigned &i, unsigned &t) {
    RegionCtx *r = tl_emu_rctx;
    while (i < r->n && r->done[r->order[i]]) i++;
    if (i >= r->n) return false;
    t = r->order[i];
    tl_emu_cur_tid = t;
    threadIdx = r->tids[t];
    return true;
}
/* Whether this region may run as plain loops: nothing checked per access but the bounds, every thread
 * of the block alive (none has returned), in forward order (the order the plain loops take). 1: race
 * checking is off. 2: race checking is on, but the region is read-only (ro: the rewrite saw no store to
 * a __shared__ element in it, and it is a whole barrier interval: a barrier or the block's start before
 * it, a barrier or the block's end after it) and every __shared__ element has been written: no access of
 * it can race (no store in the interval) or read an unwritten element, so none is checked. A store that
 * happens anyway (through a device function, a reference, a macro) ends the block, which runs again in
 * the general copy (race_escalate), as in the direct copy. */
static inline __attribute__((always_inline)) int rplain(int ro) {
    RegionCtx *r = tl_emu_rctx;
    if (r->ndone) return 0;
    if (r->plain) return 1;
    if (ro && r->forward && rallw()) { r->ro = true; return 2; }
    return 0;
}
/* Whether this region may run its threads as plain nested loops with every access checked: forward
 * order, every thread of the block alive. */
static inline __attribute__((always_inline)) bool rdirect(void) {
    const RegionCtx *r = tl_emu_rctx;
    return r->forward && r->ndone == 0;
}
/* The block's barrier interval (0) and the interval of its last barrier (1), for race checking: the
 * same for every access of one region. */
static inline __attribute__((always_inline)) uint32_t repoch(int k) { return tl_emu_rctx->ep[k]; }
/* The plain loops' way of naming the running thread (what diagnostics and device functions read). */
static inline __attribute__((always_inline)) void rset(unsigned t, unsigned x, unsigned y, unsigned z) {
    tl_emu_cur_tid = t;
    threadIdx = uint3{x, y, z};
}
/* The running thread returned from the kernel. */
static inline void rret(void) { RegionCtx *r = tl_emu_rctx; r->done[tl_emu_cur_tid] = 1; r->ndone++; }
/* A __syncthreads() of a kernel in region form: checks that no thread has returned (divergent
 * barrier otherwise), starts the next barrier interval; true when every thread has returned. */
bool rbarrier(const char *file, int line);
} /* namespace tl_emu */

namespace tl_emu {

/* A region's plain copy (rplain) names a __shared__ view as NAME(__LINE__, tl_emu::Plain{&tl_emu_lc_}): the
 * same element types and bounds checks, the shadow known to be absent at compile time (no test of it is
 * left in the loop), and the shared accesses counted in the region's own local counters (registers),
 * added to the worker's at the end of the region (rcount) when shared accesses are counted. */
struct Plain { Counters *c; bool ro = false; /* rplain gave 2: a store escalates */ };
static inline __attribute__((always_inline)) void rcount(const Counters &lc) {
    if (tl_emu_scnt) { tl_emu_scnt->sld += lc.sld; tl_emu_scnt->sst += lc.sst; }
    tl_emu_rctx->ro = false;
}
/* A region's direct copy (rdirect: race checking on, forward order) names a view NAME(__LINE__,
 * tl_emu::Esc{tl_emu_ep_}): every access checked, but an access that needs more than the inline
 * bookkeeping (a race or a read of an unwritten element to report) does not call out: it ends the block,
 * which runs again from its start in the general copy (race_escalate), where that access is reported as
 * always. A call that may return in the loop would make the compiler keep the thread's running values in
 * memory across the whole loop; this one never returns, and a race-free block never takes it. */
struct Esc { const uint32_t *ep; };
[[noreturn]] __attribute__((cold)) void race_escalate(void);
/* The __shared__ slot holding byte address p and p's element index in it, or null (shared.cpp). */
const Slot *shared_find(const void *p, size_t *index);

/* ---- element proxy: every read and write of a __shared__ element goes through one ------------ */
/* Whether the n bytes at p still hold the poison __shared__ storage starts with (shared.cpp: bytes 0xA5,
 * or a float's or a double's quiet NaN 0x7FFFA5A5..., laid from a 16-byte aligned start) or the mark of
 * a cp.async copy in flight (TL_EMU_PENDING_MARK, pipeline.cpp: unwritten until it lands). An element
 * the shadow calls unwritten whose bytes are no longer poison was written where the checked views do
 * not see: through a plain pointer (the array passed to a __device__ helper, a row or a stage of it,
 * &Tile[r][c] stored through as a float4, a cast). Nothing is decided when the array leaves the
 * checked world (who writes through the pointer, and when, is not known there); the read decides. */
/* (not instrumented in the counting build: the emulator's look at the bytes is no load of the kernel's) */
__attribute__((no_sanitize("thread"))) static inline bool poison_like(const void *p, size_t n) {
    static const unsigned char fpat[4] = {0xA5, 0xA5, 0xFF, 0x7F};
    static const unsigned char dpat[8] = {0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xFF, 0x7F};
    const unsigned char *b = (const unsigned char *)p;
    const uintptr_t a = (uintptr_t)p;
    bool all = true, f = true, d = true;
    for (size_t k = 0; k < n; k++) {
        all = all && b[k] == 0xA5;
        f = f && b[k] == fpat[(a + k) & 3];
        d = d && b[k] == dpat[(a + k) & 7];
    }
    if (all || f || d) return true;
    if (n % 4 != 0 || a % 4 != 0) return false;
    for (size_t k = 0; k < n; k += 4) {
        uint32_t v;
        memcpy(&v, b + k, 4);
        if ((v & TL_EMU_UNINIT_MASK) != TL_EMU_PENDING_MARK) return false;
    }
    return true;
}
/* The shadow's stamp for an element written outside the checked views: before the block's first
 * barrier interval (blocks start at epoch 2), by no thread, so it never conflicts with an access. */
static constexpr uint32_t EP_OUTSIDE = 1;
static inline __attribute__((always_inline)) void on_read(Shadow *sh, const Slot *s, size_t i, int line,
                                                          const uint32_t *epp, bool esc, const void *p,
                                                          size_t bytes) {
    Shadow &h = sh[i];
    const uint32_t ep = *epp;
    if (__builtin_expect(h.sat_ep == ep, 1)) return;
    const uint16_t tid = (uint16_t)tl_emu_cur_tid;
    const uint32_t bar = epp[1];
    if (__builtin_expect((h.w_ep >= bar && h.w_tid != tid) || h.w_ep == 0, 0)) {
        if (h.w_ep == 0 && !poison_like(p, bytes)) {
            h.w_ep = EP_OUTSIDE; h.w_tid = NO_TID; h.w_line = 0;   /* written through a plain pointer */
        } else {
            if (esc) race_escalate();
            race_read(s, i, line);  /* read after another thread's write, or of an unwritten element */
            return;
        }
    }
    if (h.r_ep < bar) {
        h.r_ep = ep; h.r_tid = tid; h.r_line = line; h.r_tid2 = NO_TID;
    } else if (h.r_tid != tid && h.r_tid2 == NO_TID) {
        h.r_tid2 = tid; h.r_line2 = line;
        if (h.w_ep < bar) h.sat_ep = ep;
    }
}
static inline __attribute__((always_inline)) void on_write(Shadow *sh, const Slot *s, size_t i, int line,
                                                           const uint32_t *epp, bool esc) {
    const uint16_t tid = (uint16_t)tl_emu_cur_tid;
    Shadow &h = sh[i];
    const uint32_t ep = *epp, bar = epp[1];
    if (__builtin_expect((h.w_ep >= bar && h.w_tid != tid) ||
                         (h.r_ep >= bar && (h.r_tid != tid || h.r_tid2 != NO_TID)), 0)) {
        if (esc) race_escalate();
        race_write(s, i, line);     /* reports, then records the write */
        return;
    }
    h.w_ep = ep; h.w_tid = tid; h.w_line = line; h.sat_ep = 0;
}

/* The pointers travel by value (not through the Slot) so that the compiler keeps them in registers
 * and sees that "race checking off" (sh == nullptr) does not change inside a loop. */
template <class T> struct Elem {
    using U = typename std::remove_cv<T>::type;
    U *p; Shadow *sh; const Slot *s; size_t i; int line; const uint32_t *ep; Counters *c; bool esc;

    __attribute__((always_inline)) U get() const {
        if (__builtin_expect(sh != nullptr, 0)) on_read(sh, s, i, line, ep, esc, p, sizeof(U));
        if (VIEW_COUNTS && __builtin_expect(c != nullptr, 0)) c->sld++;
        return *p;
    }
    __attribute__((always_inline)) void set(U v) const {
        if (__builtin_expect(sh != nullptr, 0)) on_write(sh, s, i, line, ep, esc);
        else if (__builtin_expect(esc, 0)) race_escalate();     /* a store in a read-only region */
        if (VIEW_COUNTS && __builtin_expect(c != nullptr, 0)) c->sst++;
        *p = v;
    }
    __attribute__((always_inline)) operator U() const { return get(); }
    const Elem &operator=(U v) const { set(v); return *this; }
    const Elem &operator=(const Elem &o) const { set(o.get()); return *this; }
    template <class V> const Elem &operator+=(V v) const { set((U)(get() + v)); return *this; }
    template <class V> const Elem &operator-=(V v) const { set((U)(get() - v)); return *this; }
    template <class V> const Elem &operator*=(V v) const { set((U)(get() * v)); return *this; }
    template <class V> const Elem &operator/=(V v) const { set((U)(get() / v)); return *this; }
    template <class V> const Elem &operator%=(V v) const { set((U)(get() % v)); return *this; }
    template <class V> const Elem &operator&=(V v) const { set((U)(get() & v)); return *this; }
    template <class V> const Elem &operator|=(V v) const { set((U)(get() | v)); return *this; }
    template <class V> const Elem &operator^=(V v) const { set((U)(get() ^ v)); return *this; }
    template <class V> const Elem &operator<<=(V v) const { set((U)(get() << v)); return *this; }
    template <class V> const Elem &operator>>=(V v) const { set((U)(get() >> v)); return *this; }
    const Elem &operator++() const { set((U)(get() + 1)); return *this; }
    const Elem &operator--() const { set((U)(get() - 1)); return *this; }
    U operator++(int) const { U v = get(); set((U)(v + 1)); return v; }
    U operator--(int) const { U v = get(); set((U)(v - 1)); return v; }
    /* Taking the address leaves the checked world: what goes through the pointer is not checked; a
     * store through it (*reinterpret_cast<float4 *>(&Tile[r][c]) = v) is seen at the next checked read
     * of the elements it wrote (poison_like). */
    U *operator&() const {
        /* the work counters (tiled labs): a vector store through the address stages that many elements
         * of the tile (counted as stores, as the emulator cannot see the store itself) */
        if (VIEW_COUNTS && __builtin_expect(c != nullptr, 0)) c->sst += sizeof(U) < 16 ? 16 / sizeof(U) : 1;
        return p;
    }
    /* float &r = Mds[i][j] binds to the element itself (accesses through r are not checked); a value
     * conversion (float x = Mds[i][j]) prefers operator U above. */
    template <class R, class = typename std::enable_if<std::is_same<R, U>::value>::type> operator R &() const {
        /* what goes through the reference is not seen: count the element as written by this thread now,
         * so that later reads of it are not reported as reads of an unwritten element */
        if (sh) { Shadow &h = sh[i]; h.w_ep = *ep; h.w_tid = (uint16_t)tl_emu_cur_tid; h.w_line = (uint32_t)line; h.sat_ep = 0; }
        else if (esc) race_escalate();                          /* in a read-only region */
        return *p;
    }
};

/* Elements of arithmetic or pointer type are proxies (checked); elements of struct type (float4, a
 * student's struct) are plain references, so that Tile[i][j].x works: bounds-checked, not race-checked. */
template <class T> struct Pick {
    using U = typename std::remove_cv<T>::type;
    static constexpr bool proxy = std::is_arithmetic<U>::value || std::is_pointer<U>::value;
    using type = typename std::conditional<proxy, Elem<T>, U &>::type;
};
template <class T>
static inline __attribute__((always_inline)) typename Pick<T>::type mk(typename Pick<T>::U *p, Shadow *sh, const Slot *s,
                                                                        size_t i, int line, const uint32_t *ep, Counters *c,
                                                                        bool esc) {
    if constexpr (Pick<T>::proxy) {
        return Elem<T>{p, sh, s, i, line, ep, c, esc};
    } else {
        (void)sh; (void)s; (void)i; (void)line; (void)ep; (void)esc;
        if (VIEW_COUNTS && c) c->sld++;
        return *p;
    }
}

/* ---- array shapes: how an index maps to an element, with each index checked ----------------- */
/* A view bound to a reference to an array (a __device__ helper taking float (&t)[T][T], valid CUDA): a
 * template conversion, so that it never competes with the pointer conversions (a non-template wins
 * a tie). What goes through the reference is not checked; a write through it is seen at the next
 * checked read (poison_like). */
template <class R, class A> using IsArr = typename std::enable_if<std::is_same<typename std::remove_const<R>::type, A>::value>::type;
template <class T> struct A0 {
    using U = typename std::remove_cv<T>::type;
    static constexpr int ndim = 0; static constexpr long d0 = 0, d1 = 0, d2 = 0;
    using Ref = typename Pick<T>::type;
    static Ref ref(U *d, Shadow *sh, const Slot *s, int line, Counters *c, const uint32_t *ep, bool esc) { return mk<T>(d, sh, s, 0, line, ep, c, esc); }
};
template <class T, long D0> struct A1 {
    using U = typename std::remove_cv<T>::type;
    static_assert(D0 > 0, "tilelab-emu: a __shared__ array needs a positive size");
    static constexpr int ndim = 1; static constexpr long d0 = D0, d1 = 0, d2 = 0;
    struct Ref {
        using elem = T;
        U *d; Shadow *sh; const Slot *s; int line; Counters *c; const uint32_t *ep; bool esc;
        __attribute__((always_inline)) typename Pick<T>::type operator[](long i) const {
            if (__builtin_expect((unsigned long)i >= (unsigned long)D0, 0)) shared_oob(s, line, 0, i, 0);
            return mk<T>(d + i, sh, s, (size_t)i, line, ep, c, esc);
        }
        operator U *() const { return d; }
        /* &*Tile(__LINE__): the rewrite's form of a cast of the array ((float (*)[T])Tile): a plain
         * pointer that no check follows, recorded (shared_escape) */
        U &operator*() const { if (__builtin_expect(!s->esc, 0)) shared_escape(s, line); return *d; }
        template <class R, class = IsArr<R, U[D0]>> operator R &() const { return *(R *)d; }
    };
    static Ref ref(U *d, Shadow *sh, const Slot *s, int line, Counters *c, const uint32_t *ep, bool esc) { return Ref{d, sh, s, line, c, ep, esc}; }
};
template <class T, long D0, long D1> struct A2 {
    using U = typename std::remove_cv<T>::type;
    static_assert(D0 > 0 && D1 > 0, "tilelab-emu: a __shared__ array needs positive sizes");
    static constexpr int ndim = 2; static constexpr long d0 = D0, d1 = D1, d2 = 0;
    struct Row {
        U *d; Shadow *sh; const Slot *s; int line; long i; Counters *c; const uint32_t *ep; bool esc;
        __attribute__((always_inline)) typename Pick<T>::type operator[](long j) const {
            if (__builtin_expect((unsigned long)j >= (unsigned long)D1, 0)) shared_oob(s, line, 1, j, i);
            const size_t k = (size_t)i * D1 + (size_t)j;
            return mk<T>(d + k, sh, s, k, line, ep, c, esc);
        }
        operator U *() const { return d + (size_t)i * D1; }
        template <class R, class = IsArr<R, U[D1]>> operator R &() const { return *(R *)(d + (size_t)i * D1); }
    };
    struct Ref {
        U *d; Shadow *sh; const Slot *s; int line; Counters *c; const uint32_t *ep; bool esc;
        __attribute__((always_inline)) Row operator[](long i) const {
            if (__builtin_expect((unsigned long)i >= (unsigned long)D0, 0)) shared_oob(s, line, 0, i, 0);
            return Row{d, sh, s, line, i, c, ep, esc};
        }
        using RowPtr = U (*)[D1];
        operator RowPtr() const { return (RowPtr)d; }
        U (&operator*() const)[D1] { if (__builtin_expect(!s->esc, 0)) shared_escape(s, line); return *(RowPtr)d; }   /* &*Tile(__LINE__): see A1 */
        template <class R, class = IsArr<R, U[D0][D1]>> operator R &() const { return *(R *)d; }
    };
    static Ref ref(U *d, Shadow *sh, const Slot *s, int line, Counters *c, const uint32_t *ep, bool esc) { return Ref{d, sh, s, line, c, ep, esc}; }
};
template <class T, long D0, long D1, long D2> struct A3 {
    using U = typename std::remove_cv<T>::type;
    static_assert(D0 > 0 && D1 > 0 && D2 > 0, "tilelab-emu: a __shared__ array needs positive sizes");
    static constexpr int ndim = 3; static constexpr long d0 = D0, d1 = D1, d2 = D2;
    struct Row {
        U *d; Shadow *sh; const Slot *s; int line; size_t base; Counters *c; const uint32_t *ep; bool esc;
        __attribute__((always_inline)) typename Pick<T>::type operator[](long k) const {
            if (__builtin_expect((unsigned long)k >= (unsigned long)D2, 0)) shared_oob(s, line, 2, k, (long)base);
            const size_t e = base * D2 + (size_t)k;
            return mk<T>(d + e, sh, s, e, line, ep, c, esc);
        }
        operator U *() const { return d + base * D2; }
        template <class R, class = IsArr<R, U[D2]>> operator R &() const { return *(R *)(d + base * D2); }
    };
    struct Plane {
        U *d; Shadow *sh; const Slot *s; int line; long i; Counters *c; const uint32_t *ep; bool esc;
        __attribute__((always_inline)) Row operator[](long j) const {
            if (__builtin_expect((unsigned long)j >= (unsigned long)D1, 0)) shared_oob(s, line, 1, j, i);
            return Row{d, sh, s, line, (size_t)i * D1 + (size_t)j, c, ep, esc};
        }
        /* one stage of a 3-D array passed on as a 2-D one (a helper taking float (*)[D2]) */
        using RowPtr = U (*)[D2];
        operator RowPtr() const { return (RowPtr)(d + (size_t)i * D1 * D2); }
        template <class R, class = IsArr<R, U[D1][D2]>> operator R &() const { return *(R *)(d + (size_t)i * D1 * D2); }
    };
    struct Ref {
        U *d; Shadow *sh; const Slot *s; int line; Counters *c; const uint32_t *ep; bool esc;
        __attribute__((always_inline)) Plane operator[](long i) const {
            if (__builtin_expect((unsigned long)i >= (unsigned long)D0, 0)) shared_oob(s, line, 0, i, 0);
            return Plane{d, sh, s, line, i, c, ep, esc};
        }
        using PlanePtr = U (*)[D1][D2];
        operator PlanePtr() const { return (PlanePtr)d; }
        U (&operator*() const)[D1][D2] { if (__builtin_expect(!s->esc, 0)) shared_escape(s, line); return *(PlanePtr)d; }   /* &*Tile(__LINE__): see A1 */
        template <class R, class = IsArr<R, U[D0][D1][D2]>> operator R &() const { return *(R *)d; }
    };
    static Ref ref(U *d, Shadow *sh, const Slot *s, int line, Counters *c, const uint32_t *ep, bool esc) { return Ref{d, sh, s, line, c, ep, esc}; }
};
/* extern __shared__ T name[]: sized by the launch's dynamic shared memory argument. */
template <class T> struct ADyn {
    using U = typename std::remove_cv<T>::type;
    static constexpr int ndim = -1; static constexpr long d0 = 0, d1 = 0, d2 = 0;
    struct Ref {
        using elem = T;
        U *d; Shadow *sh; const Slot *s; int line; Counters *c; const uint32_t *ep; bool esc;
        __attribute__((always_inline)) typename Pick<T>::type operator[](long i) const {
            if (__builtin_expect((unsigned long)i >= (unsigned long)s->n, 0)) shared_oob(s, line, 0, i, 0);
            return mk<T>(d + i, sh, s, (size_t)i, line, ep, c, esc);
        }
        operator U *() const { return d; }
        U &operator*() const { if (__builtin_expect(!s->esc, 0)) shared_escape(s, line); return *d; }   /* &*smem(__LINE__): see A1 */
    };
    static Ref ref(U *d, Shadow *sh, const Slot *s, int line, Counters *c, const uint32_t *ep, bool esc) { return Ref{d, sh, s, line, c, ep, esc}; }
};

/* A pointer into a __shared__ array, as `float *Nds = smem + T * T;` makes one (the rewrite declares
 * such a pointer as an SPtr): indexing it is bounds-checked against the whole array and race-checked
 * element by element, however the array is carved. It converts to a plain pointer where one is needed
 * (what goes through that is not checked). */
template <class T> struct SPtr {
    using U = typename std::remove_cv<T>::type;
    const Slot *s; U *base; Shadow *sh; long off; int line; Counters *c; const uint32_t *ep; bool esc;
    SPtr() : s(nullptr), base(nullptr), sh(nullptr), off(0), line(0), c(nullptr), ep(nullptr), esc(false) {}
    /* A pointer carved from a row of a 2-D or 3-D array (float *p = Tile[i]) starts at that row: its
     * offset is where the row converts to, not the array's start. */
    template <class R> static long carve_off(const R &r, std::true_type) { return (long)((U *)r - r.d); }
    template <class R> static long carve_off(const R &, std::false_type) { return 0; }
    template <class R, class = decltype(std::declval<R>().s, std::declval<R>().d)>
    SPtr(const R &r)
        : s(r.s), base(r.d), sh(r.sh), off(carve_off(r, std::is_convertible<const R &, U *>{})), line(r.line), c(r.c),
          ep(&r.s->blk->epoch), esc(false) {}
    SPtr operator()(int l) const { SPtr r = *this; r.line = l; return r; }
    SPtr operator()(int l, Plain p) const { SPtr r = *this; r.line = l; r.sh = nullptr; r.c = p.c; r.esc = p.ro; return r; }
    SPtr operator()(int l, const uint32_t *e) const { SPtr r = *this; r.line = l; r.ep = e; return r; }
    SPtr operator()(int l, Esc e) const { SPtr r = *this; r.line = l; r.ep = e.ep; r.esc = true; return r; }
    __attribute__((always_inline)) typename Pick<T>::type operator[](long i) const {
        const long k = off + i;
        if (__builtin_expect((unsigned long)k >= (unsigned long)s->n, 0)) shared_oob(s, line, 0, k, 0);
        return mk<T>(base + k, sh, s, (size_t)k, line, ep, c, esc);
    }
    typename Pick<T>::type operator*() const { return (*this)[0]; }
    SPtr operator+(long i) const { SPtr r = *this; r.off += i; return r; }
    SPtr operator-(long i) const { SPtr r = *this; r.off -= i; return r; }
    SPtr &operator+=(long i) { off += i; return *this; }
    SPtr &operator-=(long i) { off -= i; return *this; }
    SPtr &operator++() { ++off; return *this; }
    SPtr &operator--() { --off; return *this; }
    long operator-(const SPtr &o) const { return off - o.off; }
    operator U *() const { return base + off; }
};

/* smem + k for a 1-D or dynamic __shared__ array: a checked pointer. */
template <class R, class I, class T = typename R::elem, class = typename std::enable_if<std::is_integral<I>::value>::type>
static inline SPtr<T> operator+(const R &r, I i) { return SPtr<T>(r) + (long)i; }
template <class R, class I, class T = typename R::elem, class = typename std::enable_if<std::is_integral<I>::value>::type>
static inline SPtr<T> operator+(I i, const R &r) { return SPtr<T>(r) + (long)i; }

/* A __shared__ declaration inside a kernel: each thread binds to its block's storage once. */
template <class A> struct Shared {
    using U = typename A::U;
    const Slot *s; U *d; Shadow *sh; Counters *c;   /* the thread is read at each checked access (tl_emu_cur_tid) */
    explicit Shared(const Site &site)
        : s(shared_slot(&site, sizeof(U), kind_of<U>(), A::ndim, A::d0, A::d1, A::d2)), d((U *)s->data), sh(s->sh),
          c(tl_emu_scnt) {}
    /* (fibers, and a region form kernel's block-level statements: a region's copies give every use of
     * a view a second argument, so no read-only region reaches this) */
    __attribute__((always_inline)) typename A::Ref operator()(int line) const {
        return A::ref(d, sh, s, line, c, &s->blk->epoch, false);
    }
    __attribute__((always_inline)) typename A::Ref operator()(int line, Plain p) const {
        return A::ref(d, nullptr, s, line, p.c, &s->blk->epoch, p.ro);
    }
    /* in a region's general copy: the epochs read once per region (they change only at its barriers) */
    __attribute__((always_inline)) typename A::Ref operator()(int line, const uint32_t *ep) const {
        return A::ref(d, sh, s, line, c, ep, false);
    }
    __attribute__((always_inline)) typename A::Ref operator()(int line, Esc e) const { return A::ref(d, sh, s, line, c, e.ep, true); }
    /* A use the rewrite could not mark with its line (inside a macro defined before the declaration):
     * reported at the declaration's line. */
    __attribute__((always_inline)) auto operator[](long i) const {
        if (tl_emu_rctx && tl_emu_rctx->ro) return A::ref(d, nullptr, s, s->site->line, c, &s->blk->epoch, true)[i];
        return A::ref(d, sh, s, s->site->line, c, &s->blk->epoch, false)[i];
    }
};
/* A __shared__ declaration at file scope: looked up in the running block at every use. */
template <class A> struct GShared {
    using U = typename A::U;
    Site site;
    /* (never a view of a region's copies: every access is checked, in a read-only region too) */
    typename A::Ref operator()(int line) const {
        const Slot *s = shared_slot(&site, sizeof(U), kind_of<U>(), A::ndim, A::d0, A::d1, A::d2);
        return A::ref((U *)s->data, s->sh, s, line, tl_emu_scnt, &s->blk->epoch, false);
    }
    typename A::Ref operator()(int line, Plain p) const {
        const Slot *s = shared_slot(&site, sizeof(U), kind_of<U>(), A::ndim, A::d0, A::d1, A::d2);
        return A::ref((U *)s->data, nullptr, s, line, p.c, &s->blk->epoch, p.ro);
    }
    typename A::Ref operator()(int line, const uint32_t *) const { return (*this)(line); }
    typename A::Ref operator()(int line, Esc) const { return (*this)(line); }
};

/* ---- kernel registry and launch --------------------------------------------------------------- */
template <class F> static inline const void *fn_key(F *f) { return reinterpret_cast<const void *>(f); }
void register_kernel(const void *key, const char *name, size_t static_smem, int region);
/* cudaLaunchKernel((const void *)kernel, grid, block, args, shmem, stream) hands the emulator only the
 * kernel's address: each registered kernel also records how to launch it from an argument array (its
 * parameter types are known where it is registered). */
typedef void (*KernelInvoke)(const void *key, const char *name, const char *file, int line, dim3 grid, dim3 block,
                             size_t shmem, void **args);
void register_kernel_invoke(const void *key, KernelInvoke invoke);
/* The invoker of a registered kernel and its name, or null. */
KernelInvoke kernel_invoke(const void *key, const char **name);
template <class... P> static void invoke_kernel(const void *key, const char *name, const char *file, int line,
                                                dim3 grid, dim3 block, size_t shmem, void **args);
struct KernelReg {
    /* region: 1 when tl-emu-rewrite put the kernel in region form (called once per block) */
    template <class... P> KernelReg(void (*f)(P...), const char *name, size_t static_smem, int region = 0) {
        register_kernel(fn_key(f), name, static_smem, region);
        register_kernel_invoke(fn_key(f), &invoke_kernel<P...>);
    }
};

struct LaunchDesc {
    const char *name, *file; int line;
    const void *key;
    dim3 grid, block; size_t shmem;
    void (*thunk)(void *ctx);
    void *ctx;
};
void launch(const LaunchDesc *d);
void note_pointer_arg(const void *p, size_t elem_size);

template <class X> static inline void note_arg(X *p) {
    note_pointer_arg((const void *)p, std::is_void<X>::value ? 0 : sizeof(typename std::conditional<std::is_void<X>::value, char, X>::type));
}
template <class X> static inline void note_arg(const X &) {}

template <class... P> struct Launcher {
    void (*k)(P...); const char *name, *file; int line; dim3 grid, block; size_t shmem;

    template <class Tup, size_t... I> static void note_all(const Tup &t, std::index_sequence<I...>) {
        (void)t; (note_arg(std::get<I>(t)), ...);
    }
    template <class... A> void operator()(A &&...a) const {
        static_assert(sizeof...(A) == sizeof...(P), "tilelab-emu: kernel launched with the wrong number of arguments");
        using Args = std::tuple<typename std::decay<P>::type...>;
        struct Ctx { void (*k)(P...); Args args; };
        Ctx ctx{k, Args(std::forward<A>(a)...)};
        note_all(ctx.args, std::index_sequence_for<P...>{});
        LaunchDesc d{name, file, line, fn_key(k), grid, block, shmem,
                     [](void *c) { Ctx *x = (Ctx *)c; std::apply(x->k, x->args); }, &ctx};
        launch(&d);
    }
};

template <class... P, size_t... I>
static inline void invoke_args(void (*k)(P...), const char *name, const char *file, int line, dim3 grid, dim3 block,
                               size_t shmem, void **args, std::index_sequence<I...>) {
    (void)args;
    Launcher<P...>{k, name, file, line, grid, block, shmem}(
        *static_cast<typename std::decay<P>::type *>(args[I])...);
}
template <class... P> static void invoke_kernel(const void *key, const char *name, const char *file, int line,
                                                dim3 grid, dim3 block, size_t shmem, void **args) {
    invoke_args(reinterpret_cast<void (*)(P...)>(const_cast<void *>(key)), name, file, line, grid, block, shmem,
                args, std::index_sequence_for<P...>{});
}
/* cudaLaunchKernel of a kernel known only by its address: its registered invoker, or "not supported
 * under emulation" (a kernel the rewrite did not register: a template instantiation). */
cudaError_t launch_kernel_by_key(const void *key, dim3 grid, dim3 block, void **args, size_t shmem, const char *file,
                                 int line);

} /* namespace tl_emu */

/* cudaLaunchKernel, both forms: the C API's (the kernel cast to const void *: launched through the
 * kernel registry; shmem and stream default as cuda_runtime.h's template form gives them for a
 * const void *) and the template (the kernel itself: launched from its own type). The
 * launch runs to completion; what it returns is the launch's error, as cudaGetLastError() then reads
 * it. The stream is accepted and ignored (launches are synchronous here). */
static inline cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                           cudaStream_t stream = 0, const char *file = __builtin_FILE(),
                                           int line = __builtin_LINE()) {
    (void)stream;
    return tl_emu::launch_kernel_by_key(func, grid, block, args, shmem, file, line);
}
template <class... P>
static inline cudaError_t cudaLaunchKernel(void (*k)(P...), dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                           cudaStream_t stream = 0, const char *file = __builtin_FILE(),
                                           int line = __builtin_LINE()) {
    (void)stream;
    const char *name = nullptr;
    tl_emu::kernel_invoke(tl_emu::fn_key(k), &name);
    tl_emu::invoke_kernel<P...>(tl_emu::fn_key(k), name && *name ? name : "kernel", file, line, grid, block, shmem,
                                args);
    return cudaPeekAtLastError();
}

/* kernel<<<grid, block, shmem, stream>>>(args) becomes tl_emu_launch(kernel, "kernel", __FILE__,
 * __LINE__, grid, block, shmem, stream)(args). Launches run to completion before returning. */
template <class... P>
static inline tl_emu::Launcher<P...> tl_emu_launch(void (*k)(P...), const char *name, const char *file, int line,
                                                   dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t stream = 0) {
    (void)stream;
    return tl_emu::Launcher<P...>{k, name, file, line, grid, block, shmem};
}

/* cudaMalloc names the buffer after the expression written and learns its element type. */
template <class T>
static inline cudaError_t tl_emu_malloc_named(T **p, size_t n, const char *name, const char *file, int line) {
    return tl_emu_malloc((void **)p, n, std::is_void<T>::value ? 0 : sizeof(typename std::conditional<std::is_void<T>::value, char, T>::type), name, file, line);
}
#define cudaMalloc(p, n) tl_emu_malloc_named((p), (n), #p, __FILE__, __LINE__)

/* The C++ overloads that take a kernel itself rather than a const void *. */
template <class... P> static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, void (*f)(P...)) {
    return cudaFuncGetAttributes(a, tl_emu::fn_key(f));
}
template <class... P> static inline cudaError_t cudaFuncSetAttribute(void (*f)(P...), cudaFuncAttribute at, int v) {
    return cudaFuncSetAttribute(tl_emu::fn_key(f), at, v);
}
template <class... P>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void (*f)(P...), int bs, size_t dyn) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, tl_emu::fn_key(f), bs, dyn);
}
static inline cudaError_t cudaEventRecord(cudaEvent_t e) { return cudaEventRecord(e, 0); }
template <class... P> static inline cudaError_t cudaFuncSetCacheConfig(void (*f)(P...), int c) {
    return cudaFuncSetCacheConfig(tl_emu::fn_key(f), c);
}
template <class... P>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGrid, int *blockSize, void (*f)(P...),
                                                             size_t dyn = 0, int limit = 0) {
    return tl_emu_max_potential_block_size(minGrid, blockSize, tl_emu::fn_key(f), dyn, limit);
}
template <class T>
static inline cudaError_t tl_emu_malloc_managed_named(T **p, size_t n, const char *name, const char *file, int line) {
    return tl_emu_malloc_managed((void **)p, n, std::is_void<T>::value ? 0 : sizeof(typename std::conditional<std::is_void<T>::value, char, T>::type), name, file, line);
}
#define cudaMallocManaged(p, n, ...) tl_emu_malloc_managed_named((p), (n), #p, __FILE__, __LINE__)
/* __constant__ and __device__ variables are ordinary globals here: the symbol calls copy into them,
 * checking the range against the variable's size. The runtime notes each as a copy to the device or
 * to the host (mem.cpp: a copy to the device after device data reached the host is a round trip). */
extern "C" void tl_emu_symbol_copy(void *dst, const void *src, size_t count, int to_device, int device_to_device);
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    if (offset > sizeof(T) || count > sizeof(T) - offset) return cudaErrorInvalidValue;
    tl_emu_symbol_copy((char *)&sym + offset, src, count, 1, kind == cudaMemcpyDeviceToDevice);
    return cudaSuccess;
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t count, size_t offset = 0,
                                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    if (offset > sizeof(T) || count > sizeof(T) - offset) return cudaErrorInvalidValue;
    tl_emu_symbol_copy(dst, (const char *)&sym + offset, count, 0, kind == cudaMemcpyDeviceToDevice);
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **p, T &sym) { *p = (void *)&sym; return cudaSuccess; }
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(T &sym, const void *src, size_t count, size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = 0) {
    return cudaMemcpyToSymbol(sym, src, count, offset, kind);
}
static inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k) { return cudaMemcpyAsync(d, s, n, k, 0); }
static inline cudaError_t cudaMemsetAsync(void *d, int v, size_t n) { return cudaMemsetAsync(d, v, n, 0); }

/* ---- counting global accesses: tl-emu-rewrite turns p[i] for a pointer parameter p of a kernel into
 * (tl_emu::gcount(K), p)[i], K = 0 read, 1 written, 2 both (p[i] += v) ------------------------------ */
namespace tl_emu {
static inline __attribute__((always_inline)) void gcount(int k) {
#ifdef TL_EMU_COUNT_ACCESSES
    (void)k;            /* every access is counted where it happens (src/count.cpp): not twice */
#else
    Counters *c = tl_emu_cnt;
    if (c) { if (k != 1) c->gld++; if (k != 0) c->gst++; }
#endif
}

/* ---- printf from kernels -----------------------------------------------------------------------------
 * A __shared__ element is a proxy object: passed through printf's "..." as it is, it would shift every
 * later argument. Each argument goes through va() first, which turns a proxy into its value. */
template <class T> static inline T va(T v) { return v; }
/* A float or double a kernel declares without a value (the rewrite's find_uninit): a quiet NaN marked
 * with the declaration's line (TL_EMU_UNINIT_MARK, tl_emu_api.h), kept through +, * and fma on x86. */
static inline float uninit_f(int line) {
    uint32_t b = TL_EMU_UNINIT_MARK | ((uint32_t)line & TL_EMU_UNINIT_LINE);
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
static inline double uninit_d(int line) {
    /* float's payload in double's top mantissa bits: the mark survives a conversion to float */
    uint64_t b = 0x7FF0000000000000ull | ((uint64_t)((TL_EMU_UNINIT_MARK | ((uint32_t)line & TL_EMU_UNINIT_LINE)) & 0x7FFFFFu) << 29);
    double f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* A float or double array a kernel declares without values (the rewrite's find_local_array): every
 * element the mark of uninit_f/uninit_d with the array flags (TL_EMU_UNINIT_ARRAY, tl_emu_api.h) and the
 * line. On a GPU a local array is the thread's own registers or stack: a tile declared without
 * __shared__ holds only what this thread wrote; the harness names it (common/driver.c). */
template <class A> static inline void uninit_fill(A &a, int line, int dims) {
    using E = typename std::remove_all_extents<A>::type;
    if constexpr (std::is_same<E, float>::value || std::is_same<E, double>::value) {
        const int l = (int)(((uint32_t)line & TL_EMU_UNINIT_ALINE) | TL_EMU_UNINIT_ARRAY |
                            (dims >= 2 ? TL_EMU_UNINIT_ARRAY2D : 0u));
        const E v = std::is_same<E, float>::value ? (E)uninit_f(l) : (E)uninit_d(l);
        E *e = (E *)&a;
        for (size_t i = 0; i < sizeof a / sizeof(E); i++) e[i] = v;
    } else {
        (void)a; (void)line; (void)dims;
    }
}
template <class T> static inline typename Elem<T>::U va(const Elem<T> &e) { return e.get(); }
bool kernel_output_muted(void);
} /* namespace tl_emu */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <class... A> static inline int tl_emu_printf(const char *fmt, A... a) {
    if (tl_emu_cur_thread && tl_emu::kernel_output_muted()) return 0;
    return std::printf(fmt, tl_emu::va(a)...);
}
#pragma GCC diagnostic pop
namespace std { using ::tl_emu_printf; }

#ifndef TL_EMU_INTERNAL        /* not in the emulator's own sources */
#define printf tl_emu_printf
/* ---- what student code may not reach: the emulator's controls (the harness, in C, calls them) ---- */
#pragma GCC poison tl_emu_set_race_check tl_emu_set_order tl_emu_set_threads tl_emu_recover
#pragma GCC poison tl_emu_mute_kernel_output tl_emu_counters_reset tl_emu_rctx tl_emu_cnt tl_emu_scnt
#pragma GCC poison tl_emu_set_count_shared tl_emu_sarena tl_emu_guard_device
#endif

/* ---- warp-level operations ------------------------------------------------------------------------
 * Lanes are the threads of a block 32 at a time in linear order (threadIdx.x fastest), as on a GPU.
 * A kernel that uses them runs on fibers: each lane stops at the operation until every lane of its
 * mask that has not returned has reached it too (the same call, the same mask); then all of them get
 * their results and go on. A lane of the mask that waits elsewhere (a __syncthreads(), another warp
 * operation) is a divergent-barrier diagnostic. Race checking treats a __syncwarp() as a barrier for
 * the lanes of that warp (see BlockInfo). */
namespace tl_emu {
enum { W_SHFL, W_SHFL_UP, W_SHFL_DOWN, W_SHFL_XOR, W_BALLOT, W_ANY, W_ALL, W_ACTIVEMASK, W_SYNCWARP,
       W_MATCH_ANY, W_MATCH_ALL, W_REDUCE_ADD, W_REDUCE_MIN, W_REDUCE_MAX, W_REDUCE_AND, W_REDUCE_OR, W_REDUCE_XOR };
/* arg: for the shuffles the lane or distance; for __reduce_min/max_sync 1 when the values are int */
uint64_t warp_op(int kind, unsigned mask, uint64_t val, int arg, int width, const char *file, int line);
/* __syncthreads_count/_and/_or: a __syncthreads() that returns the count, and, or of pred over the block */
enum { B_COUNT, B_AND, B_OR };
int syncthreads_red(int kind, int pred, const char *file, int line);
/* A cooperative-groups call the emulator cannot run as asked (a tile size it does not have): stops the
 * launch with a diagnostic naming it. */
[[noreturn]] void cg_unsupported(const char *what, const char *file, int line);
template <class T> static inline uint64_t wbits(T v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "tilelab-emu: a warp shuffle of a type larger than 8 bytes is not supported under emulation");
    uint64_t b = 0; std::memcpy(&b, &v, sizeof v); return b;
}
template <class T> static inline T wval(uint64_t b) { T v; std::memcpy(&v, &b, sizeof v); return v; }
template <class T> static inline T shfl(int kind, unsigned mask, T var, int arg, int width, const char *f, int l) {
    return wval<T>(warp_op(kind, mask, wbits(var), arg, width, f, l));
}
} /* namespace tl_emu */
#define TL_EMU_HERE const char *tl_file_ = __builtin_FILE(), int tl_line_ = __builtin_LINE()
template <class T> static inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32, TL_EMU_HERE) {
    return tl_emu::shfl(tl_emu::W_SHFL, mask, var, srcLane, width, tl_file_, tl_line_);
}
template <class T> static inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, TL_EMU_HERE) {
    return tl_emu::shfl(tl_emu::W_SHFL_UP, mask, var, (int)delta, width, tl_file_, tl_line_);
}
template <class T> static inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, TL_EMU_HERE) {
    return tl_emu::shfl(tl_emu::W_SHFL_DOWN, mask, var, (int)delta, width, tl_file_, tl_line_);
}
template <class T> static inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32, TL_EMU_HERE) {
    return tl_emu::shfl(tl_emu::W_SHFL_XOR, mask, var, laneMask, width, tl_file_, tl_line_);
}
static inline unsigned __ballot_sync(unsigned mask, int pred, TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_BALLOT, mask, pred != 0, 0, 32, tl_file_, tl_line_);
}
static inline int __any_sync(unsigned mask, int pred, TL_EMU_HERE) {
    return (int)tl_emu::warp_op(tl_emu::W_ANY, mask, pred != 0, 0, 32, tl_file_, tl_line_);
}
static inline int __all_sync(unsigned mask, int pred, TL_EMU_HERE) {
    return (int)tl_emu::warp_op(tl_emu::W_ALL, mask, pred != 0, 0, 32, tl_file_, tl_line_);
}
/* The lanes of the warp that reach this same call together (the others are elsewhere: a branch not
 * taken, a barrier, returned): the emulator's picture of the lanes a GPU runs converged here. */
static inline unsigned __activemask(TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_ACTIVEMASK, 0xffffffffu, 0, 0, 32, tl_file_, tl_line_);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu, TL_EMU_HERE) {
    (void)tl_emu::warp_op(tl_emu::W_SYNCWARP, mask, 0, 0, 32, tl_file_, tl_line_);
}
/* Match and reduce: results once every lane of the mask has arrived, as for the shuffles. match: the
 * lanes of the mask whose value has the same bits (32- or 64-bit values); match_all also sets *pred. */
template <class T> static inline unsigned __match_any_sync(unsigned mask, T value, TL_EMU_HERE) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any_sync takes a 32- or 64-bit value");
    return (unsigned)tl_emu::warp_op(tl_emu::W_MATCH_ANY, mask, tl_emu::wbits(value), 0, 32, tl_file_, tl_line_);
}
template <class T> static inline unsigned __match_all_sync(unsigned mask, T value, int *pred, TL_EMU_HERE) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_all_sync takes a 32- or 64-bit value");
    uint64_t r = tl_emu::warp_op(tl_emu::W_MATCH_ALL, mask, tl_emu::wbits(value), 0, 32, tl_file_, tl_line_);
    *pred = (int)(r >> 32);
    return (unsigned)r;
}
static inline unsigned __reduce_add_sync(unsigned mask, unsigned value, TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_ADD, mask, value, 0, 32, tl_file_, tl_line_);
}
static inline int __reduce_add_sync(unsigned mask, int value, TL_EMU_HERE) {
    return (int)(unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_ADD, mask, (unsigned)value, 1, 32, tl_file_, tl_line_);
}
static inline unsigned __reduce_min_sync(unsigned mask, unsigned value, TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_MIN, mask, value, 0, 32, tl_file_, tl_line_);
}
static inline int __reduce_min_sync(unsigned mask, int value, TL_EMU_HERE) {
    return (int)(unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_MIN, mask, (unsigned)value, 1, 32, tl_file_, tl_line_);
}
static inline unsigned __reduce_max_sync(unsigned mask, unsigned value, TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_MAX, mask, value, 0, 32, tl_file_, tl_line_);
}
static inline int __reduce_max_sync(unsigned mask, int value, TL_EMU_HERE) {
    return (int)(unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_MAX, mask, (unsigned)value, 1, 32, tl_file_, tl_line_);
}
static inline unsigned __reduce_and_sync(unsigned mask, unsigned value, TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_AND, mask, value, 0, 32, tl_file_, tl_line_);
}
static inline unsigned __reduce_or_sync(unsigned mask, unsigned value, TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_OR, mask, value, 0, 32, tl_file_, tl_line_);
}
static inline unsigned __reduce_xor_sync(unsigned mask, unsigned value, TL_EMU_HERE) {
    return (unsigned)tl_emu::warp_op(tl_emu::W_REDUCE_XOR, mask, value, 0, 32, tl_file_, tl_line_);
}
/* Block barriers with a reduction: every check of __syncthreads() (divergent barrier, the race-check
 * interval), then the count / and / or of pred over the block's threads. */
static inline int __syncthreads_count(int pred, TL_EMU_HERE) {
    return tl_emu::syncthreads_red(tl_emu::B_COUNT, pred, tl_file_, tl_line_);
}
static inline int __syncthreads_and(int pred, TL_EMU_HERE) {
    return tl_emu::syncthreads_red(tl_emu::B_AND, pred, tl_file_, tl_line_);
}
static inline int __syncthreads_or(int pred, TL_EMU_HERE) {
    return tl_emu::syncthreads_red(tl_emu::B_OR, pred, tl_file_, tl_line_);
}
#undef TL_EMU_HERE

/* As under nvcc: code that tests __CUDACC__ (launch macros, __host__ __device__ helpers) takes its CUDA
 * path. __CUDA_ARCH__ stays undefined: device functions run their host path. */
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif

#endif /* __cplusplus */
#endif /* TL_EMU_H */
