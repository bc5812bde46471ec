/* headline.c: the first line of a failing correctness test: the most specific reason any of its
 * cases gave, in the student's terms, before the count of sizes correct (judges.c). An emulator
 * diagnostic (an out-of-bounds read of M at row r, column c; a race; a divergent barrier) beats a
 * crash or an error the program reported, which beat a pattern the checker recognised (swapped
 * indices, P = M*M, phases counted from n), which beats a generic one (all wrong, scattered
 * errors, unwritten elements) or the wall-clock limit (an endless loop, or a case slowed by a
 * loaded machine). The emulator names buffers as the kit allocated them ('c->d_M')
 * and indexes them flat: here that becomes the matrix, its row and column, and the student's file
 * and line, worded as kit check's memcheck pass on a GPU words the same access (oob.c). */
#define _GNU_SOURCE   /* memmem */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headline.h"

/* The emulator's class after "tilelab-emu: ", in words. */
static const char *emu_class_words(const char *cls, size_t l)
{
    static const struct { const char *cls, *words; } t[] = {
        {"shared-out-of-bounds", "out-of-bounds __shared__ access"},
        {"array-out-of-bounds", "out-of-bounds index into an array of the kernel"},
        {"race", "race on __shared__ memory"},
        {"divergent-barrier", "divergent barrier (__syncthreads() not reached by every thread of the block)"},
        {"uninitialized-shared-read", "read of __shared__ memory never written (out-of-range tile entries must be 0: "
                                      "a guarded load needs its else)"},
        {"invalid-launch", "invalid launch"},
        {"assert", "assert failed in the kernel"},
        {"stack-overflow", "stack overflow in the kernel"},
        {"segmentation fault", "segmentation fault in the kernel"},
        {"misaligned-address", "misaligned vector access (cudaErrorMisalignedAddress on a GPU)"},
        {"invalid-pointer", "invalid pointer"},
        {"missing-syncwarp", "missing __syncwarp()"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; ++i)
        if (strlen(t[i].cls) == l && strncmp(cls, t[i].cls, l) == 0)
            return t[i].words;
    return NULL;
}

/* "FILE:LINE" of the student's line in the emulator's report: the first "  at (from the debug
 * line table) FUNC at PATH:LINE" (its innermost frame), reduced to the file's name. */
static int emu_where(const char *explain, char *out, size_t len)
{
    const char *p = explain ? strstr(explain, "(from the debug line table)") : NULL;
    if (!p)
        return 0;
    const char *e = strchr(p, '\n');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    const char *at = NULL;
    for (const char *q = strstr(p, " at "); q && q < p + l; q = strstr(q + 4, " at "))
        at = q + 4;
    if (!at)
        return 0;
    const char *end = at;
    while (end < p + l && *end != ' ' && *end != '\n')
        ++end;
    const char *colon = end;
    while (colon > at && colon[-1] != ':')
        --colon;
    if (colon == at || !isdigit((unsigned char)*colon))
        return 0;
    const char *base = colon - 1;
    while (base > at && base[-1] != '/')
        --base;
    snprintf(out, len, "%.*s", (int)(end - base), base);
    return 1;
}

/* 'c->d_M' -> 0 (M), 1 (N), 2 (P); -1 another buffer. */
static int kit_matrix(const char *name, size_t l)
{
    if (l >= 3 && name[l - 2] == '_' && name[l - 3] == 'd') {
        char c = name[l - 1];
        return c == 'M' ? 0 : c == 'N' ? 1 : c == 'P' ? 2 : -1;
    }
    return -1;
}

/* The emulator's global-out-of-bounds first line, in the student's terms. 0 when it does not parse. */
static int emu_global_oob(const char *msg, const char *explain, int m, int k, int n, char *out, size_t len)
{
    char kind[8] = "";
    const char *q = msg;
    if (sscanf(q, "%7[a-z] of '", kind) != 1)
        return 0;
    const char *name = strchr(q, '\'');
    const char *nend = name ? strchr(name + 1, '\'') : NULL;
    if (!name || !nend || nend[1] != '[')
        return 0;
    ++name;
    int neg = nend[2] == '-';
    long long idx = strtoll(nend + 2 + neg, NULL, 10);
    if (neg)
        idx = -idx;
    int which = kit_matrix(name, (size_t)(nend - name));
    static const char *mat[3] = {"M", "N", "P"};
    long rows[3] = {m, k, m}, cols[3] = {k, n, n};
    size_t o = 0;
#define PUT(...) do { if (o < len) o += (size_t)snprintf(out + o, len - o, __VA_ARGS__); } while (0)
    if (which >= 0 && idx >= 0 && cols[which] > 0) {
        long long cnt = (long long)rows[which] * cols[which];
        PUT("out-of-bounds %s of %s at row %lld, column %lld (%s is %ld x %ld: %lld float%s past its end)", kind,
            mat[which], idx / cols[which], idx % cols[which], mat[which], rows[which], cols[which], idx - cnt + 1,
            idx - cnt + 1 == 1 ? "" : "s");
    } else if (which >= 0) {
        PUT("out-of-bounds %s of %s at element %lld (%lld float%s before its start)", kind, mat[which], idx, -idx,
            idx == -1 ? "" : "s");
    } else {
        PUT("out-of-bounds %s of '%.*s'[%lld]", kind, (int)(nend - name), name, idx);
    }
    char where[256];
    if (emu_where(explain, where, sizeof where))
        PUT(" in %s", where);
    const char *th = strstr(msg, " in thread (");
    if (th) {
        int tx, ty, tz, bx, by, bz;
        if (sscanf(th, " in thread (%d,%d,%d) of block (%d,%d,%d)", &tx, &ty, &tz, &bx, &by, &bz) == 6)
            PUT(", thread (%d,%d,%d) of block (%d,%d,%d)", tx, ty, tz, bx, by, bz);
    }
#undef PUT
    return 1;
}

int tg_headline_rank(const char *reason, const char *explain)
{
    if (!reason || !*reason || strcmp(reason, "correct") == 0)
        return 0;
    if (strstr(reason, "tilelab-emu: ") ||
        (strncmp(reason, "the program ended", 17) == 0 && explain && strstr(explain, "tilelab-emu: ")))
        return 5;
    if (strncmp(reason, "wrong result: ", 14) == 0) {
        static const char *generic[] = {"all wrong", "scattered errors", "wrong rows", "wrong columns",
                                        "unwritten elements"};
        for (size_t i = 0; i < sizeof generic / sizeof generic[0]; ++i)
            if (strncmp(reason + 14, generic[i], strlen(generic[i])) == 0)
                return 2;
        return 3;
    }
    if (strncmp(reason, "not run", 7) == 0 || strncmp(reason, "not graded", 10) == 0)
        return 1;
    /* the wall-clock limit: an endless loop, or a slow case on a loaded machine; a pattern seen
     * at another size says more (every case stopped: it is the headline still) */
    if (strncmp(reason, "no answer within", 16) == 0)
        return 2;
    return 4;   /* an error the program reported, a crash, the wall-clock limit, a broken answer */
}

void tg_headline_make(const char *reason, const char *explain, const char *size, int m, int k, int n, char *out,
                      size_t len)
{
    const char *emu = strstr(reason, "tilelab-emu: ");
    const char *eemu = explain ? strstr(explain, "tilelab-emu: ") : NULL;
    if (!emu && eemu)      /* the program died: the emulator's words are in the report */
        emu = eemu;
    char where[256] = "";
    if (emu) {
        const char *cls = emu + 13;
        size_t cl = strspn(cls, "abcdefghijklmnopqrstuvwxyz-");
        const char *msg = cls;
        if (cls[cl] == ':')
            msg = cls + cl + 1;
        else if (strncmp(cls, "segmentation fault ", 19) == 0)
            msg = cls + (cl = 18) + 1;
        else
            cl = 0;       /* no class: the message as it is */
        while (*msg == ' ')
            ++msg;
        size_t ml = strcspn(msg, "\n");
        if (cl == 20 && strncmp(cls, "global-out-of-bounds", 20) == 0 &&
            emu_global_oob(msg, explain, m, k, n, out, len)) {
            size_t o = strlen(out);
            snprintf(out + o, len > o ? len - o : 0, " (size %s)", size);
            return;
        }
        const char *words = cl ? emu_class_words(cls, cl) : NULL;
        int have_where = emu_where(explain, where, sizeof where);
        /* the emulator's message names its own line already when it says "FILE.cu:" */
        if (have_where && memmem(msg, ml, where, strcspn(where, ":") + 1))
            have_where = 0;
        /* whole segments of the report ("   " joins its lines), up to about 300 characters */
        size_t keep = 0;
        while (keep < ml) {
            const char *sep = memmem(msg + keep + 1, ml - keep - 1, "   ", 3);
            size_t next = sep ? (size_t)(sep - msg) : ml;
            if (keep && next > 300)
                break;
            keep = next;
            if (!sep)
                break;
            while (keep < ml && msg[keep] == ' ' && keep + 1 < ml && msg[keep + 1] == ' ')
                ++keep;
        }
        while (keep > 0 && msg[keep - 1] == ' ')
            --keep;
        if (keep > 300)
            keep = 300;
        snprintf(out, len, "%s%s%.*s%s%s (size %s)", words ? words : "", words ? ": " : "", (int)keep, msg,
                 have_where ? " in " : "", have_where ? where : "", size);
        return;
    }
    if (strncmp(reason, "wrong result: ", 14) == 0) {
        /* the pattern's name, and the checker's "likely:" line, which says what the kernel computed */
        const char *lk = explain ? strstr(explain, "likely: ") : NULL;
        const char *paren = strstr(reason + 14, " (");
        int nl = paren ? (int)(paren - reason - 14) : (int)strlen(reason + 14);
        if (lk) {
            lk += 8;
            int ll = (int)strcspn(lk, "\n");
            snprintf(out, len, "%.*s: %.*s (size %s)", nl, reason + 14, ll > 300 ? 300 : ll, lk, size);
        } else {
            snprintf(out, len, "%.*s (size %s)", nl, reason + 14, size);
        }
        return;
    }
    snprintf(out, len, "%.400s (size %s)", reason, size);
}
