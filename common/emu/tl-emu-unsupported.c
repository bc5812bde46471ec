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
 * more than 32 threads written as a constant; read as tokens (tl-lex.h: comments and literals are
 * no code, a directive other than #include is read as code too). What only overload resolution
 * tells apart (cg::reduce over a whole block, grid_group::sync) is not recognised here; a build
 * that fails on it fails as the student's (the compiler's words are quoted).
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
#include "tl-lex.h"

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

/* The header an #include directive text[s, e) names, without its folder, in *b and *n; 0 when the
 * directive is not an #include of <...> or "...". */
static int include_name(const char *x, size_t s, size_t e, size_t *b, size_t *n)
{
    size_t q = s + 1;
    while (q < e && (x[q] == ' ' || x[q] == '\t')) q++;
    if (e - q <= 7 || memcmp(x + q, "include", 7)) return 0;
    q += 7;
    while (q < e && (x[q] == ' ' || x[q] == '\t')) q++;
    if (q >= e || (x[q] != '<' && x[q] != '"')) return 0;
    char close = x[q] == '<' ? '>' : '"';
    size_t h = ++q;
    while (q < e && x[q] != close && x[q] != '\n') q++;
    *b = h;                                   /* the header's own name, without a folder */
    for (size_t i = h; i < q; i++) if (x[i] == '/') *b = i + 1;
    *n = q - *b;
    return 1;
}

/* The calls of the lists above among the tokens of lx (a file, or the inside of a directive), into fd. */
static void scan_tokens(tl_lexer *lx, Found *fd)
{
    const char *s = lx->text;
    tl_lex_tok t, next, prev = {0};
    int have = 0;
    for (;;) {
        if (!have) tl_lex_next(lx, &t);
        else t = next;
        have = 0;
        if (t.kind == TL_LEX_END) return;
        if (t.kind == TL_LEX_DIRECTIVE) {
            size_t hb, hn;
            if (include_name(s, t.s, t.e, &hb, &hn)) {
                if (in_list(no_headers, s + hb, hn)) add_found(fd, t.line, "", s + hb, hn, "");
            } else {               /* another directive: its words are read as code (a #define of a call) */
                tl_lexer in = {.text = s, .n = t.e, .p = t.s + 1, .line = t.line, .bol = 0};
                scan_tokens(&in, fd);
            }
            prev = t;
            continue;
        }
        if (t.kind == TL_LEX_ID) {
            const char *w = s + t.s;
            size_t l = t.e - t.s;
            tl_lex_next(lx, &next);
            have = 1;
            int member = prev.kind == TL_LEX_PUNCT && prev.e == t.s &&
                         (tl_lex_is(s, &prev, ".") || tl_lex_is(s, &prev, "->"));
            int call = next.kind == TL_LEX_PUNCT && (tl_lex_is(s, &next, "(") || tl_lex_is(s, &next, "<"));
            if (!member && call && in_list(no_calls, w, l)) add_found(fd, t.line, "", w, l, "");
            if (!member && call && in_list(no_cg_calls, w, l)) add_found(fd, t.line, "cg::", w, l, "");
            /* thread_block_tile<64> or tiled_partition<64>(...): tiles over 32 threads */
            if (next.kind == TL_LEX_PUNCT && tl_lex_is(s, &next, "<") &&
                ((l == 17 && !memcmp(w, "thread_block_tile", 17)) || (l == 15 && !memcmp(w, "tiled_partition", 15)))) {
                tl_lexer look = *lx;
                tl_lex_tok num;
                if (tl_lex_next(&look, &num) == TL_LEX_NUM) {
                    long v = 0;
                    size_t d = num.s;
                    while (d < num.e && isdigit((unsigned char)s[d]) && v < 100000) v = v * 10 + (s[d++] - '0');
                    if (d > num.s && (v > 32 || (v & (v - 1)) != 0 || v == 0)) {
                        char sfx[100];
                        snprintf(sfx, sizeof sfx, "<%ld> (tiles of 1 to 32 threads, a power of 2, are emulated)", v);
                        add_found(fd, t.line, "", w, l, sfx);
                    }
                }
            }
        }
        prev = t;
    }
}

/* Dies (through die(), which records it) when the source holds a construct of the lists above,
 * naming each (at the first one's line). */
void unsupported_scan(Rw *rw)
{
    Found fd = {0};
    tl_lexer lx;
    tl_lex_init(&lx, rw->src, rw->len);
    scan_tokens(&lx, &fd);
    if (fd.line)
        die(rw, fd.line, "not supported under emulation: %s (valid CUDA; emulation lacks it)",
            fd.text);
}
