/* tl-emu-rewrite: turns a CUDA C source (.cu) into C++ that the host compiler builds against tl_emu.h.
 *
 *   tl-emu-rewrite IN.cu OUT.cpp        (Meson: the tl_emu_rewrite generator, X.cu -> X.emu.cpp)
 *
 * What changes, always within the student's line so that every line keeps its number (the output
 * starts with `#line 1 "IN.cu"` and no newline is added or removed before the end of the file):
 *   - kernel<<<grid, block[, shmem[, stream]]>>>(args)
 *       -> tl_emu_launch(kernel, "kernel", __FILE__, __LINE__, grid, block[, shmem[, stream]])(args)
 *   - __shared__ T name[A][B];  (scalars, 1-D and 2-D arrays, several declarators)
 *       -> a static Site (name, file, line) and a view bound to the block's storage; a declaration's
 *          newlines move to its end
 *   - extern __shared__ T name[];   -> a view of the launch's dynamic shared memory
 *   - each later use of such a name, `name`  -> `name(__LINE__)`, so every access knows its line
 *   - `#pragma unroll` lines become comments (g++ does not know them), `_Pragma("unroll")` in a
 *     #define becomes spaces; `(T *)(name ...)` of a __shared__ name becomes `(T *)(&*name(__LINE__) ...)`
 *   - __noinline__ becomes __attribute__((noinline)) (a macro would break libstdc++'s own use of it)
 * __global__, __device__ and __host__ stay: tl_emu.h defines them away. After the last line the
 * rewrite registers each kernel with its static shared memory size, for cudaFuncGetAttributes.
 * Errors are printed as FILE:LINE: error: ..., like a compiler's, and the exit code is 1.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl-emu-rewrite.h"
#include "tl-emu-rewrite-state.h"

/* ---- growable text ---------------------------------------------------------------------------- */
void buf_add(Buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) { fprintf(stderr, "tl-emu-rewrite: out of memory\n"); exit(1); }
        b->p = p; b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
void buf_str(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }
void buf_fmt(Buf *b, const char *fmt, ...) {
    char tmp[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) { fprintf(stderr, "tl-emu-rewrite: generated text too long\n"); exit(1); }
    buf_add(b, tmp, (size_t)n);
}

/* ---- state (shared with tl-emu-shared-decl.c through tl-emu-rewrite-state.h) ---------------------- */
const char *src;                 /* the whole input */
size_t len, pos;
int line = 1;                    /* line of src[pos] */
static const char *in_path;
Buf out;
char last_sig = ';';             /* last significant character written */
static char prev_sig = ';';      /* the one before */

Name names[MAX_NAMES];
int nnames;
Kernel kernels[MAX_KERNELS];
static int nkernels;

int depth;                                        /* braces */
static int func_body_depth[MAX_DEPTH];            /* 1 where a brace opened a function body */
int in_func;                                      /* how many function bodies are open */
static int kstate;                                /* 0 none, 1 saw __global__, 2 in its params, 3 after them */
static int kparen;                                /* paren depth while looking for a kernel's params */
static char kname[128];
static int ktemplate;                             /* the kernel being read is a template */
static int kbody_depth = -1;                      /* depth of the kernel body being read, or -1 */
int cur_kernel = -1;
static size_t kps, kpe;                           /* in out: the parameters of the kernel being read */
enum { MAX_PTRS = 64 };
static char kptr[MAX_PTRS][128];                  /* the pointer parameters of the kernel being read */
static int nkptr;
static int use_regions = 1;                       /* 0 with --fibers */
static int in_directive;                          /* rewriting a #define that holds a launch */
static int pnest;                                 /* ( and [ open, outside preprocessor lines */
static int auto_close = -1, auto_close_depth;     /* an `auto x = ` being wrapped in tl_emu::va( ): its nesting */

/* Every function body of the file, to know which hold a barrier or a warp operation. */
enum { MAX_FUNCS = 1024 };
typedef struct { char name[128]; size_t bs, be; int barrier, device; } Func;
static Func funcs[MAX_FUNCS];
static int nfuncs;
static int func_open[MAX_DEPTH];                  /* index in funcs of a body opened at this depth */

void die(int at_line, const char *fmt, ...) {
    va_list ap;
    if (!strncmp(fmt, "not supported under emulation", 29)) {   /* the kit's own verdict: recorded */
        va_start(ap, fmt);
        unsupported_record(in_path, at_line, fmt, ap);
        va_end(ap);
    }
    fprintf(stderr, "%s:%d: error: tl-emu-rewrite: ", in_path, at_line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

void emit(const char *s, size_t n) {
    buf_add(&out, s, n);
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i])) { prev_sig = last_sig; last_sig = s[i]; }
}

/* Copies a comment or a string/char literal starting at pos, verbatim. Returns 0 if none starts here. */
static int copy_comment_or_literal(void) {
    size_t s = pos;
    if (src[pos] == '/' && pos + 1 < len && src[pos + 1] == '/') {
        while (pos < len && src[pos] != '\n') pos++;
        buf_add(&out, src + s, pos - s);
        return 1;
    }
    if (src[pos] == '/' && pos + 1 < len && src[pos + 1] == '*') {
        pos += 2;
        while (pos + 1 < len && !(src[pos] == '*' && src[pos + 1] == '/')) { if (src[pos] == '\n') line++; pos++; }
        if (pos + 1 >= len) die(line, "unterminated /* comment");
        pos += 2;
        buf_add(&out, src + s, pos - s);
        return 1;
    }
    if (src[pos] == '"' || src[pos] == '\'') {
        char q = src[pos++];
        while (pos < len && src[pos] != q) {
            if (src[pos] == '\\' && pos + 1 < len) pos++;
            if (src[pos] == '\n') die(line, "unterminated %s literal", q == '"' ? "string" : "character");
            pos++;
        }
        if (pos >= len) die(line, "unterminated literal");
        pos++;
        emit(src + s, pos - s);
        return 1;
    }
    return 0;
}

/* Skips blanks and comments in src from p; returns the new position; counts newlines into *nl. */
size_t skip_space(size_t p, int *nl) {
    for (;;) {
        while (p < len && isspace((unsigned char)src[p])) { if (src[p] == '\n' && nl) (*nl)++; p++; }
        if (p + 1 < len && src[p] == '/' && src[p + 1] == '/') { while (p < len && src[p] != '\n') p++; continue; }
        if (p + 1 < len && src[p] == '/' && src[p + 1] == '*') {
            p += 2;
            while (p + 1 < len && !(src[p] == '*' && src[p + 1] == '/')) { if (src[p] == '\n' && nl) (*nl)++; p++; }
            p += 2;
            continue;
        }
        return p;
    }
}

static const Name *find_name(const char *id, size_t n) {
    for (int i = nnames - 1; i >= 0; i--)
        if (strlen(names[i].name) == n && !memcmp(names[i].name, id, n)) return &names[i];
    return NULL;
}

/* ---- kernel<<<...>>>(...) ------------------------------------------------------------------------ */
static void launch(void) {
    int at = line;
    /* The kernel name is what was just written: back over blanks (and newlines, kept for after the
     * launch so that lines do not move; in a #define also the backslashes) and the identifier, with its
     * template arguments if any: kernel<float, 16><<<...>>>. */
    size_t e = out.n;
    int nls = 0;
    while (e > 0 && (isspace((unsigned char)out.p[e - 1]) || out.p[e - 1] == '\\')) { if (out.p[e - 1] == '\n') nls++; e--; }
    size_t b = e;
    if (b > 0 && out.p[b - 1] == '>') {
        int d = 0;
        while (b > 0) {
            b--;
            if (out.p[b] == '>') d++;
            else if (out.p[b] == '<' && --d == 0) break;
        }
        while (b > 0 && isspace((unsigned char)out.p[b - 1])) b--;
    }
    int expr = 0;
    if (b == e && b > 0 && out.p[b - 1] == ')') {
        /* the kernel through a function-like macro or in parentheses, SELECT(kernel)<<<...>>> or
         * (kernel)<<<...>>>: valid CUDA; the expression is the launch's callable as it is */
        int d = 0;
        while (b > 0) {
            b--;
            if (out.p[b] == ')') d++;
            else if (out.p[b] == '(' && --d == 0) break;
        }
        if (d != 0) b = e;
        expr = b < e;
    }
    size_t open = b;
    while (b > 0 && (is_id((unsigned char)out.p[b - 1]) || out.p[b - 1] == ':')) b--;
    if (expr && b == open) {
        /* no macro before the parentheses: (kernel) is a name, (*kp) a function pointer */
        for (size_t i = open + 1; i + 1 < e; i++) {
            unsigned char ch = (unsigned char)out.p[i];
            if (!is_id(ch) && ch != ':' && ch != '<' && ch != '>' && ch != ',' && !isspace(ch)) { b = e; break; }
        }
    }
    if (b == e || (!is_id0((unsigned char)out.p[b]) && !(expr && out.p[b] == '(')))
        die(at, "not supported under emulation: a launch whose kernel is not a name (a function pointer?); "
                "launch it by its name: kernel<<<grid, block>>>(args)");
    char name[256], sname[256];
    if (e - b >= sizeof name) die(at, "kernel name too long");
    memcpy(name, out.p + b, e - b); name[e - b] = 0;
    size_t sn = 0;                                               /* the name as a string: no newlines */
    for (size_t i = 0; name[i] && sn + 1 < sizeof sname; i++)
        if (name[i] != '\n' && name[i] != '\\' && name[i] != '"') sname[sn++] = name[i];
    sname[sn] = 0;
    for (size_t i = 0; name[i]; i++) if (name[i] == '\n' || name[i] == '\\') name[i] = ' ';
    out.n = b; out.p[b] = 0;
    pos += 3;                                                   /* <<< */
    Buf args[4] = {{0}};
    int na = 0, d = 0;
    for (;;) {
        if (pos >= len) die(at, "<<< without a matching >>>");
        char c = src[pos];
        if (d == 0 && c == '>' && pos + 2 < len && src[pos + 1] == '>' && src[pos + 2] == '>') { pos += 3; break; }
        if (c == '"' || c == '\'' || (c == '/' && pos + 1 < len && (src[pos + 1] == '/' || src[pos + 1] == '*'))) {
            Buf save = out; out = args[na];                     /* literal or comment: copy through */
            copy_comment_or_literal();
            args[na] = out; out = save;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') d++;
        if (c == ')' || c == ']' || c == '}') d--;
        if (c == ',' && d == 0) {
            if (++na == 4) die(at, "a launch takes at most 4 arguments between <<< and >>>: grid, block, shared bytes, stream");
            pos++;
            continue;
        }
        if (c == '\n') line++;
        buf_add(&args[na], &c, 1);
        pos++;
    }
    na++;
    if (na < 2) die(at, "a launch needs at least a grid and a block: kernel<<<grid, block>>>(args)");
    Buf o = {0};
    buf_fmt(&o, "tl_emu_launch(%s, \"%s\", __FILE__, __LINE__", name, sname);
    for (int i = 0; i < na; i++) {
        buf_str(&o, ", ");
        if (args[i].n) buf_add(&o, args[i].p, args[i].n);
        free(args[i].p);
    }
    buf_str(&o, ")");
    emit(o.p, o.n);
    free(o.p);
    for (int i = 0; i < nls; i++) buf_str(&out, in_directive ? " \\\n" : "\n");
}

/* Whether what was written last (blanks aside) is `template <...>`. */
static int preceded_by_template(void) {
    size_t e = out.n;
    while (e > 0 && isspace((unsigned char)out.p[e - 1])) e--;
    if (e == 0 || out.p[e - 1] != '>') return 0;
    int d = 0;
    size_t b = e;
    while (b > 0) {
        b--;
        if (out.p[b] == '>') d++;
        else if (out.p[b] == '<' && --d == 0) break;
    }
    while (b > 0 && isspace((unsigned char)out.p[b - 1])) b--;
    return b >= 8 && !memcmp(out.p + b - 8, "template", 8) && (b == 8 || !is_id((unsigned char)out.p[b - 9]));
}

/* ---- counting global accesses ------------------------------------------------------------------------ */
/* The names of the pointer parameters in out[a, b): the last identifier of each parameter with a '*'. */
static void read_pointer_params(size_t a, size_t b) {
    nkptr = 0;
    size_t p = a;
    while (p < b) {
        size_t e = p;
        int d = 0, star = 0;
        while (e < b && !(out.p[e] == ',' && d == 0)) {
            if (out.p[e] == '(' || out.p[e] == '[') d++;
            else if (out.p[e] == ')' || out.p[e] == ']') d--;
            else if (out.p[e] == '*') star = 1;
            e++;
        }
        size_t q = e;
        while (q > p && !is_id((unsigned char)out.p[q - 1])) q--;
        size_t r = q;
        while (r > p && is_id((unsigned char)out.p[r - 1])) r--;
        if (star && q > r && q - r < 128 && nkptr < MAX_PTRS) {
            memcpy(kptr[nkptr], out.p + r, q - r);
            kptr[nkptr][q - r] = 0;
            nkptr++;
        }
        p = e + 1;
    }
}
/* Whether the initialiser from src[at] to its ';' or ',' (depth 0) names a counted pointer: a local
 * pointer made from one (const float *a = Md + off, the CUDA samples' pointer walk) is counted too. */
static int init_uses_kptr(size_t at) {
    int d = 0;
    for (size_t p = at; p < len; p++) {
        char c = src[p];
        if (c == '(' || c == '[') d++;
        else if (c == ')' || c == ']') { if (--d < 0) return 0; }
        else if ((c == ';' || c == ',' || c == '{' || c == '}') && d == 0) return 0;
        else if (is_id0((unsigned char)c) && (p == 0 || !is_id((unsigned char)src[p - 1]))) {
            size_t e = p;
            while (e < len && is_id((unsigned char)src[e])) e++;
            for (int k = 0; k < nkptr; k++)
                if (strlen(kptr[k]) == e - p && !memcmp(kptr[k], src + p, e - p)) return 1;
            p = e - 1;
        }
    }
    return 0;
}

/* For a pointer parameter followed by '[' at src[at]: 0 when the element is read, 1 written (p[i] = v),
 * 2 both (p[i] += v, p[i]++, ++p[i]); -1 when no '[' follows. */
static int subscript_kind(size_t at) {
    size_t p = skip_space(at, NULL);
    if (p >= len || src[p] != '[') return -1;
    int d = 0;
    for (; p < len; p++) {
        char c = src[p];
        if (c == '"' || c == '\'') {
            char q = c;
            for (p++; p < len && src[p] != q; p++) if (src[p] == '\\') p++;
            continue;
        }
        if (c == '[' || c == '(') d++;
        else if ((c == ']' || c == ')') && --d == 0) break;
    }
    p = skip_space(p + 1, NULL);
    if (p + 1 < len && ((src[p] == '+' && src[p + 1] == '+') || (src[p] == '-' && src[p + 1] == '-'))) return 2;
    if (p < len && src[p] == '=' && !(p + 1 < len && src[p + 1] == '=')) return 1;
    if (p + 1 < len && strchr("+-*/%&|^", src[p]) && src[p] && src[p + 1] == '=') return 2;
    if (p + 2 < len && (src[p] == '<' || src[p] == '>') && src[p + 1] == src[p] && src[p + 2] == '=') return 2;
    return 0;
}

/* ---- region form ---------------------------------------------------------------------------------- */
/* The name of the function whose body opens now: the identifier before the ( of the parameters that
 * end at the last ')' written. */
static void func_name_before(char *name, size_t n) {
    name[0] = 0;
    size_t e = out.n;
    while (e > 0 && isspace((unsigned char)out.p[e - 1])) e--;
    if (e == 0 || out.p[e - 1] != ')') return;
    int d = 0;
    size_t p = e;
    while (p > 0) {
        p--;
        if (out.p[p] == ')') d++;
        else if (out.p[p] == '(' && --d == 0) break;
    }
    while (p > 0 && isspace((unsigned char)out.p[p - 1])) p--;
    size_t b = p;
    while (b > 0 && is_id((unsigned char)out.p[b - 1])) b--;
    if (p - b == 0 || p - b >= n) return;
    memcpy(name, out.p + b, p - b);
    name[p - b] = 0;
}

/* Whether the function whose body opens now was declared __device__ or __global__ (the words since the
 * end of the previous declaration or block). */
static int declared_for_device(void) {
    /* the whole declaration, back to the end of what came before it: a signature may span lines
     * (static __device__ __forceinline__ float4 load4(..., <newline> int vec) <newline> {) */
    size_t b2 = out.n;
    while (b2 > 0 && out.p[b2 - 1] != ';' && out.p[b2 - 1] != '}' && out.p[b2 - 1] != '{') b2--;
    const char *t = out.p + b2;
    size_t n = out.n - b2;
    for (size_t i = 0; i + 10 <= n; i++)
        if (!memcmp(t + i, "__device__", 10) || !memcmp(t + i, "__global__", 10)) return 1;
    for (size_t i = 0; i + 8 <= n; i++)
        if (!memcmp(t + i, "template", 8) || !memcmp(t + i, "operator", 8)) return 1;   /* not judged */
    return 0;
}

static int has_word(const char *t, size_t n, const char *w) {
    size_t l = strlen(w);
    for (size_t i = 0; i + l <= n; i++)
        if (!memcmp(t + i, w, l) && (i == 0 || !is_id((unsigned char)t[i - 1])) &&
            (i + l == n || !is_id((unsigned char)t[i + l])))
            return 1;
    return 0;
}
/* Which functions hold a barrier or a warp operation, directly or through another such function. */
static void mark_barrier_funcs(void) {
    static const char *w[] = {"__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                              "__shfl_xor_sync", "__ballot_sync", "__all_sync", "__any_sync", "sync",
                              "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__activemask",
                              "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
                              "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
                              "tiled_partition", "coalesced_threads", "thread_block_tile", "coalesced_group",
                              "thread_group", NULL};
    for (int f = 0; f < nfuncs; f++)
        for (int k = 0; w[k] && !funcs[f].barrier; k++)
            if (funcs[f].be > funcs[f].bs && has_word(out.p + funcs[f].bs, funcs[f].be - funcs[f].bs, w[k])) funcs[f].barrier = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int f = 0; f < nfuncs; f++) {
            if (funcs[f].barrier || funcs[f].be <= funcs[f].bs) continue;
            for (int g = 0; g < nfuncs; g++)
                if (funcs[g].barrier && funcs[g].name[0] &&
                    has_word(out.p + funcs[f].bs, funcs[f].be - funcs[f].bs, funcs[g].name)) {
                    funcs[f].barrier = 1; changed = 1; break;
                }
        }
    }
}
static int is_barrier_func(const char *name, size_t n) {
    for (int f = 0; f < nfuncs; f++)
        if (funcs[f].barrier && strlen(funcs[f].name) == n && !memcmp(funcs[f].name, name, n)) return 1;
    return 0;
}

/* Invalid CUDA that nvcc rejects and g++ would build: a kernel calling a host function of this file
 * (defined without __device__), or std::min/std::max/std::swap (constexpr host functions). */
static void check_host_calls(void) {
    for (int k = 0; k < nkernels; k++) {
        const Kernel *K = &kernels[k];
        for (size_t p = K->bs; p < K->be; p++) {
            if (!is_id0((unsigned char)out.p[p]) || (p > 0 && is_id((unsigned char)out.p[p - 1]))) continue;
            size_t e = p;
            while (e < K->be && is_id((unsigned char)out.p[e])) e++;
            size_t q = e;
            while (q < K->be && (out.p[q] == ' ' || out.p[q] == '\t')) q++;
            int call = q < K->be && out.p[q] == '(';
            int std_call = p >= 5 && !memcmp(out.p + p - 5, "std::", 5) &&
                           ((e - p == 3 && (!memcmp(out.p + p, "min", 3) || !memcmp(out.p + p, "max", 3))) ||
                            (e - p == 4 && !memcmp(out.p + p, "swap", 4)));
            const char *host = NULL;
            if (call && !std_call && !(p > 0 && (out.p[p - 1] == '.' || out.p[p - 1] == ':' || out.p[p - 1] == '>')))
                for (int f = 0; f < nfuncs; f++)
                    if (!funcs[f].device && strlen(funcs[f].name) == e - p && !memcmp(funcs[f].name, out.p + p, e - p)) {
                        host = funcs[f].name;
                        break;
                    }
            if (!std_call && !host) { p = e; continue; }
            int at = 0;                                     /* the student's line: out starts with #line */
            for (size_t i = 0; i < p; i++) at += out.p[i] == '\n';
            if (std_call)
                die(at, "calling a constexpr __host__ function(\"std::%.*s\") from a __global__ function(\"%s\") is not "
                        "allowed (nvcc rejects it); use %.*s(a, b), which CUDA provides for device code",
                    (int)(e - p), out.p + p, K->name, (int)(e - p), out.p + p);
            die(at, "calling a __host__ function(\"%s\") from a __global__ function(\"%s\") is not allowed (nvcc "
                    "rejects it); declare it __device__ (or __host__ __device__)", host, K->name);
        }
    }
}

/* Puts every kernel it can in region form, from the last to the first so that offsets stay right. */
static void make_regions(void) {
    mark_barrier_funcs();
    /* a barrier hidden in a macro cannot be seen in the kernel bodies: keep all kernels on fibers */
    int hidden = 0;
    for (size_t p = 0; p < len; p++)
        if (src[p] == '#' && (p == 0 || src[p - 1] == '\n')) {
            size_t e = p;
            while (e < len && (src[e] != '\n' || (e > 0 && src[e - 1] == '\\'))) e++;
            static const char *sync_words[] = {"__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_up_sync",
                "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync", "__activemask",
                "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__match_any_sync", "__match_all_sync",
                "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
                "__reduce_xor_sync", "tiled_partition", "coalesced_threads", "sync", NULL};
            for (int k = 0; sync_words[k]; k++) if (has_word(src + p, e - p, sync_words[k])) hidden = 1;
            p = e;
        }
    for (int k = nkernels - 1; k >= 0; k--) {
        Kernel *K = &kernels[k];
        if (!use_regions) { snprintf(K->why, sizeof K->why, "tl-emu-rewrite --fibers"); continue; }
        if (K->is_template) { snprintf(K->why, sizeof K->why, "a template kernel"); continue; }
        if (hidden) { snprintf(K->why, sizeof K->why, "a #define of the file holds a barrier or a warp operation"); continue; }
        Buf nb = {0};
        int body_line = 0;        /* out starts with `#line 1 "IN.cu"` and its newline */
        for (size_t p = 0; p < K->bs; p++) body_line += out.p[p] == '\n';
        if (!tl_region_body(out.p + K->ps, K->pe - K->ps, out.p + K->bs, K->be - K->bs, body_line, is_barrier_func, &nb,
                            K->why, sizeof K->why)) {
            free(nb.p);
            continue;
        }
        Buf o = {0};
        buf_add(&o, out.p, K->bs);
        buf_add(&o, nb.p ? nb.p : "", nb.n);
        buf_add(&o, out.p + K->be, out.n - K->be);
        free(out.p);
        free(nb.p);
        out = o;
        K->region = 1;
    }
}

/* The output so far ends with "*)(" (spaces allowed between): the operand of a pointer cast opens. */
/* Whether out ends with the characters of want (read backwards), blanks between them allowed; i: where
 * the match starts. */
static int out_ends_with(size_t *i, const char *want) {
    for (int k = 0; want[k]; k++) {
        while (*i > 0 && (out.p[*i - 1] == ' ' || out.p[*i - 1] == '\t')) (*i)--;
        if (*i == 0 || out.p[*i - 1] != want[k]) return 0;
        (*i)--;
    }
    return 1;
}
static int out_ends_with_ptr_cast(void) {
    size_t i = out.n;
    if (out_ends_with(&i, "()*")) return 1;     /* (T *)(name ... */
    /* a pointer to rows: (float (*)[T])name or (float (*)[T])(name + k) */
    i = out.n;
    size_t j = i;
    if (out_ends_with(&j, "(")) i = j;
    if (!out_ends_with(&i, ")]")) return 0;
    int d = 1;
    while (i > 0 && d > 0) {
        i--;
        if (out.p[i] == ']') d++;
        else if (out.p[i] == '[') d--;
    }
    return d == 0 && out_ends_with(&i, ")*(");
}

/* ---- main loop ----------------------------------------------------------------------------------- */
static void preprocessor_line(void) {
    size_t s = pos;
    while (pos < len && src[pos] != '\n') {
        if (src[pos] == '\\' && pos + 1 < len && src[pos + 1] == '\n') { pos += 2; line++; continue; }
        pos++;
    }
    /* "#pragma unroll [N]": nvcc's; g++ would warn about an unknown pragma. */
    size_t p = s + 1;
    while (p < pos && (src[p] == ' ' || src[p] == '\t')) p++;
    if (pos - p >= 13 && !memcmp(src + p, "pragma", 6)) {
        size_t q = p + 6;
        while (q < pos && (src[q] == ' ' || src[q] == '\t')) q++;
        if (pos - q >= 6 && !memcmp(src + q, "unroll", 6) && (q + 6 == pos || !is_id((unsigned char)src[q + 6]))) {
            buf_str(&out, "/* ");
            for (size_t i = s; i < pos; i++) if (src[i] != '\n' && !(src[i] == '*' && i + 1 < pos && src[i + 1] == '/')) buf_add(&out, src + i, 1);
            buf_str(&out, " */");
            return;
        }
    }
    /* A launch written inside a macro (#define LAUNCH(k, n) k<<<grid, block>>>(n)): rewritten in place. */
    int has_launch = 0;
    for (size_t i = s; i + 2 < pos; i++)
        if (src[i] == '<' && src[i + 1] == '<' && src[i + 2] == '<') { has_launch = 1; break; }
    if (has_launch) {
        size_t end = pos;
        int nl_in = 0;
        for (size_t i = s; i < end; i++) nl_in += src[i] == '\n';
        line -= nl_in;                                       /* counted again below */
        pos = s;
        in_directive = 1;
        while (pos < end) {
            char c = src[pos];
            if (c == '\\' && pos + 1 < len && src[pos + 1] == '\n') { buf_add(&out, "\\\n", 2); pos += 2; line++; continue; }
            if (copy_comment_or_literal()) continue;
            if (c == '<' && pos + 2 < end && src[pos + 1] == '<' && src[pos + 2] == '<') { launch(); continue; }
            emit(&c, 1);
            pos++;
        }
        in_directive = 0;
        return;
    }
    /* _Pragma("unroll") in a macro (a loop a #define unrolls): blanked, as #pragma unroll above */
    static const char up[] = "_Pragma(\"unroll\")";
    for (size_t i = s; i < pos; i++) {
        if (i + sizeof up - 1 <= pos && !memcmp(src + i, up, sizeof up - 1) && (i == s || !is_id((unsigned char)src[i - 1]))) {
            for (size_t j = 0; j < sizeof up - 1; j++) buf_add(&out, " ", 1);
            i += sizeof up - 2;
        } else {
            buf_add(&out, src + i, 1);
        }
    }
}

/* Cooperative groups' block in region form. In a kernel, `cg::thread_block B = cg::this_thread_block();`
 * whose every later use is `B.member` or `NS::sync(B)` is rewritten: the initialiser becomes
 * `::cooperative_groups::thread_block()` (B [[maybe_unused]]), `B.sync()` and `NS::sync(B)` become __syncthreads() (all they
 * do, so that region form sees the barrier), and `B.member` becomes `::cooperative_groups::thread_block()
 * .member` (a thread_block holds no state: its members read threadIdx and blockDim), so B need not
 * live across regions. Any other form keeps the words this_thread_block or sync in the kernel, which
 * keep it on fibers (tl-emu-region.c). */
enum { MAX_CG_BLOCKS = 8 };
static char cg_blocks[MAX_CG_BLOCKS][64];
static int ncg_blocks;
static int is_cg_block(const char *id, size_t n) {
    for (int k = 0; k < ncg_blocks; k++)
        if (strlen(cg_blocks[k]) == n && !memcmp(cg_blocks[k], id, n)) return 1;
    return 0;
}
static size_t word_at(size_t p, const char *w) {
    size_t n = strlen(w);
    if (len - p >= n && !memcmp(src + p, w, n) && (p + n == len || !is_id((unsigned char)src[p + n]))) return p + n;
    return 0;
}
/* Every use of name in the rest of the kernel body (from p) is `name.` or `sync(name)`. */
static int cg_uses_replaceable(size_t p, const char *name) {
    size_t n = strlen(name);
    int open = depth - kbody_depth + 1;
    while (p < len && open > 0) {
        char c = src[p];
        if (c == '/' && p + 1 < len && (src[p + 1] == '/' || src[p + 1] == '*')) { p = skip_space(p, NULL); continue; }
        if (c == '"' || c == '\'') {
            for (p++; p < len && src[p] != c; p++) if (src[p] == '\\') p++;
            p++;
            continue;
        }
        if (c == '{') open++;
        else if (c == '}') open--;
        if (!is_id0((unsigned char)c) || (p > 0 && is_id((unsigned char)src[p - 1]))) { p++; continue; }
        size_t e = p;
        while (e < len && is_id((unsigned char)src[e])) e++;
        if (e - p == n && !memcmp(src + p, name, n) && !(p > 0 && (src[p - 1] == '.' || src[p - 1] == ':' || src[p - 1] == '>'))) {
            size_t a = skip_space(e, NULL);
            if (!(a < len && src[a] == '.')) {
                size_t b = p;                         /* sync ( name ) */
                while (b > 0 && isspace((unsigned char)src[b - 1])) b--;
                if (!(b >= 5 && src[b - 1] == '(' && a < len && src[a] == ')')) return 0;
                b--;
                while (b > 0 && isspace((unsigned char)src[b - 1])) b--;
                if (!(b >= 4 && !memcmp(src + b - 4, "sync", 4) && (b == 4 || !is_id((unsigned char)src[b - 5])))) return 0;
            }
        }
        p = e;
    }
    return 1;
}
/* At the word thread_block in a kernel: `NAME = [NS::]this_thread_block();` on one line, with only
 * replaceable uses, is emitted as `NAME = ::cooperative_groups::thread_block();` (1); else 0. */
static int cg_block_decl(void) {
    int nl = 0;
    size_t p = skip_space(pos, &nl), q = p;
    while (q < len && is_id((unsigned char)src[q])) q++;
    if (q == p || q - p >= sizeof cg_blocks[0] || !is_id0((unsigned char)src[p]) || ncg_blocks == MAX_CG_BLOCKS) return 0;
    char name[64];
    memcpy(name, src + p, q - p);
    name[q - p] = 0;
    size_t r = skip_space(q, &nl);
    if (r >= len || src[r] != '=') return 0;
    r = skip_space(r + 1, &nl);
    for (;;) {                                        /* cg:: or cooperative_groups:: */
        size_t e = r;
        while (e < len && is_id((unsigned char)src[e])) e++;
        size_t f = skip_space(e, &nl);
        if (e > r && f + 1 < len && src[f] == ':' && src[f + 1] == ':' && !word_at(r, "this_thread_block")) {
            r = skip_space(f + 2, &nl);
            continue;
        }
        break;
    }
    if (!(r = word_at(r, "this_thread_block"))) return 0;
    r = skip_space(r, &nl);
    if (r >= len || src[r] != '(') return 0;
    r = skip_space(r + 1, &nl);
    if (r >= len || src[r] != ')') return 0;
    r = skip_space(r + 1, &nl);
    if (r >= len || src[r] != ';' || nl || !cg_uses_replaceable(r + 1, name)) return 0;
    emit(" ", 1);
    emit(name, strlen(name));
    buf_str(&out, " [[maybe_unused]] = ::cooperative_groups::thread_block()");
    memcpy(cg_blocks[ncg_blocks++], name, sizeof name);
    pos = r;                                          /* the ';' is copied as usual */
    return 1;
}
/* At an identifier: `B.sync()` or `NS::sync(B)` for a block B above, on one line: emits
 * __syncthreads() (1); `B.` emits the block's value; else 0 and nothing. */
static int cg_block_use(const char *id, size_t n) {
    int nl = 0;
    size_t p = skip_space(pos, &nl), q;
    if (p < len && src[p] == '.' && is_cg_block(id, n)) {
        q = word_at(skip_space(p + 1, &nl), "sync");
        if (q) q = skip_space(q, &nl);
        if (q && q < len && src[q] == '(') q = skip_space(q + 1, &nl);
        if (q && q < len && src[q] == ')' && !nl) { emit("__syncthreads()", 15); pos = q + 1; return 1; }
        buf_str(&out, "::cooperative_groups::thread_block()");
        prev_sig = last_sig = ')';
        return 1;
    }
    if (p + 1 < len && src[p] == ':' && src[p + 1] == ':') {
        if (!(q = word_at(skip_space(p + 2, &nl), "sync"))) return 0;
        q = skip_space(q, &nl);
        if (q >= len || src[q] != '(') return 0;
        size_t b = skip_space(q + 1, &nl), e = b;
        while (e < len && is_id((unsigned char)src[e])) e++;
        if (e == b || !is_cg_block(src + b, e - b)) return 0;
        q = skip_space(e, &nl);
        if (q >= len || src[q] != ')' || nl) return 0;
        emit("__syncthreads()", 15);
        pos = q + 1;
        return 1;
    }
    return 0;
}

/* ---- uninitialised locals ------------------------------------------------------------------------
 * A float or double declared in a kernel without a value (`float Pvalue;`) gets one it cannot be
 * mistaken for: a NaN marked with the declaration's line (tl_emu::uninit_f/uninit_d). x86 keeps a NaN's
 * bits through +, * and fma, so a sum started from it stores the mark into P, and the lab harness
 * (common/driver.c) names the line: "reading a local before giving it a value". On a GPU the register
 * holds whatever it held, often 0: such a kernel may pass there by luck. Only plain scalars of a
 * declaration statement (`float a, b = 0, c;`): anything else (pointers, arrays, references) is left. */
static size_t uninit_at[16];
static int nuninit, uninit_dbl;
static void find_uninit(size_t p, int dbl) {
    size_t at[16];
    int n = 0;
    nuninit = 0;
    for (;;) {
        p = skip_space(p, NULL);
        if (p >= len || !is_id0((unsigned char)src[p])) return;
        while (p < len && is_id((unsigned char)src[p])) p++;
        size_t e = p;
        p = skip_space(p, NULL);
        if (p >= len) return;
        if (src[p] == ';' || src[p] == ',') {
            if (n < 16) at[n++] = e;
            if (src[p++] == ';') break;
            continue;
        }
        if (src[p] != '=' || (p + 1 < len && src[p + 1] == '=')) return;   /* [, (, :, a qualifier ... */
        int d = 0;
        for (p++; p < len; p++) {
            char ch = src[p];
            if (ch == '"' || ch == '\'' || ch == '#') return;
            if (ch == '(' || ch == '[' || ch == '{') d++;
            else if (ch == ')' || ch == ']' || ch == '}') { if (d-- == 0) return; }
            else if ((ch == ',' || ch == ';') && d == 0) break;
        }
        if (p >= len) return;
        if (src[p++] == ';') break;
    }
    memcpy(uninit_at, at, (size_t)n * sizeof at[0]);
    nuninit = n;
    uninit_dbl = dbl;
}

/* A float or double array declared in a kernel without values (`float Mds[16][16];`, one declarator):
 * after its ';' the rewrite fills it with the uninitialised mark, the array flags and the line
 * (tl_emu::uninit_fill), so that P computed from an element no one wrote names the array: a tile
 * declared without __shared__ (two or more dimensions, before any __shared__ declaration of the
 * kernel: the third argument 2), or an array never given values (1). */
static size_t larr_semi = (size_t)-1;
static char larr_name[128];
static int larr_dims;
static int kshared;     /* __shared__ declarations of the current kernel so far */
static void find_local_array(size_t p) {
    larr_semi = (size_t)-1;
    p = skip_space(p, NULL);
    size_t s = p;
    if (p >= len || !is_id0((unsigned char)src[p])) return;
    while (p < len && is_id((unsigned char)src[p])) p++;
    size_t n = p - s;
    if (n >= sizeof larr_name) return;
    int dims = 0;
    for (;;) {
        p = skip_space(p, NULL);
        if (p >= len || src[p] != '[') break;
        int d = 0;
        for (; p < len; p++) {
            if (src[p] == '[' || src[p] == '(') d++;
            else if ((src[p] == ']' || src[p] == ')') && --d == 0) break;
            else if (src[p] == ';' || src[p] == '{' || src[p] == '"' || src[p] == '\'') return;
        }
        if (p >= len) return;
        p++;
        dims++;
    }
    if (dims == 0 || p >= len || src[p] != ';') return;
    memcpy(larr_name, src + s, n);
    larr_name[n] = 0;
    /* two or more dimensions and no __shared__ array declared before it in the kernel: a tile that
     * lacks __shared__ (a register tile, acc[TM][TN], comes after the kernel's shared tiles) */
    larr_dims = dims >= 2 && kshared == 0 ? 2 : 1;
    larr_semi = p;
}

static void rewrite(void) {
    int at_line_start = 1;
    while (pos < len) {
        char c = src[pos];
        if (c == '\n') { buf_add(&out, "\n", 1); pos++; line++; at_line_start = 1; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { buf_add(&out, &c, 1); pos++; continue; }
        if (c == '#' && at_line_start) { preprocessor_line(); continue; }
        at_line_start = 0;
        if (copy_comment_or_literal()) continue;
        if (is_id0((unsigned char)c)) {
            size_t s = pos;
            while (pos < len && is_id((unsigned char)src[pos])) pos++;
            size_t n = pos - s;
            const char *id = src + s;
#define IS(w) (n == sizeof(w) - 1 && !memcmp(id, w, n))
            if (IS("__shared__")) { kshared++; shared_decl(0, line); continue; }
            if (IS("extern")) {
                int nl = 0;
                size_t q = skip_space(pos, &nl);
                if (len - q >= 10 && !memcmp(src + q, "__shared__", 10) && !is_id((unsigned char)src[q + 10])) {
                    int decl_line = line;
                    for (size_t i = pos; i < q; i++) if (src[i] == '\n') line++;
                    pos = q + 10;
                    kshared++;
                    shared_decl(1, decl_line);
                    for (int i = 0; i < nl; i++) buf_add(&out, "\n", 1);
                    continue;
                }
            }
            if (IS("__noinline__")) { emit("__attribute__((noinline))", 25); continue; }
            if (IS("__global__") && !in_func) {
                kstate = 1; kparen = 0; kname[0] = 0;
                ktemplate = preceded_by_template();
                emit(id, n);
                continue;
            }
            /* auto x = Mds[i][j]: x holds the element's value, not a proxy that would read the array
             * again later (after a barrier, another thread's value) */
            if (IS("auto") && cur_kernel >= 0) {
                size_t p = skip_space(pos, NULL), q = p;
                while (q < len && is_id((unsigned char)src[q])) q++;
                size_t r = skip_space(q, NULL);
                if (q > p && is_id0((unsigned char)src[p]) && r < len && src[r] == '=' && !(r + 1 < len && src[r + 1] == '=')) {
                    emit(id, n);
                    for (size_t i = pos; i <= r; i++) if (src[i] == '\n') line++;
                    emit(src + pos, r + 1 - pos);
                    pos = r + 1;
                    buf_str(&out, " tl_emu::va(");
                    auto_close = pnest;
                    auto_close_depth = depth;
                    continue;
                }
            }
            /* The kernel's name is the last identifier before its parameters; "__launch_bounds__(...)"
             * between the return type and the name is passed over by the '(' logic below. */
            if (kstate == 1 && kparen == 0 && n < sizeof kname) { memcpy(kname, id, n); kname[n] = 0; }
            int member = last_sig == '.' || (last_sig == '>' && prev_sig == '-') || last_sig == ':';
            if (cur_kernel >= 0 && IS("thread_block")) { emit(id, n); cg_block_decl(); continue; }
            if (cur_kernel >= 0 && !member && cg_block_use(id, n)) continue;
            const Name *nm = member ? NULL : find_name(id, n);
            if (cur_kernel >= 0 && !member && !nm) {
                for (int k = 0; k < nkptr; k++)
                    if (strlen(kptr[k]) == n && !memcmp(kptr[k], id, n)) {
                        int kind = subscript_kind(pos);
                        if (kind < 0) break;
                        if (kind == 0 && last_sig == '+' && prev_sig == '+') kind = 2;
                        if (kind == 0 && last_sig == '-' && prev_sig == '-') kind = 2;
                        char t[64];
                        snprintf(t, sizeof t, "(tl_emu::gcount(%d), ", kind);
                        emit(t, strlen(t));
                        emit(id, n);
                        emit(")", 1);
                        id = NULL;
                        break;
                    }
                if (!id) continue;
                /* "T *name = ...counted pointer...": name's subscripts are counted from here on */
                if (last_sig == '*' && nkptr < MAX_PTRS && n < 128) {
                    size_t r = skip_space(pos, NULL);
                    if (r < len && src[r] == '=' && !(r + 1 < len && src[r + 1] == '=') && init_uses_kptr(r + 1)) {
                        memcpy(kptr[nkptr], id, n);
                        kptr[nkptr][n] = 0;
                        nkptr++;
                    }
                }
            }
            if (nm && cur_kernel >= 0) shared_pointer_decl();
            if (cur_kernel >= 0 && !member && (IS("float") || IS("double")) &&
                (last_sig == ';' || last_sig == '{' || last_sig == '}'))
            {
                find_uninit(pos, IS("double"));
                find_local_array(pos);
            }
            /* (uint64_t *)(Nss + n), a pointer cast of a __shared__ name's expression: C++ casts no
             * class (a view, a checked pointer) to another pointer type; &*Nss(__LINE__) is its plain
             * pointer (what goes through the cast is not checked, as through any plain pointer) */
            if (nm && out_ends_with_ptr_cast()) buf_str(&out, "&*");
            emit(id, n);
            if (nm) buf_str(&out, "(__LINE__)");
            for (int k = 0; !nm && k < nuninit; k++)
                if (uninit_at[k] == pos) {
                    buf_str(&out, uninit_dbl ? " = tl_emu::uninit_d(__LINE__)" : " = tl_emu::uninit_f(__LINE__)");
                    if (k == nuninit - 1) nuninit = 0;
                    break;
                }
            continue;
#undef IS
        }
        if (c == '<' && pos + 2 < len && src[pos + 1] == '<' && src[pos + 2] == '<') { launch(); continue; }
        if (c == ';' && pos == larr_semi) {
            buf_fmt(&out, "; tl_emu::uninit_fill(%s, __LINE__, %d);", larr_name, larr_dims);
            larr_semi = (size_t)-1;
            pos++;
            continue;
        }
        if ((c == ';' || c == ',') && auto_close >= 0 && pnest == auto_close && depth == auto_close_depth) {
            buf_str(&out, ")");
            auto_close = -1;
        }
        if (c == '(' || c == '[') pnest++;
        else if (c == ')' || c == ']') pnest--;
        if (c == '(') {
            if (kstate == 1 && kparen == 0 && kname[0] && strcmp(kname, "__launch_bounds__")) { kstate = 2; kps = out.n + 1; }
            if (kstate == 1 || kstate == 2) kparen++;
        } else if (c == ')') {
            if (kstate == 1 || kstate == 2) {
                if (--kparen == 0 && kstate == 2) { kstate = 3; kpe = out.n; }
            }
        } else if (c == ';') {
            if (kstate == 3 || (kstate != 0 && kparen == 0)) kstate = 0;      /* a prototype */
        } else if (c == '{') {
            if (depth + 1 >= MAX_DEPTH) die(line, "braces nested too deeply");
            int is_func = !in_func && last_sig == ')';
            depth++;
            func_body_depth[depth] = is_func;
            func_open[depth] = -1;
            if (is_func) {
                in_func++;
                if (nfuncs < MAX_FUNCS) {
                    Func *F = &funcs[nfuncs];
                    func_name_before(F->name, sizeof F->name);
                    F->device = declared_for_device();
                    F->bs = out.n + 1;
                    func_open[depth] = nfuncs++;
                }
            }
            if (kstate == 3) {
                if (nkernels == MAX_KERNELS) die(line, "too many kernels in one file");
                cur_kernel = nkernels++;
                kshared = 0;
                snprintf(kernels[cur_kernel].name, sizeof kernels[cur_kernel].name, "%s", kname);
                kernels[cur_kernel].is_template = ktemplate;
                kernels[cur_kernel].ps = kps;
                kernels[cur_kernel].pe = kpe;
                kernels[cur_kernel].bs = out.n + 1;
                read_pointer_params(kps, kpe);
                kbody_depth = depth;
                kstate = 0;
                ncg_blocks = 0;
            }
        } else if (c == '}') {
            if (depth == 0) die(line, "unbalanced '}'");
            if (func_body_depth[depth]) in_func--;
            if (func_open[depth] >= 0) funcs[func_open[depth]].be = out.n;
            if (depth == kbody_depth) { kernels[cur_kernel].be = out.n; kbody_depth = -1; cur_kernel = -1; }
            depth--;
            while (nnames > 0 && names[nnames - 1].depth > depth) nnames--;
        }
        emit(&c, 1);
        pos++;
    }
}

static char *read_file(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    Buf b = {0};
    char tmp[65536];
    size_t r;
    while ((r = fread(tmp, 1, sizeof tmp, f)) > 0) buf_add(&b, tmp, r);
    fclose(f);
    /* a UTF-8 byte-order mark (editors on Windows write one; nvcc and g++ accept it at a file's
     * start): dropped, since the output puts a #line before it where g++ would call it stray */
    if (b.n >= 3 && (unsigned char)b.p[0] == 0xEF && (unsigned char)b.p[1] == 0xBB && (unsigned char)b.p[2] == 0xBF) {
        memmove(b.p, b.p + 3, b.n - 3);
        b.n -= 3;
        b.p[b.n] = '\0';
    }
    *n = b.n;
    return b.p ? b.p : calloc(1, 1);
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "--fibers")) { use_regions = 0; argv++; argc--; }
    if (argc != 3) {
        fprintf(stderr, "usage: tl-emu-rewrite [--fibers] IN.cu OUT.cpp\n"
                        "  rewrites a CUDA C source for tilelab's emulation mode (see common/emu/README.md);\n"
                        "  --fibers: run every kernel as fibers, never in region form\n");
        return 2;
    }
    in_path = argv[1];
    src = read_file(in_path, &len);
    unsupported_scan(src, len);          /* what emulation cannot run, refused before any compiler */
    buf_str(&out, "#line 1 \"");
    for (const char *p = in_path; *p; p++) {
        if (*p == '"' || *p == '\\') buf_add(&out, "\\", 1);
        buf_add(&out, p, 1);
    }
    buf_str(&out, "\"\n");
    rewrite();
    if (depth != 0) die(line, "unbalanced braces at the end of the file");
    check_host_calls();
    make_regions();
    /* After the student's last line: register the kernels with their static shared memory. */
    if (out.n && out.p[out.n - 1] != '\n') buf_str(&out, "\n");
    if (nkernels) buf_str(&out, "#line 1 \"<tl-emu-rewrite: kernel registry>\"\n");
    for (int k = 0; k < nkernels; k++) {
        Kernel *K = &kernels[k];
        if (K->region) buf_fmt(&out, "// %s: region form\n", K->name);
        else buf_fmt(&out, "// %s: fibers (%s)\n", K->name, K->why);
        if (K->is_template) continue;      /* each instantiation registers itself when it first runs */
        buf_fmt(&out, "#if 1%s\nstatic tl_emu::KernelReg tl_emu_reg_%s_%d_(%s, \"%s\", 0%s, %d);\n#else\n"
                      "static tl_emu::KernelReg tl_emu_reg_%s_%d_(%s, \"%s\", 0, %d);\n#endif\n",
                K->idents.p ? K->idents.p : "", K->name, k, K->name, K->name, K->smem.p ? K->smem.p : "", K->region,
                K->name, k, K->name, K->name, K->region);
    }
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(out.p, 1, out.n, f) != out.n || fclose(f) != 0) { perror(argv[2]); return 1; }
    return 0;
}
