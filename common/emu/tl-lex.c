/* tl-lex.c: the one lexer of C and CUDA C text in the kit (see tl-lex.h). Follows the translation
 * phases of C11 and C++17 as far as a reader of a source file needs them: continuations (phase 2),
 * comments and preprocessing tokens (phase 3), with C++11 raw strings and C++14 digit separators. */
#include "tl-lex.h"

#include <string.h>

static int is_id0(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_idc(int c) { return is_id0(c) || (c >= '0' && c <= '9'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

size_t tl_lex_bom(const char *t, size_t n)
{
    return n >= 3 && (unsigned char)t[0] == 0xEF && (unsigned char)t[1] == 0xBB && (unsigned char)t[2] == 0xBF ? 3 : 0;
}

size_t tl_lex_splice(const char *t, size_t n, size_t p)
{
    if (p < n && t[p] == '\\') {
        if (p + 1 < n && t[p + 1] == '\n') return p + 2;
        if (p + 2 < n && t[p + 1] == '\r' && t[p + 2] == '\n') return p + 3;
    }
    return p;
}

/* The character at p after any continuations; *at: where it is. */
static int peek(const char *t, size_t n, size_t p, size_t *at)
{
    for (size_t q; (q = tl_lex_splice(t, n, p)) != p;) p = q;
    if (at) *at = p;
    return p < n ? (unsigned char)t[p] : -1;
}

size_t tl_lex_comment(const char *t, size_t n, size_t p, int *nl, int *bad)
{
    size_t a;
    if (p >= n || t[p] != '/' || peek(t, n, p + 1, &a) < 0) return p;
    if (t[a] == '/') {
        size_t q = a + 1;
        while (q < n && t[q] != '\n') {
            size_t r = tl_lex_splice(t, n, q);
            if (r != q) { if (nl) (*nl)++; q = r; continue; }
            q++;
        }
        return q;
    }
    if (t[a] != '*') return p;
    for (size_t q = a + 1; q < n; q++) {
        if (t[q] == '\n' && nl) (*nl)++;
        size_t b;
        if (t[q] == '*' && peek(t, n, q + 1, &b) == '/') {
            for (size_t i = q + 1; i < b; i++) if (t[i] == '\n' && nl) (*nl)++;
            return b + 1;
        }
    }
    if (bad) *bad = 1;
    return n;
}

size_t tl_lex_space(const char *t, size_t n, size_t p, int *nl)
{
    for (;;) {
        if (p < n && (is_blank((unsigned char)t[p]) || t[p] == '\n')) { if (t[p] == '\n' && nl) (*nl)++; p++; continue; }
        size_t q = tl_lex_splice(t, n, p);
        if (q != p) { if (nl) (*nl)++; p = q; continue; }
        q = tl_lex_comment(t, n, p, nl, NULL);
        if (q != p) { p = q; continue; }
        return p;
    }
}

/* Length of the encoding prefix of a literal at p (L, u, U, u8, each optionally followed by R, or R
 * alone) when a quote follows it; raw: whether it ends in R. 0 when no prefixed literal starts. */
static size_t literal_prefix(const char *t, size_t n, size_t p, int *raw)
{
    size_t q = p;
    *raw = 0;
    if (q < n && t[q] == 'u' && q + 1 < n && t[q + 1] == '8') q += 2;
    else if (q < n && (t[q] == 'L' || t[q] == 'u' || t[q] == 'U')) q++;
    if (q < n && t[q] == 'R') { q++; *raw = 1; }
    if (q == p || q >= n) return 0;
    if (t[q] == '"') return q - p;
    if (t[q] == '\'' && !*raw) return q - p;            /* L'a', u'a', U'a', u8'a' */
    return 0;
}

size_t tl_lex_literal(const char *t, size_t n, size_t p, int *nl, int *bad)
{
    if (p >= n) return p;
    int raw = 0;
    size_t q = p;
    if (t[p] != '"' && t[p] != '\'') {
        if (!is_id0((unsigned char)t[p]) || (p > 0 && is_idc((unsigned char)t[p - 1]))) return p;
        size_t l = literal_prefix(t, n, p, &raw);
        if (!l) return p;
        q = p + l;
    }
    char quote = t[q];
    if (raw) {
        /* R"delim( ... )delim": the delimiter is at most 16 characters, no blank, parenthesis or backslash */
        size_t d = q + 1;
        while (d < n && d - q - 1 <= 16 && t[d] != '(' && t[d] != ')' && t[d] != '\\' && t[d] != '"' &&
               !is_blank((unsigned char)t[d]) && t[d] != '\n')
            d++;
        if (d < n && t[d] == '(' && d - q - 1 <= 16) {
            size_t dl = d - q - 1;
            for (size_t r = d + 1; r < n; r++) {
                if (t[r] == '\n' && nl) (*nl)++;
                if (t[r] == ')' && r + 1 + dl < n && !memcmp(t + r + 1, t + q + 1, dl) && t[r + 1 + dl] == '"')
                    return r + dl + 2;
            }
            if (bad) *bad = 1;
            return n;
        }
        /* not a valid raw string: read as an ordinary one */
    }
    for (size_t r = q + 1; r < n; r++) {
        if (t[r] == '\\') {
            size_t s = tl_lex_splice(t, n, r);
            if (s != r) { if (nl) (*nl)++; r = s - 1; continue; }
            if (r + 1 < n && t[r + 1] != '\n') r++;
            continue;
        }
        if (t[r] == '\n') { if (bad) *bad = 1; return r; }
        if (t[r] == quote) return r + 1;
    }
    if (bad) *bad = 1;
    return n;
}

size_t tl_lex_number(const char *t, size_t n, size_t p)
{
    size_t a;
    if (p >= n) return p;
    if (!is_digit((unsigned char)t[p]) && !(t[p] == '.' && is_digit(peek(t, n, p + 1, NULL)))) return p;
    size_t q = p + 1;
    for (;;) {
        int c = peek(t, n, q, &a);
        if (c < 0) return q;
        if (is_idc(c) || c == '.') { q = a + 1; continue; }
        if ((c == '+' || c == '-') && strchr("eEpP", t[q - 1])) { q = a + 1; continue; }
        if (c == '\'' && is_idc((unsigned char)t[q - 1]) && is_idc(peek(t, n, a + 1, NULL))) { q = a + 1; continue; }
        return q;
    }
}

size_t tl_lex_directive(const char *t, size_t n, size_t p, int *nl)
{
    size_t q = p;
    while (q < n && t[q] != '\n') {
        size_t r = tl_lex_splice(t, n, q);
        if (r != q) { if (nl) (*nl)++; q = r; continue; }
        r = tl_lex_comment(t, n, q, nl, NULL);
        if (r != q) { q = r; continue; }
        r = tl_lex_literal(t, n, q, nl, NULL);          /* "a // b", R"(x)", '\'' */
        if (r == q) r = tl_lex_number(t, n, q);           /* 1'000 */
        if (r > q) { q = r; continue; }
        if (is_id0((unsigned char)t[q])) {                /* a name: no literal starts inside it */
            while (q < n && is_idc((unsigned char)t[q])) q++;
            continue;
        }
        q++;
    }
    return q;
}

void tl_lex_init(tl_lexer *lx, const char *text, size_t n)
{
    lx->text = text;
    lx->n = n;
    lx->p = tl_lex_bom(text, n);
    lx->line = 1;
    lx->bol = 1;
}

static const char *const ops3[] = {"<<=", ">>=", "...", "->*", NULL};
static const char *const ops2[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
                                   "*=", "/=", "%=", "&=", "|=", "^=", "::", "##", NULL};

tl_lex_kind tl_lex_next(tl_lexer *lx, tl_lex_tok *t)
{
    const char *x = lx->text;
    size_t n = lx->n, p = lx->p;
    for (;;) {                                   /* blanks, newlines, continuations, comments */
        if (p < n && x[p] == '\n') { lx->line++; lx->bol = 1; p++; continue; }
        if (p < n && is_blank((unsigned char)x[p])) { p++; continue; }
        size_t q = tl_lex_splice(x, n, p);
        if (q != p) { lx->line++; p = q; continue; }
        int nl = 0;
        q = tl_lex_comment(x, n, p, &nl, NULL);
        if (q != p) { lx->line += nl; p = q; continue; }
        break;
    }
    t->s = p;
    t->line = lx->line;
    t->bol = lx->bol;
    t->bad = 0;
    lx->bol = 0;
    int nl = 0;
    size_t e;
    if (p >= n) {
        t->kind = TL_LEX_END;
        e = p;
    } else if (x[p] == '#' && t->bol) {
        t->kind = TL_LEX_DIRECTIVE;
        e = tl_lex_directive(x, n, p, &nl);
    } else if ((e = tl_lex_literal(x, n, p, &nl, &t->bad)) != p) {
        size_t q = p;
        while (x[q] != '"' && x[q] != '\'') q++;
        t->kind = x[q] == '"' ? TL_LEX_STR : TL_LEX_CHR;
    } else if (is_id0((unsigned char)x[p])) {
        t->kind = TL_LEX_ID;
        e = p + 1;
        for (size_t a; is_idc(peek(x, n, e, &a));) {
            for (size_t i = e; i < a; i++) nl += x[i] == '\n';
            e = a + 1;
        }
    } else if ((e = tl_lex_number(x, n, p)) != p) {
        t->kind = TL_LEX_NUM;
        for (size_t i = p; i < e; i++) nl += x[i] == '\n';
    } else {
        t->kind = TL_LEX_PUNCT;
        size_t l = 1;
        for (int i = 0; ops3[i]; i++) if (p + 3 <= n && !memcmp(x + p, ops3[i], 3)) l = 3;
        if (l == 1) for (int i = 0; ops2[i]; i++) if (p + 2 <= n && !memcmp(x + p, ops2[i], 2)) l = 2;
        e = p + l;
    }
    t->e = e;
    lx->line += nl;
    lx->p = e;
    return t->kind;
}

size_t tl_lex_copy(const char *text, size_t s, size_t e, char *buf, size_t cap)
{
    size_t k = 0;
    for (size_t p = s; p < e;) {
        size_t q = tl_lex_splice(text, e, p);
        if (q != p) { p = q; continue; }
        if (k + 1 < cap) buf[k++] = text[p];
        p++;
    }
    if (cap) buf[k < cap ? k : cap - 1] = '\0';
    return k;
}

int tl_lex_is(const char *text, const tl_lex_tok *t, const char *word)
{
    size_t l = strlen(word);
    if (t->e - t->s == l) return !memcmp(text + t->s, word, l);
    if (t->e - t->s < l || !memchr(text + t->s, '\\', t->e - t->s)) return 0;   /* no continuation in it */
    char buf[256];
    return l < sizeof buf && tl_lex_copy(text, t->s, t->e, buf, sizeof buf) == l && !memcmp(buf, word, l);
}
