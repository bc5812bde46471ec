/* tl-emu-shared-decl.c: the part of tl-emu-rewrite that rewrites __shared__ declarations into the
 * emulator's views (tl_emu::Shared<...> bound to the block's storage, a static Site naming them) and
 * pointers carved from a shared array (`float *Nds = smem + k;`) into checked tl_emu::SPtr pointers.
 * The streaming rewrite (tl-emu-rewrite.c) calls it at the words; see the top of that file. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl-emu-rewrite-state.h"

/* ---- __shared__ declarations --------------------------------------------------------------------- */
static void trim(char *s) {
    size_t n = strlen(s), a = 0;
    while (a < n && isspace((unsigned char)s[a])) a++;
    while (n > a && isspace((unsigned char)s[n - 1])) n--;
    memmove(s, s + a, n - a);
    s[n - a] = 0;
}
/* Collapses runs of blanks into one space. */
static void squeeze(char *s) {
    char *w = s; int sp = 0;
    for (char *r = s; *r; r++) {
        if (isspace((unsigned char)*r)) { sp = 1; continue; }
        if (sp && w != s) *w++ = ' ';
        sp = 0;
        *w++ = *r;
    }
    *w = 0;
}
/* A lexer over the NUL-terminated text s (a piece of a declaration, never at a line's start). */
static tl_lexer lex_of(const char *s) { return (tl_lexer){.text = s, .n = strlen(s), .p = 0, .line = 1, .bol = 0}; }
/* Removes the word kw (and a following parenthesised argument when paren) from s. */
static void drop_word(char *s, const char *kw, int paren) {
    tl_lexer lx = lex_of(s);
    size_t w = 0, from = 0;                            /* written up to s[w]; kept from s[from] on */
    for (tl_lex_tok t; tl_lex_next(&lx, &t) != TL_LEX_END;) {
        if (t.kind != TL_LEX_ID || t.e - t.s != strlen(kw) || memcmp(s + t.s, kw, t.e - t.s)) continue;
        size_t e = t.e;
        tl_lexer a = lx;
        tl_lex_tok u;
        if (paren && tok_next(&a, &u) == '(') {
            for (int d = 1; d > 0 && tok_next(&a, &u);) d += (s[u.s] == '(') - (s[u.s] == ')');
            e = u.e;
            lx = a;
        }
        memmove(s + w, s + from, t.s - from);
        w += t.s - from;
        from = e;
    }
    memmove(s + w, s + from, strlen(s + from) + 1);
}

/* " && defined(NAME)" for each name of expr but the type words: the registry uses the size only where
 * every name it holds is a macro. */
static void add_idents(Buf *b, const char *expr) {
    static const char *kw[] = {"sizeof", "int", "float", "double", "char", "unsigned", "long", "short", "signed", NULL};
    tl_lexer lx = lex_of(expr);
    for (tl_lex_tok t; tl_lex_next(&lx, &t) != TL_LEX_END;) {
        int skip = t.kind != TL_LEX_ID;                    /* 16, 0x10, 16u, operators */
        for (int i = 0; kw[i]; i++)
            if (t.e - t.s == strlen(kw[i]) && !memcmp(expr + t.s, kw[i], t.e - t.s)) skip = 1;
        if (!skip) buf_fmt(b, " && defined(%.*s)", (int)(t.e - t.s), expr + t.s);
    }
}

/* `static __shared__` and `volatile __shared__` (CUDA accepts both): the word was written already. */
static void drop_written_qualifiers(Rw *rw) {
    for (;;) {
        size_t e = rw->out.n;
        while (e > 0 && (rw->out.p[e - 1] == ' ' || rw->out.p[e - 1] == '\t')) e--;
        size_t b = e;
        while (b > 0 && is_id((unsigned char)rw->out.p[b - 1])) b--;
        if ((e - b == 6 && !memcmp(rw->out.p + b, "static", 6)) || (e - b == 8 && !memcmp(rw->out.p + b, "volatile", 8))) {
            rw->out.n = b; rw->out.p[b] = 0;
            rw->last_sig = ';';
            continue;
        }
        return;
    }
}

void shared_decl(Rw *rw, int is_extern, int decl_line) {
    drop_written_qualifiers(rw);
    /* Read up to the ';' that ends the declaration, token by token (tl-lex.h): what lies between
     * tokens as it is up to its first comment, one blank from there; newlines counted. */
    Buf d = {0};
    int nl = 0, par = 0;
    /* A declarator's dimensions closed (']' at the top level): what may follow is '[', ',', ';' or
     * '='; a name there is the next statement, run on for want of a ';' (a student's classic slip:
     * "unexpected '_' after __shared__ Mds[...]" said where, not what). The variable's name: the
     * last name before the first top-level '['. */
    int closed = 0, dims = 0;
    size_t name_s = 0, name_e = 0;
    tl_lexer lx = rw_lexer(rw, rw->pos, rw->line);
    for (tl_lex_tok t;;) {
        char c = tok_next(&lx, &t);
        if (closed && par == 0 && t.kind == TL_LEX_ID &&
            !(t.e - t.s == 13 && !memcmp(rw->src + t.s, "__attribute__", 13)))
            die(rw, decl_line, "expected ';' after __shared__ %.*s[...]: the declaration runs on into '%.*s' (a missing ';'?)",
                (int)(name_e - name_s), rw->src + name_s, (int)(t.e - t.s < 40 ? t.e - t.s : 40), rw->src + t.s);
        if (par == 0 && !dims && t.kind == TL_LEX_ID) {
            name_s = t.s;
            name_e = t.e;
        }
        closed = par == 1 && t.kind == TL_LEX_PUNCT && c == ']';
        if (par == 0 && t.kind == TL_LEX_PUNCT && c == '[')
            dims = 1;
        size_t g = rw->pos;
        while (g < t.s && rw->src[g] != '/') g++;
        buf_add(&d, rw->src + rw->pos, g - rw->pos);
        if (g < t.s) buf_add(&d, " ", 1);
        nl += lx.line - rw->line;                          /* in the blanks and in the token */
        rw->line = lx.line;
        rw->pos = t.e;
        if (!c) die(rw, decl_line, "__shared__ declaration without a ';'");
        if (t.kind == TL_LEX_STR || t.kind == TL_LEX_CHR) check_literal(rw, &t, lx.line - t.line);
        if (t.kind == TL_LEX_PUNCT) {
            if (c == '(' || c == '[') par++;
            if (c == ')' || c == ']') par--;
            if (par == 0 && memchr(rw->src + t.s, '=', t.e - t.s))
                die(rw, decl_line, "a __shared__ variable cannot have an initializer (CUDA rejects it too)");
            if (c == '{') die(rw, decl_line, "could not read this __shared__ declaration");
            if (c == ';' && par == 0) break;
        }
        buf_add(&d, rw->src + t.s, t.e - t.s);
    }
    /* Split into declarators at top-level commas. */
    char *text = d.p ? d.p : calloc(1, 1);
    char *parts[64]; int np = 0; par = 0;
    parts[np++] = text;
    for (char *p = text; *p; p++) {
        if (*p == '(' || *p == '[') par++;
        else if (*p == ')' || *p == ']') par--;
        else if (*p == ',' && par == 0) {
            if (np == 64) die(rw, decl_line, "too many declarators in one __shared__ declaration");
            *p = 0; parts[np++] = p + 1;
        }
    }
    char type[256] = "";
    int file_scope = rw->in_func == 0;
    Buf o = {0};
    for (int k = 0; k < np; k++) {
        char *part = parts[k];
        char *br = strchr(part, '[');
        char head[512];
        size_t hl = br ? (size_t)(br - part) : strlen(part);
        if (hl >= sizeof head) die(rw, decl_line, "__shared__ declaration too long");
        memcpy(head, part, hl); head[hl] = 0;
        trim(head);
        tl_lexer hx = lex_of(head);                        /* the name: its last token */
        tl_lex_tok t = {0};
        for (tl_lex_tok u; tl_lex_next(&hx, &u) != TL_LEX_END;) t = u;
        if (t.kind != TL_LEX_ID) die(rw, decl_line, "cannot find the variable name in this __shared__ declaration");
        size_t b = t.s, e = t.e;
        char name[128];
        if (e - b >= sizeof name) die(rw, decl_line, "name too long");
        memcpy(name, head + b, e - b); name[e - b] = 0;
        head[b] = 0;
        char ty[256];
        if (k == 0) {
            snprintf(type, sizeof type, "%s", head);
            drop_word(type, "volatile", 0);
            drop_word(type, "static", 0);
            drop_word(type, "__align__", 1);
            squeeze(type); trim(type);
            if (!type[0]) die(rw, decl_line, "cannot find the type of __shared__ %s", name);
            snprintf(ty, sizeof ty, "%s", type);
        } else {
            squeeze(head); trim(head);                       /* e.g. "*" for a pointer declarator */
            snprintf(ty, sizeof ty, "%s%s%s", type, head[0] ? " " : "", head);
        }
        /* Dimensions. */
        char dims[4][256]; int nd = 0;
        for (char *p = br; p && *p;) {
            while (isspace((unsigned char)*p)) p++;
            if (!*p) break;
            if (*p != '[') die(rw, decl_line, "unexpected '%c' after __shared__ %s[...]", *p, name);
            int dd = 0; char *s = p + 1;
            for (; *p; p++) { if (*p == '[') dd++; else if (*p == ']' && --dd == 0) break; }
            if (!*p) die(rw, decl_line, "missing ']' in __shared__ %s", name);
            if (nd == 4) die(rw, decl_line, "too many dimensions");
            size_t dl = (size_t)(p - s);
            if (dl >= sizeof dims[0]) die(rw, decl_line, "array size too long");
            memcpy(dims[nd], s, dl); dims[nd][dl] = 0; trim(dims[nd]);
            nd++;
            p++;
        }
        char shape[1200];
        if (is_extern) {
            if (nd != 1 || dims[0][0]) die(rw, decl_line, "extern __shared__ %s must be declared as a 1-D array without a size, e.g. extern __shared__ float %s[];", name, name);
            snprintf(shape, sizeof shape, "tl_emu::ADyn<%s>", ty);
        } else if (nd == 0) {
            snprintf(shape, sizeof shape, "tl_emu::A0<%s>", ty);
        } else if (nd == 1) {
            if (!dims[0][0]) die(rw, decl_line, "__shared__ %s[] needs a size (or extern for dynamic shared memory)", name);
            snprintf(shape, sizeof shape, "tl_emu::A1<%s, (%s)>", ty, dims[0]);
        } else if (nd == 2) {
            if (!dims[0][0] || !dims[1][0]) die(rw, decl_line, "__shared__ %s needs both sizes", name);
            snprintf(shape, sizeof shape, "tl_emu::A2<%s, (%s), (%s)>", ty, dims[0], dims[1]);
        } else if (nd == 3) {
            if (!dims[0][0] || !dims[1][0] || !dims[2][0]) die(rw, decl_line, "__shared__ %s needs all three sizes", name);
            snprintf(shape, sizeof shape, "tl_emu::A3<%s, (%s), (%s), (%s)>", ty, dims[0], dims[1], dims[2]);
        } else {
            die(rw, decl_line, "not supported under emulation: __shared__ %s with %d dimensions; emulation supports up to 3 "
                           "(flatten it: T %s[A*B*C*D] indexed [((i*B + j)*C + k)*D + l])", name, nd, name);
        }
        if (file_scope)
            buf_fmt(&o, "static tl_emu::GShared<%s> %s{{\"%s\", __FILE__, __LINE__, \"%s\"}}; ", shape, name, name, ty);
        else
            buf_fmt(&o, "static const tl_emu::Site %s_tl_site_ = {\"%s\", __FILE__, __LINE__, \"%s\"}; "
                        "tl_emu::Shared<%s> %s(%s_tl_site_); ", name, name, ty, shape, name, name);
        if (rw->nnames == MAX_NAMES) die(rw, decl_line, "too many __shared__ names");
        snprintf(rw->names[rw->nnames].name, sizeof rw->names[rw->nnames].name, "%s", name);
        rw->names[rw->nnames++].depth = file_scope ? 0 : rw->depth;
        if (rw->cur_kernel >= 0 && !is_extern) {
            Kernel *K = &rw->kernels[rw->cur_kernel];
            buf_fmt(&K->smem, " + sizeof(%s)", ty);
            add_idents(&K->idents, ty);
            for (int i = 0; i < nd; i++) { buf_fmt(&K->smem, " * (%s)", dims[i]); add_idents(&K->idents, dims[i]); }
        }
    }
    emit(rw, o.p, o.n);
    for (int i = 0; i < nl; i++) buf_add(&rw->out, "\n", 1);
    free(o.p);
    free(text);
}


/* `float *Nds = smem + T * T;` in a kernel, at the shared name: the declaration written so far becomes
 * `tl_emu::SPtr<float> Nds =` (a checked pointer), and Nds joins the shared names. Also the second
 * declarator of `float *Mds = smem, *Nds = smem + n;` (the comma becomes a ';'). */
void shared_pointer_decl(Rw *rw) {
    size_t e = rw->out.n;
    while (e > 0 && (rw->out.p[e - 1] == ' ' || rw->out.p[e - 1] == '\t')) e--;
    if (e == 0 || rw->out.p[e - 1] != '=' || (e > 1 && strchr("=!<>+-*/%&|^", rw->out.p[e - 2]))) return;
    e--;
    while (e > 0 && (rw->out.p[e - 1] == ' ' || rw->out.p[e - 1] == '\t')) e--;
    size_t ne = e;
    while (e > 0 && is_id((unsigned char)rw->out.p[e - 1])) e--;
    size_t nb = e;
    if (nb == ne || !is_id0((unsigned char)rw->out.p[nb])) return;
    while (e > 0 && (rw->out.p[e - 1] == ' ' || rw->out.p[e - 1] == '\t')) e--;
    if (e == 0 || rw->out.p[e - 1] != '*') return;
    e--;
    while (e > 0 && (rw->out.p[e - 1] == ' ' || rw->out.p[e - 1] == '\t')) e--;
    char name[128];
    if (ne - nb >= sizeof name) return;
    memcpy(name, rw->out.p + nb, ne - nb); name[ne - nb] = 0;
    size_t start;
    if (e > 0 && rw->out.p[e - 1] == ',' && rw->sptr_depth == rw->depth && rw->sptr_type[0]) {
        start = e - 1;                                   /* second declarator: reuse the type */
        rw->out.n = start; rw->out.p[start] = 0;
        buf_fmt(&rw->out, "; tl_emu::SPtr<%s> %s =", rw->sptr_type, name);
    } else {
        size_t te = e;
        while (e > 0 && is_id((unsigned char)rw->out.p[e - 1])) e--;
        size_t tb = e;
        if (tb == te) return;
        static const char *types[] = {"float", "double", "int", "unsigned", "char", "short", "long", "float2",
                                      "float4", "int2", "int4", "uint", "size_t", NULL};
        int ok = 0;
        for (int i = 0; types[i]; i++) if (te - tb == strlen(types[i]) && !memcmp(rw->out.p + tb, types[i], te - tb)) ok = 1;
        if (!ok) return;
        size_t qb = tb;                                    /* a const or volatile before the type */
        size_t q = tb;
        while (q > 0 && (rw->out.p[q - 1] == ' ' || rw->out.p[q - 1] == '\t')) q--;
        size_t qe = q;
        while (q > 0 && is_id((unsigned char)rw->out.p[q - 1])) q--;
        if ((qe - q == 5 && !memcmp(rw->out.p + q, "const", 5)) || (qe - q == 8 && !memcmp(rw->out.p + q, "volatile", 8))) qb = q;
        snprintf(rw->sptr_type, sizeof rw->sptr_type, "%.*s", (int)(te - qb), rw->out.p + qb);
        rw->sptr_depth = rw->depth;
        rw->out.n = qb; rw->out.p[qb] = 0;
        buf_fmt(&rw->out, "tl_emu::SPtr<%s> %s =", rw->sptr_type, name);
    }
    buf_str(&rw->out, " ");
    rw->last_sig = '=';
    if (rw->nnames == MAX_NAMES) die(rw, rw->line, "too many __shared__ names");
    snprintf(rw->names[rw->nnames].name, sizeof rw->names[rw->nnames].name, "%s", name);
    rw->names[rw->nnames++].depth = rw->depth;
}
