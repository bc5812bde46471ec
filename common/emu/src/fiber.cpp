/* fiber.cpp: setting up and switching the fibers that run a block's threads.
 *
 * Hand-written switch (switch.S) on x86-64 and arm64: about 6 ns a switch here. The ucontext
 * fallback (meson option emu_fibers=ucontext) works on any POSIX CPU but glibc's swapcontext also
 * saves and restores the signal mask with a system call: some 30 times slower.
 */
#include "internal.h"

#include <cstdint>

namespace tl_emu {

#ifndef TL_EMU_UCONTEXT

extern "C" void tl_emu_ctx_trampoline(void);

void fiber_init(Fiber *f, char *stack_lo, size_t size, void (*entry)(void *), void *arg) {
    uintptr_t top = ((uintptr_t)stack_lo + size) & ~(uintptr_t)15;
#if defined(__x86_64__)
    /* Popped by the switch: r15 r14 r13 r12 rbx rbp, then ret. The trampoline then starts with
     * rsp = top - 16 (16-byte aligned), so entry() sees the ABI's alignment after its call. */
    uint64_t *sp = (uint64_t *)(top - 72);
    sp[0] = 0;                               /* r15 */
    sp[1] = 0;                               /* r14 */
    sp[2] = (uint64_t)(uintptr_t)entry;      /* r13 */
    sp[3] = (uint64_t)(uintptr_t)arg;        /* r12 */
    sp[4] = 0;                               /* rbx */
    sp[5] = 0;                               /* rbp */
    sp[6] = (uint64_t)(uintptr_t)&tl_emu_ctx_trampoline;
    f->sp = sp;
#elif defined(__aarch64__)
    uint64_t *sp = (uint64_t *)(top - 176);
    for (int i = 0; i < 22; i++) sp[i] = 0;
    sp[0] = (uint64_t)(uintptr_t)arg;        /* x19 */
    sp[1] = (uint64_t)(uintptr_t)entry;      /* x20 */
    sp[11] = (uint64_t)(uintptr_t)&tl_emu_ctx_trampoline;   /* x30 */
    f->sp = sp;
#endif
}

const char *fiber_backend(void) {
#if defined(__x86_64__)
    return "hand-written x86-64 switch";
#else
    return "hand-written arm64 switch";
#endif
}

#else /* TL_EMU_UCONTEXT */

/* makecontext passes int arguments only: hand the pointer over in two halves. */
static void uc_entry(unsigned lo, unsigned hi, unsigned elo, unsigned ehi) {
    void *arg = (void *)(((uintptr_t)hi << 32) | lo);
    void (*entry)(void *) = (void (*)(void *))(((uintptr_t)ehi << 32) | elo);
    entry(arg);
}

void fiber_init(Fiber *f, char *stack_lo, size_t size, void (*entry)(void *), void *arg) {
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = stack_lo;
    f->uc.uc_stack.ss_size = size;
    f->uc.uc_link = nullptr;
    uintptr_t a = (uintptr_t)arg, e = (uintptr_t)entry;
    makecontext(&f->uc, (void (*)(void))uc_entry, 4, (unsigned)a, (unsigned)(a >> 32), (unsigned)e,
                (unsigned)(e >> 32));
}

void fiber_switch(Fiber *from, Fiber *to) { swapcontext(&from->uc, &to->uc); }

const char *fiber_backend(void) { return "ucontext (portable fallback)"; }

#endif

} /* namespace tl_emu */
