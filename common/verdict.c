/* verdict.c: the verdict's names and its JSON writer (CONTRACTS.md section 10). The writer has no
 * library behind it: lab programs and the emulator link it; the grader reads with cJSON. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"

static const char *const kind_names[TL_V_KINDS] = {
    [TL_V_NONE] = "correct",        [TL_V_CHECKER] = "checker",   [TL_V_EMULATOR] = "emulator",
    [TL_V_SANITIZER] = "sanitizer", [TL_V_TIMEOUT] = "timeout",   [TL_V_CRASH] = "crash",
    [TL_V_ERROR] = "error",         [TL_V_PROTOCOL] = "protocol", [TL_V_NOT_RUN] = "not-run",
    [TL_V_NOT_GRADED] = "not-graded", [TL_V_POLICY] = "policy",   [TL_V_BUILD] = "build",
};

const char *tl_verdict_kind_name(tl_verdict_kind kind)
{
    return (int)kind >= 0 && kind < TL_V_KINDS ? kind_names[kind] : NULL;
}

int tl_verdict_kind_from_name(const char *name)
{
    for (int i = 0; name && i < TL_V_KINDS; ++i)
        if (strcmp(kind_names[i], name) == 0)
            return i;
    return -1;
}

int tl_verdict_pattern_is(const tl_verdict *v, const char *p)
{
    return p && strcmp(v->pattern, p) == 0;
}

void tl_verdict_set(char *field, size_t n, const char *s)
{
    if (!n)
        return;
    size_t l = s ? strlen(s) : 0;
    if (l >= n) {
        l = n - 1;
        while (l > 0 && ((unsigned char)s[l] & 0xC0) == 0x80)   /* not inside a UTF-8 character */
            --l;
    }
    if (l)
        memcpy(field, s, l);
    field[l] = '\0';
}

void tl_verdict_init(tl_verdict *v, tl_verdict_kind kind, const char *pattern)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->row = v->column = v->index = TL_V_UNSET;
    tl_verdict_set(v->pattern, sizeof v->pattern, pattern ? pattern : "");
}

typedef struct jw {
    char  *out;
    size_t len, at;
    int    first;
} jw;

static void put(jw *w, const char *s, size_t l)
{
    for (size_t i = 0; i < l; ++i, ++w->at)
        if (w->at + 1 < w->len)
            w->out[w->at] = s[i];
    if (w->len)
        w->out[w->at < w->len ? w->at : w->len - 1] = '\0';
}

static void putf(jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(jw *w, const char *fmt, ...)
{
    char b[96];
    va_list ap;
    va_start(ap, fmt);
    int l = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    put(w, b, l < 0 ? 0 : (size_t)l < sizeof b ? (size_t)l : sizeof b - 1);
}

static void key(jw *w, const char *k)
{
    putf(w, "%s\"%s\":", w->first ? "" : ",", k);
    w->first = 0;
}

/* A JSON string: " and \ escaped, every byte below 0x20 and DEL as \u00XX; the rest as it is. */
static void str(jw *w, const char *k, const char *s)
{
    key(w, k);
    put(w, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            put(w, e, 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            putf(w, "\\u%04x", *p);
        } else {
            put(w, (const char *)p, 1);
        }
    }
    put(w, "\"", 1);
}

static void num(jw *w, const char *k, long long v)
{
    key(w, k);
    putf(w, "%lld", v);
}

size_t tl_verdict_json(const tl_verdict *v, char *out, size_t len)
{
    jw w = {out, len, 0, 1};
    if (len)
        out[0] = '\0';
    put(&w, "{", 1);
    const char *kn = tl_verdict_kind_name(v->kind);
    str(&w, "kind", kn ? kn : "correct");
    str(&w, "pattern", v->pattern);
    if (v->matrix[0])
        str(&w, "matrix", v->matrix);
    if (v->access[0])
        str(&w, "access", v->access);
    if (v->row != TL_V_UNSET)
        num(&w, "row", v->row);
    if (v->column != TL_V_UNSET)
        num(&w, "column", v->column);
    if (v->index != TL_V_UNSET)
        num(&w, "index", v->index);
    if (v->file[0])
        str(&w, "file", v->file);
    if (v->line > 0)
        num(&w, "line", v->line);
    if (v->have_thread) {
        key(&w, "thread");
        putf(&w, "[%d,%d,%d]", v->thread[0], v->thread[1], v->thread[2]);
        key(&w, "block");
        putf(&w, "[%d,%d,%d]", v->block[0], v->block[1], v->block[2]);
    }
    if (v->count)
        num(&w, "count", v->count);
    if (v->total)
        num(&w, "total", v->total);
    if (v->nonfinite)
        num(&w, "nonfinite", v->nonfinite);
    if (v->unwritten)
        num(&w, "unwritten", v->unwritten);
    if (v->m > 0 || v->k > 0 || v->n > 0) {
        num(&w, "m", v->m);
        num(&w, "k", v->k);
        num(&w, "n", v->n);
    }
    if (v->limit_s > 0) {
        key(&w, "limit_s");
        putf(&w, "%.17g", v->limit_s);
    }
    if (v->detail[0])
        str(&w, "detail", v->detail);
    put(&w, "}", 1);
    return w.at;
}
