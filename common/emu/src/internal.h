/* internal.h: what the parts of libtl_emu share (not for kits or students). */
#ifndef TL_EMU_INTERNAL_H
#define TL_EMU_INTERNAL_H

#define TL_EMU_INTERNAL 1
#include "tl_emu.h"

#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <pthread.h>
#ifdef TL_EMU_UCONTEXT
#include <ucontext.h>
#endif

namespace tl_emu {

/* ---- fibers (switch.S, or ucontext when TL_EMU_UCONTEXT) ------------------------------------- */
struct Fiber {
    void *sp;
#ifdef TL_EMU_UCONTEXT
    ucontext_t uc;
#endif
};
void fiber_init(Fiber *f, char *stack_lo, size_t size, void (*entry)(void *), void *arg);
#ifndef TL_EMU_UCONTEXT
extern "C" void tl_emu_ctx_switch(void **save_sp, void *new_sp);
static inline void fiber_switch(Fiber *from, Fiber *to) { tl_emu_ctx_switch(&from->sp, to->sp); }
#else
void fiber_switch(Fiber *from, Fiber *to);
#endif
const char *fiber_backend(void);

/* ---- the device model ------------------------------------------------------------------------ */
struct Model {
    const char *key, *name;
    int major, minor, sms, max_threads_block, max_threads_sm, max_blocks_sm;
    int max_block_x, max_block_y, max_block_z, max_grid_x, max_grid_y, max_grid_z;
    size_t smem_sm, smem_block, smem_block_optin, smem_reserved_block;
    int regs_sm, regs_block, regs_thread, l2_bytes, clock_khz, mem_clock_khz, bus_bits;
    size_t global_bytes;
};
const Model &model(void);
/* count.cpp: the live cudaMalloc buffers, whose accesses count as global loads and stores */
void dev_range_add(const void *p, size_t n);
void dev_range_del(const void *p);

/* ---- kernels ---------------------------------------------------------------------------------- */
struct KernelInfo {
    const void *key;
    char name[128];
    size_t static_smem;       /* from the rewrite's registration, raised by what runs */
    int max_dyn_smem;         /* cudaFuncAttributeMaxDynamicSharedMemorySize; -1 = not set */
    int carveout;
    int region;               /* 1: in region form (tl-emu-rewrite), called once per block */
    KernelInvoke invoke;      /* launches it from an argument array (cudaLaunchKernel); null if unknown */
};
KernelInfo *kernel_info(const void *key, const char *name);   /* finds or adds */
enum { NUM_REGS_MODEL = 32 };                                  /* what cudaFuncGetAttributes reports */

/* ---- errors and diagnostics (diag.cpp) ---------------------------------------------------------- */
cudaError_t set_error(cudaError_t e);      /* records e as the last error (unless success); returns it */
cudaError_t sticky_error(void);
void set_sticky(cudaError_t e);
void clear_errors(void);
void clear_diagnostics(void);
/* Prints "tilelab-emu: CLASS: ..." (fmt may hold '\n' + detail lines) unless this launch already
 * printed its share, and remembers the first one of the launch for tl_emu_last_diagnostic(). */
void diag_launch(const char *cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_now(const char *cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The facts of this host thread's next diagnostic, for its verdict (CONTRACTS.md section 10, written
 * to TL_EMU_VERDICTS with the words): the student's file and line; the buffer, access and index. */
void diag_at(const char *file, int line);
void diag_buffer(const char *access, const char *name, long long index);
/* The verdict of a diagnostic the fault handler prints itself (not through diag_launch/diag_now). */
void diag_verdict_raw(const char *cls, const char *body);
void diag_thread(uint32_t lin);            /* the thread it names (default: the one running) */
void diag_forget(void);                    /* drops this thread's facts unused */
void diag_launch_start(void);              /* a launch begins: its diagnostics counted from 0 */
int  diag_launch_end(void);                /* it ended: how many it had (those not shown are said) */
extern int g_vfd;                          /* TL_EMU_VERDICTS's descriptor (core.cpp sets it, diag.cpp writes verdicts to it), or -1 */
void init(void);                           /* idempotent; every API entry calls it */
void ensure_altstack(void);                /* a signal stack for this host thread */

/* ---- memory (mem.cpp) ------------------------------------------------------------------------- */
void install_segv_handler(void);
/* Names the kernel, block and thread running on this host thread ("" outside kernels). */
void describe_current_thread(char *buf, size_t n);
bool in_stack_guard(const void *addr, size_t *stack_kb);
void free_all_allocations(void);
void print_source_line(void *pc);          /* "  at (from the debug line table) ..." on stderr */
/* The same lines in out ("" when unknown), and the innermost frame's file and line as the next
 * diagnostic's place (diag_at). */
void source_lines(void *pc, char *out, size_t n, bool set_place);
/* From the fault handler, for an access to a cudaMalloc buffer by a kernel: reports msg (once per
 * launch), stops the launch (cudaErrorIllegalAddress, as on a GPU) and jumps out of the block. */
[[noreturn]] void fault_in_kernel(const char *msg, void *pc);
size_t allocated_bytes(void);
/* The device guarded from host code while a launcher runs (tl_emu_guard_device, mem.cpp): a launch
 * opens every buffer for its kernel and closes them after; core.cpp counts the round trips. */
void guard_launch_begin(void);
void guard_launch_end(void);
void count_round_trip(void);

} /* namespace tl_emu */

#endif
