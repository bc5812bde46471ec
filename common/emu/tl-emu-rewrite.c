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
#include "tl-lex.h"

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

void die(Rw *rw, int at_line, const char *fmt, ...) {
    va_list ap;
    if (!strncmp(fmt, "not supported under emulation", 29)) {   /* the kit's own verdict: recorded */
        va_start(ap, fmt);
        unsupported_record(rw->in_path, at_line, fmt, ap);
        va_end(ap);
    }
    fprintf(stderr, "%s:%d: error: tl-emu-rewrite: ", rw->in_path, at_line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

void emit(Rw *rw, const char *s, size_t n) {
    buf_add(&rw->out, s, n);
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i])) { rw->prev_sig = rw->last_sig; rw->last_sig = s[i]; }
}

/* Copies a comment or a string/char literal (with its prefix: L"", u8"", R"x(...)x") starting at pos,
 * verbatim (tl-lex.h). Returns 0 if none starts here. */
static int copy_comment_or_literal(Rw *rw) {
    size_t s = rw->pos;
    int nl = 0, bad = 0;
    size_t e = tl_lex_comment(rw->src, rw->len, s, &nl, &bad);
    if (e != s) {
        if (bad) die(rw, rw->line, "unterminated /* comment");
        rw->line += nl;
        rw->pos = e;
        buf_add(&rw->out, rw->src + s, e - s);
        return 1;
    }
    e = tl_lex_literal(rw->src, rw->len, s, &nl, &bad);
    if (e == s) return 0;
    if (bad && e < rw->len && rw->src[e] == '\n') {
        size_t q = s;
        while (rw->src[q] != '"' && rw->src[q] != '\'') q++;
        die(rw, rw->line + nl, "unterminated %s literal", rw->src[q] == '"' ? "string" : "character");
    }
    if (bad) die(rw, rw->line, "unterminated literal");
    rw->line += nl;
    rw->pos = e;
    emit(rw, rw->src + s, e - s);
    return 1;
}

/* Skips blanks, continuations and comments in src from p; returns the new position; counts newlines
 * into *nl. */
size_t skip_space(Rw *rw, size_t p, int *nl) {
    return tl_lex_space(rw->src, rw->len, p, nl);
}

/* The end of a literal (with its prefix) or a number starting at src[p] (tl-lex.h), or p: the scans
 * ahead below pass over them whole (a ' digit separator is no character literal). */
static size_t skip_literal_or_number(const Rw *rw, size_t p) {
    if (p > 0 && is_id((unsigned char)rw->src[p - 1])) return p;
    size_t e = tl_lex_literal(rw->src, rw->len, p, NULL, NULL);
    return e != p ? e : tl_lex_number(rw->src, rw->len, p);
}

static const Name *find_name(Rw *rw, const char *id, size_t n) {
    for (int i = rw->nnames - 1; i >= 0; i--)
        if (strlen(rw->names[i].name) == n && !memcmp(rw->names[i].name, id, n)) return &rw->names[i];
    return NULL;
}

/* ---- kernel<<<...>>>(...) ------------------------------------------------------------------------ */
static void launch(Rw *rw) {
    int at = rw->line;
    /* The kernel name is what was just written: back over blanks (and newlines, kept for after the
     * launch so that lines do not move; in a #define also the backslashes) and the identifier, with its
     * template arguments if any: kernel<float, 16><<<...>>>. */
    size_t e = rw->out.n;
    int nls = 0;
    while (e > 0 && (isspace((unsigned char)rw->out.p[e - 1]) || rw->out.p[e - 1] == '\\')) { if (rw->out.p[e - 1] == '\n') nls++; e--; }
    size_t b = e;
    if (b > 0 && rw->out.p[b - 1] == '>') {
        int d = 0;
        while (b > 0) {
            b--;
            if (rw->out.p[b] == '>') d++;
            else if (rw->out.p[b] == '<' && --d == 0) break;
        }
        while (b > 0 && isspace((unsigned char)rw->out.p[b - 1])) b--;
    }
    int expr = 0;
    if (b == e && b > 0 && rw->out.p[b - 1] == ')') {
        /* the kernel through a function-like macro or in parentheses, SELECT(kernel)<<<...>>> or
         * (kernel)<<<...>>>: valid CUDA; the expression is the launch's callable as it is */
        int d = 0;
        while (b > 0) {
            b--;
            if (rw->out.p[b] == ')') d++;
            else if (rw->out.p[b] == '(' && --d == 0) break;
        }
        if (d != 0) b = e;
        expr = b < e;
    }
    size_t open = b;
    while (b > 0 && (is_id((unsigned char)rw->out.p[b - 1]) || rw->out.p[b - 1] == ':')) b--;
    if (expr && b == open) {
        /* no macro before the parentheses: (kernel) is a name, (*kp) a function pointer */
        for (size_t i = open + 1; i + 1 < e; i++) {
            unsigned char ch = (unsigned char)rw->out.p[i];
            if (!is_id(ch) && ch != ':' && ch != '<' && ch != '>' && ch != ',' && !isspace(ch)) { b = e; break; }
        }
    }
    if (b == e || (!is_id0((unsigned char)rw->out.p[b]) && !(expr && rw->out.p[b] == '(')))
        die(rw, at, "not supported under emulation: a launch whose kernel is not a name (a function pointer?); "
                "launch it by its name: kernel<<<grid, block>>>(args)");
    char name[256], sname[256];
    if (e - b >= sizeof name) die(rw, at, "kernel name too long");
    memcpy(name, rw->out.p + b, e - b); name[e - b] = 0;
    size_t sn = 0;                                               /* the name as a string: no newlines */
    for (size_t i = 0; name[i] && sn + 1 < sizeof sname; i++)
        if (name[i] != '\n' && name[i] != '\\' && name[i] != '"') sname[sn++] = name[i];
    sname[sn] = 0;
    for (size_t i = 0; name[i]; i++) if (name[i] == '\n' || name[i] == '\\') name[i] = ' ';
    rw->out.n = b; rw->out.p[b] = 0;
    rw->pos += 3;                                                   /* <<< */
    Buf args[4] = {{0}};
    int na = 0, d = 0;
    for (;;) {
        if (rw->pos >= rw->len) die(rw, at, "<<< without a matching >>>");
        char c = rw->src[rw->pos];
        if (d == 0 && c == '>' && rw->pos + 2 < rw->len && rw->src[rw->pos + 1] == '>' && rw->src[rw->pos + 2] == '>') { rw->pos += 3; break; }
        {
            Buf save = rw->out; rw->out = args[na];                     /* literal or comment: copy through */
            int copied = copy_comment_or_literal(rw);
            args[na] = rw->out; rw->out = save;
            if (copied) continue;
        }
        if (c == '(' || c == '[' || c == '{') d++;
        if (c == ')' || c == ']' || c == '}') d--;
        if (c == ',' && d == 0) {
            if (++na == 4) die(rw, at, "a launch takes at most 4 arguments between <<< and >>>: grid, block, shared bytes, stream");
            rw->pos++;
            continue;
        }
        if (c == '\n') rw->line++;
        buf_add(&args[na], &c, 1);
        rw->pos++;
    }
    na++;
    if (na < 2) die(rw, at, "a launch needs at least a grid and a block: kernel<<<grid, block>>>(args)");
    Buf o = {0};
    buf_fmt(&o, "tl_emu_launch(%s, \"%s\", __FILE__, __LINE__", name, sname);
    for (int i = 0; i < na; i++) {
        buf_str(&o, ", ");
        if (args[i].n) buf_add(&o, args[i].p, args[i].n);
        free(args[i].p);
    }
    buf_str(&o, ")");
    emit(rw, o.p, o.n);
    free(o.p);
    for (int i = 0; i < nls; i++) buf_str(&rw->out, rw->in_directive ? " \\\n" : "\n");
}

/* Whether what was written last (blanks aside) is `template <...>`. */
static int preceded_by_template(Rw *rw) {
    size_t e = rw->out.n;
    while (e > 0 && isspace((unsigned char)rw->out.p[e - 1])) e--;
    if (e == 0 || rw->out.p[e - 1] != '>') return 0;
    int d = 0;
    size_t b = e;
    while (b > 0) {
        b--;
        if (rw->out.p[b] == '>') d++;
        else if (rw->out.p[b] == '<' && --d == 0) break;
    }
    while (b > 0 && isspace((unsigned char)rw->out.p[b - 1])) b--;
    return b >= 8 && !memcmp(rw->out.p + b - 8, "template", 8) && (b == 8 || !is_id((unsigned char)rw->out.p[b - 9]));
}

/* ---- counting global accesses ------------------------------------------------------------------------ */
/* The names of the pointer parameters in out[a, b): the last identifier of each parameter with a '*'. */
static void read_pointer_params(Rw *rw, size_t a, size_t b) {
    rw->nkptr = 0;
    size_t p = a;
    while (p < b) {
        size_t e = p;
        int d = 0, star = 0;
        while (e < b && !(rw->out.p[e] == ',' && d == 0)) {
            if (rw->out.p[e] == '(' || rw->out.p[e] == '[') d++;
            else if (rw->out.p[e] == ')' || rw->out.p[e] == ']') d--;
            else if (rw->out.p[e] == '*') star = 1;
            e++;
        }
        size_t q = e;
        while (q > p && !is_id((unsigned char)rw->out.p[q - 1])) q--;
        size_t r = q;
        while (r > p && is_id((unsigned char)rw->out.p[r - 1])) r--;
        if (star && q > r && q - r < 128 && rw->nkptr < MAX_PTRS) {
            memcpy(rw->kptr[rw->nkptr], rw->out.p + r, q - r);
            rw->kptr[rw->nkptr][q - r] = 0;
            rw->nkptr++;
        }
        p = e + 1;
    }
}
/* Whether the initialiser from src[at] to its ';' or ',' (depth 0) names a counted pointer: a local
 * pointer made from one (const float *a = Md + off, the CUDA samples' pointer walk) is counted too. */
static int init_uses_kptr(Rw *rw, size_t at) {
    int d = 0;
    for (size_t p = at; p < rw->len; p++) {
        char c = rw->src[p];
        size_t l = skip_literal_or_number(rw, p);         /* "a" or R"(Md)" names no pointer */
        if (l != p) { p = l - 1; continue; }
        if (c == '(' || c == '[') d++;
        else if (c == ')' || c == ']') { if (--d < 0) return 0; }
        else if ((c == ';' || c == ',' || c == '{' || c == '}') && d == 0) return 0;
        else if (is_id0((unsigned char)c) && (p == 0 || !is_id((unsigned char)rw->src[p - 1]))) {
            size_t e = p;
            while (e < rw->len && is_id((unsigned char)rw->src[e])) e++;
            for (int k = 0; k < rw->nkptr; k++)
                if (strlen(rw->kptr[k]) == e - p && !memcmp(rw->kptr[k], rw->src + p, e - p)) return 1;
            p = e - 1;
        }
    }
    return 0;
}

/* For a pointer parameter followed by '[' at src[at]: 0 when the element is read, 1 written (p[i] = v),
 * 2 both (p[i] += v, p[i]++, ++p[i]); -1 when no '[' follows. */
static int subscript_kind(Rw *rw, size_t at) {
    size_t p = skip_space(rw, at, NULL);
    if (p >= rw->len || rw->src[p] != '[') return -1;
    int d = 0;
    for (; p < rw->len; p++) {
        char c = rw->src[p];
        size_t e = skip_literal_or_number(rw, p);
        if (e != p) { p = e - 1; continue; }
        if (c == '[' || c == '(') d++;
        else if ((c == ']' || c == ')') && --d == 0) break;
    }
    p = skip_space(rw, p + 1, NULL);
    if (p + 1 < rw->len && ((rw->src[p] == '+' && rw->src[p + 1] == '+') || (rw->src[p] == '-' && rw->src[p + 1] == '-'))) return 2;
    if (p < rw->len && rw->src[p] == '=' && !(p + 1 < rw->len && rw->src[p + 1] == '=')) return 1;
    if (p + 1 < rw->len && strchr("+-*/%&|^", rw->src[p]) && rw->src[p] && rw->src[p + 1] == '=') return 2;
    if (p + 2 < rw->len && (rw->src[p] == '<' || rw->src[p] == '>') && rw->src[p + 1] == rw->src[p] && rw->src[p + 2] == '=') return 2;
    return 0;
}

/* The output so far ends with "*)(" (spaces allowed between): the operand of a pointer cast opens. */
/* Whether out ends with the characters of want (read backwards), blanks between them allowed; i: where
 * the match starts. */
static int out_ends_with(Rw *rw, size_t *i, const char *want) {
    for (int k = 0; want[k]; k++) {
        while (*i > 0 && (rw->out.p[*i - 1] == ' ' || rw->out.p[*i - 1] == '\t')) (*i)--;
        if (*i == 0 || rw->out.p[*i - 1] != want[k]) return 0;
        (*i)--;
    }
    return 1;
}
/* reinterpret_cast<T *>( or static_cast<float (*)[T]>( before a name: the C++ casts to a pointer or to a
 * pointer to rows, as C-style casts below (issue 25: extern __shared__ carved into row arrays). */
static int out_ends_with_cxx_ptr_cast(Rw *rw) {
    size_t i = rw->out.n;
    if (!out_ends_with(rw, &i, "(>")) return 0;
    size_t close = i;                              /* the '>' is at out.p[close] */
    int d = 1;
    while (i > 0 && d > 0) {
        i--;
        if (rw->out.p[i] == '>') d++;
        else if (rw->out.p[i] == '<') d--;
    }
    if (d != 0) return 0;
    size_t t = close;                              /* the type's last significant character */
    while (t > i + 1 && (rw->out.p[t - 1] == ' ' || rw->out.p[t - 1] == '\t')) t--;
    if (t <= i + 1 || (rw->out.p[t - 1] != '*' && rw->out.p[t - 1] != ']')) return 0;
    static const char *const casts[] = {"reinterpret_cast", "static_cast", NULL};
    for (int c = 0; casts[c]; c++) {
        size_t l = strlen(casts[c]), e = i;
        while (e > 0 && (rw->out.p[e - 1] == ' ' || rw->out.p[e - 1] == '\t')) e--;
        if (e >= l && !memcmp(rw->out.p + e - l, casts[c], l) && (e == l || !is_id((unsigned char)rw->out.p[e - l - 1])))
            return 1;
    }
    return 0;
}

static int out_ends_with_ptr_cast(Rw *rw) {
    size_t i = rw->out.n;
    if (out_ends_with(rw, &i, "()*")) return 1;     /* (T *)(name ... */
    if (out_ends_with_cxx_ptr_cast(rw)) return 1;
    /* a pointer to rows: (float (*)[T])name or (float (*)[T])(name + k) */
    i = rw->out.n;
    size_t j = i;
    if (out_ends_with(rw, &j, "(")) i = j;
    if (!out_ends_with(rw, &i, ")]")) return 0;
    int d = 1;
    while (i > 0 && d > 0) {
        i--;
        if (rw->out.p[i] == ']') d++;
        else if (rw->out.p[i] == '[') d--;
    }
    return d == 0 && out_ends_with(rw, &i, ")*(");
}

/* ---- main loop ----------------------------------------------------------------------------------- */
static void preprocessor_line(Rw *rw) {
    size_t s = rw->pos;
    int nl = 0;                /* continuations and newlines in comments: the directive goes on (tl-lex.h) */
    rw->pos = tl_lex_directive(rw->src, rw->len, s, &nl);
    rw->line += nl;
    /* "#pragma unroll [N]": nvcc's; g++ would warn about an unknown pragma. */
    size_t p = s + 1;
    while (p < rw->pos && (rw->src[p] == ' ' || rw->src[p] == '\t')) p++;
    if (rw->pos - p >= 13 && !memcmp(rw->src + p, "pragma", 6)) {
        size_t q = p + 6;
        while (q < rw->pos && (rw->src[q] == ' ' || rw->src[q] == '\t')) q++;
        if (rw->pos - q >= 6 && !memcmp(rw->src + q, "unroll", 6) && (q + 6 == rw->pos || !is_id((unsigned char)rw->src[q + 6]))) {
            buf_str(&rw->out, "/* ");
            for (size_t i = s; i < rw->pos; i++) if (rw->src[i] != '\n' && !(rw->src[i] == '*' && i + 1 < rw->pos && rw->src[i + 1] == '/')) buf_add(&rw->out, rw->src + i, 1);
            buf_str(&rw->out, " */");
            return;
        }
    }
    /* A launch written inside a macro (#define LAUNCH(k, n) k<<<grid, block>>>(n)): rewritten in place. */
    int has_launch = 0;
    for (size_t i = s; i + 2 < rw->pos; i++)
        if (rw->src[i] == '<' && rw->src[i + 1] == '<' && rw->src[i + 2] == '<') { has_launch = 1; break; }
    if (has_launch) {
        size_t end = rw->pos;
        int nl_in = 0;
        for (size_t i = s; i < end; i++) nl_in += rw->src[i] == '\n';
        rw->line -= nl_in;                                       /* counted again below */
        rw->pos = s;
        rw->in_directive = 1;
        while (rw->pos < end) {
            char c = rw->src[rw->pos];
            if (c == '\\' && rw->pos + 1 < rw->len && rw->src[rw->pos + 1] == '\n') { buf_add(&rw->out, "\\\n", 2); rw->pos += 2; rw->line++; continue; }
            if (copy_comment_or_literal(rw)) continue;
            if (c == '<' && rw->pos + 2 < end && rw->src[rw->pos + 1] == '<' && rw->src[rw->pos + 2] == '<') { launch(rw); continue; }
            emit(rw, &c, 1);
            rw->pos++;
        }
        rw->in_directive = 0;
        return;
    }
    /* _Pragma("unroll") in a macro (a loop a #define unrolls): blanked, as #pragma unroll above */
    static const char up[] = "_Pragma(\"unroll\")";
    for (size_t i = s; i < rw->pos; i++) {
        if (i + sizeof up - 1 <= rw->pos && !memcmp(rw->src + i, up, sizeof up - 1) && (i == s || !is_id((unsigned char)rw->src[i - 1]))) {
            for (size_t j = 0; j < sizeof up - 1; j++) buf_add(&rw->out, " ", 1);
            i += sizeof up - 2;
        } else {
            buf_add(&rw->out, rw->src + i, 1);
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
static int is_cg_block(Rw *rw, const char *id, size_t n) {
    for (int k = 0; k < rw->ncg_blocks; k++)
        if (strlen(rw->cg_blocks[k]) == n && !memcmp(rw->cg_blocks[k], id, n)) return 1;
    return 0;
}
static size_t word_at(Rw *rw, size_t p, const char *w) {
    size_t n = strlen(w);
    if (rw->len - p >= n && !memcmp(rw->src + p, w, n) && (p + n == rw->len || !is_id((unsigned char)rw->src[p + n]))) return p + n;
    return 0;
}
/* Every use of name in the rest of the kernel body (from p) is `name.` or `sync(name)`. */
static int cg_uses_replaceable(Rw *rw, size_t p, const char *name) {
    size_t n = strlen(name);
    int open = rw->depth - rw->kbody_depth + 1;
    while (p < rw->len && open > 0) {
        char c = rw->src[p];
        size_t q = tl_lex_comment(rw->src, rw->len, p, NULL, NULL);
        if (q != p) { p = q; continue; }
        size_t l = skip_literal_or_number(rw, p);
        if (l != p) { p = l; continue; }
        if (c == '{') open++;
        else if (c == '}') open--;
        if (!is_id0((unsigned char)c) || (p > 0 && is_id((unsigned char)rw->src[p - 1]))) { p++; continue; }
        size_t e = p;
        while (e < rw->len && is_id((unsigned char)rw->src[e])) e++;
        if (e - p == n && !memcmp(rw->src + p, name, n) && !(p > 0 && (rw->src[p - 1] == '.' || rw->src[p - 1] == ':' || rw->src[p - 1] == '>'))) {
            size_t a = skip_space(rw, e, NULL);
            if (!(a < rw->len && rw->src[a] == '.')) {
                size_t b = p;                         /* sync ( name ) */
                while (b > 0 && isspace((unsigned char)rw->src[b - 1])) b--;
                if (!(b >= 5 && rw->src[b - 1] == '(' && a < rw->len && rw->src[a] == ')')) return 0;
                b--;
                while (b > 0 && isspace((unsigned char)rw->src[b - 1])) b--;
                if (!(b >= 4 && !memcmp(rw->src + b - 4, "sync", 4) && (b == 4 || !is_id((unsigned char)rw->src[b - 5])))) return 0;
            }
        }
        p = e;
    }
    return 1;
}
/* At the word thread_block in a kernel: `NAME = [NS::]this_thread_block();` on one line, with only
 * replaceable uses, is emitted as `NAME = ::cooperative_groups::thread_block();` (1); else 0. */
static int cg_block_decl(Rw *rw) {
    int nl = 0;
    size_t p = skip_space(rw, rw->pos, &nl), q = p;
    while (q < rw->len && is_id((unsigned char)rw->src[q])) q++;
    if (q == p || q - p >= sizeof rw->cg_blocks[0] || !is_id0((unsigned char)rw->src[p]) || rw->ncg_blocks == MAX_CG_BLOCKS) return 0;
    char name[64];
    memcpy(name, rw->src + p, q - p);
    name[q - p] = 0;
    size_t r = skip_space(rw, q, &nl);
    if (r >= rw->len || rw->src[r] != '=') return 0;
    r = skip_space(rw, r + 1, &nl);
    for (;;) {                                        /* cg:: or cooperative_groups:: */
        size_t e = r;
        while (e < rw->len && is_id((unsigned char)rw->src[e])) e++;
        size_t f = skip_space(rw, e, &nl);
        if (e > r && f + 1 < rw->len && rw->src[f] == ':' && rw->src[f + 1] == ':' && !word_at(rw, r, "this_thread_block")) {
            r = skip_space(rw, f + 2, &nl);
            continue;
        }
        break;
    }
    if (!(r = word_at(rw, r, "this_thread_block"))) return 0;
    r = skip_space(rw, r, &nl);
    if (r >= rw->len || rw->src[r] != '(') return 0;
    r = skip_space(rw, r + 1, &nl);
    if (r >= rw->len || rw->src[r] != ')') return 0;
    r = skip_space(rw, r + 1, &nl);
    if (r >= rw->len || rw->src[r] != ';' || nl || !cg_uses_replaceable(rw, r + 1, name)) return 0;
    emit(rw, " ", 1);
    emit(rw, name, strlen(name));
    buf_str(&rw->out, " [[maybe_unused]] = ::cooperative_groups::thread_block()");
    memcpy(rw->cg_blocks[rw->ncg_blocks++], name, sizeof name);
    rw->pos = r;                                          /* the ';' is copied as usual */
    return 1;
}
/* At an identifier: `B.sync()` or `NS::sync(B)` for a block B above, on one line: emits
 * __syncthreads() (1); `B.` emits the block's value; else 0 and nothing. */
static int cg_block_use(Rw *rw, const char *id, size_t n) {
    int nl = 0;
    size_t p = skip_space(rw, rw->pos, &nl), q;
    if (p < rw->len && rw->src[p] == '.' && is_cg_block(rw, id, n)) {
        q = word_at(rw, skip_space(rw, p + 1, &nl), "sync");
        if (q) q = skip_space(rw, q, &nl);
        if (q && q < rw->len && rw->src[q] == '(') q = skip_space(rw, q + 1, &nl);
        if (q && q < rw->len && rw->src[q] == ')' && !nl) { emit(rw, "__syncthreads()", 15); rw->pos = q + 1; return 1; }
        buf_str(&rw->out, "::cooperative_groups::thread_block()");
        rw->prev_sig = rw->last_sig = ')';
        return 1;
    }
    if (p + 1 < rw->len && rw->src[p] == ':' && rw->src[p + 1] == ':') {
        if (!(q = word_at(rw, skip_space(rw, p + 2, &nl), "sync"))) return 0;
        q = skip_space(rw, q, &nl);
        if (q >= rw->len || rw->src[q] != '(') return 0;
        size_t b = skip_space(rw, q + 1, &nl), e = b;
        while (e < rw->len && is_id((unsigned char)rw->src[e])) e++;
        if (e == b || !is_cg_block(rw, rw->src + b, e - b)) return 0;
        q = skip_space(rw, e, &nl);
        if (q >= rw->len || rw->src[q] != ')' || nl) return 0;
        emit(rw, "__syncthreads()", 15);
        rw->pos = q + 1;
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
static void find_uninit(Rw *rw, size_t p, int dbl) {
    size_t at[16];
    int n = 0;
    rw->nuninit = 0;
    for (;;) {
        p = skip_space(rw, p, NULL);
        if (p >= rw->len || !is_id0((unsigned char)rw->src[p])) return;
        while (p < rw->len && is_id((unsigned char)rw->src[p])) p++;
        size_t e = p;
        p = skip_space(rw, p, NULL);
        if (p >= rw->len) return;
        if (rw->src[p] == ';' || rw->src[p] == ',') {
            if (n < 16) at[n++] = e;
            if (rw->src[p++] == ';') break;
            continue;
        }
        if (rw->src[p] != '=' || (p + 1 < rw->len && rw->src[p + 1] == '=')) return;   /* [, (, :, a qualifier ... */
        int d = 0;
        for (p++; p < rw->len; p++) {
            char ch = rw->src[p];
            if (ch == '"' || ch == '\'' || ch == '#') return;
            if (ch == '(' || ch == '[' || ch == '{') d++;
            else if (ch == ')' || ch == ']' || ch == '}') { if (d-- == 0) return; }
            else if ((ch == ',' || ch == ';') && d == 0) break;
        }
        if (p >= rw->len) return;
        if (rw->src[p++] == ';') break;
    }
    memcpy(rw->uninit_at, at, (size_t)n * sizeof at[0]);
    rw->nuninit = n;
    rw->uninit_dbl = dbl;
}

/* A float or double array declared in a kernel without values (`float Mds[16][16];`, one declarator):
 * after its ';' the rewrite fills it with the uninitialised mark, the array flags and the line
 * (tl_emu::uninit_fill), so that P computed from an element no one wrote names the array: a tile
 * declared without __shared__ (two or more dimensions, before any __shared__ declaration of the
 * kernel: the third argument 2), or an array never given values (1). */
static void find_local_array(Rw *rw, size_t p) {
    rw->larr_semi = (size_t)-1;
    p = skip_space(rw, p, NULL);
    size_t s = p;
    if (p >= rw->len || !is_id0((unsigned char)rw->src[p])) return;
    while (p < rw->len && is_id((unsigned char)rw->src[p])) p++;
    size_t n = p - s;
    if (n >= sizeof rw->larr_name) return;
    int dims = 0;
    for (;;) {
        p = skip_space(rw, p, NULL);
        if (p >= rw->len || rw->src[p] != '[') break;
        int d = 0;
        for (; p < rw->len; p++) {
            if (rw->src[p] == '[' || rw->src[p] == '(') d++;
            else if ((rw->src[p] == ']' || rw->src[p] == ')') && --d == 0) break;
            else if (rw->src[p] == ';' || rw->src[p] == '{' || rw->src[p] == '"' || rw->src[p] == '\'') return;
        }
        if (p >= rw->len) return;
        p++;
        dims++;
    }
    if (dims == 0 || p >= rw->len || rw->src[p] != ';') return;
    memcpy(rw->larr_name, rw->src + s, n);
    rw->larr_name[n] = 0;
    /* two or more dimensions and no __shared__ array declared before it in the kernel: a tile that
     * lacks __shared__ (a register tile, acc[TM][TN], comes after the kernel's shared tiles) */
    rw->larr_dims = dims >= 2 && rw->kshared == 0 ? 2 : 1;
    rw->larr_semi = p;
}

static void rewrite(Rw *rw) {
    int at_line_start = 1;
    while (rw->pos < rw->len) {
        char c = rw->src[rw->pos];
        if (c == '\n') { buf_add(&rw->out, "\n", 1); rw->pos++; rw->line++; at_line_start = 1; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { buf_add(&rw->out, &c, 1); rw->pos++; continue; }
        if (c == '#' && at_line_start) { preprocessor_line(rw); continue; }
        if (copy_comment_or_literal(rw)) {       /* a block comment keeps the line's start: a directive may follow */
            at_line_start &= rw->src[rw->pos - 1] == '/' && rw->src[rw->pos - 2] == '*';
            continue;
        }
        at_line_start = 0;
        size_t num = tl_lex_number(rw->src, rw->len, rw->pos);   /* 1'000, 1.0f, 0x1F: no name in them */
        if (num != rw->pos) {
            emit(rw, rw->src + rw->pos, num - rw->pos);
            rw->pos = num;
            continue;
        }
        if (is_id0((unsigned char)c)) {
            size_t s = rw->pos;
            while (rw->pos < rw->len && is_id((unsigned char)rw->src[rw->pos])) rw->pos++;
            size_t n = rw->pos - s;
            const char *id = rw->src + s;
#define IS(w) (n == sizeof(w) - 1 && !memcmp(id, w, n))
            if (IS("__shared__")) { rw->kshared++; shared_decl(rw, 0, rw->line); continue; }
            if (IS("extern")) {
                int nl = 0;
                size_t q = skip_space(rw, rw->pos, &nl);
                if (rw->len - q >= 10 && !memcmp(rw->src + q, "__shared__", 10) && !is_id((unsigned char)rw->src[q + 10])) {
                    int decl_line = rw->line;
                    for (size_t i = rw->pos; i < q; i++) if (rw->src[i] == '\n') rw->line++;
                    rw->pos = q + 10;
                    rw->kshared++;
                    shared_decl(rw, 1, decl_line);
                    for (int i = 0; i < nl; i++) buf_add(&rw->out, "\n", 1);
                    continue;
                }
            }
            if (IS("__noinline__")) { emit(rw, "__attribute__((noinline))", 25); continue; }
            if (IS("__global__") && !rw->in_func) {
                rw->kstate = 1; rw->kparen = 0; rw->kname[0] = 0;
                rw->ktemplate = preceded_by_template(rw);
                emit(rw, id, n);
                continue;
            }
            /* auto x = Mds[i][j]: x holds the element's value, not a proxy that would read the array
             * again later (after a barrier, another thread's value) */
            if (IS("auto") && rw->cur_kernel >= 0) {
                size_t p = skip_space(rw, rw->pos, NULL), q = p;
                while (q < rw->len && is_id((unsigned char)rw->src[q])) q++;
                size_t r = skip_space(rw, q, NULL);
                if (q > p && is_id0((unsigned char)rw->src[p]) && r < rw->len && rw->src[r] == '=' && !(r + 1 < rw->len && rw->src[r + 1] == '=')) {
                    emit(rw, id, n);
                    for (size_t i = rw->pos; i <= r; i++) if (rw->src[i] == '\n') rw->line++;
                    emit(rw, rw->src + rw->pos, r + 1 - rw->pos);
                    rw->pos = r + 1;
                    buf_str(&rw->out, " tl_emu::va(");
                    rw->auto_close = rw->pnest;
                    rw->auto_close_depth = rw->depth;
                    continue;
                }
            }
            /* The kernel's name is the last identifier before its parameters; "__launch_bounds__(...)"
             * between the return type and the name is passed over by the '(' logic below. */
            if (rw->kstate == 1 && rw->kparen == 0 && n < sizeof rw->kname) { memcpy(rw->kname, id, n); rw->kname[n] = 0; }
            int member = rw->last_sig == '.' || (rw->last_sig == '>' && rw->prev_sig == '-') || rw->last_sig == ':';
            if (rw->cur_kernel >= 0 && IS("thread_block")) { emit(rw, id, n); cg_block_decl(rw); continue; }
            if (rw->cur_kernel >= 0 && !member && cg_block_use(rw, id, n)) continue;
            const Name *nm = member ? NULL : find_name(rw, id, n);
            if (rw->cur_kernel >= 0 && !member && !nm) {
                for (int k = 0; k < rw->nkptr; k++)
                    if (strlen(rw->kptr[k]) == n && !memcmp(rw->kptr[k], id, n)) {
                        int kind = subscript_kind(rw, rw->pos);
                        if (kind < 0) break;
                        if (kind == 0 && rw->last_sig == '+' && rw->prev_sig == '+') kind = 2;
                        if (kind == 0 && rw->last_sig == '-' && rw->prev_sig == '-') kind = 2;
                        char t[64];
                        snprintf(t, sizeof t, "(tl_emu::gcount(%d), ", kind);
                        emit(rw, t, strlen(t));
                        emit(rw, id, n);
                        emit(rw, ")", 1);
                        id = NULL;
                        break;
                    }
                if (!id) continue;
                /* "T *name = ...counted pointer...": name's subscripts are counted from here on */
                if (rw->last_sig == '*' && rw->nkptr < MAX_PTRS && n < 128) {
                    size_t r = skip_space(rw, rw->pos, NULL);
                    if (r < rw->len && rw->src[r] == '=' && !(r + 1 < rw->len && rw->src[r + 1] == '=') && init_uses_kptr(rw, r + 1)) {
                        memcpy(rw->kptr[rw->nkptr], id, n);
                        rw->kptr[rw->nkptr][n] = 0;
                        rw->nkptr++;
                    }
                }
            }
            if (nm && rw->cur_kernel >= 0) shared_pointer_decl(rw);
            if (rw->cur_kernel >= 0 && !member && (IS("float") || IS("double")) &&
                (rw->last_sig == ';' || rw->last_sig == '{' || rw->last_sig == '}'))
            {
                find_uninit(rw, rw->pos, IS("double"));
                find_local_array(rw, rw->pos);
            }
            /* (uint64_t *)(Nss + n), a pointer cast of a __shared__ name's expression: C++ casts no
             * class (a view, a checked pointer) to another pointer type; &*Nss(__LINE__) is its plain
             * pointer (what goes through the cast is not checked, as through any plain pointer) */
            if (nm && out_ends_with_ptr_cast(rw)) buf_str(&rw->out, "&*");
            emit(rw, id, n);
            if (nm) buf_str(&rw->out, "(__LINE__)");
            for (int k = 0; !nm && k < rw->nuninit; k++)
                if (rw->uninit_at[k] == rw->pos) {
                    buf_str(&rw->out, rw->uninit_dbl ? " = tl_emu::uninit_d(__LINE__)" : " = tl_emu::uninit_f(__LINE__)");
                    if (k == rw->nuninit - 1) rw->nuninit = 0;
                    break;
                }
            continue;
#undef IS
        }
        if (c == '<' && rw->pos + 2 < rw->len && rw->src[rw->pos + 1] == '<' && rw->src[rw->pos + 2] == '<') { launch(rw); continue; }
        if (c == ';' && rw->pos == rw->larr_semi) {
            buf_fmt(&rw->out, "; tl_emu::uninit_fill(%s, __LINE__, %d);", rw->larr_name, rw->larr_dims);
            rw->larr_semi = (size_t)-1;
            rw->pos++;
            continue;
        }
        if ((c == ';' || c == ',') && rw->auto_close >= 0 && rw->pnest == rw->auto_close && rw->depth == rw->auto_close_depth) {
            buf_str(&rw->out, ")");
            rw->auto_close = -1;
        }
        if (c == '(' || c == '[') rw->pnest++;
        else if (c == ')' || c == ']') rw->pnest--;
        if (c == '(') {
            if (rw->kstate == 1 && rw->kparen == 0 && rw->kname[0] && strcmp(rw->kname, "__launch_bounds__")) { rw->kstate = 2; rw->kps = rw->out.n + 1; }
            if (rw->kstate == 1 || rw->kstate == 2) rw->kparen++;
        } else if (c == ')') {
            if (rw->kstate == 1 || rw->kstate == 2) {
                if (--rw->kparen == 0 && rw->kstate == 2) { rw->kstate = 3; rw->kpe = rw->out.n; }
            }
        } else if (c == ';') {
            if (rw->kstate == 3 || (rw->kstate != 0 && rw->kparen == 0)) rw->kstate = 0;      /* a prototype */
        } else if (c == '{') {
            if (rw->depth + 1 >= MAX_DEPTH) die(rw, rw->line, "braces nested too deeply");
            int is_func = !rw->in_func && rw->last_sig == ')';
            rw->depth++;
            rw->func_body_depth[rw->depth] = is_func;
            rw->func_open[rw->depth] = -1;
            if (is_func) {
                rw->in_func++;
                if (rw->nfuncs < MAX_FUNCS) {
                    Func *F = &rw->funcs[rw->nfuncs];
                    func_name_before(rw, F->name, sizeof F->name);
                    F->device = declared_for_device(rw);
                    F->bs = rw->out.n + 1;
                    rw->func_open[rw->depth] = rw->nfuncs++;
                }
            }
            if (rw->kstate == 3) {
                if (rw->nkernels == MAX_KERNELS) die(rw, rw->line, "too many kernels in one file");
                rw->cur_kernel = rw->nkernels++;
                rw->kshared = 0;
                snprintf(rw->kernels[rw->cur_kernel].name, sizeof rw->kernels[rw->cur_kernel].name, "%s", rw->kname);
                rw->kernels[rw->cur_kernel].is_template = rw->ktemplate;
                rw->kernels[rw->cur_kernel].ps = rw->kps;
                rw->kernels[rw->cur_kernel].pe = rw->kpe;
                rw->kernels[rw->cur_kernel].bs = rw->out.n + 1;
                read_pointer_params(rw, rw->kps, rw->kpe);
                rw->kbody_depth = rw->depth;
                rw->kstate = 0;
                rw->ncg_blocks = 0;
            }
        } else if (c == '}') {
            if (rw->depth == 0) die(rw, rw->line, "unbalanced '}'");
            if (rw->func_body_depth[rw->depth]) rw->in_func--;
            if (rw->func_open[rw->depth] >= 0) rw->funcs[rw->func_open[rw->depth]].be = rw->out.n;
            if (rw->depth == rw->kbody_depth) { rw->kernels[rw->cur_kernel].be = rw->out.n; rw->kbody_depth = -1; rw->cur_kernel = -1; }
            rw->depth--;
            while (rw->nnames > 0 && rw->names[rw->nnames - 1].depth > rw->depth) rw->nnames--;
        }
        emit(rw, &c, 1);
        rw->pos++;
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

/* A fresh state (large: the kernel and function tables), for the input file in_path. */
static Rw *rw_new(const char *in_path) {
    Rw *rw = calloc(1, sizeof *rw);
    if (!rw) { fprintf(stderr, "tl-emu-rewrite: out of memory\n"); exit(1); }
    rw->in_path = in_path;
    rw->line = 1;
    rw->last_sig = rw->prev_sig = ';';
    rw->use_regions = 1;
    rw->kbody_depth = rw->cur_kernel = -1;
    rw->auto_close = -1;
    rw->larr_semi = (size_t)-1;
    rw->sptr_depth = -1;
    return rw;
}

int main(int argc, char **argv) {
    int use_regions = 1;
    if (argc == 4 && !strcmp(argv[1], "--fibers")) { use_regions = 0; argv++; argc--; }
    if (argc != 3) {
        fprintf(stderr, "usage: tl-emu-rewrite [--fibers] IN.cu OUT.cpp\n"
                        "  rewrites a CUDA C source for tilelab's emulation mode (see common/emu/README.md);\n"
                        "  --fibers: run every kernel as fibers, never in region form\n");
        return 2;
    }
    Rw *rw = rw_new(argv[1]);
    rw->use_regions = use_regions;
    rw->src = read_file(rw->in_path, &rw->len);
    unsupported_scan(rw);          /* what emulation cannot run, refused before any compiler */
    buf_str(&rw->out, "#line 1 \"");
    for (const char *p = rw->in_path; *p; p++) {
        if (*p == '"' || *p == '\\') buf_add(&rw->out, "\\", 1);
        buf_add(&rw->out, p, 1);
    }
    buf_str(&rw->out, "\"\n");
    rewrite(rw);
    if (rw->depth != 0) die(rw, rw->line, "unbalanced braces at the end of the file");
    check_host_calls(rw);
    make_regions(rw);
    /* After the student's last line: register the kernels with their static shared memory. */
    if (rw->out.n && rw->out.p[rw->out.n - 1] != '\n') buf_str(&rw->out, "\n");
    if (rw->nkernels) buf_str(&rw->out, "#line 1 \"<tl-emu-rewrite: kernel registry>\"\n");
    for (int k = 0; k < rw->nkernels; k++) {
        Kernel *K = &rw->kernels[k];
        if (K->region) buf_fmt(&rw->out, "// %s: region form\n", K->name);
        else buf_fmt(&rw->out, "// %s: fibers (%s)\n", K->name, K->why);
        if (K->is_template) continue;      /* each instantiation registers itself when it first runs */
        buf_fmt(&rw->out, "#if 1%s\nstatic tl_emu::KernelReg tl_emu_reg_%s_%d_(%s, \"%s\", 0%s, %d);\n#else\n"
                      "static tl_emu::KernelReg tl_emu_reg_%s_%d_(%s, \"%s\", 0, %d);\n#endif\n",
                K->idents.p ? K->idents.p : "", K->name, k, K->name, K->name, K->smem.p ? K->smem.p : "", K->region,
                K->name, k, K->name, K->name, K->region);
    }
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(rw->out.p, 1, rw->out.n, f) != rw->out.n || fclose(f) != 0) { perror(argv[2]); return 1; }
    return 0;
}
