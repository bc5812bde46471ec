/* session.c: the student session: one sandboxed `labNN --serve` process, cases sent on fd 3,
 * answers read on fd 4 and judged against the reference (the checker's teaching report kept). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"
#include "policy.h"
#include "tilelab.h"

void tg_sess_end(gsub *g, gsess *ss, int quit)
{
    if (!ss->alive)
        return;
    if (quit && ss->c.to_child >= 0) {
        (void)!write(ss->c.to_child, "quit\n", 5);
        close(ss->c.to_child);
        ss->c.to_child = -1;
        tg_child_wait(&ss->c, tl_now_ms() + 5000);
    }
    tg_child_kill(&ss->c);
    if (ss->c.cap.len) {
        if (g->evidence.len < 8192)
            tg_buf_add(&g->evidence, ss->c.cap.s, ss->c.cap.len < 8192 ? ss->c.cap.len : 8192);
    }
    g->printed += ss->c.out_total;
    ss->alive = 0;
}

static int sess_start(grun *R, gsub *g, gsess *ss, char *err, size_t errlen)
{
    char inside[PATH_MAX], host[PATH_MAX], casedir[PATH_MAX];
    snprintf(inside, sizeof inside, "/build/%s", ss->binary);
    snprintf(host, sizeof host, "%s/%s", ss->build, ss->binary);
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *bin = R->iso.bwrap ? inside : host;
    const char *argv_plain[] = {bin, "--serve", NULL};
    /* memcheck with exact allocations: no NaN tails after M and N, no guard zone after P, so an
     * access past a matrix's end is outside its allocation, where memcheck sees it. */
    int memcheck = ss->tool && strcmp(ss->tool, "memcheck") == 0;
    /* --padding: a gap after every allocation, so a read past M's end that would land in N (the
     * allocations can be adjacent) is out of bounds too (kit check's pass, oob.c) */
    char pad[32];
    snprintf(pad, sizeof pad, "%d", ss->padding);
    const char *argv_tool[] = {R->sanitizer, "--tool", ss->tool ? ss->tool : "memcheck", "--error-exitcode", "99",
                               "--print-limit", "20", bin, "--serve", memcheck ? "--exact-alloc" : NULL, NULL, NULL,
                               NULL, NULL};
    if (memcheck && ss->padding > 0) {   /* the sanitizer's options before the program */
        memmove(argv_tool + 9, argv_tool + 7, 3 * sizeof argv_tool[0]);
        argv_tool[7] = "--padding";
        argv_tool[8] = pad;
    }
    tg_spawn_opts o = {.argv = ss->tool ? argv_tool : argv_plain, .host_cwd = casedir,
                       .sandbox_cwd = "/tmp/case", .serve = 1, .gpu = R->lab->gpu,
                       .max_tasks = ss->tool ? 128 : 64,
                       .mem_bytes = tg_mem_limit(&R->iso, R->lab->gpu && R->gpu_ok && !R->emulate ? (8LL << 30)
                                                      : R->lab->gpu ? (2LL << 30) : (1LL << 30), R->jobs),
                       .fsize_bytes = 16LL << 20, .tmp_bytes = 64LL << 20,
                       .extra_path = R->tool_path[0] ? R->tool_path : NULL,
                       .seccomp_net = ss->tool == NULL};   /* compute-sanitizer talks over TCP */
    o.ro[0] = (tg_bind){ss->build, "/build"};
    if (tg_spawn(&ss->c, &R->iso, &o, err, errlen) != 0)
        return -1;
    ss->alive = 1;
    ss->runs++;
    return 0;
}

typedef struct answer_ctx {
    int m, n;
} answer_ctx;

/* The answer is whole: an "error" line, or "ok" + a header + the payload it announces
 * (or a header that cannot be right, which ends the wait at once). */
static int answer_complete(const tg_buf *a, void *vctx)
{
    (void)vctx;
    if (!a->len)
        return 0;
    const char *nl = memchr(a->s, '\n', a->len);
    if (!nl)
        return a->len > 4096;
    size_t line = (size_t)(nl - a->s) + 1;
    if (strncmp(a->s, "ok", 2) != 0)
        return 1;
    if (a->len < line + TL_MAT_HEADER_BYTES)
        return 0;
    tl_mat_header h;
    char e[300];
    if (tl_mat_header_decode((const unsigned char *)a->s + line, &h, "P", e, sizeof e) != 0)
        return 1;
    unsigned long long need = line + TL_MAT_HEADER_BYTES + h.rows * h.cols * (h.type == TL_MAT_F64 ? 8 : 4);
    return a->len >= need;
}

static void oneline(char *s)
{
    for (; *s; ++s)
        if (*s == '\n' || *s == '\r' || *s == '\t')
            *s = ' ';
}

static void take_note_of_output(const gsess *ss, cres *r, double limit_s, double wall_s)
{
    char extra[300] = "";
    size_t el = 0;
    if (ss->c.out_total > (1u << 20))
        el += (size_t)snprintf(extra, sizeof extra, " (meanwhile it printed %.1f MiB; %d KiB kept, the rest counted "
                               "and dropped)", ss->c.out_total / 1048576.0, TG_CAPTURE_KEEP / 1024);
    if (ss->c.forks_refused > 0 && el < sizeof extra)
        snprintf(extra + el, sizeof extra - el, " (the process limit refused %ld of its forks: a fork bomb)",
                 ss->c.forks_refused);
    if (ss->c.cpu_out)
        snprintf(r->reason, sizeof r->reason, "no answer within the %.0f s CPU-time limit: the program "
                 "(its whole process tree) was killed; an endless loop, a fork bomb, or far too slow%s",
                 limit_s, extra);
    else
        snprintf(r->reason, sizeof r->reason, "no answer within the %.0f s wall-clock limit (it had used %.1f s "
                 "of its %.0f s of CPU time): the program (its whole process tree) was killed; it sleeps or waits "
                 "(on a GPU: a kernel that never ends), or the machine is heavily loaded%s",
                 wall_s, ss->c.cpu_used_ms / 1000.0, limit_s, extra);
}

/* The emulator's report of a fault (its first 'tilelab-emu:' line and the indented lines after it:
 * the buffer, the kernel's file and line, the source line), whole: a cut line loses the location. */
static void emu_block(const char *p, tg_buf *out);

static void emu_report(const tg_buf *cap, tg_buf *out)
{
    const char *p = cap->s ? strstr(cap->s, "tilelab-emu: ") : NULL;
    if (!p || (p != cap->s && p[-1] != '\n'))
        return;
    emu_block(p, out);
}

/* The report whose first line begins as msg does ("tilelab-emu: ..." as the program answered it
 * on fd 4): its last one in the output (the session may have run earlier cases), whole. */
static void emu_report_of(const tg_buf *cap, const char *msg, tg_buf *out)
{
    size_t ml = strcspn(msg, "\n");
    ml = ml > 80 ? 80 : ml;
    const char *last = NULL;
    for (const char *p = cap->s ? strstr(cap->s, msg) : NULL; p; p = strstr(p + 1, msg))
        if ((p == cap->s || p[-1] == '\n') && strncmp(p, msg, ml) == 0)
            last = p;
    if (!last)
        for (const char *p = cap->s ? memmem(cap->s, cap->len, msg, ml) : NULL; p;
             p = memmem(p + 1, cap->len - (size_t)(p + 1 - cap->s), msg, ml))
            if (p == cap->s || p[-1] == '\n')
                last = p;
    if (last)
        emu_block(last, out);
}

static void emu_block(const char *p, tg_buf *out)
{
    int lines = 0;
    while (p && *p && lines < 8 && (lines == 0 || strncmp(p, "  ", 2) == 0)) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        tg_buf_printf(out, "    %.*s\n", (int)(l > 1000 ? 1000 : l), p);
        ++lines;
        p = e ? e + 1 : NULL;
    }
}

int tg_emu_unsupported(const char *text, char *out, size_t len)
{
    static const char key[] = "not supported under emulation";
    const char *p = text ? strstr(text, key) : NULL;
    if (!p)
        return 0;
    const char *what = p + sizeof key - 1;
    while (*what == ':' || *what == ' ')
        ++what;
    size_t wl = strcspn(what, "\n");
    /* the report may name it before the words ("WHAT at FILE:LINE: not supported under emulation") */
    if (wl == 0) {
        const char *ls = p;
        while (ls > text && ls[-1] != '\n')
            --ls;
        if (strncmp(ls, "tilelab-emu: ", 13) == 0)
            ls += 13;
        what = ls;
        wl = (size_t)(p - ls);
        while (wl && (what[wl - 1] == ' ' || what[wl - 1] == ':'))
            --wl;
    }
    if (wl > 300)
        wl = 300;
    snprintf(out, len, "not supported under emulation: %.*s%s", (int)wl, what,
             memmem(what, wl, "valid CUDA", 10) ? "" : " (valid CUDA; on a GPU it runs)");
    return 1;
}

/* Runs one case in the session (started on demand) and judges the answer. */
void tg_run_case(grun *R, gsub *g, gsess *ss, const gsize *s, const tg_variant *v, int timed, double limit_s, cres *r)
{
    memset(r, 0, sizeof *r);
    r->reported_ms = -1;
    char sz[48];
    tg_size_str(sz, sizeof sz, s);
    char vkey[80];
    snprintf(vkey, sizeof vkey, " %s ", v->name);
    if (strstr(g->timed_out_variants, vkey)) {
        r->st = C_NOTRUN;
        snprintf(r->reason, sizeof r->reason, "not run: an earlier case of %s hit the time or memory limit", v->name);
        return;
    }
    if (g->timeouts >= TIMEOUTS_PER_SUBMISSION) {
        r->st = C_NOTRUN;
        snprintf(r->reason, sizeof r->reason, "not run: this submission already hit the time limit %d times",
                 g->timeouts);
        return;
    }
    char err[600];
    if (!ss->alive && sess_start(R, g, ss, err, sizeof err) != 0) {
        r->st = C_NOTRUN;
        snprintf(r->reason, sizeof r->reason, "not run (grader problem): %s", err);
        return;
    }
    char line[160];
    int ll = snprintf(line, sizeof line, "case %s %d %d %d %d\n", v->name, s->m, s->k, s->n, timed);
    tg_buf req = {0}, ans = {0};
    tg_buf_add(&req, line, (size_t)ll);
    tg_buf_add(&req, s->payload, s->payload_len);
    answer_ctx ac = {s->m, s->n};
    /* limit_s is CPU time of the session's whole tree for this case (the same at any load); the
     * wall clock gets a multiple of it, only to end a process that sleeps or waits. */
    double wall_s = limit_s * (R->lab->gpu && R->gpu_ok && !R->emulate ? TL_WALL_BACKSTOP_GPU : TL_WALL_BACKSTOP_CPU);
    double t0 = tl_now_ms();
    ss->c.cpu_limit_ms = limit_s * 1000.0;
    ss->c.cpu_start_ms = tg_child_cpu_ms(&ss->c);
    ss->c.cpu_used_ms = 0;
    ss->c.cpu_read_at = t0;
    if (ss->c.cpu_start_ms < 0) {   /* the tree's CPU cannot be read here: the wall clock alone */
        ss->c.cpu_limit_ms = 0;
        wall_s = limit_s;
    }
    size_t ans_max = 4096 + TL_MAT_HEADER_BYTES + (size_t)s->m * s->n * 8;
    int rc = tg_child_exchange(&ss->c, req.s, req.len, &ans, ans_max, answer_complete, &ac,
                               t0 + wall_s * 1000.0);
    ss->c.cpu_limit_ms = 0;
    r->wall_ms = tl_now_ms() - t0;
    tg_buf_free(&req);
    if (rc == 2) {
        r->st = C_TIMEOUT;
        g->timeouts++;
        if (strlen(g->timed_out_variants) + strlen(vkey) < sizeof g->timed_out_variants)
            strcat(g->timed_out_variants, vkey[0] && g->timed_out_variants[0] ? vkey + 1 : vkey);
        take_note_of_output(ss, r, limit_s, wall_s);
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    if (rc == 3) {
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the program sent more on fd 4 than any answer can hold; killed");
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    if (rc == 1 && !answer_complete(&ans, &ac)) {
        tg_child_wait(&ss->c, tl_now_ms() + 2000);
        tg_child_kill(&ss->c);                 /* reaps, and reads the cgroup's OOM count */
        char how[200];
        tg_child_describe(&ss->c, how, sizeof how);
        r->st = C_DIED;
        if (tg_child_net_killed(&ss->c) && ++g->net_killed == 1)
            snprintf(g->net_where, sizeof g->net_where, "%s at size %s", v->name, sz);
        if (ss->c.oom && strlen(g->timed_out_variants) + strlen(vkey) < sizeof g->timed_out_variants)
            strcat(g->timed_out_variants, g->timed_out_variants[0] ? vkey + 1 : vkey);
        emu_report(&ss->c.cap, &r->explain);   /* the emulator's own words, file and line in full */
        if (R->emulate && tg_emu_unsupported(ss->c.cap.s, r->reason, sizeof r->reason)) {
            r->st = C_NOTRUN;                    /* valid CUDA the emulator cannot run: no verdict */
            snprintf(g->emu_unsupported, sizeof g->emu_unsupported, "%s", r->reason);
            tg_sess_end(g, ss, 0);
            tg_buf_free(&ans);
            return;
        }
        snprintf(r->reason, sizeof r->reason, "the program ended without answering (%s)%s", how,
                 ss->c.oom ? "" :
                 (ss->c.reaped && WIFEXITED(ss->c.status) && !WEXITSTATUS(ss->c.status))
                     ? ": an exit status is not an answer" : "");
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    /* A whole answer: parse it. */
    const char *nl = memchr(ans.s, '\n', ans.len);
    size_t linelen = nl ? (size_t)(nl - ans.s) : (ans.len < 200 ? ans.len : 200);
    char first[512];
    snprintf(first, sizeof first, "%.*s", (int)(linelen < 500 ? linelen : 500), ans.s);
    oneline(first);
    if (strncmp(first, "error ", 6) == 0) {
        /* Whether a device works is the grader's knowledge (run.c tried the reference on it):
         * the student's word counts only where the grader could not find out itself. */
        if (strstr(first, "no usable CUDA device") && R->lab->gpu && R->gpu_ok && !R->emulate &&
            strncmp(R->gpu_why, "unknown", 7) == 0) {
            r->st = C_NODEV;
            snprintf(r->reason, sizeof r->reason, "not graded: no usable CUDA device");
        } else if (strstr(first, "no usable CUDA device")) {
            r->st = C_ERROR;
            snprintf(r->reason, sizeof r->reason, "the program answered '%.200s', but %s: a wrong answer", first,
                     !R->lab->gpu ? "this lab runs on the CPU" :
                     R->emulate || !R->gpu_ok ? "it ran emulated on the CPU" : "the grader's reference ran on this device");
        } else if (R->emulate && tg_emu_unsupported(first, r->reason, sizeof r->reason)) {
            r->st = C_NOTRUN;                    /* valid CUDA the emulator cannot run: no verdict */
            snprintf(g->emu_unsupported, sizeof g->emu_unsupported, "%s", r->reason);
        } else {
            r->st = C_ERROR;
            snprintf(r->reason, sizeof r->reason, "the program reported an error: %.400s", first + 6);
            const char *emu = strstr(first, "tilelab-emu: ");
            if (emu)   /* the emulator's report in full: its file and line make the headline */
                emu_report_of(&ss->c.cap, emu, &r->explain);
        }
        tg_buf_free(&ans);
        return;
    }
    double ms = -1;
    /* "ok MS" or "ok -", then under emulation " work L GLD GST SLD SST U": the emulator's counts
     * of the checked run (CONTRACTS.md section 2), judged by judges.c against the lab. */
    char tbuf[64] = "", wbuf[16] = "";
    int nf = strncmp(first, "ok ", 3) == 0 ? sscanf(first + 3, "%63s %15s", tbuf, wbuf) : 0;
    if (nf == 2 && strcmp(wbuf, "work") == 0) {
        tl_work_counts *w = &r->work;
        const char *wp = strstr(first + 3, " work ") + 6;
        char tail;
        r->have_work = sscanf(wp, "%llu %llu %llu %llu %llu %llu %c", &w->launches, &w->global_loads,
                              &w->global_stores, &w->shared_loads, &w->shared_stores, &w->unchecked_launches,
                              &tail) == 6;
        if (!r->have_work)
            nf = 0;
    } else if (nf == 2) {
        nf = 0;
    }
    if (nf < 1 || !nl || (strcmp(tbuf, "-") != 0 && sscanf(tbuf, "%lf", &ms) != 1)) {
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the answer on fd 4 does not follow the protocol "
                 "(first line '%.80s'); the lab binary's serve loop was bypassed or broken", first);
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    r->reported_ms = ms;
    FILE *f = fmemopen(ans.s + linelen + 1, ans.len - linelen - 1, "rb");
    tl_matrix P;
    if (!f || tl_matfile_fread(f, &P, 1, "P (the program's answer)", err, sizeof err) != 0) {
        if (f)
            fclose(f);
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the answer's matrix is unreadable: %.400s", err);
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    fclose(f);
    tg_buf_free(&ans);
    if (P.rows != s->m || P.cols != s->n) {
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the answer is %d x %d, expected %d x %d", P.rows, P.cols, s->m, s->n);
        tl_matrix_free(&P);
        return;
    }
    tl_check_report rep;
    int bad = tl_check(P.data, s->ref, s->absref, s->m, s->n, s->k, v->tile, s->M.data, s->N.data, &rep);
    tl_matrix_free(&P);
    if (!bad) {
        r->st = C_PASS;
        snprintf(r->reason, sizeof r->reason, "correct");
        return;
    }
    r->st = C_WRONG;
    char why[300];
    tl_check_reason(&rep, why, sizeof why);
    snprintf(r->reason, sizeof r->reason, "wrong result: %s", why);
    char *text = NULL;
    size_t tlen = 0;
    FILE *mf = open_memstream(&text, &tlen);
    if (mf) {
        tl_check_explain(&rep, mf, "    ");
        fclose(mf);
        tg_buf_add(&r->explain, text, tlen);
        free(text);
    }
}
