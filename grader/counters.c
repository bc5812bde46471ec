/* counters.c: the work evidence on a GPU, read from outside the student's process (issue 24 item 4).
 *
 * How it works. Before a GPU lab's tests run (run.c, with the GPU to itself), each variant that the
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
 * Where ncu is missing or may not read the counters (ERR_NVGPUCTRPERM: the driver keeps them for
 * administrators, the default), the variant is "not checked here: WHY" and the emulated count
 * (work.c) decides as before; never 0 credit for the grader's lack, never a pass by default. */
#define _GNU_SOURCE
#include <errno.h>
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

static int variant_index(const grun *R, const tl_lab_variant *v)
{
    for (int i = 0; v && i < R->lab->nvariants; ++i)
        if (&R->lab->variants[i] == v || strcmp(R->lab->variants[i].name, v->name) == 0)
            return i;
    return -1;
}

const tg_ctr_var *tg_counters_var(const grun *R, const gsub *g, const tl_lab_variant *v)
{
    int i = variant_index(R, v);
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
        if (si >= 0 && !tg_variant_accepts(v, &R->sizes[si]))
            si = -1;
    }
    for (int i = 0; si < 0 && i < R->nsizes; ++i) {
        const gsize *s = &R->sizes[i];
        if (s->hidden == 0 && tg_variant_accepts(v, s) &&
            (si < 0 || (double)s->m * s->k * s->n > (double)R->sizes[si].m * R->sizes[si].k * R->sizes[si].n))
            si = i;
    }
    if (si < 0) {
        snprintf(err, errlen, "no size this variant takes");
        return -1;
    }
    if (!R->sizes[si].payload && tg_prepare_size(&R->sizes[si], err, errlen) != 0)
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

/* What the shell under ncu says on fd 4 (session.c): ctx is the word awaited. The programs' own
 * answers never say it (the kit's answers start "ok", "error", "verdict" or "facts"). */
static int shell_said(const tg_buf *a, void *ctx)
{
    const char *w = ctx;
    size_t l = strlen(w);
    for (const char *p = a->s, *end = a->s + a->len; p && p + l < end;) {
        if ((p == a->s || p[-1] == '\n') && memcmp(p, w, l) == 0 && p[l] == '\n')
            return 1;
        p = memchr(p, '\n', (size_t)(end - p));
        p = p ? p + 1 : NULL;
    }
    return 0;
}

static int await_shell(gsess *ss, const char *send, const char *word, double ms)
{
    tg_buf ans = {0};
    int rc = tg_child_exchange(&ss->c, send, send ? strlen(send) : 0, &ans, 1 << 16, shell_said, (void *)word,
                               tl_now_ms() + ms);
    tg_buf_free(&ans);
    return rc;
}

/* Ends the program that served the last variant and waits for the shell to start the next: 1 it
 * did, 0 the session is over (ended here). A program gets the 5 s to end that tg_sess_end gives. */
static int next_program(gsub *g, gsess *ss)
{
    if (!ss->alive || ss->c.to_child < 0)
        return 0;
    int rc = await_shell(ss, "quit\n", TG_PROF_NEXT, 5000.0);
    if (rc != 0) {
        tg_sess_end(g, ss, 0);
        return 0;
    }
    return 1;
}

/* What one variant's profiled run found, from ncu's table (its rows of process pid; -1 all). */
static void judge_variant(grun *R, const tl_lab_variant *v, const gsize *s, const cres *r, const char *text, size_t len,
                          long pid, tg_ctr_var *cv)
{
    char err[600], why[520];
    if (r->st != C_PASS) {
        /* the program ran and answered wrong, crashed or ran out of time under ncu: the student's */
        cv->state = TG_CTR_FAILED;
        cv->bad = 1;
        cv->stopped = r->st == C_TIMEOUT;
        cv->pattern = "profiled-run-failed";
        snprintf(cv->headline, sizeof cv->headline, "the profiled run (size %s, the same request as a graded one, "
                 "with the GPU's counters read by ncu) did not pass: %.380s", cv->size, r->reason);
        return;
    }
    if (!text) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "ncu wrote no counters (its log is missing)");
        return;
    }
    if (tg_ncu_problem(text, why, sizeof why)) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "%s", why);
        return;
    }
    tg_ncu_counts c;
    if (tg_ncu_parse_pid(text, len, pid, &c, err, sizeof err) != 0) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "%s", err);
        return;
    }
    cv->state = TG_CTR_JUDGED;
    cv->kernel_ms = c.have[TG_NCU_TIME] ? c.q[TG_NCU_TIME] / 1e6 : 0;
    if (R->lab->work.kernel && !v->gpu_only) {
        cv->work_judged = 1;
        cv->bad = tg_ncu_judge(R->lab, v->tile, s->m, s->k, s->n, &c, cv->headline, sizeof cv->headline,
                               cv->figures, sizeof cv->figures, &cv->pattern);
    } else if (R->lab->work.kernel) {
        snprintf(cv->why, sizeof cv->why, "%s uses %s: the counters read here see the threads' own loads and "
                 "multiply-adds, not that unit's", v->name, v->gpu_only);
    }
    size_t fl = strlen(cv->figures);
    snprintf(cv->figures + fl, sizeof cv->figures - fl, "%s%d kernel launch%s of the student's (%.200s), %d of "
             "the kit's left out; the profiled run took %.1f s (%.2f s to the answer: the program's start under ncu "
             "and the case; %.2f s for ncu to end %s), the GPU alone%s", fl ? "; " : "", c.kernels,
             c.kernels == 1 ? "" : "es", c.names[0] ? c.names : "none", c.kit_kernels, cv->wall_s, cv->answer_s,
             cv->end_s, cv->last ? "the program" : "this program and start the next", "");
    if (cv->start_s > 0) {
        fl = strlen(cv->figures);
        snprintf(cv->figures + fl, sizeof cv->figures - fl, "; before it, ncu started in %.2f s with the GPU shared",
                 cv->start_s);
    }
}

#define TG_PROF_MAX_RUNS 8   /* programs one ncu profiles in turn (session.c's script) */

/* One ncu for variants vs[0..n-1] of build/binary (the student's program, or the reference's): the
 * program started once per variant, in turn, by a shell under one ncu (multi, bubblewrap's fixed
 * paths) so that ncu's own start and end are paid once, each program's kernels told apart by ncu's
 * Process ID column; else one ncu per variant. mode: 2 so (multi), 1 one ncu per variant through the
 * gating shell, 0 one ncu per variant started directly (as before; also without bubblewrap). Each variant's
 * case is the same request a graded session gets first, in a program of its own. */
static void profile_variants(grun *R, gsub *g, const char *build, const char *binary, const char *tag,
                             const tl_lab_variant *const *vs, tg_ctr_var *const *cvs, int n, int mode)
{
    int multi = mode == 2;
    if (n <= 0)
        return;
    if (n > 1 && (!multi || !R->iso.bwrap || n > TG_PROF_MAX_RUNS)) {
        int step = multi && R->iso.bwrap ? TG_PROF_MAX_RUNS : 1;
        for (int i = 0; i < n; i += step) {
            profile_variants(R, g, build, binary, tag, vs + i, cvs + i, n - i < step ? n - i : step, mode);
            for (int j = i; j < n && j < i + step; ++j)
                if (cvs[j]->stopped) {   /* the GPU is not held alone for another (tg_counters_run) */
                    for (int k = i + step; k < n; ++k) {
                        cvs[k]->state = TG_CTR_NOT_CHECKED;
                        snprintf(cvs[k]->why, sizeof cvs[k]->why, "not profiled: this file's profiled run of %s was "
                                 "stopped by its time limit, and the GPU is not held alone for another", vs[j]->name);
                    }
                    return;
                }
        }
        return;
    }
    char err[600];
    int si[TG_PROF_MAX_RUNS];
    for (int i = 0; i < n; ++i) {
        si[i] = profiled_size(R, vs[i], err, sizeof err);
        if (si[i] >= 0)
            tg_size_str(cvs[i]->size, sizeof cvs[i]->size, &R->sizes[si[i]]);
        else {
            cvs[i]->state = TG_CTR_NOT_CHECKED;
            snprintf(cvs[i]->why, sizeof cvs[i]->why, "no size to profile it at (%s)", err);
        }
    }
    /* (a variant without a size is left out of the session; the others keep their order) */
    const tl_lab_variant *sv[TG_PROF_MAX_RUNS];
    tg_ctr_var *scv[TG_PROF_MAX_RUNS];
    int ss_i[TG_PROF_MAX_RUNS], m = 0;
    for (int i = 0; i < n; ++i)
        if (si[i] >= 0) {
            sv[m] = vs[i];
            scv[m] = cvs[i];
            ss_i[m++] = si[i];
        }
    if (!m)
        return;
    char dir[PATH_MAX + 64], log[PATH_MAX + 96];
    snprintf(dir, sizeof dir, "%s/ncu-%s%s%s", g->work, tag, sv[0]->name, m > 1 ? "-and-more" : "");
    tg_rmtree(dir);
    if (tg_mkdirs(dir, 0700) != 0) {
        for (int i = 0; i < m; ++i) {
            scv[i]->state = TG_CTR_NOT_CHECKED;
            snprintf(scv[i]->why, sizeof scv[i]->why, "cannot make %s (%s)", dir, strerror(errno));
        }
        return;
    }
    snprintf(log, sizeof log, "%s/ncu.csv", dir);
    /* the sandbox's user for ncu's own look-up (bound at /etc/passwd and /etc/group: session.c) */
    char etc[PATH_MAX + 96];
    snprintf(etc, sizeof etc, "%s/passwd", dir);
    write_small(etc, "nobody:x:65534:65534:nobody:/tmp/case:/bin/sh\n");
    snprintf(etc, sizeof etc, "%s/group", dir);
    write_small(etc, "nogroup:x:65534:\n");
    /* only the options device request ncu-1 ran (ncu 2025.3.1): ncu refuses an option it does not
     * know and exits 1 before starting the program, which is what ncu-2 met with two more */
    const char *argv[] = {R->ncu, "--csv", "--page", "raw", "--clock-control", "none", "--metrics", tg_ncu_metrics(),
                          "--log-file", R->iso.bwrap ? TG_PROF_INSIDE "/ncu.csv" : log, NULL};
    /* With bubblewrap's fixed paths a shell under ncu runs the programs (session.c): ncu starts with
     * the device shared (the shell and ncu are no student's), and the shell starts the first
     * program only once the device is this worker's alone; without, ncu starts them directly. */
    int gated = R->iso.bwrap && mode >= 1;
    gsess ss = {.build = build, .binary = binary, .prof_argv = argv, .prof_dir = dir,
                .prof_ro = R->ncu_root[0] ? R->ncu_root : NULL, .prof_runs = gated ? m : 0};
    cres r[TG_PROF_MAX_RUNS];
    /* this run's time-outs are its own, not the graded cases' (as the work count's, work.c) */
    int timeouts = g->timeouts, nstopped = g->nstopped;
    char stopped[TL_LAB_MAX_VARIANTS][48];
    memcpy(stopped, g->stopped, sizeof stopped);
    g->timeouts = 0;
    g->nstopped = 0;
    double limit_s = R->lab->case_limit_s * TG_NCU_LIMIT_FACTOR;
    if (R->ncu_ref_s > 0 && *tag == '\0')   /* a student's run, after the reference's was measured */
        limit_s = R->ncu_ref_s * TG_NCU_REF_FACTOR > R->lab->case_limit_s ? R->ncu_ref_s * TG_NCU_REF_FACTOR
                                                                           : R->lab->case_limit_s;
    double t = tl_now_ms();
    if (gated) {
        tg_gpu_take(R, TG_GPU_SHARED);
        tg_stage("ncu start (device shared) %.30s", sv[0]->name);
        int rc = tg_sess_open(R, g, &ss, err, sizeof err) == 0 ? await_shell(&ss, NULL, TG_PROF_READY, 60000.0) : -1;
        scv[0]->start_s = (tl_now_ms() - t) / 1000.0;
        if (rc != 0) {   /* ncu did not start the shell: the grader's problem, never the student's */
            tg_sess_end(g, &ss, 0);
            size_t len = 0;
            char *text = tg_is_file(log) ? tg_read_file(log, 1 << 20, &len) : NULL;
            for (int i = 0; i < m; ++i) {
                scv[i]->state = TG_CTR_NOT_CHECKED;
                ncu_said(text, &g->evidence, scv[i]->why, sizeof scv[i]->why);
                size_t wl = strlen(scv[i]->why);
                snprintf(scv[i]->why + wl, sizeof scv[i]->why - wl, "%sncu did not start its shell (%.200s)",
                         wl ? "; " : "", rc < 0 ? err : rc == 2 ? "no word in 60 s" : "it ended first");
            }
            free(text);
            memcpy(g->stopped, stopped, sizeof stopped);
            g->nstopped = nstopped;
            g->timeouts = timeouts;
            if (!R->keep_work)
                tg_rmtree(dir);
            tg_gpu_take(R, TG_GPU_NONE);
            return;
        }
    }
    tg_gpu_take(R, TG_GPU_ALONE);   /* the profiled programs measure their kernels' GPU time */
    tg_stage("profiled (ncu) %.30s%s", sv[0]->name, m > 1 ? " and more" : "");   /* profile.c: the device alone */
    if (gated && (!ss.alive || write(ss.c.to_child, "go\n", 3) != 3))
        tg_sess_end(g, &ss, 0);
    int done = 0;
    t = tl_now_ms();
    for (int i = 0; i < m; ++i) {
        if (gated && !ss.alive && i == 0) {
            /* ncu or its shell ended before the first program: never the student's (a session started
             * afresh here would give the shell a request for its line) */
            for (int k = 0; k < m; ++k) {
                scv[k]->state = TG_CTR_NOT_CHECKED;
                snprintf(scv[k]->why, sizeof scv[k]->why, "ncu's shell ended before the program started");
            }
            memcpy(g->stopped, stopped, sizeof stopped);
            g->nstopped = nstopped;
            g->timeouts = timeouts;
            if (!R->keep_work)
                tg_rmtree(dir);
            return;
        }
        if (i > 0) {
            double tn = tl_now_ms();
            int next = next_program(g, &ss);
            scv[i - 1]->end_s = (tl_now_ms() - tn) / 1000.0;
            scv[i - 1]->wall_s = scv[i - 1]->answer_s + scv[i - 1]->end_s;
            if (!next)
                break;
        }
        t = tl_now_ms();
        tg_run_case(R, g, &ss, &R->sizes[ss_i[i]], sv[i], 0, limit_s, &r[i]);
        scv[i]->answer_s = (tl_now_ms() - t) / 1000.0;
        done = i + 1;
        if (r[i].st == C_TIMEOUT)
            break;
    }
    double te = tl_now_ms();
    int was_alive = ss.alive;
    if (gated && ss.alive && await_shell(&ss, "quit\n", TG_PROF_DONE, 5000.0) == 0) {
        /* the last program ended: the device is given back while ncu writes its table */
        scv[done - 1]->end_s = (tl_now_ms() - te) / 1000.0;
        was_alive = 0;
        tg_gpu_take(R, TG_GPU_NONE);
        close(ss.c.to_child);
        ss.c.to_child = -1;
        tg_child_wait(&ss.c, tl_now_ms() + 30000.0);
    }
    tg_sess_end(g, &ss, 1);
    if (was_alive)
        scv[done - 1]->end_s = (tl_now_ms() - te) / 1000.0;
    scv[done - 1]->wall_s = scv[done - 1]->answer_s + scv[done - 1]->end_s;
    scv[done - 1]->last = 1;
    memcpy(g->stopped, stopped, sizeof stopped);
    g->nstopped = nstopped;
    g->timeouts = timeouts;
    size_t len = 0;
    char *text = tg_is_file(log) ? tg_read_file(log, 64 << 20, &len) : NULL;
    /* each program's process, in the order the shell started them (one program: every row) */
    long pids[TG_PROF_MAX_RUNS];
    int npids = 0;
    if (m > 1 && text) {
        const char *base = strrchr(binary, '/');
        char tail[PATH_MAX];
        snprintf(tail, sizeof tail, "/%s", base ? base + 1 : binary);
        npids = tg_ncu_processes(text, tail, pids, m);
    }
    for (int i = 0; i < done; ++i) {
        ncu_said(text, &g->evidence, scv[i]->why, sizeof scv[i]->why);   /* kept for the reference's probe */
        /* a program ncu did not name has no kernel of its own in the table: judged with none (pid 0) */
        judge_variant(R, sv[i], &R->sizes[ss_i[i]], &r[i], text, len, m > 1 ? (i < npids ? pids[i] : 0) : -1, scv[i]);
        tg_buf_free(&r[i].explain);
    }
    free(text);
    if (!R->keep_work)
        tg_rmtree(dir);
    if (done < m && scv[done - 1]->stopped) {
        for (int k = done; k < m; ++k) {
            scv[k]->state = TG_CTR_NOT_CHECKED;
            snprintf(scv[k]->why, sizeof scv[k]->why, "not profiled: this file's profiled run of %s was stopped by its "
                     "time limit, and the GPU is not held alone for another", sv[done - 1]->name);
        }
    } else if (done < m) {
        /* the session ended early (a program that died): the rest in an ncu of their own */
        profile_variants(R, g, build, binary, tag, sv + done, scv + done, m - done, mode);
    }
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
    if (strncmp(root, "/usr/", 5) == 0)
        root[0] = '\0';   /* under /usr: the sandbox binds it already */
    return 0;
}

/* The variants a profiled session needs: every one the work rule or the speed test needs (the
 * reference's probe: those the counters judge, not the GPU-only ones). Returns how many. */
static int needed_list(grun *R, gsub *g, int probe, const tl_lab_variant **vs, tg_ctr_var **cvs, tg_ctr_var *store)
{
    int n = 0;
    for (int i = 0; i < R->lab->nvariants && n < TL_LAB_MAX_VARIANTS; ++i) {
        const tl_lab_variant *v = &R->lab->variants[i];
        if (!needed(R, v) || (probe && v->gpu_only))
            continue;
        vs[n] = v;
        cvs[n] = probe ? &store[n] : &g->ctr[i];
        ++n;
    }
    return n;
}

void tg_counters_probe(grun *R)
{
    R->ncu_ok = 0;
    R->ncu_mode = 0;
    R->ncu_ref_s = 0;
    R->ncu_why[0] = R->ncu_ref[0] = '\0';
    if (!R->lab->gpu || !R->gpu_ok || R->emulate || R->prebuilt[0])
        return;
    const tl_lab_variant *vs[TL_LAB_MAX_VARIANTS];
    tg_ctr_var *cvs[TL_LAB_MAX_VARIANTS];
    static tg_ctr_var store[TL_LAB_MAX_VARIANTS];
    int n = needed_list(R, NULL, 1, vs, cvs, store);
    if (!n)
        return;
    if (find_ncu(R->ncu, sizeof R->ncu, R->ncu_root, sizeof R->ncu_root) != 0) {
        snprintf(R->ncu_why, sizeof R->ncu_why, "no ncu (Nsight Compute's CLI: /opt/nvidia/nsight-compute/*/ncu, "
                 "/usr/local/cuda/nsight-compute*/ncu, or an ncu binary on PATH)");
        return;
    }
    if (!R->ref_build[0]) {
        snprintf(R->ncu_why, sizeof R->ncu_why, "the reference solution, which ncu is tried on first, is not built in "
                 "this run (%.300s)", R->ref_why);
        return;
    }
    /* The reference's sessions, in a scratch record (its time-outs and prints are not a student's):
     * every variant the counters judge, first in turn under one ncu (what the students' runs then
     * do), and where that does not read them all, one ncu per variant (as before). */
    static gsub g;
    static gstudent who = {.name = "ncu-probe", .display = "ncu-probe"};
    const tg_ctr_var *bad = NULL;
    for (int mode = !R->iso.bwrap ? 0 : n > 1 ? 2 : 1; mode >= 0; --mode) {
        memset(&g, 0, sizeof g);
        g.s = &who;
        snprintf(g.work, sizeof g.work, "%s/ncu-probe", R->state);
        tg_mkdirs(g.work, 0700);
        memset(store, 0, sizeof store);
        profile_variants(R, &g, R->ref_build, R->lab->ref_binary, "ref-", vs, cvs, n, mode);
        tg_buf_free(&g.evidence);
        tg_buf_free(&g.notes);
        bad = NULL;
        for (int i = 0; i < n && !bad; ++i)
            if (!(cvs[i]->state == TG_CTR_JUDGED && !cvs[i]->bad && cvs[i]->kernel_ms > 0))
                bad = cvs[i];
        if (!bad) {
            R->ncu_ok = 1;
            R->ncu_mode = mode;
            break;
        }
    }
    const tg_ctr_var *cv = bad ? bad : cvs[0];
    const tl_lab_variant *v = vs[bad ? (int)(bad - cvs[0]) : 0];
    if (R->ncu_ok) {
        for (int i = 0; i < n; ++i)   /* the limit a student's run gets: x the reference's slowest */
            if (cvs[i]->wall_s > R->ncu_ref_s)
                R->ncu_ref_s = cvs[i]->wall_s;   /* wall seconds (2.3 s for lab 03 on an H100); the limit it sets is CPU time */
        snprintf(R->ncu_ref, sizeof R->ncu_ref, "%s at size %s (%d variant(s) %s): %.1000s", v->name, cv->size, n,
                 R->ncu_mode == 2 ? "in turn under one ncu, started with the GPU shared" : R->ncu_mode == 1 ?
                 "one ncu each, started with the GPU shared" : "one ncu each, the GPU alone throughout", cv->figures);
    } else if (cv->state == TG_CTR_NOT_CHECKED) {
        snprintf(R->ncu_why, sizeof R->ncu_why, "%s", cv->why);
    } else {
        snprintf(R->ncu_why, sizeof R->ncu_why, "ncu could not read the reference solution's counters in the sandbox "
                 "(%s at size %s: %.200s; %.220s)", v->name, cv->size, cv->bad && cv->headline[0] ? cv->headline
                 : "no kernel time", cv->why);
    }
}

void tg_counters_run(grun *R, gsub *g)
{
    memset(g->ctr, 0, sizeof g->ctr);
    g->ctr_ran = 1;
    if (!R->lab->gpu || !R->gpu_ok || R->emulate || !g->built || R->prebuilt[0])
        return;   /* (kit check's prebuilt program: the emulated count, as before) */
    const tl_lab_variant *vs[TL_LAB_MAX_VARIANTS];
    tg_ctr_var *cvs[TL_LAB_MAX_VARIANTS];
    int n = needed_list(R, g, 0, vs, cvs, NULL);
    if (!n)
        return;
    if (!R->ncu_ok) {
        for (int i = 0; i < n; ++i) {
            cvs[i]->state = TG_CTR_NOT_CHECKED;
            snprintf(cvs[i]->why, sizeof cvs[i]->why, "%s", R->ncu_why[0] ? R->ncu_why : "ncu was not tried");
        }
        return;
    }
    tg_stage("profiled (ncu) %.30s%s", vs[0]->name, n > 1 ? " and more" : "");   /* profile.c: the device alone */
    profile_variants(R, g, g->build, R->lab->binary, "", vs, cvs, n, R->ncu_mode);
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
