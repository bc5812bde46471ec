/* counters.c: the work evidence on a GPU, read from outside the student's process (issue 24 item 4).
 *
 * How it works. Before a GPU lab's tests run (run.c, with the GPU to itself), each variant that the
 * work rule or the speed test needs gets one more session of the student's lab program, in the same
 * sandbox as every graded case, under Nsight Compute's CLI: `ncu --csv --page raw --print-units base
 * --clock-control none --metrics ... --log-file /tmp/tl-prof/ncu.csv /build/labNN --serve`. The
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "ncu.h"

#define TG_NCU_LIMIT_FACTOR 10.0   /* the profiled case's CPU limit: x the lab's case limit (ncu replays
                                      each kernel once per pass of counters and saves its memory)   */

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

static void profile_variant(grun *R, gsub *g, const char *ncu, const tl_lab_variant *v, tg_ctr_var *cv)
{
    char err[600];
    double t0 = tl_now_ms();
    int si = profiled_size(R, v, err, sizeof err);
    if (si < 0) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "no size to profile it at (%s)", err);
        return;
    }
    const gsize *s = &R->sizes[si];
    tg_size_str(cv->size, sizeof cv->size, s);
    char dir[PATH_MAX + 64], log[PATH_MAX + 96];
    snprintf(dir, sizeof dir, "%s/ncu-%s", g->work, v->name);
    tg_rmtree(dir);
    if (tg_mkdirs(dir, 0700) != 0) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "cannot make %s (%s)", dir, strerror(errno));
        return;
    }
    snprintf(log, sizeof log, "%s/ncu.csv", dir);
    /* --replay-buffer memory: the kernel replay saves device memory in host memory, not in the
     * sandbox's capped /tmp (48 MiB of matrices at 2048) */
    const char *argv[] = {ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
                          "--replay-buffer", "memory", "--metrics", tg_ncu_metrics(), "--log-file",
                          R->iso.bwrap ? TG_PROF_INSIDE "/ncu.csv" : log, NULL};
    /* ncu's own folder, where it is installed outside /usr (/opt/nvidia/nsight-compute/...) */
    char real[PATH_MAX], *ro = NULL;
    if (realpath(ncu, real) && strncmp(real, "/usr/", 5) != 0) {
        char *slash = strrchr(real, '/');
        if (slash && slash != real) {
            *slash = '\0';
            ro = real;
        }
    }
    gsess ss = {.build = g->build, .binary = R->lab->binary, .prof_argv = argv, .prof_dir = dir, .prof_ro = ro};
    cres r;
    /* this run's time-outs are its own, not the graded cases' (as the work count's, work.c) */
    int timeouts = g->timeouts, nstopped = g->nstopped;
    char stopped[TL_LAB_MAX_VARIANTS][48];
    memcpy(stopped, g->stopped, sizeof stopped);
    g->timeouts = 0;
    g->nstopped = 0;
    tg_run_case(R, g, &ss, s, v, 0, R->lab->case_limit_s * TG_NCU_LIMIT_FACTOR, &r);
    tg_sess_end(g, &ss, 1);
    memcpy(g->stopped, stopped, sizeof stopped);
    g->nstopped = nstopped;
    g->timeouts = timeouts;
    cv->wall_s = (tl_now_ms() - t0) / 1000.0;
    size_t len = 0;
    char *text = tg_is_file(log) ? tg_read_file(log, 64 << 20, &len) : NULL;
    char why[520];
    if (r.st != C_PASS) {
        /* the program ran and answered wrong, crashed or ran out of time under ncu: the student's */
        cv->state = TG_CTR_FAILED;
        cv->bad = 1;
        cv->pattern = "profiled-run-failed";
        snprintf(cv->headline, sizeof cv->headline, "the profiled run (size %s, the same request as a graded one, "
                 "with the GPU's counters read by ncu) did not pass: %.380s", cv->size, r.reason);
    } else if (!text) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "ncu wrote no counters (%s is missing)", log);
    } else if (tg_ncu_problem(text, why, sizeof why)) {
        cv->state = TG_CTR_NOT_CHECKED;
        snprintf(cv->why, sizeof cv->why, "%s", why);
    } else {
        tg_ncu_counts c;
        if (tg_ncu_parse(text, len, &c, err, sizeof err) != 0) {
            cv->state = TG_CTR_NOT_CHECKED;
            snprintf(cv->why, sizeof cv->why, "%s", err);
        } else {
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
                     "the kit's left out; the profiled run took %.1f s", fl ? "; " : "", c.kernels,
                     c.kernels == 1 ? "" : "es", c.names[0] ? c.names : "none", c.kit_kernels, cv->wall_s);
        }
    }
    tg_buf_free(&r.explain);
    free(text);
    if (!R->keep_work)
        tg_rmtree(dir);
}

void tg_counters_run(grun *R, gsub *g)
{
    memset(g->ctr, 0, sizeof g->ctr);
    g->ctr_ran = 1;
    if (!R->lab->gpu || !R->gpu_ok || R->emulate || !g->built || R->prebuilt[0])
        return;   /* (kit check's prebuilt program: the grader's own build is what is profiled) */
    char ncu[PATH_MAX], why[520] = "", known[PATH_MAX + 32];
    /* the driver's restriction, found by an earlier submission of this run (the worker's parent): not
     * paid for again; a later run (the driver set otherwise meanwhile) asks again */
    snprintf(known, sizeof known, "%s/ncu-not-permitted.%ld", R->state, (long)getppid());
    size_t kl = 0;
    char *said = tg_is_file(known) ? tg_read_file(known, sizeof why - 1, &kl) : NULL;
    if (said)
        snprintf(why, sizeof why, "%.*s", (int)kl, said);
    free(said);
    if (!why[0] && tg_find_tool("ncu", ncu, sizeof ncu) != 0)
        snprintf(why, sizeof why, "no ncu (Nsight Compute's CLI) on PATH or in /usr/local/cuda/bin");
    for (int i = 0; i < R->lab->nvariants; ++i) {
        const tl_lab_variant *v = &R->lab->variants[i];
        if (!needed(R, v))
            continue;
        if (why[0]) {
            g->ctr[i].state = TG_CTR_NOT_CHECKED;
            snprintf(g->ctr[i].why, sizeof g->ctr[i].why, "%s", why);
            continue;
        }
        tg_stage("work count (ncu) %.30s", v->name);   /* profile.c: the work's stage */
        profile_variant(R, g, ncu, v, &g->ctr[i]);
        /* the driver's restriction holds for every variant and student: said once, not paid for again */
        if (g->ctr[i].state == TG_CTR_NOT_CHECKED && strstr(g->ctr[i].why, "ERR_NVGPUCTRPERM")) {
            snprintf(why, sizeof why, "%s", g->ctr[i].why);
            char tmp[PATH_MAX + 48];
            snprintf(tmp, sizeof tmp, "%s.%ld", known, (long)getpid());
            FILE *f = fopen(tmp, "w");
            if (f) {
                int ok = fputs(why, f) >= 0;
                ok = fclose(f) == 0 && ok;
                if (!ok || rename(tmp, known) != 0)
                    unlink(tmp);
            }
        }
    }
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
