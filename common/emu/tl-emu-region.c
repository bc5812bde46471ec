/* tl-emu-region.c: tl-emu-rewrite's region form, a kernel's threads as loops between its barriers.
 *
 * Under fibers every thread of a block stops at every __syncthreads() and the CPU switches to the next
 * one: 256 switches per barrier for a 16 x 16 tile, and each thread's inner loop runs alone, so the
 * processor cannot overlap one thread's additions with the next thread's. In region form the kernel is
 * called once per block and each stretch of code between two barriers ("region") becomes
 *
 *     for (each thread t of the block, in the chosen order) { the stretch, for thread t }
 *
 * with no switch at all. This works when the barriers are statements of the kernel body itself, or of
 * `for` loops whose header is the same for every thread of the block (it reads only parameters, block
 * indices and dimensions, constants and such loop variables). Locals declared at those levels live on
 * across barriers, so each gets one slot per thread (`tl_p_NAME[thread]`): a scalar is copied into a
 * plain local at the start of each region and back at its end (so the compiler keeps it in a
 * register), an array or a variable whose address is taken is bound by reference. Locals that hold the
 * same value in every thread (`int bx = blockIdx.x;`, never assigned again) stay single. A `return`
 * marks the thread finished; a barrier reached while some threads have returned is reported as a
 * divergent barrier, as under fibers.
 *
 * Anything else (a barrier inside an if, a block or a loop that may differ between threads, warp
 * operations, goto, preprocessor lines in the body, calls of functions that hold a barrier, locals
 * declared with auto or as references) keeps the kernel on fibers: tl_region_body says why and
 * changes nothing. The output keeps every newline where it was, so line numbers do not move.
 */
#include "tl-emu-rewrite.h"
#include "tl-lex.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_ID = 1, T_NUM, T_LIT, T_PUN };
typedef struct { int k; size_t s, e; } Tok;
enum { MAX_VARS = 512 };
/* remat: a private local whose value is a function of the thread's index alone (below): each region
 * computes it again from its initialiser (decl) instead of keeping a slot */
typedef struct { char name[128]; int ref; int level; int remat; char *decl; } Var;

/* The state of one tl_region_body call, passed by pointer to every function here (no globals). */
typedef struct Rg {
    /* the tokens */
    const char *B;                 /* the text being read (parameters, then the body) */
    size_t NB;
    Tok *tk;
    int nt, cap_t;
    /* the way out when the kernel must stay on fibers */
    jmp_buf fail_jb;
    char *fail_why;
    size_t fail_n;
    /* the names in scope: the same in every thread of the block (uni), one per thread (priv) */
    Var uni[MAX_VARS], priv[MAX_VARS];
    int nuni, npriv;
    /* the output */
    Buf *O;
    size_t cur;                    /* text of B up to here is written */
    int region_no;
    int line0;                     /* the source line of the body's first character */
    char views[64][128];           /* the kernel's __shared__ views (tl_emu::Shared / tl_emu::SPtr) */
    int nviews;
} Rg;


static void fail(Rg *rg, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void fail(Rg *rg, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rg->fail_why, rg->fail_n, fmt, ap);
    va_end(ap);
    longjmp(rg->fail_jb, 1);
}

static void push_tok(Rg *rg, int k, size_t s, size_t e) {
    if (rg->nt == rg->cap_t) {
        rg->cap_t = rg->cap_t ? rg->cap_t * 2 : 1024;
        rg->tk = realloc(rg->tk, (size_t)rg->cap_t * sizeof *rg->tk);
        if (!rg->tk) { fprintf(stderr, "tl-emu-rewrite: out of memory\n"); exit(1); }
    }
    rg->tk[rg->nt].k = k; rg->tk[rg->nt].s = s; rg->tk[rg->nt].e = e; rg->nt++;
}

/* The tokens of text (tl-lex.h); a preprocessor line keeps the kernel on fibers. */
static void tokenize(Rg *rg, const char *text, size_t n) {
    rg->B = text; rg->NB = n; rg->nt = 0;
    tl_lexer lx;
    tl_lex_init(&lx, text, n);
    tl_lex_tok t;
    while (tl_lex_next(&lx, &t) != TL_LEX_END) {
        if (t.kind == TL_LEX_DIRECTIVE) fail(rg, "a preprocessor line inside the kernel");
        int k = t.kind == TL_LEX_ID ? T_ID : t.kind == TL_LEX_NUM ? T_NUM
              : t.kind == TL_LEX_STR || t.kind == TL_LEX_CHR ? T_LIT : T_PUN;
        push_tok(rg, k, t.s, t.e);
    }
}

static int is(Rg *rg, int i, const char *w) {
    if (i < 0 || i >= rg->nt) return 0;
    size_t l = strlen(w);
    return rg->tk[i].e - rg->tk[i].s == l && !memcmp(rg->B + rg->tk[i].s, w, l);
}
static int isid(Rg *rg, int i) { return i >= 0 && i < rg->nt && rg->tk[i].k == T_ID; }
static int eqname(Rg *rg, int i, const char *name) { return isid(rg, i) && is(rg, i, name); }
static void tokname(Rg *rg, int i, char *buf, size_t n) {
    size_t l = rg->tk[i].e - rg->tk[i].s;
    if (l >= n) fail(rg, "a name too long");
    memcpy(buf, rg->B + rg->tk[i].s, l); buf[l] = 0;
}

/* The index of the bracket that closes the one at i. */
static int match(Rg *rg, int i) {
    int d = 0;
    for (int j = i; j < rg->nt; j++) {
        if (is(rg, j, "(") || is(rg, j, "[") || is(rg, j, "{")) d++;
        else if (is(rg, j, ")") || is(rg, j, "]") || is(rg, j, "}")) { if (--d == 0) return j; }
    }
    fail(rg, "unbalanced brackets");
}

static int contains(Rg *rg, int a, int b, const char *w) {
    for (int j = a; j < b; j++) if (is(rg, j, w)) return 1;
    return 0;
}

/* The token after the statement that starts at i (b: the end of the enclosing list). */
static int stmt_end(Rg *rg, int i, int b) {
    if (i >= b) fail(rg, "a statement runs past its block");
    if (is(rg, i, "{")) return match(rg, i) + 1;
    if (is(rg, i, "if")) {
        if (!is(rg, i + 1, "(")) fail(rg, "if without (");
        int j = stmt_end(rg, match(rg, i + 1) + 1, b);
        if (j < b && is(rg, j, "else")) j = stmt_end(rg, j + 1, b);
        return j;
    }
    if (is(rg, i, "for") || is(rg, i, "while") || is(rg, i, "switch")) {
        if (!is(rg, i + 1, "(")) fail(rg, "loop without (");
        return stmt_end(rg, match(rg, i + 1) + 1, b);
    }
    if (is(rg, i, "do")) {
        int j = stmt_end(rg, i + 1, b);
        if (!is(rg, j, "while") || !is(rg, j + 1, "(")) fail(rg, "do without while");
        j = match(rg, j + 1) + 1;
        if (!is(rg, j, ";")) fail(rg, "do-while without ;");
        return j + 1;
    }
    for (int j = i; j < b; j++) {
        if (is(rg, j, "(") || is(rg, j, "[") || is(rg, j, "{")) { j = match(rg, j); continue; }
        if (is(rg, j, ";")) return j + 1;
    }
    fail(rg, "a statement without its ';'");
}

/* ---- names ------------------------------------------------------------------------------------- */

static int in_list(Rg *rg, const Var *v, int n, int i) {
    for (int k = n - 1; k >= 0; k--) if (eqname(rg, i, v[k].name)) return 1;
    return 0;
}
static void add_var(Rg *rg, Var *v, int *n, int i, int ref, int level) {
    if (*n == MAX_VARS) fail(rg, "too many locals");
    tokname(rg, i, v[*n].name, sizeof v[*n].name);
    v[*n].ref = ref;
    v[*n].level = level;
    v[*n].remat = 0;
    v[*n].decl = NULL;
    (*n)++;
}

static const char *type_words[] = {"int", "float", "double", "char", "bool", "short", "long", "unsigned", "signed",
    "const", "volatile", "register", "size_t", "ptrdiff_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t",
    "int16_t", "int32_t", "int64_t", "uint", "float2", "float3", "float4", "double2", "double3", "double4", "int2",
    "int3", "int4", "uint2", "uint3", "uint4", "dim3", "char4", "uchar4", "short2", "long2", "longlong2", NULL};
static const char *keywords[] = {"return", "if", "else", "for", "while", "do", "switch", "case", "default", "break",
    "continue", "goto", "sizeof", "new", "delete", "typedef", "using", "struct", "class", "static", "constexpr",
    "auto", "enum", "union", "throw", "operator", "template", "typename", NULL};
static int in_words(Rg *rg, int i, const char **w) {
    for (int k = 0; w[k]; k++) if (is(rg, i, w[k])) return 1;
    return 0;
}
static int is_type_word(Rg *rg, int i) { return isid(rg, i) && in_words(rg, i, type_words); }
static int is_keyword(Rg *rg, int i) { return isid(rg, i) && in_words(rg, i, keywords); }

/* Identifiers a block-uniform expression may use besides uniform locals and parameters. */
static const char *uniform_words[] = {"blockIdx", "blockDim", "gridDim", "warpSize", "sizeof", "static_cast", "true",
    "false", "nullptr", "min", "max", "ceil_div", "ceilf", "floorf", "ceil", "floor", "fminf", "fmaxf", "abs", NULL};
static int is_macro_name(Rg *rg, int i) {
    int letter = 0;
    for (size_t p = rg->tk[i].s; p < rg->tk[i].e; p++) {
        char c = rg->B[p];
        if (islower((unsigned char)c)) return 0;
        if (isupper((unsigned char)c)) letter = 1;
    }
    return letter;
}
/* Whether tokens [a, b) read only what is the same in every thread of a block. */
static int uniform_expr(Rg *rg, int a, int b, char *bad, size_t nbad) {
    for (int j = a; j < b; j++) {
        if (!isid(rg, j)) continue;
        if (j > a && (is(rg, j - 1, ".") || is(rg, j - 1, "->"))) continue;   /* a member: blockIdx.x */
        if (in_list(rg, rg->uni, rg->nuni, j) || in_words(rg, j, uniform_words) || is_type_word(rg, j) || is_macro_name(rg, j)) continue;
        if (is(rg, j + 1, "(") && is(rg, j + 2, "__LINE__")) continue;        /* a __shared__ view: the block's */
        if (bad) tokname(rg, j, bad, nbad);
        return 0;
    }
    return 1;
}

static int operand_end(Rg *rg, int k) {
    return (isid(rg, k) && !is_keyword(rg, k)) || (k >= 0 && k < rg->nt && rg->tk[k].k == T_NUM) || is(rg, k, ")") || is(rg, k, "]");
}
static const char *assign_ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--", NULL};
/* Whether the variable named by token i is assigned, incremented, has a member assigned, or has its
 * address taken anywhere in the body (other than at token skip, its declaration). */
static int assigned_in(Rg *rg, int i, int skip, int *addr, int from, int to) {
    int any = 0;
    for (int j = from; j < to; j++) {
        if (j == skip || !isid(rg, j) || rg->tk[j].e - rg->tk[j].s != rg->tk[i].e - rg->tk[i].s ||
            memcmp(rg->B + rg->tk[j].s, rg->B + rg->tk[i].s, rg->tk[i].e - rg->tk[i].s))
            continue;
        if (j > 0 && (is(rg, j - 1, ".") || is(rg, j - 1, "->") || is(rg, j - 1, "::"))) continue;
        int n = j + 1;
        if (is(rg, n, ".") && isid(rg, n + 1)) n += 2;                      /* v.x = ... */
        if (in_words(rg, n, assign_ops) || is(rg, j - 1, "++") || is(rg, j - 1, "--")) any = 1;
        if (is(rg, j - 1, "&") && !operand_end(rg, j - 2)) { any = 1; if (addr) *addr = 1; }
    }
    return any;
}
static int assigned(Rg *rg, int i, int skip, int *addr) { return assigned_in(rg, i, skip, addr, 0, rg->nt); }
/* Whether a variable named name may change in tokens [a, b): assigned there, or passed to a call (a
 * reference parameter). */
static int changes_in(Rg *rg, const char *name, int a, int b) {
    for (int j = a; j < b; j++) {
        if (!eqname(rg, j, name)) continue;
        if (assigned_in(rg, j, -1, NULL, j, j + 1)) return 1;
        if (is(rg, j - 1, "(") || is(rg, j - 1, ",")) return 1;      /* an argument: maybe a reference */
    }
    return 0;
}

/* Whether token j is (part of) an argument of a call of a function that is not known to be pure (it may
 * take a reference). */
static int in_call_arg(Rg *rg, int j) {
    int depth = 0;
    for (int k = j - 1; k >= 0; k--) {
        if (is(rg, k, ")") || is(rg, k, "]")) depth++;
        else if (is(rg, k, "[")) { if (depth-- == 0) return 0; }
        else if (is(rg, k, "(")) {
            if (depth-- > 0) continue;
            if (!isid(rg, k - 1)) return 0;                              /* grouping or a cast */
            return !(is_keyword(rg, k - 1) || is_type_word(rg, k - 1) || in_words(rg, k - 1, uniform_words));
        } else if (is(rg, k, ";") || is(rg, k, "{") || is(rg, k, "}")) return 0;
    }
    return 0;
}
static int find_var(const Var *v, int n, const char *name) {
    for (int k = n - 1; k >= 0; k--) if (!strcmp(v[k].name, name)) return k;
    return -1;
}
/* Whether tokens [a, b) compute a value from the thread's and the block's indices, uniform names and
 * other such locals only: no memory read (subscript, *, ->), no call but the pure functions of
 * uniform_words, no assignment. Such a local can be computed again in each region. */
static int remat_expr(Rg *rg, int a, int b) {
    for (int j = a; j < b; j++) {
        if (is(rg, j, "[") || is(rg, j, "->") || is(rg, j, "{") || in_words(rg, j, assign_ops)) return 0;
        if ((is(rg, j, "*") || is(rg, j, "&")) && (j == a || !operand_end(rg, j - 1))) return 0;
        if (!isid(rg, j)) continue;
        if (j > a && is(rg, j - 1, ".")) continue;                      /* a member: threadIdx.x */
        if (is(rg, j + 1, "(")) {
            if (in_words(rg, j, uniform_words) || is_type_word(rg, j)) continue;
            return 0;
        }
        if (is(rg, j, "threadIdx") || in_list(rg, rg->uni, rg->nuni, j) || in_words(rg, j, uniform_words) || is_type_word(rg, j) ||
            is_macro_name(rg, j))
            continue;
        int k = -1;
        for (int q = rg->npriv - 1; q >= 0 && k < 0; q--) if (eqname(rg, j, rg->priv[q].name)) k = q;
        if (k >= 0 && rg->priv[k].remat) continue;
        return 0;
    }
    return 1;
}
/* Whether the local named by token i never changes after its declaration: not assigned, its address
 * never taken, never an argument of a call that might take a reference (by name, over the whole body). */
static int never_changes(Rg *rg, int i) {
    int addr = 0;
    if (assigned(rg, i, i, &addr) || addr) return 0;
    for (int j = 0; j < rg->nt; j++)
        if (j != i && rg->tk[j].e - rg->tk[j].s == rg->tk[i].e - rg->tk[i].s && !memcmp(rg->B + rg->tk[j].s, rg->B + rg->tk[i].s, rg->tk[i].e - rg->tk[i].s) &&
            !(j > 0 && (is(rg, j - 1, ".") || is(rg, j - 1, "->") || is(rg, j - 1, "::"))) && in_call_arg(rg, j))
            return 0;
    return 1;
}

/* ---- declarations -------------------------------------------------------------------------------- */
enum { MAX_DECL = 32 };
typedef struct { int name, pre_s, pre_e, dim_s, dim_e, init_s, init_e; } Declarator;
typedef struct { int spec_s, spec_e, nd; Declarator d[MAX_DECL]; } Decl;

static int looks_like_decl(Rg *rg, int s) {
    if (is_type_word(rg, s) || is(rg, s, "auto")) return 1;
    if (!isid(rg, s) || is_keyword(rg, s)) return 0;
    if (is(rg, s + 1, "::") || is(rg, s + 1, "<")) return 0;
    if (isid(rg, s + 1) && !is_keyword(rg, s + 1) && (is(rg, s + 2, "=") || is(rg, s + 2, ";") || is(rg, s + 2, ",") || is(rg, s + 2, "[")))
        return 1;
    if (is(rg, s + 1, "*") && isid(rg, s + 2) && (is(rg, s + 3, "=") || is(rg, s + 3, ";") || is(rg, s + 3, ",") || is(rg, s + 3, "[")))
        return 1;
    return 0;
}

/* Reads the declaration [s, e) (e: after its ';'). */
static void parse_decl(Rg *rg, int s, int e, Decl *D) {
    if (is(rg, s, "auto") || contains(rg, s, e, "auto")) fail(rg, "a local declared with auto");
    D->nd = 0;
    int a = s, end = e - 1;
    int spec_end = -1;
    while (a < end) {
        int b = a;
        while (b < end && !is(rg, b, ",")) {
            if (is(rg, b, "(") || is(rg, b, "[") || is(rg, b, "{")) b = match(rg, b);
            b++;
        }
        /* [a, b) is one declarator (with the specifiers for the first) */
        int f = a;
        while (f < b && !is(rg, f, "=") && !is(rg, f, "[") && !is(rg, f, "(") && !is(rg, f, "{")) f++;
        int name = f - 1;
        if (name < a || !isid(rg, name)) fail(rg, "a declaration it cannot read");
        if (f < b && (is(rg, f, "(") || is(rg, f, "{"))) fail(rg, "a local initialised with () or {}");
        if (D->nd == MAX_DECL) fail(rg, "too many declarators");
        Declarator *d = &D->d[D->nd++];
        d->name = name;
        if (spec_end < 0) {
            spec_end = a;
            while (spec_end < name && !is(rg, spec_end, "*") && !is(rg, spec_end, "&") && !is(rg, spec_end, "&&")) spec_end++;
            D->spec_s = s; D->spec_e = spec_end;
            d->pre_s = spec_end;
        } else {
            d->pre_s = a;
        }
        d->pre_e = name;
        if (D->spec_e <= D->spec_s) fail(rg, "a declaration without a type");
        for (int k = d->pre_s; k < d->pre_e; k++)
            if (is(rg, k, "&") || is(rg, k, "&&")) fail(rg, "a reference declared in the kernel body");
        int j = name + 1;
        d->dim_s = j;
        long elems = 1;
        while (j < b && is(rg, j, "[")) {
            int c = match(rg, j);
            if (c != j + 2 || rg->tk[j + 1].k != T_NUM) fail(rg, "a local array whose size is not a number");
            elems *= strtol(rg->B + rg->tk[j + 1].s, NULL, 0);
            j = c + 1;
        }
        /* slots for 1024 threads live on the worker's stack: big local arrays stay on fibers (and
         * their own stacks, where an overflow is reported) */
        if (elems > 1024) fail(rg, "a local array of more than 1024 elements");
        d->dim_e = j;
        d->init_s = d->init_e = -1;
        if (j < b && is(rg, j, "=")) {
            d->init_s = j + 1; d->init_e = b;
            if (is(rg, j + 1, "{")) fail(rg, "a local array with an initialiser list");
        } else if (j != b) {
            fail(rg, "a declaration it cannot read");
        }
        a = b + 1;
    }
}

/* ---- output -------------------------------------------------------------------------------------- */

static void copy_to(Rg *rg, size_t p) { if (p > rg->cur) buf_add(rg->O, rg->B + rg->cur, p - rg->cur); if (p > rg->cur) rg->cur = p; }
static int count_nl(const char *s, size_t n) { int k = 0; for (size_t i = 0; i < n; i++) k += s[i] == '\n'; return k; }
/* Writes text in place of B[cur, p), then as many newlines as that range held and text did not. */
static void replace_to(Rg *rg, size_t p, const char *text) {
    int want = count_nl(rg->B + rg->cur, p - rg->cur), have = count_nl(text, strlen(text));
    buf_str(rg->O, text);
    for (int k = have; k < want; k++) buf_str(rg->O, "\n");
    rg->cur = p;
}
static void tok_text(Rg *rg, Buf *b, int s, int e) {
    for (int k = s; k < e; k++) {
        if (k > s) buf_str(b, " ");
        buf_add(b, rg->B + rg->tk[k].s, rg->tk[k].e - rg->tk[k].s);
    }
}

typedef struct {
    int open;                      /* a region loop is open */
    int has_ret;
    int no;
    int first;                     /* its first token */
    int last_end;                  /* token after the last statement inside it */
    size_t body_at;                /* where its statements begin in the output */
    char *prologue;                /* what binds each thread's locals at the top of the loop */
    int ro;                        /* read-only and a whole barrier interval (stores_none, barrier_after) */
} Region;

/* ---- three copies of each region -----------------------------------------------------------------
 * A region is written three times: a plain copy, taken when tl_emu::rplain() (race checking off, or a
 * read-only region under race checking, below; forward order, no thread returned), that runs the
 * block's threads as nested loops over z, y and x and names its __shared__ views NAME(__LINE__,
 * tl_emu::Plain{&tl_emu_lc_}) (bounds-checked, shared accesses counted in local counters, nothing else);
 * a direct copy (tl_emu::rdirect(): race checking on, forward order), the same loops with every access
 * checked (tl_emu::Esc); and the general copy (tl_emu::rnext: any order, threads that returned skipped,
 * every access checked). The plain copy keeps the source's lines; the others are put between #line
 * directives, so that all three report the student's file and line. */
enum { S_ORD, S_PDECL, S_BLOCK, S_UDECL, S_BARRIER, S_UFOR, S_SPTR };
static int classify(Rg *rg, int s, int e, int in_loop);

static int line_of(Rg *rg, size_t off) { return rg->line0 + count_nl(rg->B, off); }

/* The block's threads in forward order as nested loops (what rplain and rdirect allow). */
static const char direct_loop[] =
    "const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; "
    "for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) "
    "for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) "
    "for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { "
    "const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; "
    "tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); ";
static const char ep_decl[] = "[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; ";

static void find_views(Rg *rg) {
    rg->nviews = 0;
    for (int j = 0; j + 3 < rg->nt; j++) {
        if (!is(rg, j, "tl_emu") || !is(rg, j + 1, "::") || !(is(rg, j + 2, "Shared") || is(rg, j + 2, "SPtr")) || !is(rg, j + 3, "<"))
            continue;
        int k = j + 4, depth = 1;
        while (k < rg->nt && depth > 0) {
            if (is(rg, k, "(")) { k = match(rg, k) + 1; continue; }
            if (is(rg, k, "<")) depth++;
            else if (is(rg, k, ">")) depth--;
            else if (is(rg, k, ">>")) depth -= 2;
            k++;
        }
        if (isid(rg, k) && rg->nviews < 64) tokname(rg, k, rg->views[rg->nviews++], sizeof rg->views[0]);
    }
}
static int is_view(Rg *rg, const char *p, size_t n) {
    for (int k = 0; k < rg->nviews; k++) if (strlen(rg->views[k]) == n && !memcmp(rg->views[k], p, n)) return 1;
    return 0;
}
/* A copy of a region's text with NAME(__LINE__) of each view given a second argument (arg: ", tl_emu::Plain{...}"
 * in the plain copy; ", tl_emu_ep_", the epochs read once per region, in the general one) and the label
 * of its returns renamed to tl_emu_<label>N_. */
static void view_copy(Rg *rg, Buf *o, const char *t, size_t n, int no, const char *arg, char label) {
    char rl[32], pl[32];
    snprintf(rl, sizeof rl, "tl_emu_r%d_", no);
    snprintf(pl, sizeof pl, "tl_emu_%c%d_", label, no);
    size_t rn = strlen(rl), at = 0;                  /* copied up to t[at] */
    tl_lexer lx = {.text = t, .n = n, .p = 0, .line = 1, .bol = 0};
    for (tl_lex_tok k; tl_lex_next(&lx, &k) != TL_LEX_END;) {
        if (k.kind != TL_LEX_ID) continue;
        size_t b = k.s;
        int member = b > 0 && (t[b - 1] == '.' || (b > 1 && t[b - 1] == '>' && t[b - 2] == '-') ||
                               (b > 1 && t[b - 1] == ':' && t[b - 2] == ':'));
        if (k.e + 10 <= n && !memcmp(t + k.e, "(__LINE__)", 10) && !member && is_view(rg, t + b, k.e - b)) {
            buf_add(o, t + at, k.e - at);
            buf_fmt(o, "(__LINE__%s)", arg);
            at = k.e + 10;
        } else if (k.e - k.s >= rn && !memcmp(t + k.s, rl, rn)) {
            buf_add(o, t + at, k.s - at);
            buf_str(o, pl);
            at = k.s + rn;
        }
    }
    buf_add(o, t + at, n - at);
}

/* ---- read-only regions ----------------------------------------------------------------------------
 * Under race checking, a region that stores to no __shared__ element and is a whole barrier interval
 * (a barrier or the block's start before it, a barrier or the block's end after it) cannot race, and
 * once every element has been written it cannot read an unwritten one: tl_emu::rplain(1) lets it run as
 * the plain copy, checking nothing but the bounds. The rewrite judges the text: every use of a view is
 * subscripted and is not assigned, incremented or given to `&`, no reference is bound, and nothing is
 * called but math functions and CUDA's intrinsics. A store it still cannot see (behind an object-like
 * macro) ends the block at run time, which then runs again in the general copy (tl_emu::Plain's ro).
 * The compute loop of a tiled kernel, between its two barriers, is such a region: it holds nearly all
 * of the kernel's shared accesses. */
/* Calls a read-only region may make: none of them stores to shared memory (their arguments are judged
 * with the rest of the region's text). Any other call (a device function of the student's, an atomic, a
 * method) keeps the region checked. */
static const char *pure_calls[] = {"for", "if", "while", "switch", "return", "sizeof", "printf", "assert",
    "fmaf", "fma", "fmaxf", "fminf", "fmax", "fmin", "max", "min", "abs", "fabs", "fabsf", "sqrt", "sqrtf",
    "rsqrtf", "rsqrt", "cbrtf", "exp", "expf", "exp2f", "exp10f", "log", "logf", "log2f", "log10f", "pow",
    "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "tanh", "tanhf", "floor", "floorf", "ceil", "ceilf",
    "round", "roundf", "rint", "rintf", "trunc", "truncf", "isnan", "isinf", "isfinite", "signbit",
    "copysign", "copysignf", "fdividef", "erf", "erff", "make_float2", "make_float3", "make_float4",
    "make_int2", "make_int3", "make_int4", "dim3", NULL};
/* methods of cooperative groups' block that only read (this_thread_block() kept in region form) */
static const char *pure_methods[] = {"thread_index", "group_index", "thread_rank", "size", "num_threads",
    "dim_threads", "group_dim", NULL};
static int pure_call(Rg *rg, int j) {
    if (j > 0 && (is(rg, j - 1, ".") || is(rg, j - 1, "->"))) return in_words(rg, j, pure_methods);
    if (j > 1 && is(rg, j - 1, "::")) return is(rg, j - 2, "tl_emu") || (is(rg, j - 2, "std") && in_words(rg, j, pure_calls));
    if (is_type_word(rg, j) || in_words(rg, j, pure_calls)) return 1;
    /* CUDA's intrinsics (__fmaf_rn, __ldg, __float2int_rn, ...); barriers and warp operations never sit
     * in a region */
    return rg->tk[j].e - rg->tk[j].s > 2 && rg->B[rg->tk[j].s] == '_' && rg->B[rg->tk[j].s + 1] == '_';
}
static int stores_none(Rg *rg, int s, int e) {
    for (int j = s; j < e; j++) {
        if (is(rg, j, "&") && isid(rg, j + 1) && is(rg, j + 2, "=")) return 0;          /* T &r = ... */
        if (isid(rg, j) && j + 1 < e && is(rg, j + 1, "(") && !(j + 2 < e && is(rg, j + 2, "__LINE__")) && !pure_call(rg, j))
            return 0;                                                         /* a call that may store */
        /* a use of a view, or of a file-scope __shared__ array (NAME(__LINE__) too) */
        if (!isid(rg, j) || j + 3 >= e || !is(rg, j + 1, "(") || !is(rg, j + 2, "__LINE__") || !is(rg, j + 3, ")")) continue;
        if (j > 0 && (is(rg, j - 1, ".") || is(rg, j - 1, "->") || is(rg, j - 1, "::"))) continue;
        if (j > 0 && (is(rg, j - 1, "++") || is(rg, j - 1, "--") || is(rg, j - 1, "&"))) return 0;
        int k = j + 4;
        if (k >= e || !is(rg, k, "[")) return 0;                                  /* the array or pointer itself */
        while (k < e && is(rg, k, "[")) k = match(rg, k) + 1;
        if (k < e && in_words(rg, k, assign_ops)) return 0;
    }
    return 1;
}
/* Whether a barrier (or, at the kernel's top level, its end) follows token k with only declarations of
 * views, uniform values and shared pointers between. */
static int barrier_after(Rg *rg, int k, int b, int in_loop, int level) {
    while (k < b) {
        int e = stmt_end(rg, k, b);
        int kind = classify(rg, k, e, in_loop);
        if (kind == S_BARRIER) return 1;
        if (kind != S_BLOCK && kind != S_UDECL && kind != S_SPTR) return 0;
        k = e;
    }
    return level == 0;
}

static void open_region(Rg *rg, Region *R, int first_tok, int run_end, int level, int ro) {
    copy_to(rg, rg->tk[first_tok].s);
    /* storage for the private locals declared in this run of statements */
    Buf t = {0};
    for (int s = first_tok; s < run_end;) {
        int e = stmt_end(rg, s, run_end);
        if (looks_like_decl(rg, s)) {
            Decl D;
            parse_decl(rg, s, e, &D);
            for (int k = 0; k < D.nd; k++) {
                const Declarator *d = &D.d[k];
                int has_ptr = d->pre_e > d->pre_s, addr = 0;
                assigned(rg, d->name, d->name, &addr);
                int spec_s = D.spec_s;
                /* a leading const (or register) would forbid the slot's assignment */
                while (spec_s < D.spec_e && ((is(rg, spec_s, "const") && !has_ptr) || is(rg, spec_s, "register"))) spec_s++;
                Buf ty = {0};
                tok_text(rg, &ty, spec_s, D.spec_e);
                char nm[128];
                tokname(rg, d->name, nm, sizeof nm);
                int remat = d->init_s >= 0 && d->dim_e == d->dim_s && never_changes(rg, d->name) &&
                            remat_expr(rg, d->init_s, d->init_e);
                if (remat) {
                    /* no slot: each region computes it again from its initialiser */
                    Buf dt = {0};
                    buf_str(&dt, "[[maybe_unused]] ");
                    buf_str(&dt, ty.p ? ty.p : "int");
                    buf_str(&dt, " ");
                    tok_text(rg, &dt, d->pre_s, d->pre_e);
                    buf_fmt(&dt, " %s = (", nm);
                    buf_add(&dt, rg->B + rg->tk[d->init_s].s, rg->tk[d->init_e - 1].e - rg->tk[d->init_s].s);
                    buf_str(&dt, "); ");
                    free(ty.p);
                    add_var(rg, rg->priv, &rg->npriv, d->name, 0, level);
                    rg->priv[rg->npriv - 1].remat = 1;
                    rg->priv[rg->npriv - 1].decl = dt.p;
                    continue;
                }
                buf_fmt(&t, "%s ", ty.p ? ty.p : "int");
                tok_text(rg, &t, d->pre_s, d->pre_e);
                buf_fmt(&t, " tl_p_%s[tl_emu::MAX_THREADS]", nm);
                tok_text(rg, &t, d->dim_s, d->dim_e);
                buf_str(&t, "; ");
                free(ty.p);
                add_var(rg, rg->priv, &rg->npriv, d->name, d->dim_e > d->dim_s || addr, level);
            }
        }
        s = e;
    }
    if (t.p) buf_str(rg->O, t.p);
    free(t.p);
    R->open = 1;
    R->first = first_tok;
    R->has_ret = 0;
    R->no = rg->region_no++;
    Buf pro = {0};
    for (int k = 0; k < rg->npriv; k++) {
        if (rg->priv[k].remat) buf_str(&pro, rg->priv[k].decl);
        /* *(slots + t), not slots[t]: -fsanitize=bounds checks the student's arrays, not the rewrite's */
        else buf_fmt(&pro, "[[maybe_unused]] auto %s%s = *(tl_p_%s + tl_emu_t_); ", rg->priv[k].ref ? "&" : "", rg->priv[k].name, rg->priv[k].name);
    }
    R->prologue = pro.p;
    R->ro = ro;
    buf_str(rg->O, ro ? "if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; "
                  : "if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; ");
    buf_str(rg->O, direct_loop);
    if (R->prologue) buf_str(rg->O, R->prologue);
    buf_str(rg->O, "{ ");
    R->body_at = rg->O->n;
}

/* One copy of a region after its loop header: the prologue, the statements (view argument arg, return
 * label tl_emu_<label>N_), the label and the epilogue, up to the loop's closing brace (not written). */
static void write_copy(Rg *rg, const Region *R, const char *body, size_t n, const char *arg, char label, const char *epi) {
    if (R->prologue) buf_str(rg->O, R->prologue);
    buf_str(rg->O, "{ ");
    view_copy(rg, rg->O, body, n, R->no, arg, label);
    buf_str(rg->O, " }");
    if (R->has_ret) buf_fmt(rg->O, " tl_emu_%c%d_: ;", label, R->no);
    if (epi) buf_str(rg->O, epi);
}

static void close_region(Rg *rg, Region *R) {
    if (!R->open) return;
    copy_to(rg, rg->tk[R->last_end - 1].e);
    /* the statements as written (the general copy), and the plain copy in their place */
    size_t n = rg->O->n - R->body_at;
    char *body = malloc(n + 1);
    if (!body) { fprintf(stderr, "tl-emu-rewrite: out of memory\n"); exit(1); }
    memcpy(body, rg->O->p + R->body_at, n);
    rg->O->n = R->body_at;
    view_copy(rg, rg->O, body, n, R->no, R->ro ? ", tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2}" : ", tl_emu::Plain{&tl_emu_lc_}", 'p');
    Buf epi = {0};
    for (int k = 0; k < rg->npriv; k++)
        if (!rg->priv[k].ref && !rg->priv[k].remat && changes_in(rg, rg->priv[k].name, R->first, R->last_end))
            buf_fmt(&epi, " *(tl_p_%s + tl_emu_t_) = %s;", rg->priv[k].name, rg->priv[k].name);
    buf_str(rg->O, " }");
    if (R->has_ret) buf_fmt(rg->O, " tl_emu_p%d_: ;", R->no);
    if (epi.p) buf_str(rg->O, epi.p);
    buf_str(rg->O, " } tl_emu::rcount(tl_emu_lc_);");
    int first = line_of(rg, rg->tk[R->first].s), last = line_of(rg, rg->tk[R->last_end - 1].s);
    /* race checking on, forward order, no thread returned: the same loops, every access checked */
    buf_fmt(rg->O, " } else if (tl_emu::rdirect()) {\n#line %d\n", first);
    buf_str(rg->O, ep_decl);
    buf_str(rg->O, direct_loop);
    write_copy(rg, R, body, n, ", tl_emu::Esc{tl_emu_ep_}", 'd', epi.p);
    /* any order, threads that returned skipped */
    buf_fmt(rg->O, " } } else {\n#line %d\n", first);
    buf_str(rg->O, ep_decl);
    buf_str(rg->O, "for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { ");
    write_copy(rg, R, body, n, ", tl_emu_ep_", 'r', epi.p);
    buf_fmt(rg->O, " }\n#line %d\n }", last);
    free(body);
    free(epi.p);
    free(R->prologue);
    R->prologue = NULL;
    R->open = 0;
}

/* Copies a statement of a region, turning each `return;` into "this thread is finished". */
static void copy_region_stmt(Rg *rg, Region *R, int s, int e) {
    for (int j = s; j < e; j++) {
        if (is(rg, j, "return")) {
            if (!is(rg, j + 1, ";")) fail(rg, "a return with a value");
            copy_to(rg, rg->tk[j].s);
            char t[96];
            snprintf(t, sizeof t, "{ tl_emu::rret(); goto tl_emu_r%d_; }", R->no);
            replace_to(rg, rg->tk[j + 1].e, t);
            R->has_ret = 1;
            j++;
        }
    }
    copy_to(rg, rg->tk[e - 1].e);
}

static int classify(Rg *rg, int s, int e, int in_loop) {
    if (is(rg, s, "__syncthreads") && is(rg, s + 1, "(") && is(rg, s + 2, ")") && is(rg, s + 3, ";") && e == s + 4) return S_BARRIER;
    if (is(rg, s, "for") && contains(rg, s, e, "__syncthreads")) return S_UFOR;
    if (contains(rg, s, e, "__syncthreads"))
        fail(rg, "a __syncthreads() inside an if, a block or a loop that is not the same for the whole block");
    if (is(rg, s, "tl_emu") && is(rg, s + 1, "::") && is(rg, s + 2, "SPtr")) {    /* a pointer into a __shared__ array */
        int eq = s;
        while (eq < e && !is(rg, eq, "=")) eq++;
        if (eq == e || !uniform_expr(rg, eq + 1, e - 1, NULL, 0))
            fail(rg, "a pointer into shared memory that may differ between threads");
        return S_SPTR;
    }
    if (is(rg, s, "tl_emu") || (is(rg, s, "static") && (is(rg, s + 1, "tl_emu") || (is(rg, s + 1, "const") && is(rg, s + 2, "tl_emu")))))
        return S_BLOCK;                                               /* a __shared__ view */
    if (is(rg, s, "typedef") || is(rg, s, "using")) return S_BLOCK;
    if (is(rg, s, "constexpr")) return S_UDECL;
    if (is(rg, s, "static") || is(rg, s, "struct") || is(rg, s, "class") || is(rg, s, "enum") || is(rg, s, "union"))
        fail(rg, "a static local or a local type");
    if (in_loop && !is(rg, s, "for") && !is(rg, s, "while") && !is(rg, s, "do") && !is(rg, s, "switch") &&
        (contains(rg, s, e, "break") || contains(rg, s, e, "continue")))
        fail(rg, "a break or continue of a loop that holds a barrier");
    if (in_loop && is(rg, s, "switch") && contains(rg, s, e, "continue")) fail(rg, "a continue of a loop that holds a barrier");
    if (looks_like_decl(rg, s)) {
        Decl D;
        parse_decl(rg, s, e, &D);
        for (int k = 0; k < D.nd; k++) {
            const Declarator *d = &D.d[k];
            int addr = 0;
            if (d->init_s < 0 || d->dim_e > d->dim_s || assigned(rg, d->name, d->name, &addr) || addr ||
                !uniform_expr(rg, d->init_s, d->init_e, NULL, 0))
                return S_PDECL;
        }
        return S_UDECL;
    }
    return S_ORD;
}

static void add_uniform_names(Rg *rg, int s, int e, int level) {
    if (is(rg, s, "constexpr")) {
        for (int j = s; j < e; j++) if (is(rg, j, "=") && isid(rg, j - 1)) add_var(rg, rg->uni, &rg->nuni, j - 1, 0, level);
        return;
    }
    Decl D;
    parse_decl(rg, s, e, &D);
    for (int k = 0; k < D.nd; k++) add_var(rg, rg->uni, &rg->nuni, D.d[k].name, 0, level);
}

/* A private declaration inside its region: the slot is bound already; what is left is the assignment
 * of the initialisers, in order. */
static void write_pdecl(Rg *rg, int s, int e) {
    Decl D;
    parse_decl(rg, s, e, &D);
    copy_to(rg, rg->tk[s].s);
    Buf t = {0};
    int any = 0;
    for (int k = 0; k < D.nd; k++) {
        const Declarator *d = &D.d[k];
        if (d->init_s < 0) continue;
        char nm[128];
        tokname(rg, d->name, nm, sizeof nm);
        int v = find_var(rg->priv, rg->npriv, nm);
        if (v >= 0 && rg->priv[v].remat) continue;                    /* computed by the region's prologue */
        if (any++) buf_str(&t, ", ");
        buf_add(&t, rg->B + rg->tk[d->name].s, rg->tk[d->name].e - rg->tk[d->name].s);
        buf_str(&t, " = (");
        buf_add(&t, rg->B + rg->tk[d->init_s].s, rg->tk[d->init_e - 1].e - rg->tk[d->init_s].s);
        buf_str(&t, ")");
    }
    buf_str(&t, ";");
    replace_to(rg, rg->tk[e - 1].e, t.p ? t.p : ";");
    free(t.p);
}

static void process_list(Rg *rg, int a, int b, int in_loop, int level) {
    int nuni0 = rg->nuni, npriv0 = rg->npriv;
    Region R = {0};
    int fresh = level == 0;        /* a barrier interval begins here (the block's start, a barrier) */
    for (int s = a; s < b;) {
        int e = stmt_end(rg, s, b);
        int kind = classify(rg, s, e, in_loop);
        if (kind == S_ORD || kind == S_PDECL) {
            if (!R.open) {
                int r = s;
                while (r < b) {
                    int re = stmt_end(rg, r, b);
                    int k2 = classify(rg, r, re, in_loop);
                    if (k2 != S_ORD && k2 != S_PDECL) break;
                    r = re;
                }
                open_region(rg, &R, s, r, level, fresh && barrier_after(rg, r, b, in_loop, level) && stores_none(rg, s, r));
                fresh = 0;
            }
            if (kind == S_PDECL) write_pdecl(rg, s, e);
            else copy_region_stmt(rg, &R, s, e);
            R.last_end = e;
        } else {
            close_region(rg, &R);
            if (kind == S_BARRIER) fresh = 1;
            else if (kind == S_UFOR) fresh = 0;
            if (kind == S_BARRIER) {
                copy_to(rg, rg->tk[s].s);
                replace_to(rg, rg->tk[e - 1].e, "if (tl_emu::rbarrier(__FILE__, __LINE__)) return;");
            } else if (kind == S_UFOR) {
                int hp = s + 1, he = match(rg, hp);
                if (!is(rg, he + 1, "{")) fail(rg, "a loop with a barrier whose body is not in braces");
                int body_s = he + 1, body_e = match(rg, body_s);
                if (body_e + 1 != e) fail(rg, "a loop it cannot read");
                int nuni_loop = rg->nuni;
                /* its own variable: declared in the header, never assigned in the body */
                int semi = hp + 1;
                while (semi < he && !is(rg, semi, ";")) semi++;
                if (looks_like_decl(rg, hp + 1)) {
                    Decl D;
                    parse_decl(rg, hp + 1, semi + 1, &D);
                    for (int k = 0; k < D.nd; k++) add_var(rg, rg->uni, &rg->nuni, D.d[k].name, 0, level + 1);
                    for (int k = 0; k < D.nd; k++) {
                        /* assigned only in the header (its increment) */
                        for (int j = body_s; j < body_e; j++) {
                            if (!isid(rg, j) || rg->tk[j].e - rg->tk[j].s != rg->tk[D.d[k].name].e - rg->tk[D.d[k].name].s ||
                                memcmp(rg->B + rg->tk[j].s, rg->B + rg->tk[D.d[k].name].s, rg->tk[j].e - rg->tk[j].s))
                                continue;
                            if (is(rg, j - 1, ".") || is(rg, j - 1, "->")) continue;
                            int n = j + 1;
                            if (in_words(rg, n, assign_ops) || is(rg, j - 1, "++") || is(rg, j - 1, "--") || is(rg, j - 1, "&"))
                                fail(rg, "a loop with a barrier whose variable changes in its body");
                        }
                    }
                }
                char bad[128] = "";
                if (!uniform_expr(rg, hp + 1, he, bad, sizeof bad))
                    fail(rg, "a loop with a barrier whose header reads '%s', which may differ between threads", bad);
                copy_to(rg, rg->tk[body_s].e);
                process_list(rg, body_s + 1, body_e, 1, level + 1);
                rg->nuni = nuni_loop;
                copy_to(rg, rg->tk[body_e].e);
            } else {                                                  /* S_BLOCK, S_UDECL, S_SPTR */
                copy_to(rg, rg->tk[e - 1].e);
                if (kind == S_UDECL) add_uniform_names(rg, s, e, level);
                if (kind == S_SPTR) {
                    int eq = s;
                    while (eq < e && !is(rg, eq, "=")) eq++;
                    if (isid(rg, eq - 1)) add_var(rg, rg->uni, &rg->nuni, eq - 1, 0, level);
                }
            }
        }
        s = e;
    }
    close_region(rg, &R);
    rg->nuni = nuni0;
    rg->npriv = npriv0;
}

/* Whether the tokens from i are a template argument list followed by a call: <16, T>( (name<T>(...)),
 * not a comparison (k < 16; ...). */
static int template_call(Rg *rg, int i) {
    if (!is(rg, i, "<")) return 0;
    int d = 0;
    for (int j = i; j < rg->nt && j < i + 64; j++) {
        if (is(rg, j, ";") || is(rg, j, "{") || is(rg, j, "}") || is(rg, j, "&&") || is(rg, j, "||")) return 0;
        if (is(rg, j, "(") || is(rg, j, "[")) { j = match(rg, j); continue; }
        if (is(rg, j, "<")) d++;
        else if (is(rg, j, ">")) d--;
        else if (is(rg, j, ">>")) d -= 2;
        if (d <= 0) return d == 0 && is(rg, j + 1, "(");
    }
    return 0;
}

/* Words that keep a kernel on fibers wherever they appear in its body. */
static const char *fiber_words[] = {"goto", "asm", "__asm__", "throw", "try", "this", "__syncthreads_count",
    "__syncthreads_and", "__syncthreads_or", "__syncwarp", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
    "__shfl_xor_sync", "__ballot_sync", "__all_sync", "__any_sync", "__activemask", "__match_any_sync",
    "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
    "__reduce_or_sync", "__reduce_xor_sync", "coalesced_threads", "thread_block_tile", "coalesced_group",
    "thread_group", "this_thread", "this_thread_block", "tiled_partition", "sync", "tl_emu_launch", "co_await",
    "co_yield", "co_return",
    "tl_emu_rctx", "tl_emu_nt_", NULL};

static int region_body(Rg *rg, const char *params, size_t np, const char *body, size_t nb, int body_line,
                       int (*barrier_fn)(const void *ctx, const char *, size_t), const void *ctx, Buf *o) {
    Buf tmp = {0};
    if (setjmp(rg->fail_jb)) { free(tmp.p); return 0; }
    /* the parameters: uniform unless the body assigns them (then they are per thread: fibers) */
    tokenize(rg, params, np);
    int pa = 0;
    while (pa < rg->nt) {
        int pb = pa;
        while (pb < rg->nt && !is(rg, pb, ",")) { if (is(rg, pb, "(") || is(rg, pb, "[")) pb = match(rg, pb); pb++; }
        int last = -1;
        for (int j = pa; j < pb && !is(rg, j, "="); j++) if (isid(rg, j) && !is_type_word(rg, j)) last = j;
        if (last >= 0 && !(pb - pa == 1 && is(rg, pa, "void"))) add_var(rg, rg->uni, &rg->nuni, last, 0, 0);
        pa = pb + 1;
    }
    char pnames[64][128]; int npn = rg->nuni < 64 ? rg->nuni : 64;
    for (int k = 0; k < npn; k++) memcpy(pnames[k], rg->uni[k].name, sizeof pnames[k]);
    tokenize(rg, body, nb);
    for (int j = 0; j < rg->nt; j++) {
        if (!isid(rg, j)) continue;
        if (in_words(rg, j, fiber_words)) { char w[128]; tokname(rg, j, w, sizeof w); fail(rg, "it uses %s", w); }
        /* a call, also of a template (name<T>(...)): a template __device__ helper holding the
         * barriers keeps the kernel on fibers */
        if (barrier_fn(ctx, rg->B + rg->tk[j].s, rg->tk[j].e - rg->tk[j].s) && (is(rg, j + 1, "(") || template_call(rg, j + 1))) {
            char w[128]; tokname(rg, j, w, sizeof w);
            fail(rg, "it calls %s, which holds a barrier or a warp operation", w);
        }
        for (int k = 0; k < npn; k++)
            if (eqname(rg, j, pnames[k]) && assigned(rg, j, -1, NULL)) fail(rg, "it assigns its parameter %s", pnames[k]);
    }
    rg->O = &tmp;
    rg->cur = 0;
    rg->line0 = body_line;
    find_views(rg);
    process_list(rg, 0, rg->nt, 0, 0);
    copy_to(rg, rg->NB);
    buf_add(o, tmp.p ? tmp.p : "", tmp.n);
    free(tmp.p);
    return 1;
}

int tl_region_body(const char *params, size_t np, const char *body, size_t nb, int body_line,
                   int (*barrier_fn)(const void *ctx, const char *, size_t), const void *ctx, Buf *o, char *why, size_t nwhy) {
    Rg *rg = calloc(1, sizeof *rg);
    if (!rg) { fprintf(stderr, "tl-emu-rewrite: out of memory\n"); exit(1); }
    rg->fail_why = why; rg->fail_n = nwhy;
    int ok = region_body(rg, params, np, body, nb, body_line, barrier_fn, ctx, o);
    for (int k = 0; k < rg->npriv; k++) free(rg->priv[k].decl);
    free(rg->tk);
    free(rg);
    return ok;
}
