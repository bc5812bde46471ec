/* oob.c: kit check on a GPU: out-of-bounds accesses found by compute-sanitizer memcheck, with a
 * headline that names them. A kernel that reads past the end of M or N and throws the value away
 * gets a right P; only a sanitizer sees the read. So `./kit check NN` on a GPU (with
 * compute-sanitizer installed) runs, beside the public cases, one small case per variant under
 * `compute-sanitizer --tool memcheck` with exact allocations (`--serve --exact-alloc`: no NaN
 * tails, no guard zone after P, so every access past a matrix's end is out of bounds): the
 * smallest public size the variant accepts that is ragged (not a multiple of its tile), with M, N
 * and P of different sizes where there is one. Each variant runs in its own child process and
 * its own sanitizer session, all started with the first public test and collected at the end of
 * each variant's test, so the pass costs about one sanitizer start-up of wall-clock time.
 * A finding fails that variant's public test; its first line names the access: read or write,
 * which matrix (by its size, or by the kernel's parameter indexed on the reported source line),
 * row and column, how far past the end, the file and line, thread and block, and the line itself.
 * Grading runs keep their own memcheck test (judges.c, tg_judge_safety); this is kit check's.
 * TL_CHECK_MEMCHECK=0 in the environment leaves the pass out (to measure what it costs). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "grade.h"
#include "oob.h"
#include "verdict_read.h"
#include "tilelab.h"


struct tg_oob {
    int   nvar;
    char  var[TL_LAB_MAX_VARIANTS][64];
    pid_t pid[TL_LAB_MAX_VARIANTS];
    int   reaped[TL_LAB_MAX_VARIANTS];
    char  dir[PATH_MAX];
    double started_ms;
};

/* ------------------------------------------------------------------ the case */

static int ragged(const tl_lab_variant *v, const gsize *s)
{
    int t = v->tile > 0 ? v->tile : 16;
    return s->m % t || s->k % t || s->n % t;
}

static int distinct_sizes(const gsize *s)
{
    long a = (long)s->m * s->k, b = (long)s->k * s->n, c = (long)s->m * s->n;
    return a != b && b != c && a != c;
}

/* The smallest public size of v with some dimension of 4 or more; ragged first, then one whose
 * M, N and P differ in size (so the sanitizer's allocation size names the matrix). -1 none. */
int tg_oob_pick_case(const grun *R, const tl_lab_variant *v)
{
    int best = -1;
    double best_key = 0;
    for (int i = 0; i < R->run.nsizes; ++i) {
        const gsize *s = &R->run.sizes[i];
        if (s->hidden != 0 || !tg_variant_accepts(v, s) || (s->m < 4 && s->k < 4 && s->n < 4))
            continue;
        double work = (double)s->m * s->k * s->n;
        double key = work + (ragged(v, s) ? 0 : 1e18) + (distinct_sizes(s) ? 0 : 1e15);
        if (best < 0 || key < best_key) {
            best = i;
            best_key = key;
        }
    }
    return best;
}

/* ------------------------------------------------------------------ the sanitizer's report */

static unsigned long long num_after(const char *p, const char *key, int *ok)
{
    const char *q = strstr(p, key);
    *ok = 0;
    if (!q)
        return 0;
    q += strlen(key);
    while (*q == ' ')
        ++q;
    unsigned long long v = 0;
    if (q[0] == '0' && q[1] == 'x') {
        *ok = 1;
        return strtoull(q + 2, NULL, 16);
    }
    for (; isdigit((unsigned char)*q) || *q == ','; ++q)   /* "1,156 bytes" */
        if (*q != ',') {
            v = v * 10 + (unsigned)(*q - '0');
            *ok = 1;
        }
    return v;
}

/* The parameter names of the __global__ function around line `line` of text (the last one that
 * starts before it): its pointer parameters in order, up to 3 (M, N, P by the lab's convention). */
static int kernel_pointers(const char *text, int line, char names[3][64])
{
    const char *start = text, *found = NULL;
    int ln = 1;
    for (const char *p = text; *p && ln <= line; ++p) {
        if (p == start || p[-1] == '\n') {
            if (strstr(p, "__global__") && strstr(p, "__global__") < strchr(p, '\n'))
                found = strstr(p, "__global__");
        }
        if (*p == '\n')
            ++ln;
    }
    if (!found)
        return 0;
    const char *open = strchr(found, '('), *close = open ? strchr(open, ')') : NULL;
    if (!open || !close)
        return 0;
    int n = 0;
    const char *p = open + 1;
    while (p < close && n < 3) {
        const char *e = memchr(p, ',', (size_t)(close - p));
        if (!e)
            e = close;
        const char *star = memchr(p, '*', (size_t)(e - p));
        if (star) {   /* the identifier after the last '*' */
            const char *id = e;
            while (id > star && !(isalnum((unsigned char)id[-1]) || id[-1] == '_'))
                --id;
            const char *ie = id;
            while (id > star && (isalnum((unsigned char)id[-1]) || id[-1] == '_'))
                --id;
            if (ie > id && (size_t)(ie - id) < 64) {
                memcpy(names[n], id, (size_t)(ie - id));
                names[n][ie - id] = '\0';
                ++n;
            }
        }
        p = e + 1;
    }
    return n;
}

/* 1 when name[ (with spaces between) occurs in line as a whole identifier. */
static int indexes(const char *line, const char *name)
{
    size_t l = strlen(name);
    for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
        if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        const char *q = p + l;
        while (*q == ' ')
            ++q;
        if (*q == '[')
            return 1;
    }
    return 0;
}

/* Line `line` of the student's file (the sanitizer names it by the path nvcc was given; the file
 * itself is looked up by its name in the lab's folder of this kit). */
static char *source_line(const char *root, const char *labdir, const char *file, int line, char **whole)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    char path[PATH_MAX + 512];
    snprintf(path, sizeof path, "%s/labs/%s/%s", root, labdir, base);
    size_t len;
    char *text = tg_read_file(path, 1 << 20, &len);
    *whole = text;
    if (!text)
        return NULL;
    int ln = 1;
    for (char *p = text; *p; ++p) {
        if (ln == line) {
            char *e = strchr(p, '\n');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            char *out = malloc(l + 1);
            if (!out)
                return NULL;
            memcpy(out, p, l);
            out[l] = '\0';
            return out;
        }
        if (*p == '\n')
            ++ln;
    }
    return NULL;
}

static void explain(const char *report, const grun *R, int m, int k, int n, tg_buf *head, tl_verdict *v);

void tg_oob_explain(const char *report, const grun *R, int m, int k, int n, tg_buf *head)
{
    explain(report, R, m, k, n, head, NULL);
}

void tg_oob_verdict(const char *report, const grun *R, int m, int k, int n, tl_verdict *v)
{
    tg_buf head = {0};
    explain(report, R, m, k, n, &head, v);
    tl_verdict_set(v->detail, sizeof v->detail, head.s ? head.s : "");
    v->m = m;
    v->k = k;
    v->n = n;
    tg_buf_free(&head);
}

/* The headline in head and, where v, the same as a verdict's fields (kind sanitizer). */
static void explain(const char *report, const grun *R, int m, int k, int n, tg_buf *head, tl_verdict *v)
{
    if (v)
        tl_verdict_init(v, TL_V_SANITIZER, "memcheck");
    /* The first error block: "Invalid __global__ read of size 4 bytes" and its lines. */
    const char *err = strstr(report, "Invalid __");
    if (!err) {
        const char *hit = strstr(report, "========= ");
        const char *e = NULL;
        /* no access error: the sanitizer's first own line (a misaligned address, a launch failure) */
        for (const char *p = report; p && *p; p = e ? e + 1 : NULL) {
            e = strchr(p, '\n');
            if (strncmp(p, "========= ", 10) == 0 && p[10] != ' ' && strncmp(p + 10, "COMPUTE-SANITIZER", 17) != 0 &&
                strncmp(p + 10, "ERROR SUMMARY", 13) != 0) {
                hit = p;
                break;
            }
        }
        int l = hit ? (int)strcspn(hit + 10, "\n") : 0;
        tg_buf_printf(head, "compute-sanitizer memcheck found an error: %.*s", l > 300 ? 300 : l, hit ? hit + 10 : "");
        return;
    }
    char space[16] = "", kind[8] = "";
    int bytes = 0;
    sscanf(err, "Invalid __%15[a-z]__ %7[a-z] of size %d", space, kind, &bytes);
    const char *end = strstr(err + 1, "\n========= \n");
    const char *nexterr = strstr(err + 1, "Invalid __");
    if (!end || (nexterr && nexterr < end))
        end = nexterr ? nexterr : err + strlen(err);
    char block[2048];
    snprintf(block, sizeof block, "%.*s", (int)(end - err) < 2047 ? (int)(end - err) : 2047, err);
    /* "at KERNEL+0xNN in FILE:LINE": the last " in " of the "at" line */
    char file[512] = "";
    int line = 0;
    const char *atl = strstr(block, "     at ");
    if (atl) {
        int al = (int)strcspn(atl, "\n");
        const char *in = NULL;
        for (const char *q = strstr(atl, " in "); q && q < atl + al; q = strstr(q + 4, " in "))
            in = q;
        if (in) {
            snprintf(file, sizeof file, "%.*s", (int)(atl + al - in - 4) < 511 ? (int)(atl + al - in - 4) : 511, in + 4);
            char *colon = strrchr(file, ':');
            if (colon && isdigit((unsigned char)colon[1])) {
                line = atoi(colon + 1);
                *colon = '\0';
            } else {
                file[0] = '\0';
            }
        }
    }
    int tx = 0, ty = 0, tz = 0, bx = 0, by = 0, bz = 0;
    const char *bt = strstr(block, "by thread (");
    int have_thread = bt && sscanf(bt, "by thread (%d,%d,%d) in block (%d,%d,%d)", &tx, &ty, &tz, &bx, &by, &bz) == 6;
    int ok_a = 0, ok_b = 0, ok_s = 0;
    unsigned long long addr = num_after(block, "Address", &ok_a);
    if (!ok_a)
        addr = num_after(block, "Access to", &ok_a);     /* compute-sanitizer 2025 (CUDA 13) */
    if (!ok_a)
        addr = num_after(block, "Access at", &ok_a);
    unsigned long long base = num_after(block, "nearest allocation at", &ok_b);
    unsigned long long size = 0;
    const char *of = ok_b ? strstr(strstr(block, "nearest allocation at"), " of size") : NULL;
    if (of)
        size = num_after(of, " of size", &ok_s);

    /* Which matrix: the one whose size the allocation has, or the kernel's pointer parameter that
     * the reported line indexes (parameters in the order M, N, P). */
    const char *fbase = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    char *whole = NULL, *src = file[0] && line > 0 ? source_line(R->opt->root, R->lab->dir, file, line, &whole) : NULL;
    static const char *mat[3] = {"M", "N", "P"};
    long rows[3] = {m, k, m}, cols[3] = {k, n, n};
    int which = -1, matches = 0;
    if (ok_s)
        for (int i = 0; i < 3; ++i)
            if ((unsigned long long)rows[i] * cols[i] * 4ull == size) {
                which = i;
                ++matches;
            }
    if (matches != 1 && src && whole) {
        char names[3][64];
        int np = kernel_pointers(whole, line, names), hits = 0, w = -1;
        for (int i = 0; i < np; ++i)
            if (indexes(src, names[i])) {
                ++hits;
                w = i;
            }
        /* a read with M and N on the line stays ambiguous; a write is the store to P */
        if (hits == 1)
            which = w;
        else if (hits > 1 && strcmp(kind, "write") == 0 && np == 3 && indexes(src, names[2]))
            which = 2;
        else
            which = matches == 1 ? which : -1;
    }
    tg_buf_printf(head, "out-of-bounds %s", kind[0] ? kind : "access");
    if (which >= 0)
        tg_buf_printf(head, " of %s", mat[which]);
    if (ok_a && ok_b) {
        long long off = (long long)(addr - base);   /* bytes from the allocation's start */
        long long el = off >= 0 ? off / 4 : -((-off + 3) / 4);
        if (which >= 0 && off >= 0) {
            long cnt = rows[which] * cols[which];
            tg_buf_printf(head, " at row %lld, column %lld (%s is %ld x %ld: %lld float%s past its end)",
                          el / cols[which], el % cols[which], mat[which], rows[which], cols[which],
                          el - cnt + 1, el - cnt + 1 == 1 ? "" : "s");
        } else if (which >= 0) {
            tg_buf_printf(head, " at element %lld (%lld float%s before its start)", el, -el, el == -1 ? "" : "s");
        } else if (off >= 0 && ok_s) {
            tg_buf_printf(head, " %llu bytes past the end of a %llu-byte allocation (M, N or P: at size %dx%dx%d "
                          "two or more have that size)", (unsigned long long)off - size, size, m, k, n);
        } else {
            tg_buf_printf(head, " %lld bytes from the start of an allocation", off);
        }
    }
    if (file[0])
        tg_buf_printf(head, " in %s:%d", fbase, line);
    if (have_thread)
        tg_buf_printf(head, ", thread (%d,%d,%d) of block (%d,%d,%d)", tx, ty, tz, bx, by, bz);
    if (v) {                 /* the same facts as fields */
        tl_verdict_set(v->pattern, sizeof v->pattern, "out-of-bounds");
        tl_verdict_set(v->access, sizeof v->access, kind);
        if (which >= 0)
            tl_verdict_set(v->matrix, sizeof v->matrix, mat[which]);
        if (which >= 0 && ok_a && ok_b) {
            long long off = (long long)(addr - base), el = off >= 0 ? off / 4 : -((-off + 3) / 4);
            v->index = el;
            if (el >= 0) {
                v->row = el / cols[which];
                v->column = el % cols[which];
            }
        }
        if (file[0]) {
            tl_verdict_set(v->file, sizeof v->file, fbase);
            v->line = line;
        }
        if (have_thread) {
            v->have_thread = 1;
            v->thread[0] = tx, v->thread[1] = ty, v->thread[2] = tz;
            v->block[0] = bx, v->block[1] = by, v->block[2] = bz;
        }
    }
    if (strcmp(space, "global") != 0 && space[0])
        tg_buf_printf(head, " (__%s__ memory)", space);
    if (src) {
        const char *s = src;
        while (*s == ' ' || *s == '\t')
            ++s;
        tg_buf_printf(head, "\n  %s:%d:  %.200s", fbase, line, s);
    }
    if (strcmp(kind, "read") == 0)
        tg_buf_printf(head, "\n  a load runs even when its value is thrown away: test the index before the load "
                      "(if (row < rows && col < cols) load; else 0), not only which value is kept");
    else if (strcmp(kind, "write") == 0)
        tg_buf_printf(head, "\n  guard the store: if (Row < m && Col < n) P[Row * n + Col] = ...");
    free(src);
    free(whole);
}

/* ------------------------------------------------------------------ start and collect */

static int enabled(const grun *R, gsub *g)
{
    const char *e = getenv("TL_CHECK_MEMCHECK");
    return R->opt->check && R->opt->prebuilt[0] && R->lab->gpu && !R->opt->emulate && R->env.gpu_ok && R->env.sanitizer[0] && g->built &&
           !(e && strcmp(e, "0") == 0);
}

/* One variant's pass, in a child process: its own session, its own case folder. */
static void run_variant(grun *R, gsub *g, const tl_lab_variant *v, const char *dir) __attribute__((noreturn));
static void run_variant(grun *R, gsub *g, const tl_lab_variant *v, const char *dir)
{
    gsub gc = *g;
    memset(&gc.evidence, 0, sizeof gc.evidence);
    gc.printed = 0;
    snprintf(gc.work, sizeof gc.work, "%s/%s", dir, v->name);
    tg_mkdirs(gc.work, 0700);
    tg_buf out = {0};
    int si = tg_oob_pick_case(R, v);
    char err[600];
    if (si < 0 || tg_prepare_size(&R->run.sizes[si], err, sizeof err) != 0) {
        tg_buf_printf(&out, "skip\nmemcheck not run: %s\n", si < 0 ? "no public size of 4 or more fits this variant" : err);
    } else {
        const gsize *s = &R->run.sizes[si];
        gsess ss;
        cres r;
        int code = -1;
        /* With a 64 KiB gap after every allocation first (M, N and P can lie back to back: a read
         * past the end of a 16 x 16 M lands in N, inside an allocation); without it when this
         * compute-sanitizer refuses --padding (it then ends without running the program). */
        for (int pad = TG_OOB_PADDING;; pad = 0) {
            memset(&ss, 0, sizeof ss);
            ss.build = gc.build;
            ss.binary = strrchr(R->opt->prebuilt, '/') + 1;
            ss.tool = "memcheck";
            ss.padding = pad;
            tg_run_case(R, &gc, &ss, s, v, 0, R->lab->sanitizer_limit_s, &r);
            if (ss.alive && ss.c.to_child >= 0) {
                (void)!write(ss.c.to_child, "quit\n", 5);
                close(ss.c.to_child);
                ss.c.to_child = -1;
            }
            if (ss.alive)
                tg_child_wait(&ss.c, tl_now_ms() + R->lab->sanitizer_limit_s * 1000.0);
            code = ss.c.reaped && WIFEXITED(ss.c.status) ? WEXITSTATUS(ss.c.status) : -1;
            int refused = pad && code != 0 && code != 99 && r.st == C_DIED &&
                          !(ss.c.cap.s && strstr(ss.c.cap.s, "Invalid __"));
            if (!refused)
                break;
            tg_sess_end(&gc, &ss, 0);
            tg_child_free(&ss.c);
        }
        char sz[48];
        tg_size_str(sz, sizeof sz, s);
        const char *rep = ss.c.cap.s ? ss.c.cap.s : "";
        if (code == 99 || strstr(rep, "Invalid __")) {
            tg_buf head = {0};
            tl_verdict ov;
            char js[4096] = "{}";
            tg_oob_verdict(rep, R, s->m, s->k, s->n, &ov);
            tl_verdict_json(&ov, js, sizeof js);
            tg_oob_explain(rep, R, s->m, s->k, s->n, &head);
            tg_buf_printf(&out, "found\n%s\n", js);   /* the verdict, then the words */
            tg_buf_printf(&out, "%s\n  (compute-sanitizer memcheck, size %s, M, N and P allocated exactly; "
                          "kit check fails the variant: the grader's memcheck test takes its points)\n", head.s, sz);
            /* the sanitizer's own words: the first error, up to its host backtrace */
            const char *p = strstr(rep, "========= Invalid");
            for (int shown = 0; p && *p && shown < 6; ++shown) {
                const char *e = strchr(p, '\n');
                int l = (int)(e ? e - p : (long)strlen(p));
                if (strncmp(p, "=========", 9) != 0 || strstr(p, "Saved host backtrace") == p + 14 || l <= 10)
                    break;
                tg_buf_printf(&out, "  %.*s\n", l > 200 ? 200 : l, p);
                p = e ? e + 1 : NULL;
            }
            tg_buf_free(&head);
        } else if (code == 0 || (r.st != C_NOTRUN && !ss.c.timed_out && code != -1 && !strstr(rep, "========= ERROR"))) {
            tg_buf_printf(&out, "clean\ncompute-sanitizer memcheck at size %s: no out-of-bounds access\n", sz);
        } else {
            char how[200];
            tg_child_describe(&ss.c, how, sizeof how);
            tg_buf_printf(&out, "skip\nmemcheck at size %s did not finish (%s; %s)\n", sz, how, r.reason);
        }
        tg_sess_end(&gc, &ss, 0);
    }
    char path[PATH_MAX + 80];
    snprintf(path, sizeof path, "%s/%s.txt", dir, v->name);
    tg_write_atomic(path, out.s ? out.s : "", out.len);
    _exit(0);
}

void tg_oob_start(grun *R, gsub *g)
{
    if (g->oob || !enabled(R, g))
        return;
    struct tg_oob *o = calloc(1, sizeof *o);
    if (!o)
        return;
    g->oob = o;
    o->started_ms = tl_now_ms();
    snprintf(o->dir, sizeof o->dir, "%s/oob", g->work);
    tg_rmtree(o->dir);
    tg_mkdirs(o->dir, 0700);
    fflush(NULL);
    for (int i = 0; i < R->lab->ntests && o->nvar < TL_LAB_MAX_VARIANTS; ++i) {
        const tl_lab_test *t = &R->lab->tests[i];
        const tl_lab_variant *v = t->kind == TL_TEST_PUBLIC && t->variant ? tl_lab_variant_find(R->lab, t->variant) : NULL;
        if (!v || !v->on_gpu)
            continue;
        int seen = 0;
        for (int j = 0; j < o->nvar; ++j)
            seen |= strcmp(o->var[j], v->name) == 0;
        if (seen)
            continue;
        snprintf(o->var[o->nvar], sizeof o->var[0], "%s", v->name);
        /* A fork, not proc.c's posix_spawn: the child runs the grader's own code (run_variant: the
         * sanitized run in the sandbox and its report), beside the cases. */
        pid_t pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);   /* kit check stopped (Ctrl-C): so is the pass, and its sandbox */
            run_variant(R, g, v, o->dir);
        }
        o->pid[o->nvar++] = pid;   /* -1: fork failed, said when collected */
    }
}

/* After v's public test: its finding (a failure with the headline first), or a line saying it ran. */
void tg_oob_collect(grun *R, gsub *g, const tl_lab_variant *v, tres *tr)
{
    struct tg_oob *o = g->oob;
    if (!o || !tr->graded)
        return;
    int i = 0;
    while (i < o->nvar && strcmp(o->var[i], v->name) != 0)
        ++i;
    if (i == o->nvar)
        return;
    if (o->pid[i] <= 0) {
        tg_buf_printf(&tr->out, "memcheck not run: cannot start its process (%s)\n", strerror(errno));
        tg_buf_printf(&tr->shown, "memcheck not run: cannot start its process (%s)\n", strerror(errno));
        return;
    }
    if (!o->reaped[i]) {
        double deadline = tl_now_ms() + (R->lab->sanitizer_limit_s + 30) * 1000.0;
        int st;
        while (waitpid(o->pid[i], &st, WNOHANG) == 0) {
            if (tl_now_ms() > deadline) {
                kill(o->pid[i], SIGKILL);
                tg_proc_wait(o->pid[i], &st, 0);
                break;
            }
            usleep(20000);
        }
        o->reaped[i] = 1;
    }
    char path[PATH_MAX + 80];
    snprintf(path, sizeof path, "%s/%s.txt", o->dir, v->name);
    size_t len;
    char *text = tg_read_file(path, 1 << 16, &len);
    if (!text) {
        tg_buf_printf(&tr->out, "memcheck did not report (its process ended without a result)\n");
        tg_buf_printf(&tr->shown, "memcheck did not report (its process ended without a result)\n");
        return;
    }
    char *body = strchr(text, '\n');
    body = body ? body + 1 : text + len;
    if (strncmp(text, "found", 5) == 0) {
        /* its verdict line: the test's headline now (a finding is named first) */
        char *vl = body, *ve = strchr(vl, '\n');
        tl_verdict ov;
        if (ve && tg_verdict_parse(vl, (size_t)(ve - vl), &ov) == 0) {
            tr->head.v = ov;
            snprintf(tr->head.size, sizeof tr->head.size, "%dx%dx%d", ov.m, ov.k, ov.n);
            tr->have_head = 1;
            tg_tres_add_case(tr, tr->head.size, &ov);
            body = ve + 1;
        }
        tg_buf old = tr->out;
        memset(&tr->out, 0, sizeof tr->out);
        tg_buf_add(&tr->out, body, strlen(body));
        if (old.len)
            tg_buf_add(&tr->out, old.s, old.len);
        tg_buf_free(&old);
        tr->passed = 0;
        tr->score = 0;
    } else {
        tg_buf_add(&tr->out, body, strlen(body));
        tg_buf_printf(&tr->shown, "%.*s\n", (int)strcspn(body, "\n"), body);   /* what the pass did */
    }
    free(text);
}

/* ---------------------------------------------------------------- the safety test's sanitizer run */

void tg_sanitizer_lines(const tg_buf *cap, tg_buf *out)
{
    int shown = 0;
    for (const char *p = cap->s; p && *p && shown < 30;) {
        const char *e = strchr(p, '\n');
        int l = (int)(e ? e - p : (long)strlen(p));
        if (strncmp(p, "=========", 9) == 0) {
            tg_buf_printf(out, "  %.*s\n", l > 200 ? 200 : l, p);
            ++shown;
        }
        p = e ? e + 1 : NULL;
    }
}

void tg_sanitizer_verdict(const tg_buf *cap, const char *tool, tl_verdict *v)
{
    tl_verdict_init(v, TL_V_SANITIZER, tool);
    const char *rep = cap->s ? cap->s : "";
    /* "========= ERROR SUMMARY: N errors" */
    const char *sum = strstr(rep, "========= ERROR SUMMARY: ");
    if (sum)
        v->count = strtoll(sum + 25, NULL, 10);
    /* the first line of its own that is not its banner: the error */
    for (const char *p = rep, *e; p && *p; p = e ? e + 1 : NULL) {
        e = strchr(p, '\n');
        if (strncmp(p, "========= ", 10) == 0 && p[10] != ' ' && strncmp(p + 10, "COMPUTE-SANITIZER", 17) != 0 &&
            strncmp(p + 10, "ERROR SUMMARY", 13) != 0) {
            int l = (int)(e ? e - p - 10 : (long)strlen(p + 10));
            snprintf(v->detail, sizeof v->detail, "%.*s", l > 600 ? 600 : l, p + 10);
            break;
        }
    }
}
