/* answer.c: the grader's channel written without stdio (answer.h).
 *
 * Why: the lab program links the student's object before the kit's archives and the C library,
 * so a name the student defines replaces the library's for the whole program. The grader refuses
 * such an object before it runs (grader/policy.c, the defined-symbol check), and this file narrows
 * what that check must stand for: the answer is formatted into memory and leaves through a
 * `syscall` instruction in this object, not through write(), fwrite() or fflush(). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"

static int grow(tl_answer *a, size_t more)
{
    if (a->failed)
        return -1;
    if (a->len + more + 1 <= a->cap)
        return 0;
    size_t cap = a->cap ? a->cap : 4096;
    while (cap < a->len + more + 1)
        cap *= 2;
    char *s = realloc(a->s, cap);
    if (!s) {
        a->failed = 1;
        return -1;
    }
    a->s = s;
    a->cap = cap;
    return 0;
}

void tl_answer_printf(tl_answer *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[512];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0 || grow(a, (size_t)n) != 0)
        return;
    if ((size_t)n < sizeof small)
        memcpy(a->s + a->len, small, (size_t)n + 1);
    else {
        va_start(ap, fmt);
        vsnprintf(a->s + a->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    a->len += (size_t)n;
}

void tl_answer_bytes(tl_answer *a, const void *p, size_t n)
{
    if (grow(a, n) != 0)
        return;
    memcpy(a->s + a->len, p, n);
    a->len += n;
}

void tl_answer_matrix(tl_answer *a, const tl_matrix *m)
{
    tl_mat_header h = {1, TL_MAT_F32, (uint64_t)m->rows, (uint64_t)m->cols};
    unsigned char hdr[TL_MAT_HEADER_BYTES];
    tl_mat_header_encode(hdr, &h);
    tl_answer_bytes(a, hdr, sizeof hdr);
    size_t count = tl_matrix_count(m);
    if (grow(a, count * 4) != 0)
        return;
    unsigned char *o = (unsigned char *)a->s + a->len;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(o, m->data, count * 4);   /* the floats' bytes are the file's (CONTRACTS.md section 3) */
#else
    for (size_t i = 0; i < count; ++i) {
        uint32_t b;
        memcpy(&b, &m->data[i], 4);
        o[4 * i] = (unsigned char)b;
        o[4 * i + 1] = (unsigned char)(b >> 8);
        o[4 * i + 2] = (unsigned char)(b >> 16);
        o[4 * i + 3] = (unsigned char)(b >> 24);
    }
#endif
    a->len += count * 4;
}

/* write(2) as an instruction of this object: -errno or the count. */
static long raw_write(int fd, const void *p, size_t n)
{
#if defined(__x86_64__)
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(1L), "D"((long)fd), "S"(p), "d"(n) : "rcx", "r11", "memory");
    return r;
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = 64;
    register long x0 __asm__("x0") = fd;
    register long x1 __asm__("x1") = (long)p;
    register long x2 __asm__("x2") = (long)n;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
    return x0;
#else
#error "answer.c: a raw write for this architecture (x86-64 and AArch64 are written)"
#endif
}

int tl_answer_send(tl_answer *a, int fd)
{
    if (a->failed) {
        a->failed = 0;
        a->len = 0;
        static const char oom[] = "error out of host memory for the answer\n";
        return raw_write(fd, oom, sizeof oom - 1) == (long)(sizeof oom - 1) ? 0 : -1;
    }
    size_t off = 0;
    while (off < a->len) {
        long r = raw_write(fd, a->s + off, a->len - off);
        if (r == -EINTR)
            continue;
        if (r <= 0)
            return -1;
        off += (size_t)r;
    }
    a->len = 0;
    return 0;
}

void tl_answer_free(tl_answer *a)
{
    free(a->s);
    memset(a, 0, sizeof *a);
}
