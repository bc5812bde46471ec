/* headline.c: the words of a verdict (common/verdict.h), made here and nowhere else: a case's
 * reason line, and the first line of a failing correctness test, the most specific verdict any of
 * its cases gave, in the student's terms, before the count of sizes correct (judges.c).
 *
 * Ranking reads the kind (and, for the checker, whether its pattern is a generic one), never the
 * words: an emulator or sanitizer diagnostic (an out-of-bounds read of M at row r, column c; a
 * race; a divergent barrier) beats a crash or an error the program reported, which beat a pattern
 * the checker recognised (swapped indices, P = M*M, phases counted from n), which beats a generic
 * one (all wrong, scattered errors, unwritten elements) or the wall-clock limit (an endless loop,
 * or a case slowed by a loaded machine). The emulator names buffers as the kit allocated them
 * ('c->d_M') and indexes them flat: here that becomes the matrix, its row and column, and the
 * student's file and line, worded as kit check's memcheck pass on a GPU words the same access. */
#include <stdio.h>
#include <string.h>

#include "headline.h"
#include "tilelab.h"

/* The emulator's classes (and the emulated harness's findings, common/driver.c), in words; place:
 * the class's detail names the file and line itself; rank: how specific (headline.h): the
 * harness's findings say what P holds, not where the kernel went wrong, so they rank as an error. */
static const struct emu_class {
    const char *cls, *words;
    int place, rank;
} emu_classes[] = {
    {"global-out-of-bounds", "out-of-bounds access of a cudaMalloc buffer", 0, 5},
    {"shared-out-of-bounds", "out-of-bounds __shared__ access", 1, 5},
    {"array-out-of-bounds", "out-of-bounds index into an array of the kernel", 1, 5},
    {"race", "race on __shared__ memory", 1, 5},
    {"divergent-barrier", "divergent barrier (__syncthreads() not reached by every thread of the block)", 1, 5},
    {"uninitialized-shared-read", "read of __shared__ memory never written (out-of-range tile entries must be 0: "
                                  "a guarded load needs its else)", 1, 5},
    {"invalid-launch", "invalid launch", 1, 5},
    {"assert", "assert failed in the kernel", 1, 5},
    {"stack-overflow", "stack overflow in the kernel", 0, 5},
    {"segmentation-fault", "segmentation fault in the kernel", 0, 5},
    {"misaligned-address", "misaligned vector access (cudaErrorMisalignedAddress on a GPU)", 0, 5},
    {"invalid-pointer", "invalid pointer", 1, 5},
    {"invalid-free", "invalid cudaFree", 1, 5},
    {"invalid-warp-op", "invalid warp operation", 1, 5},
    {"not-supported", "not supported under emulation", 1, 5},
    {"missing-syncwarp", "missing __syncwarp()", 1, 5},
    {"p-read-before-written", "reading P before writing it", 1, 4},
    {"uninitialised-local", "reading a local before giving it a value", 1, 4},
    {"tile-not-shared", "tile not __shared__ (a local array: each thread's own copy)", 1, 4},
    {"order-dependent", "order-dependent result", 1, 4},
    {"answer-kept", "P not computed from this call's inputs", 1, 4},
    {"host-access-device-memory", "host code dereferenced device memory (a segmentation fault on a GPU)", 0, 5},
    {"pipeline-wait", "a cp.async wait that lands no copy", 1, 5},
    {"invalid-pipeline-copy", "invalid cp.async copy", 1, 5},
};

static const struct emu_class *emu_class_of(const tl_verdict *v)
{
    for (size_t i = 0; i < sizeof emu_classes / sizeof emu_classes[0]; ++i)
        if (tl_verdict_pattern_is(v, emu_classes[i].cls))
            return &emu_classes[i];
    return NULL;
}

/* 'c->d_M' -> 0 (M), 1 (N), 2 (P); -1 another buffer. */
static int kit_matrix(const char *name)
{
    size_t l = strlen(name);
    if (l >= 3 && name[l - 2] == '_' && name[l - 3] == 'd') {
        char c = name[l - 1];
        return c == 'M' ? 0 : c == 'N' ? 1 : c == 'P' ? 2 : -1;
    }
    return -1;
}

#define PUT(...) do { if (o < len) o += (size_t)snprintf(out + o, len - o, __VA_ARGS__); } while (0)

/* The emulator's global-out-of-bounds verdict in the student's terms. */
static size_t emu_global_oob(const tl_verdict *v, char *out, size_t len)
{
    size_t o = 0;
    int which = kit_matrix(v->matrix);
    static const char *mat[3] = {"M", "N", "P"};
    long rows[3] = {v->m, v->k, v->m}, cols[3] = {v->k, v->n, v->n};
    long long idx = v->index;
    const char *acc = v->access[0] ? v->access : "access";
    if (which >= 0 && idx >= 0 && cols[which] > 0) {
        long long cnt = (long long)rows[which] * cols[which];
        PUT("out-of-bounds %s of %s at row %lld, column %lld (%s is %ld x %ld: %lld float%s past its end)", acc,
            mat[which], idx / cols[which], idx % cols[which], mat[which], rows[which], cols[which], idx - cnt + 1,
            idx - cnt + 1 == 1 ? "" : "s");
    } else if (which >= 0) {
        PUT("out-of-bounds %s of %s at element %lld (%lld float%s before its start)", acc, mat[which], idx, -idx,
            idx == -1 ? "" : "s");
    } else {
        PUT("out-of-bounds %s of '%s'[%lld]", acc, v->matrix, idx);
    }
    if (v->file[0] && v->line > 0)
        PUT(" in %s:%d", v->file, v->line);
    if (v->have_thread)
        PUT(", thread (%d,%d,%d) of block (%d,%d,%d)", v->thread[0], v->thread[1], v->thread[2], v->block[0],
            v->block[1], v->block[2]);
    return o;
}

/* Whole lines of a detail joined by "   ", up to about 300 characters. */
static size_t detail_cut(const char *d, char *out, size_t len)
{
    size_t o = 0, lines = 0;
    for (const char *p = d; *p;) {
        size_t l = strcspn(p, "\n");
        while (l && p[l - 1] == ' ')
            --l;
        if (lines && o + 3 + l > 300)
            break;
        if (lines)
            PUT("   ");
        PUT("%.*s", (int)(l > 300 ? 300 : l), p);
        ++lines;
        p += l;
        while (*p == ' ' || *p == '\n')
            ++p;
    }
    return o;
}

int tg_headline_names_cause(const tl_verdict *v)
{
    return (v->kind == TL_V_CHECKER && tg_headline_rank(v) == 3) ||
           (v->kind == TL_V_EMULATOR && tl_verdict_pattern_is(v, "invalid-launch"));
}

int tg_headline_rank(const tl_verdict *v)
{
    switch (v->kind) {
    case TL_V_NONE:
        return 0;
    case TL_V_NOT_RUN:
    case TL_V_NOT_GRADED:
        return 1;
    case TL_V_TIMEOUT:
        /* an endless loop, or a slow case on a loaded machine; a pattern seen at another size says
         * more (every case stopped: it is the headline still) */
        return 2;
    case TL_V_CHECKER: {
        int p = tl_pattern_from_slug(v->pattern);
        return p >= 0 && tl_pattern_generic((tl_pattern)p) ? 2 : 3;
    }
    case TL_V_EMULATOR: {
        const struct emu_class *c = emu_class_of(v);
        return c ? c->rank : 5;
    }
    case TL_V_SANITIZER:
        return 5;
    default:
        return 4;   /* an error the program reported, a crash, a broken answer, a rule, a build */
    }
}

void tg_verdict_words(const tl_verdict *v, char *out, size_t len)
{
    size_t o = 0;
    const char *d = v->detail;
    if (len)
        out[0] = '\0';
    switch (v->kind) {
    case TL_V_NONE:
        PUT("correct");
        break;
    case TL_V_CHECKER: {
        int p = tl_pattern_from_slug(v->pattern);
        PUT("wrong result: %s (%lld/%lld wrong)", p >= 0 ? tl_pattern_name((tl_pattern)p) : v->pattern, v->count,
            v->total);
        break;
    }
    case TL_V_TIMEOUT:
        /* limits are CPU time (the same verdict at any load); the wall clock, a multiple of the
         * limit, only ends a program that sleeps or waits (session.c) */
        if (tl_verdict_pattern_is(v, "cpu-time"))
            PUT("no answer within the %.0f s CPU-time limit: the program (its whole process tree) was killed; an "
                "endless loop, a fork bomb, or far too slow%s%s%s", v->limit_s, *d ? " (" : "", d, *d ? ")" : "");
        else
            PUT("no answer within the %.0f s wall-clock limit: the program (its whole process tree) was killed; it "
                "sleeps or waits (on a GPU: a kernel that never ends), or the machine is heavily loaded%s%s%s",
                v->limit_s, *d ? " (" : "", d, *d ? ")" : "");
        break;
    case TL_V_CRASH:
        PUT("the program ended without answering (%s)%s", d,
            tl_verdict_pattern_is(v, "exited-without-answer") ? ": an exit status is not an answer" : "");
        break;
    case TL_V_NOT_RUN:
        PUT("not run: %s", d);
        break;
    case TL_V_NOT_GRADED:
        if (tl_verdict_pattern_is(v, "no-device"))
            PUT("not graded: no usable CUDA device");
        else if (tl_verdict_pattern_is(v, "not-supported"))   /* "not supported under emulation: WHAT (...)" */
            PUT("%s", d);
        else
            PUT("not run (grader problem): %s", d);
        break;
    case TL_V_PROTOCOL:
        if (tl_verdict_pattern_is(v, "answer-too-large"))
            PUT("the program sent more on fd 4 than any answer can hold; killed");
        else if (tl_verdict_pattern_is(v, "unreadable-matrix"))
            PUT("the answer's matrix is unreadable: %.400s", d);
        else if (tl_verdict_pattern_is(v, "wrong-shape"))
            PUT("the answer is %lld x %lld, expected %d x %d", v->row, v->column, v->m, v->n);
        else
            PUT("the answer on fd 4 does not follow the protocol (first line '%.80s'); the lab binary's serve loop "
                "was bypassed or broken", d);
        break;
    case TL_V_ERROR:
        if (tl_verdict_pattern_is(v, "no-device-claimed"))
            PUT("the program answered that it has no usable CUDA device, but %s: a wrong answer", d);
        else if (tl_verdict_pattern_is(v, "timed-run-skipped-work"))   /* the kit's timer found it */
            PUT("%.500s", d);
        else
            PUT("the program reported an error: %.400s", d);
        break;
    case TL_V_EMULATOR: {
        const struct emu_class *c = emu_class_of(v);
        PUT("the emulator stopped the case: %s: ", c ? c->words : v->pattern);
        o += detail_cut(d, out + (o < len ? o : len), o < len ? len - o : 0);
        break;
    }
    default:
        PUT("%s: %.400s", v->pattern, d);
    }
}

void tg_headline_make(const tl_verdict *v, const char *size, char *out, size_t len)
{
    size_t o = 0;
    if (len)
        out[0] = '\0';
    if (v->kind == TL_V_EMULATOR && tl_verdict_pattern_is(v, "global-out-of-bounds") && v->matrix[0] &&
        v->index != TL_V_UNSET) {
        o = emu_global_oob(v, out, len);
    } else if (v->kind == TL_V_EMULATOR) {
        const struct emu_class *c = emu_class_of(v);
        PUT("%s%s", c ? c->words : v->pattern, v->detail[0] ? ": " : "");
        o += detail_cut(v->detail, out + (o < len ? o : len), o < len ? len - o : 0);
        if ((!c || !c->place) && v->file[0] && v->line > 0)
            PUT(" in %s:%d", v->file, v->line);
    } else if (v->kind == TL_V_CHECKER) {
        int p = tl_pattern_from_slug(v->pattern);
        PUT("%s", p >= 0 ? tl_pattern_name((tl_pattern)p) : v->pattern);
        if (v->detail[0])
            PUT(": %.300s", v->detail);
    } else {
        char words[700];
        tg_verdict_words(v, words, sizeof words);
        PUT("%.400s", words);
    }
    PUT(" (size %s)", size);
}
#undef PUT

void tg_verdict_group(const tl_verdict *v, char *out, size_t len)
{
    const struct emu_class *c;
    int p;
    switch (v->kind) {
    case TL_V_CHECKER:
        p = tl_pattern_from_slug(v->pattern);
        snprintf(out, len, "wrong result: %s", p >= 0 ? tl_pattern_name((tl_pattern)p) : v->pattern);
        break;
    case TL_V_EMULATOR:
        c = emu_class_of(v);
        snprintf(out, len, "the emulator: %s", c ? c->words : v->pattern);
        break;
    case TL_V_SANITIZER:
        snprintf(out, len, "compute-sanitizer %s found errors", v->pattern);
        break;
    case TL_V_TIMEOUT:
        snprintf(out, len, "no answer within the %s limit",
                 tl_verdict_pattern_is(v, "cpu-time") ? "CPU-time" : "wall-clock");
        break;
    case TL_V_CRASH:
        snprintf(out, len, "the program ended without answering");
        break;
    case TL_V_ERROR:
        snprintf(out, len, "%s", tl_verdict_pattern_is(v, "timed-run-skipped-work")
                 ? "the timed runs did not all do the whole work" : "the program reported an error");
        break;
    case TL_V_PROTOCOL:
        snprintf(out, len, "an answer on fd 4 outside the protocol (%s)", v->pattern);
        break;
    case TL_V_NOT_RUN:
        snprintf(out, len, "not run");
        break;
    case TL_V_POLICY:
        snprintf(out, len, "POLICY VIOLATION: %s", tl_verdict_pattern_is(v, "network-socket") ? "opened a network socket"
                 : tl_verdict_pattern_is(v, "links-forbidden") ? "links what a lab file never needs"
                 : "calls what a lab file never needs");
        break;
    case TL_V_BUILD:
        snprintf(out, len, "build failed: %s", v->pattern);
        break;
    case TL_V_WORK:
        snprintf(out, len, "no credit: %s", tl_verdict_pattern_is(v, "host-side-computation") ? "host-side computation"
                 : tl_verdict_pattern_is(v, "unchecked-launches") ? "race checking switched off"
                 : tl_verdict_pattern_is(v, "not-staged-in-shared") ? "not tiled (no shared-memory tiles)"
                 : tl_verdict_pattern_is(v, "not-tiled") ? "not tiled"
                 : tl_verdict_pattern_is(v, "twin-build-failed") ? "the build that counts the work failed"
                 : v->pattern);
        break;
    default:
        snprintf(out, len, "%s: %s", tl_verdict_kind_name(v->kind) ? tl_verdict_kind_name(v->kind) : "?", v->pattern);
    }
}
