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

void check_literal(Rw *rw, const tl_lex_tok *t, int nl) {
    if (!t->bad) return;
    if (t->e < rw->len && rw->src[t->e] == '\n') {
        size_t q = t->s;
        while (rw->src[q] != '"' && rw->src[q] != '\'') q++;
        die(rw, t->line + nl, "unterminated %s literal", rw->src[q] == '"' ? "string" : "character");
    }
    die(rw, t->line, "unterminated literal");
}

/* Copies src[pos, t->s), what tl-lex passed over before token t (blanks, newlines, continuations,
 * comments), as it is; pos and line move to t. The text ending in a block comment is an error at the
 * comment's line. */
static void copy_gap(Rw *rw, const tl_lex_tok *t) {
    if (t->kind == TL_LEX_END)
        for (size_t p = rw->pos; p < t->s;) {
            int nl = 0, bad = 0;
            size_t q = tl_lex_comment(rw->src, rw->len, p, &nl, &bad);
            if (q == p) { rw->line += rw->src[p++] == '\n'; continue; }
            if (bad) die(rw, rw->line, "unterminated /* comment");
            rw->line += nl;
            p = q;
        }
    buf_add(&rw->out, rw->src + rw->pos, t->s - rw->pos);
    rw->pos = t->s;
    rw->line = t->line;
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
    /* The arguments, token by token (tl-lex.h), split at the commas outside brackets; what lies between
     * tokens (blanks, newlines, comments) stays in them. */
    tl_lexer lx = rw_lexer(rw, rw->pos + 3, rw->line);         /* after <<< */
    size_t g = lx.p;
    Buf args[4] = {{0}};
    int na = 0, d = 0;
    for (tl_lex_tok t;;) {
        char c = tok_next(&lx, &t);
        buf_add(&args[na], rw->src + g, t.s - g);
        if (!c) die(rw, at, "<<< without a matching >>>");
        if (d == 0 && t.s + 2 < rw->len && !memcmp(rw->src + t.s, ">>>", 3)) { rw->pos = t.s + 3; rw->line = t.line; break; }
        if (t.kind == TL_LEX_STR || t.kind == TL_LEX_CHR) check_literal(rw, &t, lx.line - t.line);
        g = t.e;
        if (t.kind == TL_LEX_PUNCT && t.e - t.s == 1) {
            if (c == '(' || c == '[' || c == '{') d++;
            if (c == ')' || c == ']' || c == '}') d--;
            if (c == ',' && d == 0) {
                if (++na == 4) die(rw, at, "a launch takes at most 4 arguments between <<< and >>>: grid, block, shared bytes, stream");
                continue;
            }
        }
        buf_add(&args[na], rw->src + t.s, t.e - t.s);
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
/* Whether the initialiser that lx reads, to its ';' or ',' (depth 0), names a counted pointer: a local
 * pointer made from one (const float *a = Md + off, the CUDA samples' pointer walk) is counted too. */
static int init_uses_kptr(Rw *rw, tl_lexer lx) {
    int d = 0;
    tl_lex_tok t;
    for (char c; (c = tok_next(&lx, &t));) {
        if (t.kind == TL_LEX_ID) {
            for (int k = 0; k < rw->nkptr; k++) if (tok_is(rw, &t, rw->kptr[k])) return 1;
        } else if (t.kind != TL_LEX_PUNCT || t.e - t.s != 1) {
            continue;                                     /* "a" or R"(Md)" names no pointer */
        } else if (c == '(' || c == '[') d++;
        else if (c == ')' || c == ']') { if (--d < 0) return 0; }
        else if ((c == ';' || c == ',' || c == '{' || c == '}') && d == 0) return 0;
    }
    return 0;
}

/* For a pointer parameter followed by '[' (the tokens of lx): 0 when the element is read, 1 written
 * (p[i] = v), 2 both (p[i] += v, p[i]++, ++p[i]); -1 when no '[' follows. */
static int subscript_kind(Rw *rw, tl_lexer lx) {
    tl_lex_tok t;
    if (tok_next(&lx, &t) != '[') return -1;
    for (int d = 1; d > 0 && tok_next(&lx, &t);)
        if (tok_is(rw, &t, "[") || tok_is(rw, &t, "(")) d++;
        else if (tok_is(rw, &t, "]") || tok_is(rw, &t, ")")) d--;
    tok_next(&lx, &t);
    static const char *const both[] = {"++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", NULL};
    for (int i = 0; both[i]; i++) if (tok_is(rw, &t, both[i])) return 2;
    return tok_is(rw, &t, "=");
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
/* At a preprocessor line, token t (src[pos] is its '#'); lx: the lexer after it. */
static void preprocessor_line(Rw *rw, const tl_lex_tok *t, const tl_lexer *lx) {
    size_t s = t->s, end = t->e;
    tl_lexer in = rw_lexer(rw, s + 1, t->line);   /* the line's own tokens */
    in.n = end;
    tl_lex_tok u, v;
    tok_next(&in, &u);
    tok_next(&in, &v);
    rw->pos = end;
    rw->line = lx->line;
    /* "#pragma unroll [N]": nvcc's; g++ would warn about an unknown pragma. A comment now (its
     * newlines, in continuations, after it, so that lines keep their numbers). */
    if (tok_is(rw, &u, "pragma") && tok_is(rw, &v, "unroll")) {
        buf_str(&rw->out, "/* ");
        for (size_t i = s; i < end; i++)                /* no newline, no comment's start or end in it */
            if (rw->src[i] != '\n' && !(i + 1 < end && ((rw->src[i] == '*' && rw->src[i + 1] == '/') || (rw->src[i] == '/' && rw->src[i + 1] == '*'))))
                buf_add(&rw->out, rw->src + i, 1);
        buf_str(&rw->out, " */");
        for (int i = t->line; i < lx->line; i++) buf_str(&rw->out, "\n");
        return;
    }
    /* A launch written inside a macro (#define LAUNCH(k, n) k<<<grid, block>>>(n)): rewritten in place,
     * token by token; _Pragma("unroll") in a macro (a loop a #define unrolls) is blanked, as #pragma
     * unroll above. */
    int has_launch = 0;
    in = rw_lexer(rw, s + 1, t->line);
    in.n = end;
    while (tok_next(&in, &u))
        if (tok_is(rw, &u, "<<") && u.e < end && rw->src[u.e] == '<') has_launch = 1;
    static const char up[] = "_Pragma(\"unroll\")";
    rw->pos = s;
    rw->line = t->line;
    rw->in_directive = has_launch;
    in = rw_lexer(rw, s, t->line);
    in.n = end;
    for (;;) {
        char c = tok_next(&in, &u);
        buf_add(&rw->out, rw->src + rw->pos, u.s - rw->pos);    /* blanks, comments, continuations */
        rw->pos = u.s;
        rw->line = u.line;
        if (!c) break;
        if (has_launch && tok_is(rw, &u, "<<") && u.e < end && rw->src[u.e] == '<') {
            launch(rw);
            in = rw_lexer(rw, rw->pos, rw->line);
            in.n = end;
            continue;
        }
        if (has_launch && (u.kind == TL_LEX_STR || u.kind == TL_LEX_CHR)) check_literal(rw, &u, in.line - u.line);
        if (!has_launch && tok_is(rw, &u, "_Pragma") && end - u.s >= sizeof up - 1 && !memcmp(rw->src + u.s, up, sizeof up - 1)) {
            for (size_t i = 0; i < sizeof up - 1; i++) buf_add(&rw->out, " ", 1);
            in = rw_lexer(rw, u.s + sizeof up - 1, u.line);
            in.n = end;
            rw->pos = in.p;
            continue;
        }
        if (has_launch) emit(rw, rw->src + u.s, u.e - u.s);
        else buf_add(&rw->out, rw->src + u.s, u.e - u.s);
        rw->pos = u.e;
        rw->line = in.line;
    }
    rw->in_directive = 0;
    if (rw->pos <= end) { rw->pos = end; rw->line = lx->line; }    /* (a launch may end past it) */
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
/* Every use of name in the rest of the kernel body (the tokens of lx) is `name.` or `sync(name)`. */
static int cg_uses_replaceable(Rw *rw, tl_lexer lx, const char *name) {
    int open = rw->depth - rw->kbody_depth + 1;
    tl_lex_tok t, u, prev = {0}, prev2 = {0};
    for (char c; open > 0 && (c = tok_next(&lx, &t)); prev2 = prev, prev = t) {
        if (tok_is(rw, &t, "{")) open++;
        else if (tok_is(rw, &t, "}")) open--;
        if (t.kind != TL_LEX_ID || !tok_is(rw, &t, name) || strchr(".:>", rw->src[t.s - 1])) continue;
        tl_lexer a = lx;
        if (tok_next(&a, &u) == '.') continue;
        if (!(tok_is(rw, &u, ")") && tok_is(rw, &prev, "(") && tok_is(rw, &prev2, "sync"))) return 0;
    }
    return 1;
}
/* At the word thread_block in a kernel: `NAME = [NS::]this_thread_block();` on one line, with only
 * replaceable uses, is emitted as `NAME = ::cooperative_groups::thread_block();` (1); else 0. */
static int cg_block_decl(Rw *rw) {
    tl_lexer lx = rw_lexer(rw, rw->pos, rw->line);
    tl_lex_tok t, u;
    tok_next(&lx, &t);
    if (t.kind != TL_LEX_ID || t.e - t.s >= sizeof rw->cg_blocks[0] || rw->ncg_blocks == MAX_CG_BLOCKS) return 0;
    char name[64];
    memcpy(name, rw->src + t.s, t.e - t.s);
    name[t.e - t.s] = 0;
    tok_next(&lx, &t);
    if (!tok_is(rw, &t, "=")) return 0;
    tok_next(&lx, &t);
    for (tl_lexer a = lx; t.kind == TL_LEX_ID && !tok_is(rw, &t, "this_thread_block") &&     /* cg:: or cooperative_groups:: */
                          tok_next(&a, &u) && tok_is(rw, &u, "::"); a = lx)
        tok_next(&lx, &t), tok_next(&lx, &t);
    if (!tok_is(rw, &t, "this_thread_block")) return 0;
    static const char *const rest[] = {"(", ")", ";"};
    for (int i = 0; i < 3; i++) if (!(tok_next(&lx, &t) && tok_is(rw, &t, rest[i]))) return 0;
    if (t.line != rw->line || !cg_uses_replaceable(rw, lx, name)) return 0;
    emit(rw, " ", 1);
    emit(rw, name, strlen(name));
    buf_str(&rw->out, " [[maybe_unused]] = ::cooperative_groups::thread_block()");
    memcpy(rw->cg_blocks[rw->ncg_blocks++], name, sizeof name);
    rw->pos = t.s;                                        /* the ';' is copied as usual */
    return 1;
}
/* At an identifier: `B.sync()` or `NS::sync(B)` for a block B above, on one line: emits
 * __syncthreads() (1); `B.` emits the block's value; else 0 and nothing. */
static int cg_block_use(Rw *rw, const char *id, size_t n) {
    tl_lexer lx = rw_lexer(rw, rw->pos, rw->line);
    tl_lex_tok t, u;
    char c = tok_next(&lx, &t);
    if (c == '.' && is_cg_block(rw, id, n)) {
        if (tok_next(&lx, &u) && tok_is(rw, &u, "sync") && tok_next(&lx, &u) &&
            (!tok_is(rw, &u, "(") || tok_next(&lx, &u)) && tok_is(rw, &u, ")") && u.line == rw->line) {
            emit(rw, "__syncthreads()", 15);
            rw->pos = u.e;
            return 1;
        }
        buf_str(&rw->out, "::cooperative_groups::thread_block()");
        rw->prev_sig = rw->last_sig = ')';
        return 1;
    }
    static const char *const call[] = {"::", "sync", "(", NULL, ")"};      /* NS::sync(B) */
    for (int i = 0; i < 5; i++) {
        if (i > 0) tok_next(&lx, &t);
        if (call[i] ? !tok_is(rw, &t, call[i]) : t.kind != TL_LEX_ID || !is_cg_block(rw, rw->src + t.s, t.e - t.s)) return 0;
    }
    if (t.line != rw->line) return 0;
    emit(rw, "__syncthreads()", 15);
    rw->pos = t.e;
    return 1;
}

/* ---- uninitialised locals ------------------------------------------------------------------------
 * A float or double declared in a kernel without a value (`float Pvalue;`) gets one it cannot be
 * mistaken for: a NaN marked with the declaration's line (tl_emu::uninit_f/uninit_d). x86 keeps a NaN's
 * bits through +, * and fma, so a sum started from it stores the mark into P, and the lab harness
 * (common/driver.c) names the line: "reading a local before giving it a value". On a GPU the register
 * holds whatever it held, often 0: such a kernel may pass there by luck. Only plain scalars of a
 * declaration statement (`float a, b = 0, c;`): anything else (pointers, arrays, references) is left. */
static void find_uninit(Rw *rw, tl_lexer lx, int dbl) {
    size_t at[16];
    int n = 0;
    rw->nuninit = 0;
    tl_lex_tok t;
    for (char c;;) {
        if (tok_next(&lx, &t), t.kind != TL_LEX_ID) return;
        size_t e = t.e;
        if ((c = tok_next(&lx, &t)) == ';' || c == ',') {
            if (n < 16) at[n++] = e;
            if (c == ';') break;
            continue;
        }
        if (!tok_is(rw, &t, "=")) return;                 /* [, (, :, a qualifier ... */
        int d = 0;
        while ((c = tok_next(&lx, &t))) {
            if (t.kind == TL_LEX_STR || t.kind == TL_LEX_CHR || c == '#' || (t.kind == TL_LEX_NUM && memchr(rw->src + t.s, '\'', t.e - t.s)))
                return;                                   /* (as before the lexer: no literal, no 1'000) */
            if (t.kind != TL_LEX_PUNCT || t.e - t.s != 1) continue;
            if (c == '(' || c == '[' || c == '{') d++;
            else if (c == ')' || c == ']' || c == '}') { if (d-- == 0) return; }
            else if ((c == ',' || c == ';') && d == 0) break;
        }
        if (!c) return;
        if (c == ';') break;
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
static void find_local_array(Rw *rw, tl_lexer lx) {
    rw->larr_semi = (size_t)-1;
    tl_lex_tok t, name;
    if (tok_next(&lx, &name), name.kind != TL_LEX_ID || name.e - name.s >= sizeof rw->larr_name) return;
    int dims = 0;
    char c;
    while ((c = tok_next(&lx, &t)) == '[') {
        for (int d = 1; d > 0;) {
            if (!(c = tok_next(&lx, &t)) || t.kind == TL_LEX_STR || t.kind == TL_LEX_CHR || c == ';' || c == '{') return;
            if (c == '[' || c == '(') d += t.e - t.s == 1;
            else if (c == ']' || c == ')') d--;
        }
        dims++;
    }
    if (dims == 0 || c != ';') return;
    memcpy(rw->larr_name, rw->src + name.s, name.e - name.s);
    rw->larr_name[name.e - name.s] = 0;
    /* two or more dimensions and no __shared__ array declared before it in the kernel: a tile that
     * lacks __shared__ (a register tile, acc[TM][TN], comes after the kernel's shared tiles) */
    rw->larr_dims = dims >= 2 && rw->kshared == 0 ? 2 : 1;
    rw->larr_semi = t.s;
}

/* At a one-character punctuator c (src[pos]): the brackets that open and close functions, kernels
 * and scopes, the ends of statements that close what a rewrite left pending. */
static void punct(Rw *rw, char c) {
    if (c == ';' && rw->pos == rw->larr_semi) {
        buf_fmt(&rw->out, "; tl_emu::uninit_fill(%s, __LINE__, %d);", rw->larr_name, rw->larr_dims);
        rw->larr_semi = (size_t)-1;
        rw->pos++;
        return;
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

/* The streaming copy: src token by token (tl-lex.h), what lies between tokens copied as it is. */
static void rewrite(Rw *rw) {
    tl_lexer lx;
    tl_lex_init(&lx, rw->src, rw->len);
    for (tl_lex_tok t;;) {
        if (rw->pos != lx.p || rw->line != lx.line) lx = rw_lexer(rw, rw->pos, rw->line);   /* a part read ahead */
        char c = tok_next(&lx, &t);
        copy_gap(rw, &t);
        if (!c) return;
        if (t.kind == TL_LEX_DIRECTIVE) { preprocessor_line(rw, &t, &lx); continue; }
        if (t.kind != TL_LEX_ID) {
            if (t.kind == TL_LEX_STR || t.kind == TL_LEX_CHR) check_literal(rw, &t, lx.line - t.line);
            if (t.kind == TL_LEX_PUNCT && t.e - t.s == 1) { punct(rw, rw->src[t.s]); continue; }
            if (tok_is(rw, &t, "<<") && rw->src[t.e] == '<') { launch(rw); continue; }
            emit(rw, rw->src + t.s, t.e - t.s);           /* a number, a literal, a longer operator */
            rw->pos = t.e;
            rw->line = lx.line;
            continue;
        }
        rw->pos = t.e;
        rw->line = lx.line;
        {
            size_t n = t.e - t.s;
            const char *id = rw->src + t.s;
            tl_lexer ahead = lx;
            tl_lex_tok u, v;
#define IS(w) (n == sizeof(w) - 1 && !memcmp(id, w, n))
            if (IS("__shared__")) { rw->kshared++; shared_decl(rw, 0, rw->line); continue; }
            if (IS("extern") && tok_next(&ahead, &u) && tok_is(rw, &u, "__shared__")) {
                int decl_line = rw->line, nl = u.line - rw->line;
                rw->pos = u.e;
                rw->line = u.line;
                rw->kshared++;
                shared_decl(rw, 1, decl_line);
                for (int i = 0; i < nl; i++) buf_add(&rw->out, "\n", 1);
                continue;
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
            if (IS("auto") && rw->cur_kernel >= 0 && tok_next(&ahead, &u) && u.kind == TL_LEX_ID &&
                tok_next(&ahead, &v) && tok_is(rw, &v, "=")) {
                emit(rw, id, n);
                emit(rw, rw->src + rw->pos, v.e - rw->pos);
                rw->pos = v.e;
                rw->line = v.line;
                buf_str(&rw->out, " tl_emu::va(");
                rw->auto_close = rw->pnest;
                rw->auto_close_depth = rw->depth;
                continue;
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
                        int kind = subscript_kind(rw, lx);
                        if (kind < 0) break;
                        if (kind == 0 && rw->last_sig == '+' && rw->prev_sig == '+') kind = 2;
                        if (kind == 0 && rw->last_sig == '-' && rw->prev_sig == '-') kind = 2;
                        char g[64];
                        snprintf(g, sizeof g, "(tl_emu::gcount(%d), ", kind);
                        emit(rw, g, strlen(g));
                        emit(rw, id, n);
                        emit(rw, ")", 1);
                        id = NULL;
                        break;
                    }
                if (!id) continue;
                /* "T *name = ...counted pointer...": name's subscripts are counted from here on */
                if (rw->last_sig == '*' && rw->nkptr < MAX_PTRS && n < 128 && (ahead = lx, tok_next(&ahead, &u)) &&
                    tok_is(rw, &u, "=") && init_uses_kptr(rw, ahead)) {
                    memcpy(rw->kptr[rw->nkptr], id, n);
                    rw->kptr[rw->nkptr][n] = 0;
                    rw->nkptr++;
                }
            }
            if (nm && rw->cur_kernel >= 0) shared_pointer_decl(rw);
            if (rw->cur_kernel >= 0 && !member && (IS("float") || IS("double")) &&
                (rw->last_sig == ';' || rw->last_sig == '{' || rw->last_sig == '}'))
            {
                find_uninit(rw, lx, IS("double"));
                find_local_array(rw, lx);
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
#undef IS
        }
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
