/* tl-emu-unsupported.c: what emulation cannot run, as the kit itself decides it (issue 24).
 *
 * "Not supported under emulation" is the one build outcome that is not the student's failure: the
 * grader then says "not graded here; check it on a GPU" instead of failing the build. A compiler's
 * words cannot carry that outcome, since a student file can print any words through the compiler
 * (`#error "... not supported under emulation"`, a #line naming a kit header, a function of its own
 * declared with an error attribute). So the rewrite, a kit program that reads the source before any
 * compiler does, is the only judge: it refuses every construct it can recognise in the text
 * (unsupported_scan below, and its own refusals) and records the refusal in the file named by the
 * environment variable TL_EMU_UNSUPPORTED (set by the grader for its builds, in the build folder,
 * which no student code writes: nothing of the student's runs during a build). The grader reads
 * that file; the compiler's text is never asked. common/CONTRACTS.md section 10 states the channel.
 *
 * The scan: includes of the headers emulation does not provide at all (each would stop the compile
 * with an #error), and calls of the functions the emulation headers declare with an error attribute
 * (cuBLAS, the cooperative-groups features that are not emulated, __pipeline_arrive_on), tiles of
 * more than 32 threads written as a constant. Comments and literals are skipped. What only overload
 * resolution tells apart (cg::reduce over a whole block, grid_group::sync) is not recognised here;
 * a build that fails on it fails as the student's (the compiler's words are quoted).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl-emu-rewrite-state.h"

static const char *const no_headers[] = {"curand.h", "curand_kernel.h", "cuda_fp16.h", "cusparse.h", "cufft.h", NULL};
static const char *const no_calls[] = {
    "cublasCreate", "cublasCreate_v2", "cublasDestroy", "cublasDestroy_v2", "cublasSetStream", "cublasSetStream_v2",
    "cublasSgemm", "cublasSgemm_v2", "cublasDgemm", "cublasDgemm_v2", "__pipeline_arrive_on", NULL};
static const char *const no_cg_calls[] = {   /* cooperative groups: named cg::NAME */
    "this_multi_grid", "this_cluster", "labeled_partition", "binary_partition", "invoke_one", "memcpy_async",
    "inclusive_scan", "exclusive_scan", "reduce_update_async", "reduce_store_async", NULL};

/* Appends "FILE:LINE: MESSAGE" to $TL_EMU_UNSUPPORTED (when set): called by die() for a message of
 * the rewrite's own that begins "not supported under emulation" (a format string of the kit's). */
void unsupported_record(const char *file, int at_line, const char *fmt, va_list ap)
{
    const char *path = getenv("TL_EMU_UNSUPPORTED");
    if (!path || !*path)
        return;
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "%s:%d: ", file, at_line);
    if (n < 0 || (size_t)n >= sizeof msg)
        n = 0;
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    size_t l = strcspn(msg, "\n");
    msg[l] = '\n';
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, msg, l + 1);
        (void)w;
        close(fd);
    }
}

static int in_list(const char *const *list, const char *s, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !memcmp(list[i], s, n))
            return 1;
    return 0;
}

/* The constructs found, named once each in the one refusal: the first one's line. */
typedef struct { char text[600]; int line; } Found;

static void add_found(Found *fd, int ln, const char *prefix, const char *name, size_t n, const char *suffix)
{
    char one[260];
    snprintf(one, sizeof one, "%s%.*s%s", prefix, (int)(n > 120 ? 120 : n), name, suffix);
    size_t ol = strlen(one), fl = strlen(fd->text);
    for (const char *p = fd->text; (p = strstr(p, one)); p += ol)   /* once each */
        if ((p == fd->text || p[-1] == ' ') && (p[ol] == ',' || p[ol] == '\0'))
            return;
    if (!fd->line)
        fd->line = ln;
    if (fl + ol + 3 < sizeof fd->text)
        snprintf(fd->text + fl, sizeof fd->text - fl, "%s%s", fl ? ", " : "", one);
}

/* Dies (through die(), which records it) when the source holds a construct of the lists above,
 * naming each (at the first one's line). */
void unsupported_scan(Rw *rw)
{
    const char *s = rw->src;
    size_t len = rw->len;
    Found fd = {0};
    int ln = 1, bol = 1;
    for (size_t p = 0; p < len;) {
        char c = s[p];
        if (c == '\n') { ln++; bol = 1; p++; continue; }
        if (c == '/' && p + 1 < len && s[p + 1] == '/') { while (p < len && s[p] != '\n') p++; continue; }
        if (c == '/' && p + 1 < len && s[p + 1] == '*') {
            for (p += 2; p + 1 < len && !(s[p] == '*' && s[p + 1] == '/'); p++) ln += s[p] == '\n';
            p += 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            for (p++; p < len && s[p] != c && s[p] != '\n'; p++)
                if (s[p] == '\\' && p + 1 < len) p++;
            p++;
            continue;
        }
        if (isspace((unsigned char)c)) { p++; continue; }
        if (c == '#' && bol) {   /* a directive: only #include matters */
            size_t q = p + 1;
            while (q < len && (s[q] == ' ' || s[q] == '\t')) q++;
            if (len - q > 7 && !memcmp(s + q, "include", 7)) {
                q += 7;
                while (q < len && (s[q] == ' ' || s[q] == '\t')) q++;
                if (q < len && (s[q] == '<' || s[q] == '"')) {
                    char close = s[q] == '<' ? '>' : '"';
                    size_t b = ++q;
                    while (q < len && s[q] != close && s[q] != '\n') q++;
                    size_t b2 = b;   /* the header's own name, without a folder */
                    for (size_t i = b; i < q; i++) if (s[i] == '/') b2 = i + 1;
                    if (in_list(no_headers, s + b2, q - b2))
                        add_found(&fd, ln, "", s + b2, q - b2, "");
                    while (q < len && s[q] != '\n') q++;
                    p = q;
                    continue;
                }
            }
            bol = 0;
            p++;
            continue;
        }
        bol = 0;
        if (is_id((unsigned char)c) && !isdigit((unsigned char)c)) {
            size_t b = p;
            while (p < len && is_id((unsigned char)s[p])) p++;
            size_t q = p;
            while (q < len && (s[q] == ' ' || s[q] == '\t')) q++;
            int member = b > 0 && (s[b - 1] == '.' || (b > 1 && s[b - 1] == '>' && s[b - 2] == '-'));
            if (!member && q < len && (s[q] == '(' || s[q] == '<') && in_list(no_calls, s + b, p - b))
                add_found(&fd, ln, "", s + b, p - b, "");
            if (!member && q < len && (s[q] == '(' || s[q] == '<') && in_list(no_cg_calls, s + b, p - b))
                add_found(&fd, ln, "cg::", s + b, p - b, "");
            /* thread_block_tile<64> or tiled_partition<64>(...): tiles over 32 threads */
            if (q < len && s[q] == '<' && ((p - b == 17 && !memcmp(s + b, "thread_block_tile", 17)) ||
                                           (p - b == 15 && !memcmp(s + b, "tiled_partition", 15)))) {
                size_t d = q + 1;
                while (d < len && (s[d] == ' ' || s[d] == '\t')) d++;
                long v = 0;
                size_t d0 = d;
                while (d < len && isdigit((unsigned char)s[d]) && v < 100000) v = v * 10 + (s[d++] - '0');
                if (d > d0 && (v > 32 || (v & (v - 1)) != 0 || v == 0)) {
                    char sfx[100];
                    snprintf(sfx, sizeof sfx, "<%ld> (tiles of 1 to 32 threads, a power of 2, are emulated)", v);
                    add_found(&fd, ln, "", s + b, p - b, sfx);
                }
            }
            continue;
        }
        p++;
    }
    if (fd.line)
        die(rw, fd.line, "not supported under emulation: %s (valid CUDA; emulation lacks it)",
            fd.text);
}
