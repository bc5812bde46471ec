/* policy.h: what a lab file may not do, checked two ways for the rubric's policy test.
 *
 * Static: the student file is scanned (after comments and string literals are blanked) for calls
 * a lab file never needs: the network, processes, files, raw system calls, dlopen, getenv,
 * inline assembly, and network headers. Each finding names the file, the line and the call.
 *
 * Run time: the sandboxed child installs a seccomp filter before exec, written by libseccomp
 * (no_new_privs, an architecture check that kills any other ABI) that kills the process (SIGSYS)
 * when it asks for an AF_INET, AF_INET6 or AF_PACKET socket. AF_UNIX and AF_NETLINK stay allowed (CUDA uses
 * them). Not used under compute-sanitizer (it talks to its target over TCP). */
#ifndef TILELAB_GRADER_POLICY_H
#define TILELAB_GRADER_POLICY_H

#include <stddef.h>

#include "util.h"

/* Scans one file's text; appends "FILE:LINE: calls X() (...)" lines to findings. Returns the
 * number of findings. */
int tg_policy_scan(const char *file, const char *text, size_t len, tg_buf *findings);

/* Judges one compiled student object from the digest tg_policy_objdump_script() printed for it
 * in the sandbox:
 *  - it defines no name that the C or C++ runtime, the CUDA runtime (or the emulator's) or the
 *    kit's archives define, strong or weak (interposition: the lab program links the student's
 *    object first, so a definition of fprintf, write or tl_matfile_fwrite would run in place of the
 *    real one). The names are read with nm from the real libraries at build time
 *    (reserved-symbols.sh, tg_reserved_syms). A weak definition of a name that the runtime or
 *    the kit defines only weakly is an inline function or template instantiated from a header
 *    both include, and passes;
 *  - every undefined symbol is on the allow-list (math, memory, printing, allocation, the CUDA
 *    runtime calls a lab uses) or on the lab's own list of kit functions (kit_calls, the lab
 *    table's space-separated .kit_calls; NULL: none): no prefix rule, a tl_ name the lab does not
 *    list is refused;
 *  - no system call instruction.
 * Appends "FILE: gmm.c:LINE: links SYMBOL (why)" and "FILE: gmm.c:LINE: defines SYMBOL (why)"
 * lines; returns the number of findings. emu: the emulator's rewritten C++ (its runtime and the
 * C++ library allowed). -1: the digest is not whole (objdump missing or failed): no verdict. */
int tg_policy_objects(const char *file, const char *report, int emu, const char *kit_calls, tg_buf *findings);

/* Host inline assembly in a student file's text: an asm statement outside a function marked
 * __global__ or __device__ only (file scope, a host function, a __host__ __device__ one), also
 * through a macro whose body holds asm. Device PTX (lab 08's wgmma) passes. Appends
 * "FILE:LINE: host inline assembly (...)" lines; returns the number of findings. */
int tg_policy_host_asm(const char *file, const char *text, size_t len, tg_buf *findings);

/* A test of what tells the GPU build from the emulated ones (issue 29): where the work of a GPU lab is
 * counted by the emulated counting twin (the default on a GPU too), a file that compiles otherwise
 * there could show the count a kernel the GPU does not run. Findings, one a line:
 *   - anywhere outside comments and strings, a name only one of the builds defines: TL_EMU...
 *     (TL_EMULATED, the kit's emulation macros), __SANITIZE_... (the counting twin), __CUDACC...,
 *     __NVCC..., __has_include..., and __CUDA_ARCH... unless arch_ok (a lab with GPU-only variants,
 *     whose device code needs it: 07, 08);
 *   - in a conditional (#if, #elif, #ifdef, #ifndef, #elifdef, #elifndef, defined()), also a name
 *     the emulator's header defines as a macro where CUDA's does not, or with another value
 *     (__syncthreads, printf, cudaMalloc, CUDART_VERSION ...), a CUDA header's guard (__CUDA...,
 *     CUDA_VERSION), a kit macro (TL_...), or a macro of the file's whose body holds any of them
 *     (expanded in #if and #elif).
 * "FILE:LINE: tests NAME, ..." lines appended; returns the number of findings. */
int tg_policy_build_split(const char *file, const char *text, size_t len, int arch_ok, tg_buf *findings);

/* The build-time list of names the runtimes and the kit define (grader/reserved-symbols.sh). */
typedef struct tg_reserved_sym {
    const char *name;
    int         weak;   /* every definition of it is weak (an inline function or template) */
    int         kit;    /* the kit's own archives (common/) define it                       */
    int         emu;    /* the emulator's runtime defines it (an emulated object refers to it) */
} tg_reserved_sym;
extern const tg_reserved_sym tg_reserved_syms[];   /* sorted by name (strcmp order, LC_ALL=C) */
extern const int             tg_nreserved_syms;
/* The entry of name, or NULL. */
const tg_reserved_sym *tg_reserved_find(const char *name);
/* The shell script (sh -c SCRIPT sh OBJECT) that prints that digest with objdump. */
const char *tg_policy_objdump_script(void);

/* Installs the network filter in the calling process (inherited across fork and exec).
 * 0 ok, -1 not installed (errno). */
int tg_seccomp_net_install(void);

#endif
