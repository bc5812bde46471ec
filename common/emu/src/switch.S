/* switch.S: the fibers' context switch for tilelab's emulation mode.
 *
 *   void tl_emu_ctx_switch(void **save_sp, void *new_sp);
 *
 * Saves the callee-saved registers of the running fiber on its own stack, stores its stack pointer in
 * *save_sp, loads new_sp and restores the registers saved there. A new fiber's stack is laid out by
 * fiber_init() (core.cpp) so that the first switch to it "returns" into tl_emu_ctx_trampoline, which
 * calls entry(arg) with entry and arg taken from two of the restored registers. The floating-point
 * control words are not switched: kernels do not change rounding modes.
 */
#if defined(__x86_64__)
        .text
        .globl  tl_emu_ctx_switch
        .type   tl_emu_ctx_switch, @function
        .p2align 4
tl_emu_ctx_switch:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   tl_emu_ctx_switch, .-tl_emu_ctx_switch

        .globl  tl_emu_ctx_trampoline
        .type   tl_emu_ctx_trampoline, @function
        .p2align 4
tl_emu_ctx_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        movq    %r12, %rdi          /* arg */
        callq   *%r13               /* entry(arg); never returns */
        ud2
        .cfi_endproc
        .size   tl_emu_ctx_trampoline, .-tl_emu_ctx_trampoline

#elif defined(__aarch64__)
        .text
        .globl  tl_emu_ctx_switch
        .type   tl_emu_ctx_switch, %function
        .p2align 4
tl_emu_ctx_switch:
        sub     sp, sp, #176
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        stp     d8,  d9,  [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mov     x2, sp
        str     x2, [x0]
        mov     sp, x1
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8,  d9,  [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        add     sp, sp, #176
        ret
        .size   tl_emu_ctx_switch, .-tl_emu_ctx_switch

        .globl  tl_emu_ctx_trampoline
        .type   tl_emu_ctx_trampoline, %function
        .p2align 4
tl_emu_ctx_trampoline:
        mov     x0, x19             /* arg */
        blr     x20                 /* entry(arg); never returns */
        brk     #0
        .size   tl_emu_ctx_trampoline, .-tl_emu_ctx_trampoline
#else
#error "switch.S: no hand-written context switch for this CPU; configure with -Demu_fibers=ucontext"
#endif
        .section .note.GNU-stack,"",%progbits
