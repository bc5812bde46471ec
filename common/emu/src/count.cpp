/* count.cpp: the work counters from the accesses themselves (issue 24).
 *
 * The student's file is compiled for emulation with -fsanitize=thread, but ThreadSanitizer's
 * runtime is never linked: the calls the compiler puts before every load and store
 * (__tsan_read4(addr), __tsan_write16(addr), ...) land here. While a kernel runs (a worker's
 * tl_emu_cnt is set), an access whose address lies in a live cudaMalloc buffer is counted as a
 * global load or store, in 4-byte elements (a float4 load is four). So every way of reaching
 * device memory counts the same: subscripts, *(Md + i), a __device__ or template helper, a lambda,
 * __ldg, references, float4, atomics. Host code (tl_emu_cnt unset) and the emulator's own memory
 * (stacks, shadows) are not counted. The rewrite's per-subscript gcount() is off in such a build
 * (TL_EMU_COUNT_ACCESSES, tl_emu.h), so nothing counts twice.
 *
 * __shared__ accesses the same way, where the launch counts them (tl_emu_set_count_shared): an
 * address inside the running worker's __shared__ arena (tl_emu_sarena, set by core.cpp for such a
 * launch) is a shared load or store, in 4-byte elements. So a tile filled or read by a __device__
 * helper through an array parameter, a row pointer, a stage of a 3-D array, a reference, a cast or
 * a float4 counts as the checked views' accesses do; in this build the views themselves do not
 * count (tl_emu.h, TL_EMU_VIEW_COUNTS), or each access would count twice.
 *
 * The ranges: cudaMalloc and cudaFree keep a small table (dev_range_add/del, mem.cpp); a lookup is
 * two compares against the span of all live buffers, then a scan of the few live ones.
 *
 * Atomics: with -fsanitize=thread the compiler turns __atomic builtins into __tsan_atomicN_OP calls,
 * which must do the operation: they do it with the same builtin, and count a load and a store.
 */
#include "block.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace tl_emu {

enum { MAX_RANGES = 256 };
static struct { uintptr_t lo, hi; } g_ranges[MAX_RANGES];
static std::atomic<int> g_nranges{0};
static std::atomic<uintptr_t> g_span_lo{UINTPTR_MAX}, g_span_hi{0};
static std::mutex g_rmu;

static void respan(void) {
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    int n = g_nranges.load(std::memory_order_relaxed);
    for (int i = 0; i < n; ++i) {
        if (g_ranges[i].lo < lo) lo = g_ranges[i].lo;
        if (g_ranges[i].hi > hi) hi = g_ranges[i].hi;
    }
    g_span_lo.store(lo, std::memory_order_relaxed);
    g_span_hi.store(hi, std::memory_order_relaxed);
}

void dev_range_add(const void *p, size_t n) {
    std::lock_guard<std::mutex> lk(g_rmu);
    int k = g_nranges.load(std::memory_order_relaxed);
    if (k >= MAX_RANGES) return;   /* beyond 256 live buffers: the rest go uncounted */
    g_ranges[k].lo = (uintptr_t)p;
    g_ranges[k].hi = (uintptr_t)p + n;
    g_nranges.store(k + 1, std::memory_order_release);
    respan();
}

void dev_range_del(const void *p) {
    std::lock_guard<std::mutex> lk(g_rmu);
    int k = g_nranges.load(std::memory_order_relaxed);
    for (int i = 0; i < k; ++i)
        if (g_ranges[i].lo == (uintptr_t)p) {
            g_ranges[i] = g_ranges[k - 1];
            g_nranges.store(k - 1, std::memory_order_release);
            break;
        }
    respan();
}

static inline bool on_device(uintptr_t a) {
    if (a < g_span_lo.load(std::memory_order_relaxed) || a >= g_span_hi.load(std::memory_order_relaxed))
        return false;
    int n = g_nranges.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i)
        if (a >= g_ranges[i].lo && a < g_ranges[i].hi) return true;
    return false;
}

static inline void count(const void *p, size_t bytes, bool store) {
    Counters *c = tl_emu_cnt;
    if (!c) return;
    const uintptr_t a = (uintptr_t)p;
    uint64_t elems = (bytes + 3) / 4;
    if (on_device(a)) {
        if (store) c->gst += elems;
        else c->gld += elems;
    } else if (tl_emu_sarena && a - tl_emu_sarena < ARENA_BYTES) {
        if (store) c->sst += elems;
        else c->sld += elems;
    }
}

} /* namespace tl_emu */

using tl_emu::count;

#define TL_TSAN_RW(N)                                                                          \
    extern "C" void __tsan_read##N(void *p) { count(p, N, false); }                           \
    extern "C" void __tsan_write##N(void *p) { count(p, N, true); }                           \
    extern "C" void __tsan_unaligned_read##N(void *p) { count(p, N, false); }                 \
    extern "C" void __tsan_unaligned_write##N(void *p) { count(p, N, true); }                 \
    extern "C" void __tsan_volatile_read##N(void *p) { count(p, N, false); }                  \
    extern "C" void __tsan_volatile_write##N(void *p) { count(p, N, true); }
TL_TSAN_RW(1)
TL_TSAN_RW(2)
TL_TSAN_RW(4)
TL_TSAN_RW(8)
TL_TSAN_RW(16)

extern "C" void __tsan_read_range(void *p, unsigned long n) { count(p, n, false); }
extern "C" void __tsan_write_range(void *p, unsigned long n) { count(p, n, true); }
/* Every file compiled with -fsanitize=thread calls this from a constructor: the program counts. */
static std::atomic<int> g_counting{0};
extern "C" void __tsan_init(void) { g_counting.store(1, std::memory_order_relaxed); }
extern "C" int tl_emu_counts_accesses(void) { return g_counting.load(std::memory_order_relaxed); }
extern "C" void __tsan_func_entry(void *) {}
extern "C" void __tsan_func_exit(void) {}
extern "C" void __tsan_vptr_update(void **, void *) {}
extern "C" void __tsan_vptr_read(void **) {}

/* memory orders: ThreadSanitizer's enum has __ATOMIC_*'s values (relaxed 0 ... seq_cst 5) */
#define TL_TSAN_ATOMIC(N, T)                                                                                 \
    extern "C" T __tsan_atomic##N##_load(const volatile T *a, int) {                                         \
        count((const void *)a, N / 8, false);                                                                \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                         \
    }                                                                                                        \
    extern "C" void __tsan_atomic##N##_store(volatile T *a, T v, int) {                                      \
        count((const void *)a, N / 8, true);                                                                 \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                            \
    }                                                                                                        \
    extern "C" T __tsan_atomic##N##_exchange(volatile T *a, T v, int) {                                      \
        count((const void *)a, N / 8, false);                                                                \
        count((const void *)a, N / 8, true);                                                                 \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                                        \
    TL_TSAN_RMW(N, T, fetch_add, __atomic_fetch_add)                                                         \
    TL_TSAN_RMW(N, T, fetch_sub, __atomic_fetch_sub)                                                         \
    TL_TSAN_RMW(N, T, fetch_and, __atomic_fetch_and)                                                         \
    TL_TSAN_RMW(N, T, fetch_or, __atomic_fetch_or)                                                           \
    TL_TSAN_RMW(N, T, fetch_xor, __atomic_fetch_xor)                                                         \
    TL_TSAN_RMW(N, T, fetch_nand, __atomic_fetch_nand)                                                       \
    extern "C" int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *e, T v, int, int) {          \
        count((const void *)a, N / 8, false);                                                                \
        count((const void *)a, N / 8, true);                                                                 \
        return __atomic_compare_exchange_n(a, e, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
    }                                                                                                        \
    extern "C" int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *e, T v, int, int) {            \
        count((const void *)a, N / 8, false);                                                                \
        count((const void *)a, N / 8, true);                                                                 \
        return __atomic_compare_exchange_n(a, e, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);               \
    }                                                                                                        \
    extern "C" T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T e, T v, int, int) {                \
        count((const void *)a, N / 8, false);                                                                \
        count((const void *)a, N / 8, true);                                                                 \
        __atomic_compare_exchange_n(a, &e, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
        return e;                                                                                            \
    }
#define TL_TSAN_RMW(N, T, OP, B)                                                                             \
    extern "C" T __tsan_atomic##N##_##OP(volatile T *a, T v, int) {                                          \
        count((const void *)a, N / 8, false);                                                                \
        count((const void *)a, N / 8, true);                                                                 \
        return B(a, v, __ATOMIC_SEQ_CST);                                                                    \
    }
TL_TSAN_ATOMIC(8, uint8_t)
TL_TSAN_ATOMIC(16, uint16_t)
TL_TSAN_ATOMIC(32, uint32_t)
TL_TSAN_ATOMIC(64, uint64_t)

extern "C" void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
