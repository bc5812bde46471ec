/* counters.c: the work evidence on a GPU, read from outside the student's process (issue 24 item 4).
 *
 * How it works (where every submission is profiled: TL_GRADE_NCU=1, the policy below). Before a GPU
 * lab's tests run (run.c, with the GPU to itself), each variant that the
 * work rule or the speed test needs gets one more session of the student's lab program, in the same
 * sandbox as every graded case, under Nsight Compute's CLI: `ncu --csv --page raw --clock-control none
 * --metrics ... --log-file /tmp/tl-prof/ncu.csv /build/labNN --serve`. The
 * grader sends it the request a speed test's session starts with (one untimed case of that variant at
 * the speed size, the same inputs), so the program sees the same arguments, the same size and the
 * same request stream as a graded run. ncu's front end, a process of its own, profiles every kernel
 * of that one launcher call and writes the counters into a folder of the grader's (bound into the
 * sandbox; the object gate refuses a student file that could open a file). The grader reads that
 * file in its own process (ncu.c): the student's kernels' FMA instructions, global and shared load
 * and store instructions and GPU time, the kit's kernels left out; the lab's work rule decides
 * (tg_ncu_judge), and the speed test cross-checks the median the program reports against the GPU
 * time measured here (tg_ncu_timing). The profiled case's answer is checked like any case: a
 * program that computes differently when profiled fails there.
 *
 * One session for every variant (profile_session, issue 29): where the probe's session of the
 * reference split right, a submission's variants are sent one after the other to ONE program under
 * ONE ncu, and ncu's table is cut per request by the kit's request marker kernel (common/marker.cu,
 * tg_ncu_split); each part is judged as a session of that request alone (judge_counts). A table that
 * does not split, a later request that fails, or ncu's error: a session per variant, as before.
 *
 * Where ncu is missing or may not read the counters (ERR_NVGPUCTRPERM: the driver keeps them for
 * administrators, the default), the variant is "not checked here: WHY" and the emulated count
 * (work.c) decides as before; never 0 credit for the grader's lack, never a pass by default.
 *
 * The policy (issue 29; grader/README.md, "Where the work is counted on a GPU"). By default the work
 * is counted on a GPU as everywhere else: by the counting twin (work.c), the count ./kit check and
 * CI grade with, and no submission's variants are profiled here (tg_counters_run leaves them
 * unrun): a profiled session costs its device >= 2.3 s, one at a time, which a class of 100 in two
 * minutes cannot pay. ncu is still probed once on the reference, and a submission whose speed test's
 * time is implausible for the kernel counted (a median the wall clock contradicts, or slower than
 * full credit allows: speed.c) has every needed variant profiled on demand (tg_counters_on_demand);
 * then the counters judge the work too, after the tests (tg_counters_after_tests: either evidence
 * fails a test), and the kernels' time the forged-timing rule. A file that tests what tells the
 * builds apart is refused by the object gate (policy.c). TL_GRADE_NCU=1: every submission profiled, the
 * counters judge the work (R->env.ncu_every; the twins built late, build.c). TL_GRADE_NCU=0: ncu is
 * not looked for at all. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "ncu.h"

#define TG_NCU_LIMIT_FACTOR 10.0   /* the reference's profiled case's CPU limit: x the lab's case limit
                                      (ncu replays each kernel once per pass of counters and saves its
                                      memory; nothing is known of its cost yet)                     */
#define TG_NCU_REF_FACTOR 10.0     /* a student's: x the CPU the reference's profiled run took, never
                                      under the lab's case limit. The profiled run holds the GPU alone
                                      and every other worker waits for it: an endless kernel held it
                                      for the reference's whole 200 s (H100, 2026-11-26 14:28 UTC: the
                                      hostile class's gpu_infinite_loop, every other student waiting) */

int tg_variant_index(const grun *R, const tl_lab_variant *v)
{
    for (int i = 0; v && i < R->lab->nvariants; ++i)
        if (&R->lab->variants[i] == v || strcmp(R->lab->variants[i].name, v->name) == 0)
            return i;
    return -1;
}

const tg_ctr_var *tg_counters_var(const grun *R, const gsub *g, const tl_lab_variant *v)
{
    int i = tg_variant_index(R, v);
    return i >= 0 && g->ctr_ran ? &g->ctr[i] : NULL;
}

/* Which variants need a profiled run: those a correctness test judges the work of (the lab has a
 * work rule), and the speed test's (its time is cross-checked). */
static int needed(const grun *R, const tl_lab_variant *v)
{
    for (int t = 0; t < R->lab->ntests; ++t) {
        const tl_lab_test *lt = &R->lab->tests[t];
        if (!lt->variant || strcmp(lt->variant, v->name) != 0)
            continue;
        if (lt->kind == TL_TEST_SPEED)
            return 1;
        if ((lt->kind == TL_TEST_PUBLIC || lt->kind == TL_TEST_HIDDEN) && R->lab->work.kernel)
            return 1;
    }
    return 0;
}

/* The size profiled: the speed size where the variant takes it, else its largest public size. */
static int profiled_size(grun *R, const tl_lab_variant *v, char *err, size_t errlen)
{
    tl_sizes list;
    int si = -1;
    if (R->lab->speed_size && tl_parse_sizes(R->lab->speed_size, &list, err, errlen) == 0 && list.count > 0) {
        si = tg_add_size(R, list.m[0], list.k[0], list.n[0], 2);
        if (si >= 0 && !tg_variant_accepts(v, &R->run.sizes[si]))
            si = -1;
    }
    for (int i = 0; si < 0 && i < R->run.nsizes; ++i) {
        const gsize *s = &R->run.sizes[i];
        if (s->hidden == 0 && tg_variant_accepts(v, s) &&
            (si < 0 || (double)s->m * s->k * s->n > (double)R->run.sizes[si].m * R->run.sizes[si].k * R->run.sizes[si].n))
            si = i;
    }
    if (si < 0) {
        snprintf(err, errlen, "no size this variant takes");
        return -1;
    }
    if (!R->run.sizes[si].payload && tg_prepare_size(&R->run.sizes[si], err, errlen) != 0)
        return -1;
    return si;
}

/* A small file of the grader's, whole or not at all (mode 0644: the sandbox's user reads it). */
static void write_small(const char *path, const char *text)
{
    char tmp[PATH_MAX + 128];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    int ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || chmod(tmp, 0644) != 0 || rename(tmp, path) != 0)
        unlink(tmp);
}

/* What ncu said when a run failed: its ERROR and WARNING lines, from its log, else the end of what
 * the session printed (ncu's words before its log opened); printable ASCII, "" none. */
static void ncu_said(const char *log, const tg_buf *printed, char *out, size_t len)
{
    out[0] = '\0';
    size_t o = 0;
    for (const char *p = log; p && *p && o + 1 < len;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (memmem(p, l, "ERROR", 5) || memmem(p, l, "==WARNING==", 11))
            o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? " / " : "ncu's log: ", (int)(l > 200 ? 200 : l), p);
        p += l + (e != NULL);
    }
    if (!o && printed && printed->len) {
        size_t from = printed->len > 300 ? printed->len - 300 : 0;
        snprintf(out, len, "its output ended: %.*s", (int)(printed->len - from), printed->s + from);
    }
    for (char *c = out; *c; ++c)
        if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
            *c = ' ';
}

/* A profiled session's folder (g->work/ncu-NAME: ncu's table, the sandbox user's passwd and group)
 * and ncu's command line before the program (argv: 13 entries). 0, or -1 with err set. */
static int session_prepare(grun *R, gsub *g, const char *name, char *dir, size_t dlen, char *log, size_t llen,
                           const char **argv, char *err, size_t errlen)
{
    snprintf(dir, dlen, "%s/ncu-%s", g->work, name);
    tg_rmtree(dir);
    if (tg_mkdirs(dir, 0700) != 0) {
        snprintf(err, errlen, "cannot make %s (%s)", dir, strerror(errno));
        return -1;
    }
    snprintf(log, llen, "%s/ncu.csv", dir);
    /* the sandbox's user for ncu's own look-up (bound at /etc/passwd and /etc/group: session.c) */
    char etc[PATH_MAX + 96];
    snprintf(etc, sizeof etc, "%s/passwd", dir);
    write_small(etc, "nobody:x:65534:65534:nobody:/tmp/case:/bin/sh\n");
    snprintf(etc, sizeof etc, "%s/group", dir);
    write_small(etc, "nogroup:x:65534:\n");
    /* only the options device request ncu-1 ran (ncu 2025.3.1): ncu refuses an option it does not
     * know and exits 1 before starting the program, which is what ncu-2 met with two more */
    const char *a[] = {R->env.ncu, "--csv", "--page", "raw", "--clock-control", "none", "--metrics", tg_ncu_metrics(),
                       "--log-file", R->env.iso.bwrap ? TG_PROF_INSIDE "/ncu.csv" : log, NULL, NULL, NULL};
    /* the program is ncu's own child, the one process profiled: ncu need not follow children (request
     * gpuclass-1 of session 9, the H100: 1.89 s against 2.10 s a run; the probe checks it first) */
    if (R->env.ncu_app_only) {
        a[10] = "--target-processes";
        a[11] = "application-only";
    }
    memcpy(argv, a, sizeof a);
    return 0;
}

/* A profiled case's CPU limit: the reference's, x TG_NCU_LIMIT_FACTOR the lab's case limit; a
 * student's, x TG_NCU_REF_FACTOR what the reference's profiled run took (never under the lab's). */
static double session_limit(const grun *R, const char *tag)
{
    double limit_s = R->lab->case_limit_s * TG_NCU_LIMIT_FACTOR;
    if (R->env.ncu_ref_s > 0 && *tag == '\0')   /* a student's run, after the reference's was measured */
        limit_s = R->env.ncu_ref_s * TG_NCU_REF_FACTOR > R->lab->case_limit_s ? R->env.ncu_ref_s * TG_NCU_REF_FACTOR
                                                                           : R->lab->case_limit_s;
    return limit_s;
}

/* The profiled case did not pass: the program ran and answered wrong, crashed or ran out of time
 * under ncu: the student's (where it ran alone; a shared run that ran out of time, lost the
 * device's memory or ended without answering is run again alone before anything counts:
 * tg_ctr_again_alone). */
void tg_ctr_case_failed(tg_ctr_var *cv, const cres *r)
{
    cv->state = TG_CTR_FAILED;
    cv->bad = 1;
    cv->stopped = r->st == C_TIMEOUT;
    cv->crowded = cv->shared && (tg_gpu_crowded_words(r->reason) ||
                                 (r->v.kind == TL_V_ERROR && tl_verdict_pattern_is(&r->v, "no-device-claimed")));
    /* A shared run that ended without an answer is run again alone before it counts: in the 0511Z
     * class (H100, speed tests batched 4 at a time) an honest slow file's run under ncu beside 15 others ended
     * with status 9 and lost the file its correctness points; alone it passes. A file that dies
     * under ncu on purpose dies alone too, and that run counts. */
    cv->died = cv->shared && (r->st == C_DIED || r->st == C_NODEV);
    cv->pattern = "profiled-run-failed";
    snprintf(cv->headline, sizeof cv->headline, "the profiled run (size %s, the same request as a graded one, "
             "with the GPU's counters read by ncu) did not pass: %.380s", cv->size, r->reason);
}

/* ncu's table of a passed profiled session (text; NULL: ncu wrote none at log) read into c: 0, or -1
 * with cv "not checked here" and why (ncu's own problem, or no table it could read). */
static int table_counts(const char *text, size_t len, const char *log, tg_ncu_counts *c, tg_ctr_var *cv)
{
    char why[520], err[600];
    if (!text) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "ncu wrote no counters (%s is missing)", log);
        return -1;
    }
    /* ncu's error line with a table it could still write (the program returned an error code at its
     * exit, after its answers: device run fin4, 02:05 UTC, hostile gpu_runtime_twin_differs kept its
     * credit as "not checked here: ncu failed: ... returned an error code (18)"): the counters were
     * measured outside the program's process and stand; without a table, ncu's problem is the why */
    if (tg_ncu_problem(text, why, sizeof why)) {
        if (tg_ncu_parse(text, len, c, err, sizeof err) == 0 && c->kernels > 0)
            return 0;                  /* (a table with the student's kernels in it, not a header alone) */
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "%s", why);
        return -1;
    }
    if (tg_ncu_parse(text, len, c, err, sizeof err) != 0) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "%s", err);
        return -1;
    }
    return 0;
}

/* The counts c of a passed profiled case (a session's, or its request's part: tg_ncu_session_counts)
 * judged for variant v at size s into cv; note: said after the figures ("" none). */
static void judge_counts(grun *R, const tl_lab_variant *v, const gsize *s, const tg_ncu_counts *c, tg_ctr_var *cv,
                         const char *note)
{
    cv->state = TG_CTR_JUDGED;
    cv->kernel_ms = c->have[TG_NCU_TIME] ? c->q[TG_NCU_TIME] / 1e6 : 0;
    if (R->lab->work.kernel && !v->gpu_only) {
        cv->work_judged = 1;
        cv->bad = tg_ncu_judge(R->lab, v->tile, s->m, s->k, s->n, c, cv->headline, sizeof cv->headline,
                               cv->figures, sizeof cv->figures, &cv->pattern);
    } else if (R->lab->work.kernel) {
        snprintf(cv->why, sizeof cv->why, "%s uses %s: the counters read here see the threads' own loads and "
                 "multiply-adds, not that unit's", v->name, v->gpu_only);
    }
    size_t fl = strlen(cv->figures);
    fl += (size_t)snprintf(cv->figures + fl, sizeof cv->figures - fl, "%s%d kernel launch%s of the student's (%.200s), "
                           "%d of the kit's left out; the profiled run took %.1f s (%.2f s to the answer: ncu's start, "
                           "the program's and the case; %.2f s for ncu to end and write its table), the device %s",
                           fl ? "; " : "", c->kernels, c->kernels == 1 ? "" : "es", c->names[0] ? c->names : "none",
                           c->kit_kernels, cv->wall_s, cv->answer_s, cv->end_s,
                           cv->shared ? "shared (one profiled run at a time on the device)" : "alone");
    if (note && *note && fl < sizeof cv->figures)
        snprintf(cv->figures + fl, sizeof cv->figures - fl, "; %s", note);
}

/* One profiled session of build/binary (the student's program, or the reference's) for variant v. */
static void profile_variant(grun *R, gsub *g, const char *build, const char *binary, const char *tag,
                            const tl_lab_variant *v, tg_ctr_var *cv)
{
    char err[600];
    double t0 = tl_now_ms();
    int si = profiled_size(R, v, err, sizeof err);
    if (si < 0) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "no size to profile it at (%s)", err);
        return;
    }
    const gsize *s = &R->run.sizes[si];
    tg_size_str(cv->size, sizeof cv->size, s);
    char dir[PATH_MAX + 64], log[PATH_MAX + 96], name[120];
    const char *argv[13];
    snprintf(name, sizeof name, "%s%s", tag, v->name);
    if (session_prepare(R, g, name, dir, sizeof dir, log, sizeof log, argv, err, sizeof err) != 0) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "%.500s", err);
        return;
    }
    gsess ss = {.build = build, .binary = binary, .prof_argv = argv, .prof_dir = dir,
                .prof_ro = R->env.ncu_root[0] ? R->env.ncu_root : NULL};
    cv->shared = tg_gpu_held() == TG_GPU_SHARED;
    cres r;
    tg_limits_saved saved;           /* this run's time-outs are its own, not the graded cases' */
    tg_limits_aside(g, &saved);
    tg_run_case(R, g, &ss, s, v, 0, session_limit(R, tag), &r);
    double t_ans = tl_now_ms();
    tg_sess_end(g, &ss, 1);
    cv->answer_s = (t_ans - t0) / 1000.0;
    cv->end_s = (tl_now_ms() - t_ans) / 1000.0;
    tg_limits_back(g, &saved);
    cv->wall_s = (tl_now_ms() - t0) / 1000.0;
    size_t len = 0;
    char *text = tg_is_file(log) ? tg_read_file(log, 64 << 20, &len) : NULL;
    ncu_said(text, &g->evidence, cv->why, sizeof cv->why);   /* kept for the reference's probe */
    tg_ncu_counts c;
    if (r.st != C_PASS)
        tg_ctr_case_failed(cv, &r);
    else if (table_counts(text, len, log, &c, cv) == 0)
        judge_counts(R, v, s, &c, cv, "");
    tg_buf_free(&r.explain);
    free(text);
    if (!R->opt->keep_work)
        tg_rmtree(dir);
}

/* Variants vi[0..n-1] (rows of the lab table) in ONE session under ONE ncu (issue 29: ncu's start
 * and first kernel cost about 1.7 s a process, a further variant in the same process about 0.2 s):
 * one request each, in that order, as profile_variant sends it, and ncu's table split per request
 * by the kit's markers (common/marker.cu, tg_ncu_split), each part judged as a session of that
 * request alone is judged. cvs: per variant row (g->ctr). Returns how many variants it settled:
 * n, every request passed and the table split; 1, the first request failed, settled as
 * profile_variant would (the same first request of a fresh process under ncu); 0, why says why not,
 * and the caller profiles each variant in a session of its own (a later request that failed ran
 * after the others in one process: a session of its own decides it; a table that does not split). */
static int profile_session(grun *R, gsub *g, const char *build, const char *binary, const char *tag, const int *vi,
                           int n, tg_ctr_var *cvs, char *why, size_t whylen)
{
    char err[600];
    int si[TL_LAB_MAX_VARIANTS];
    why[0] = '\0';
    if (n < 2 || n > TL_LAB_MAX_VARIANTS) {
        snprintf(why, whylen, "%d variant(s) to profile", n);
        return 0;
    }
    for (int j = 0; j < n; ++j)
        if ((si[j] = profiled_size(R, &R->lab->variants[vi[j]], err, sizeof err)) < 0) {
            snprintf(why, whylen, "%s has no size to profile it at", R->lab->variants[vi[j]].name);
            return 0;
        }
    char dir[PATH_MAX + 64], log[PATH_MAX + 96], name[120];
    const char *argv[13];
    snprintf(name, sizeof name, "%ssession", tag);
    if (session_prepare(R, g, name, dir, sizeof dir, log, sizeof log, argv, err, sizeof err) != 0) {
        snprintf(why, whylen, "%.300s", err);
        return 0;
    }
    gsess ss = {.build = build, .binary = binary, .prof_argv = argv, .prof_dir = dir,
                .prof_ro = R->env.ncu_root[0] ? R->env.ncu_root : NULL};
    int shared = tg_gpu_held() == TG_GPU_SHARED;
    cres r[TL_LAB_MAX_VARIANTS];
    double t_req[TL_LAB_MAX_VARIANTS + 1];
    int ran = 0, failed = -1;
    tg_limits_saved saved;           /* the session's time-outs are its own, not the graded cases' */
    tg_limits_aside(g, &saved);
    t_req[0] = tl_now_ms();
    double limit_s = session_limit(R, tag);
    for (int j = 0; j < n && failed < 0; ++j, ++ran) {
        tg_run_case(R, g, &ss, &R->run.sizes[si[j]], &R->lab->variants[vi[j]], 0, limit_s, &r[j]);
        t_req[j + 1] = tl_now_ms();
        if (r[j].st != C_PASS)
            failed = j;
    }
    double t_ans = tl_now_ms();
    tg_sess_end(g, &ss, 1);
    double t_end = tl_now_ms();
    tg_limits_back(g, &saved);
    size_t len = 0;
    char *text = tg_is_file(log) ? tg_read_file(log, 64 << 20, &len) : NULL;
    tg_ncu_counts c[TL_LAB_MAX_VARIANTS];   /* each request's, read once (tg_ncu_session_counts) */
    int settled = 0;
    if (failed == 0) {                 /* the first request: as a session of its own */
        tg_ctr_var *cv = &cvs[vi[0]];
        memset(cv, 0, sizeof *cv);
        tg_size_str(cv->size, sizeof cv->size, &R->run.sizes[si[0]]);
        cv->shared = shared;
        cv->answer_s = (t_ans - t_req[0]) / 1000.0;
        cv->end_s = (t_end - t_ans) / 1000.0;
        cv->wall_s = (t_end - t_req[0]) / 1000.0;
        ncu_said(text, &g->evidence, cv->why, sizeof cv->why);
        tg_ctr_case_failed(cv, &r[0]);
        settled = 1;
    } else if (failed > 0) {
        snprintf(why, whylen, "request %d (%s) did not pass after %s's in the same process", failed + 1,
                 R->lab->variants[vi[failed]].name, R->lab->variants[vi[0]].name);
    } else if (!text) {
        snprintf(why, whylen, "ncu wrote no table");
    } else if (tg_ncu_session_counts(text, len, n, c, why, whylen) == 0) {
        settled = n;
    }
    char names[200] = "";
    for (int j = 0; j < n; ++j)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? (j + 1 < n ? ", " : " and ") : "",
                 R->lab->variants[vi[j]].name);
    for (int j = 0; settled == n && j < n; ++j) {
        const tl_lab_variant *v = &R->lab->variants[vi[j]];
        tg_ctr_var *cv = &cvs[vi[j]];
        memset(cv, 0, sizeof *cv);
        tg_size_str(cv->size, sizeof cv->size, &R->run.sizes[si[j]]);
        cv->shared = shared;
        /* this request's own time (the first's holds ncu's start); ncu's end once, after the last */
        cv->answer_s = (t_req[j + 1] - t_req[j]) / 1000.0;
        cv->end_s = j == n - 1 ? (t_end - t_ans) / 1000.0 : 0;
        cv->wall_s = cv->answer_s + cv->end_s;
        ncu_said(text, &g->evidence, cv->why, sizeof cv->why);
        char note[400];
        snprintf(note, sizeof note, "one ncu session served %s (request %d of %d, told apart by the kit's request "
                 "markers; the session took %.1f s)", names, j + 1, n, (t_end - t_req[0]) / 1000.0);
        judge_counts(R, v, &R->run.sizes[si[j]], &c[j], cv, note);
    }
    for (int j = 0; j < ran; ++j)
        tg_buf_free(&r[j].explain);
    free(text);
    if (!R->opt->keep_work)
        tg_rmtree(dir);
    return settled;
}

/* ncu itself: the CUDA toolkit's bin/ncu is a script that looks for its nsight-compute folder next
 * to the toolkit or under /opt/nvidia, which the sandbox does not bind; the binary is run directly,
 * its folder bound read-only. The newest of each pattern (glob sorts). 0 found. */
static int find_ncu(char *bin, size_t blen, char *root, size_t rlen)
{
    char onpath[PATH_MAX] = "", pat[3][PATH_MAX + 32];
    int n = 0;
    snprintf(pat[n++], sizeof pat[0], "/opt/nvidia/nsight-compute/*/ncu");
    snprintf(pat[n++], sizeof pat[0], "/usr/local/cuda/nsight-compute*/ncu");
    if (tg_find_tool("ncu", onpath, sizeof onpath) == 0) {
        char real[PATH_MAX];
        if (realpath(onpath, real)) {
            char *slash = strrchr(real, '/');
            if (slash)
                *slash = '\0';
            snprintf(pat[n++], sizeof pat[0], "%.*s/../nsight-compute*/ncu", PATH_MAX - 1, real);
        }
    }
    bin[0] = root[0] = '\0';
    for (int i = 0; i < n && !bin[0]; ++i) {
        glob_t gl;
        if (glob(pat[i], 0, NULL, &gl) == 0 && gl.gl_pathc > 0) {
            char real[PATH_MAX];
            if (realpath(gl.gl_pathv[gl.gl_pathc - 1], real) && access(real, X_OK) == 0)
                snprintf(bin, blen, "%s", real);
        }
        globfree(&gl);
    }
    if (!bin[0] && onpath[0]) {   /* an ncu on PATH that is the binary itself (not a script) */
        FILE *f = fopen(onpath, "rb");
        unsigned char magic[4] = {0};
        if (f) {
            if (fread(magic, 1, 4, f) != 4)
                magic[0] = 0;
            fclose(f);
        }
        if (magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F')
            realpath(onpath, bin) ? (void)0 : (void)snprintf(bin, blen, "%s", onpath);
    }
    if (!bin[0])
        return -1;
    snprintf(root, rlen, "%s", bin);
    char *slash = strrchr(root, '/');
    if (slash)
        *slash = '\0';
    if (tg_path_under(root, "/usr"))
        root[0] = '\0';   /* under /usr: the sandbox binds it already */
    return 0;
}

/* The variants that need a profiled run (rows of the lab table, in its order): their count. */
static int needed_list(const grun *R, int *vi)
{
    int n = 0;
    for (int i = 0; i < R->lab->nvariants && n < TL_LAB_MAX_VARIANTS; ++i)
        if (needed(R, &R->lab->variants[i]))
            vi[n++] = i;
    return n;
}

static const tl_lab_variant *first_needed(const grun *R)
{
    for (int i = 0; i < R->lab->nvariants; ++i)
        if (needed(R, &R->lab->variants[i]) && !R->lab->variants[i].gpu_only)
            return &R->lab->variants[i];
    return NULL;
}

int tg_counters_every_wanted(void)
{
    const char *use = getenv("TL_GRADE_NCU");
    return use && strcmp(use, "1") == 0;
}

void tg_counters_probe(grun *R)
{
    R->env.ncu_ok = 0;
    R->env.ncu_every = 0;
    R->env.ncu_shared = 0;
    R->env.ncu_app_only = 0;
    R->env.ncu_ref_s = 0;
    R->env.ncu_why[0] = R->env.ncu_ref[0] = '\0';
    if (!R->lab->gpu || !R->env.gpu_ok || R->opt->emulate || R->opt->prebuilt[0])
        return;
    const tl_lab_variant *v = first_needed(R);
    if (!v)
        return;
    /* The instructor's choice (README.md's variables): as where ncu is missing, the emulated twins are
     * built and their count decides the work, and the speed test's median is reviewed against the
     * grader's wall clock alone (a class on 2 H100s costs at least ~3 s of profiled session and ~1.4 s
     * alone per submission and device with the counters: device requests gpu-1 and gpu-2) */
    const char *use = getenv("TL_GRADE_NCU");
    R->env.ncu_every = tg_counters_every_wanted();
    if (use && strcmp(use, "0") == 0) {
        snprintf(R->env.ncu_why, sizeof R->env.ncu_why, "TL_GRADE_NCU=0: the GPU's counters are not read in this run "
                 "(the emulated count decides the work; the grader's wall clock reviews the timing)");
        return;
    }
    if (find_ncu(R->env.ncu, sizeof R->env.ncu, R->env.ncu_root, sizeof R->env.ncu_root) != 0) {
        snprintf(R->env.ncu_why, sizeof R->env.ncu_why, "no ncu (Nsight Compute's CLI: /opt/nvidia/nsight-compute/*/ncu, "
                 "/usr/local/cuda/nsight-compute*/ncu, or an ncu binary on PATH)");
        return;
    }
    if (!R->run.ref_build[0]) {
        snprintf(R->env.ncu_why, sizeof R->env.ncu_why, "the reference solution, which ncu is tried on first, is not built in "
                 "this run (%.300s)", R->run.ref_why);
        return;
    }
    /* the reference's session, in a scratch record (its time-outs and prints are not a student's) */
    static gsub g;
    memset(&g, 0, sizeof g);
    static gstudent who = {.name = "ncu-probe", .display = "ncu-probe"};
    g.s = &who;
    snprintf(g.work, sizeof g.work, "%s/ncu-probe", R->run.state);
    tg_mkdirs(g.work, 0700);
    tg_ctr_var cv;
    memset(&cv, 0, sizeof cv);
    R->env.ncu_app_only = 1;
    /* the device's profiler lock (another run or kit check of the user may be profiling there) */
    tg_gpu_ncu_first();
    tg_gpu_ncu(1);
    /* Every needed variant in one session first (the students' way where it works: profile_session);
     * where the reference's table does not split or a variant does not read right, one session per
     * variant, as before. TL_GRADE_NCU_ONE_SESSION=0: a session per variant without trying. */
    int vi[TL_LAB_MAX_VARIANTS], nv = needed_list(R, vi);
    const char *one = getenv("TL_GRADE_NCU_ONE_SESSION");
    R->env.ncu_one = 0;
    R->env.ncu_one_why[0] = '\0';
    if (nv >= 2 && one && strcmp(one, "0") == 0) {
        snprintf(R->env.ncu_one_why, sizeof R->env.ncu_one_why, "TL_GRADE_NCU_ONE_SESSION=0");
    } else if (nv >= 2) {
        static tg_ctr_var cvs[TL_LAB_MAX_VARIANTS];
        memset(cvs, 0, sizeof cvs);
        char why[320];
        int settled = profile_session(R, &g, R->run.ref_build, R->lab->ref_binary, "ref-", vi, nv, cvs, why, sizeof why);
        double most = 0;               /* the longest request (the first: ncu's start, as a session of one) */
        for (int j = 0; settled == nv && j < nv; ++j) {
            const tg_ctr_var *c = &cvs[vi[j]];
            most = c->wall_s > most ? c->wall_s : most;
            if (!(c->state == TG_CTR_JUDGED && !c->bad && c->kernel_ms > 0)) {
                snprintf(why, sizeof why, "the reference's %s in it: %.240s", R->lab->variants[vi[j]].name,
                         c->state != TG_CTR_JUDGED ? c->why : c->bad ? c->headline : "no kernel time");
                settled = 0;
            }
        }
        if (settled == nv) {
            R->env.ncu_one = 1;
            cv = cvs[tg_variant_index(R, v)];
            /* a student's profiled case is limited to 10 x this (CPU s): the longest request, as a session
             * of one variant measured it before; not the session's whole (device request gpu-1, H100 x2:
             * 4.2 s, which let tests/wrong/03/host-computes.cu hold its device's profiler for about 45 s,
             * shared and then again alone) */
            cv.wall_s = most;
        } else {
            snprintf(R->env.ncu_one_why, sizeof R->env.ncu_one_why, "%.300s", why[0] ? why : "its first request failed");
            tg_buf_free(&g.evidence);
        }
    }
    if (!R->env.ncu_one)
        profile_variant(R, &g, R->run.ref_build, R->lab->ref_binary, "ref-", v, &cv);
    if (!(cv.state == TG_CTR_JUDGED && !cv.bad && cv.kernel_ms > 0)) {   /* without that option, as before */
        R->env.ncu_app_only = 0;
        tg_buf_free(&g.evidence);
        memset(&cv, 0, sizeof cv);
        profile_variant(R, &g, R->run.ref_build, R->lab->ref_binary, "ref-", v, &cv);
    }
    tg_gpu_ncu(0);
    tg_buf_free(&g.evidence);
    tg_buf_free(&g.notes);
    /* Profiled runs hold the device shared, one at a time on each device (tg_gpu_ncu): beside other
     * processes' kernels an H100 gave every counter the same and the same kernel time (request
     * gpuclass-1: 12 lab 03 programs and 2 racecheck runs beside it), and ncu's own collection is one
     * process at a time per device (4 ncu at once on one GPU, each with its own TMPDIR: 3 failed, "a
     * driver resource was unavailable"; on an H100 x2 one on each GPU at once both passed, two on one
     * failed: the lead's ncu-overhead diag, 21:24 UTC). TL_GRADE_NCU_ALONE=1: every profiled run with
     * the device alone, as before. */
    const char *alone = getenv("TL_GRADE_NCU_ALONE");
    R->env.ncu_shared = !(alone && *alone && strcmp(alone, "0") != 0);
    if (cv.state == TG_CTR_JUDGED && !cv.bad && cv.kernel_ms > 0) {
        R->env.ncu_ok = 1;
        R->env.ncu_ref_s = cv.wall_s;   /* wall seconds (2.3 s for lab 03 on an H100); the limit it sets is CPU time */
        snprintf(R->env.ncu_ref, sizeof R->env.ncu_ref, "%s at size %s: %.1000s", v->name, cv.size, cv.figures);
    } else if (cv.state == TG_CTR_NOT_CHECKED) {
        snprintf(R->env.ncu_why, sizeof R->env.ncu_why, "%s", cv.why);
    } else {
        snprintf(R->env.ncu_why, sizeof R->env.ncu_why, "ncu could not read the reference solution's counters in the sandbox "
                 "(%s at size %s: %.200s; %.220s)", v->name, cv.size, cv.bad && cv.headline[0] ? cv.headline
                 : "no kernel time", cv.why);
    }
}

/* (grade.h) */
int tg_ctr_again_alone(const tg_ctr_var *cv)
{
    return cv->shared && (cv->stopped || cv->crowded || cv->died);
}

/* After a variant's profiled run: one run with the device shared that ran out of time, lost the
 * device's memory or ended without answering is run again alone (none is the student's to answer
 * for: beside other processes a run may wait for another's replays until its time is up, find the
 * device's memory taken, or be ended; that run's result is the one that counts); one stopped by
 * its time limit stops the others (*stopped_at). */
static void after_profiled(grun *R, gsub *g, int i, int *stopped_at)
{
    if (tg_ctr_again_alone(&g->ctr[i]))
        tg_counters_again_alone(R, g, &R->lab->variants[i]);
    if (g->ctr[i].stopped)
        *stopped_at = i;
}

/* The device's profiler first (holding nothing of the device), then the device shared (on 1); both
 * given back (on 0). Where profiled runs hold the device alone (TL_GRADE_NCU_ALONE), nothing here:
 * the caller holds it. */
static void profiler(grun *R, int on)
{
    if (!R->env.ncu_shared)
        return;
    tg_gpu_take(R, TG_GPU_NONE);
    if (on) {
        tg_stage(TG_PROF_GPU_WAIT, "waiting: ncu");
        tg_gpu_ncu(1);
        tg_gpu_take(R, TG_GPU_SHARED);
    } else {
        tg_gpu_ncu(0);
    }
}

static void profile_needed(grun *R, gsub *g);

void tg_counters_run(grun *R, gsub *g)
{
    memset(g->ctr, 0, sizeof g->ctr);
    g->ctr_ran = 1;
    if (!R->lab->gpu || !R->env.gpu_ok || R->opt->emulate || !g->built || R->opt->prebuilt[0])
        return;   /* (kit check's prebuilt program: the emulated count, as the default below) */
    if (!R->env.ncu_every)
        return;   /* the default: the counting twin counts the work; ncu only on demand (speed.c) */
    profile_needed(R, g);
}

/* Every variant the work rule or the speed test needs, profiled: in one session where the probe's
 * split right, else a session each (the caller holds what the device's profiled runs need: nothing
 * where they share it, tg_gpu_ncu's lock taken here; the device alone where they do not). */
static void profile_needed(grun *R, gsub *g)
{
    int stopped_at = -1;
    int vi[TL_LAB_MAX_VARIANTS], nv = needed_list(R, vi);
    char alone_why[400] = "";          /* why the variants were profiled a session each, where one was tried */
    if (R->env.ncu_ok && R->env.ncu_one && nv >= 2) {
        /* one session, one ncu, for every variant (profile_session): what it does not settle is
         * profiled below a session each, as before */
        profiler(R, 1);
        tg_stage(TG_PROF_NCU, "profiled (ncu) %d variants, one session", nv);   /* profile.c: its own stage */
        char why[320];
        int settled = profile_session(R, g, g->build, R->lab->binary, "", vi, nv, g->ctr, why, sizeof why);
        profiler(R, 0);
        if (settled == 1)              /* its first request failed: as a session of its own */
            after_profiled(R, g, vi[0], &stopped_at);
        else if (settled == 0)
            snprintf(alone_why, sizeof alone_why, "profiled in a session of its own: one ncu session for the %d "
                     "variants could not decide (%.300s)", nv, why);
    }
    for (int j = 0; j < nv; ++j) {
        int i = vi[j];
        const tl_lab_variant *v = &R->lab->variants[i];
        if (g->ctr[i].state != TG_CTR_NONE)
            continue;                  /* settled by the one session */
        if (!R->env.ncu_ok) {
            g->ctr[i].state = TG_CTR_NOT_CHECKED;
            snprintf(g->ctr[i].why, sizeof g->ctr[i].why, "%s", R->env.ncu_why[0] ? R->env.ncu_why : "ncu was not tried");
            continue;
        }
        if (stopped_at >= 0) {
            /* the GPU is held alone for a profiled run: one that ran out of time is enough (that
             * variant fails; this one's work falls back to the emulated count, as where ncu is not) */
            g->ctr[i].state = TG_CTR_NOT_CHECKED;
            snprintf(g->ctr[i].why, sizeof g->ctr[i].why, "not profiled: this file's profiled run of %s was stopped "
                     "by its time limit, and the GPU is not held alone for another", R->lab->variants[stopped_at].name);
            continue;
        }
        profiler(R, 1);
        tg_stage(TG_PROF_NCU, "profiled (ncu) %.30s", v->name);   /* profile.c: its own stage */
        profile_variant(R, g, g->build, R->lab->binary, "", v, &g->ctr[i]);
        profiler(R, 0);
        if (alone_why[0] && g->ctr[i].state == TG_CTR_JUDGED) {
            size_t fl = strlen(g->ctr[i].figures);
            snprintf(g->ctr[i].figures + fl, sizeof g->ctr[i].figures - fl, "; %s", alone_why);
        }
        after_profiled(R, g, i, &stopped_at);
    }
}

/* v's profiled run with the device alone, its figures ending with note. */
static int profile_alone(grun *R, gsub *g, const tl_lab_variant *v, const char *note)
{
    int i = tg_variant_index(R, v);
    if (i < 0 || !g->ctr_ran || !g->built || !R->env.ncu_ok)
        return 0;
    int held = tg_gpu_held();
    if (held != TG_GPU_NONE)
        tg_gpu_take(R, TG_GPU_NONE);   /* (the device's profiler first, holding nothing of the device) */
    tg_gpu_ncu(1);
    tg_gpu_take(R, TG_GPU_ALONE);
    tg_stage(TG_PROF_NCU, "profiled (ncu) %.30s again, alone", v->name);
    memset(&g->ctr[i], 0, sizeof g->ctr[i]);
    profile_variant(R, g, g->build, R->lab->binary, "", v, &g->ctr[i]);
    g->ctr[i].again = 1;
    size_t fl = strlen(g->ctr[i].figures);
    snprintf(g->ctr[i].figures + fl, sizeof g->ctr[i].figures - fl, "%s%s", fl ? "; " : "", note);
    tg_gpu_take(R, TG_GPU_NONE);
    tg_gpu_ncu(0);
    tg_gpu_take(R, held);
    return 1;
}

int tg_counters_again_alone(grun *R, gsub *g, const tl_lab_variant *v)
{
    int i = tg_variant_index(R, v);
    if (i < 0)
        return 0;
    char note[560];
    snprintf(note, sizeof note, "profiled again with the device alone: the run with it shared %s",
             g->ctr[i].stopped ? "ran out of time" : g->ctr[i].crowded ? "lost the device's memory"
             : g->ctr[i].died ? "ended without answering" : "timed the kernels");
    return profile_alone(R, g, v, note);
}

int tg_counters_on_demand(grun *R, gsub *g, const char *why)
{
    if (!R->env.ncu_ok || R->env.ncu_every || !g->ctr_ran || !g->built || g->ctr_demand)
        return 0;                      /* not here, profiled already (TL_GRADE_NCU=1), or once already */
    g->ctr_demand = 1;
    int held = tg_gpu_held();
    tg_gpu_take(R, TG_GPU_NONE);
    if (!R->env.ncu_shared)
        tg_gpu_take(R, TG_GPU_ALONE);  /* (TL_GRADE_NCU_ALONE: the profiled runs hold the device alone) */
    profile_needed(R, g);
    tg_gpu_take(R, TG_GPU_NONE);
    tg_gpu_take(R, held);
    int vi[TL_LAB_MAX_VARIANTS], nv = needed_list(R, vi);
    for (int j = 0; j < nv; ++j) {
        tg_ctr_var *cv = &g->ctr[vi[j]];
        size_t fl = strlen(cv->figures);
        if (cv->state == TG_CTR_JUDGED && fl + 1 < sizeof cv->figures)
            snprintf(cv->figures + fl, sizeof cv->figures - fl, "%sprofiled on demand: %s", fl ? "; " : "", why);
    }
    return 1;
}

/* After the tests, where the counters were read on demand: the work rule on them too. The counting
 * twin's count decided each correctness test; a breach the GPU's counters show (the kernel the GPU
 * ran is not the one the twin counted: a file that computes otherwise there) or a profiled run that
 * did not pass takes the test's credit as well. Either evidence can fail a test; neither passes one
 * the other failed. */
void tg_counters_after_tests(grun *R, gsub *g, tres *tr, int nt)
{
    if (!g->ctr_demand || !R->lab->work.kernel)
        return;
    for (int i = 0; i < nt; ++i) {
        tres *t = &tr[i];
        if ((t->t->kind != TL_TEST_PUBLIC && t->t->kind != TL_TEST_HIDDEN) || !t->graded || t->score <= 0)
            continue;
        const tl_lab_variant *v = tl_lab_variant_find(R->lab, t->t->variant);
        const tg_ctr_var *cv = v ? tg_counters_var(R, g, v) : NULL;
        if (!cv || !((cv->state == TG_CTR_JUDGED && cv->work_judged && cv->bad) || cv->state == TG_CTR_FAILED))
            continue;
        t->score = 0;
        t->passed = 0;
        tg_buf_printf(&t->out, "no credit: the GPU's counters, read on demand after the speed test (ncu, outside the "
                      "program's process, size %s): %s\n", cv->size, cv->headline);
        tl_verdict_init(&t->head.v, TL_V_WORK, cv->pattern ? cv->pattern : "not-tiled");
        tl_verdict_set(t->head.v.detail, sizeof t->head.v.detail, cv->headline);
        snprintf(t->head.size, sizeof t->head.size, "%s", cv->size);
        t->have_head = 1;
        tg_tres_add_case(t, cv->size, &t->head.v);
        tg_buf_printf(&g->notes, "%s: no credit from the GPU's counters read on demand: %s\n", t->t->name, cv->headline);
    }
}

int tg_counters_decide(const grun *R, const gsub *g, const tl_lab_variant *v)
{
    const tg_ctr_var *cv = tg_counters_var(R, g, v);   /* (as tg_counters_work below decides) */
    return cv && cv->state != TG_CTR_NONE && cv->state != TG_CTR_NOT_CHECKED &&
           !(cv->state == TG_CTR_JUDGED && !cv->work_judged);
}

int tg_counters_work(const grun *R, const gsub *g, const tl_lab_variant *v, tg_work_note *wn)
{
    const tg_ctr_var *cv = tg_counters_var(R, g, v);
    if (!cv || cv->state == TG_CTR_NONE)
        return 0;
    if (cv->state == TG_CTR_NOT_CHECKED || (cv->state == TG_CTR_JUDGED && !cv->work_judged)) {
        snprintf(wn->ctr_note, sizeof wn->ctr_note, "%s", cv->why);
        return 0;
    }
    wn->by_counters = 1;
    wn->judged++;
    snprintf(wn->figures_size, sizeof wn->figures_size, "%s", cv->size);
    snprintf(wn->figures, sizeof wn->figures, "%.*s", (int)sizeof wn->figures - 1, cv->figures);
    if (cv->bad) {
        wn->bad++;
        snprintf(wn->headline, sizeof wn->headline, "%s", cv->headline);
        wn->pattern = cv->pattern;
        snprintf(wn->size, sizeof wn->size, "%s", cv->size);
    }
    return 1;
}
