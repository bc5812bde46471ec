/* work.c: the work a student's kernels did, judged against what the lab asks (issue 11 item 4; the
 * rule is the lab table's, tl_work_judge): the emulator's counts that come with each answer under
 * emulation, and on a GPU the count of one passing size by the same file built for the emulator.
 * grader/README.md ("The work") says where the counts come from and what a student can forge. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "grade.h"
#include "tilelab.h"
#include "verdict_read.h"

/* A passing case's counts (under emulation every answer carries the emulator's counts of the
 * checked run) against the lab's rule: a case computed on the host or untiled is noted in bad (its
 * first headline) and the test earns no credit; figures keeps the largest case's figures, which
 * ./kit check shows: they teach reuse. */
void tg_work_case(const grun *R, const tl_lab_variant *v, const gsize *s, const cres *r, tg_work_note *wn)
{
    if (!R->lab->work.kernel || !r->have_work)
        return;
    char head[480], fig[480], sz[48];
    const char *pattern = NULL;
    int bad = tl_work_judge_why(R->lab, v->tile, s->m, s->k, s->n, &r->work, head, sizeof head, fig, sizeof fig,
                                &pattern);
    wn->judged++;
    if (bad && !wn->bad++) {
        snprintf(wn->headline, sizeof wn->headline, "%s", head);
        wn->pattern = pattern;
        tg_size_str(wn->size, sizeof wn->size, s);
    }
    double work = (double)s->m * s->k * s->n;
    if (work >= wn->figures_work) {
        wn->figures_work = work;
        tg_size_str(sz, sizeof sz, s);
        snprintf(wn->figures_size, sizeof wn->figures_size, "%s", sz);
        snprintf(wn->figures, sizeof wn->figures, "%s", fig);
    }
}

static void twin_run(grun *R, gsub *g, const tl_lab_variant *v, const gsize *s, const char *cbin, cres *r);

const char *tg_emu_count_name(const grun *R, int what, char *buf, size_t len)
{
    const char *base = what ? R->lab->emu_binary : R->lab->emu_target;
    if (!base)
        return "";
    snprintf(buf, len, "%s-count", base);
    return buf;
}

/* The counting twin's run of size s, into r: another program on a small size, so the GPU program's
 * time-outs (a host computation at 2048) do not stop it, and its own do not count against the GPU
 * program's. Once per variant and size: a test that counts at a size another test of the variant
 * counted already (a hidden test none of whose sizes is small enough counts at the largest public
 * one, judges.c) reads that run's result (issue 29: 2 of lab 03's 4 counting runs, each a sandboxed
 * process, in most submissions). */
static void twin_case(grun *R, gsub *g, const tl_lab_variant *v, const gsize *s, const char *cbin, cres *r)
{
    for (int i = 0; i < g->ntwin_runs; ++i)
        if (strcmp(g->twin_runs[i].variant, v->name) == 0 && g->twin_runs[i].m == s->m && g->twin_runs[i].k == s->k &&
            g->twin_runs[i].n == s->n && g->twin_runs[i].hidden == s->hidden && g->twin_runs[i].seed == s->seed) {
            *r = g->twin_runs[i].r;
            return;
        }
    twin_run(R, g, v, s, cbin, r);
    if (g->ntwin_runs < (int)(sizeof g->twin_runs / sizeof g->twin_runs[0]) && strlen(v->name) < sizeof g->twin_runs[0].variant) {
        int i = g->ntwin_runs++;
        snprintf(g->twin_runs[i].variant, sizeof g->twin_runs[i].variant, "%s", v->name);
        g->twin_runs[i].m = s->m;
        g->twin_runs[i].k = s->k;
        g->twin_runs[i].n = s->n;
        g->twin_runs[i].hidden = s->hidden;
        g->twin_runs[i].seed = s->seed;
        g->twin_runs[i].r = *r;
        g->twin_runs[i].r.explain = (tg_buf){0};
    }
}

static void twin_run(grun *R, gsub *g, const tl_lab_variant *v, const gsize *s, const char *cbin, cres *r)
{
    tg_limits_saved saved;
    tg_limits_aside(g, &saved);
    gsess es = {.build = g->emu_build[0] ? g->emu_build : g->build, .binary = cbin};
    char stage[64];                  /* the run's profile: this run is the work count's */
    tg_stage_name(stage, sizeof stage);
    int stage_kind = tg_stage_kind();
    tg_stage(TG_PROF_WORK, "work count %.40s", v->name);
    tg_run_case(R, g, &es, s, v, 0, R->lab->case_limit_s * 4, r);
    tg_sess_end(g, &es, 1);
    tg_stage(stage_kind, "%s", stage);
    tg_limits_back(g, &saved);
}

/* On a GPU: a definite bug of the twin's run r at size s (sz) that the GPU run did not show. */
static void note_ub(const grun *R, const gsize *s, const char *sz, const cres *r, tg_work_note *wn)
{
    if (R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && !wn->ub && r->st != C_PASS && tg_work_ub_class(&r->v)) {
        wn->ub = 1;
        wn->ub_v = r->v;
        wn->ub_s = s;
        snprintf(wn->ub_size, sizeof wn->ub_size, "%s", sz);
    }
}

/* GPU, where the GPU's counters judged the work (or the work's size was a multiple of every tile):
 * the counting twin runs size s only as the undefined-behaviour check, its counts unjudged. */
void tg_ub_check_emulated(grun *R, gsub *g, const tl_lab_variant *v, const gsize *s, tg_work_note *wn)
{
    char sz[48], cbin[PATH_MAX];
    if (!g->emu_count_built || wn->ub)
        return;
    tg_size_str(sz, sizeof sz, s);
    tg_emu_count_name(R, 1, cbin, sizeof cbin);
    cres r;
    twin_case(R, g, v, s, cbin, &r);
    note_ub(R, s, sz, &r, wn);
    tg_buf_free(&r.explain);
}

/* The work is counted by the counting twin of the emulated program (labNN-emu-count: the same
 * file compiled with every access to device memory counted, 2.5-3.4x slower, so it runs this one
 * case only; build.c, want_count). On a GPU the student's process cannot count and the grader
 * cannot read the GPU's counters from the sandbox; under emulation the correctness build, which
 * runs every case, does not count (labs/emulated/meson.build). A case that does not pass there
 * leaves the work unjudged, and says why; on a GPU, where the emulator stopped it with a definite
 * bug (tg_work_ub_class: an uninitialised local, a race, an out-of-bounds access ...) that the GPU
 * run did not show, the size fails with that reason (wn->ub; judges.c). An emulator limit or
 * "not supported" is never held against the file. */
void tg_work_count_emulated(grun *R, gsub *g, const tl_lab_variant *v, const gsize *s, tg_work_note *wn)
{
    if (!R->lab->work.kernel)
        return;
    char sz[48], cbin[PATH_MAX];
    tg_size_str(sz, sizeof sz, s);
    tg_emu_count_name(R, 1, cbin, sizeof cbin);
    if (!g->emu_count_built) {
        if (R->opt->prebuilt[0] && g->emu_build[0])
            snprintf(wn->why, sizeof wn->why, "the counting build of this file (%s) failed or is older than the file: "
                     "%s/emu-build.log says why", cbin, R->run.out);
        else if (R->opt->prebuilt[0])
            snprintf(wn->why, sizeof wn->why, "this build has no counting twin of the lab to count it (%s)",
                     cbin[0] ? cbin : "none");
        else
            snprintf(wn->why, sizeof wn->why, "the counting build of this file failed or is missing (the notes say why)");
        return;
    }
    cres r;
    twin_case(R, g, v, s, cbin, &r);
    if (r.st == C_PASS && r.have_work) {
        tg_work_case(R, v, s, &r, wn);
        wn->on_gpu = R->lab->gpu && R->env.gpu_ok && !R->opt->emulate;
    } else if (r.st == C_PASS) {
        /* the twin answered without counts: it was built without the access counting (a C++ compiler
         * without -fsanitize=thread; common/emu/meson.build warns): nothing to judge, nothing lost */
        snprintf(wn->why, sizeof wn->why, "size %s passed in the counting build, which counted nothing: this kit was "
                 "built by a C++ compiler without -fsanitize=thread, which the emulator's access counting needs", sz);
    } else {
        snprintf(wn->why, sizeof wn->why, "size %s, emulated to count its work, did not pass there: %.300s", sz,
                 r.reason);
        /* A definite bug the GPU run could not show (an uninitialised register that held 0 there, a race
         * that happened to resolve, a read past an allocation into other data): on a GPU it fails the
         * test, as the emulated check does (issue 25; lead-1: two such files passed ./kit check on an H100) */
        note_ub(R, s, sz, &r, wn);
    }
    tg_buf_free(&r.explain);
}

/* The emulator's classes that are a bug in the student's code whatever a GPU printed (undefined
 * behaviour in CUDA), as opposed to what the emulator cannot run or a limit it hit. */
int tg_work_ub_class(const tl_verdict *v)
{
    static const char *const ub[] = {"uninitialised-local", "race", "order-dependent", "global-out-of-bounds",
                                     "shared-out-of-bounds", "array-out-of-bounds", "divergent-barrier",
                                     "uninitialized-shared-read", "misaligned-address", "tile-not-shared",
                                     "p-read-before-written", "missing-syncwarp", NULL};
    if (v->kind != TL_V_EMULATOR)
        return 0;
    for (int i = 0; ub[i]; ++i)
        if (tl_verdict_pattern_is(v, ub[i]))
            return 1;
    return 0;
}

/* What the test's output says about the work, first (a headline) when it cost the credit. */
void tg_work_report(const grun *R, int emulated, const tg_work_note *wn, tg_buf *out)
{
    if (!R->lab->work.kernel)
        return;
    if (wn->by_counters) {
        tg_buf_printf(out, "work at size %s (read from the GPU's counters by ncu, in another process than the "
                      "program's, on a run of the same request as a graded one): %s\n", wn->figures_size, wn->figures);
        return;
    }
    if (wn->ctr_note[0])
        tg_buf_printf(out, "work from the GPU's counters (ncu): not checked here: %s; the emulated count below "
                      "decides\n", wn->ctr_note);
    if (wn->judged && wn->figures[0] && wn->on_gpu)
        tg_buf_printf(out, "work at size %s (counted by the emulator, the same file built for the CPU, as ./kit "
                      "check and an emulated run count it; the GPU's counters judge it only where the instructor "
                      "asks, TL_GRADE_NCU=1): %s\n", wn->figures_size, wn->figures);
    else if (wn->judged && wn->figures[0])
        tg_buf_printf(out, "work at size %s (counted by the emulator, the same file built to count every access): "
                      "%s\n", wn->figures_size, wn->figures);
    else if (wn->why[0])
        tg_buf_printf(out, "work (kernel launches, loads per multiply-add): not checked here: %s\n", wn->why);
    else if (!emulated)
        tg_buf_printf(out, "work (kernel launches, loads per multiply-add): not checked here: the GPU runs "
                      "are not counted (the GPU's counters are for administrators, and no student code runs "
                      "outside the sandbox) and no emulated build of this file was made to count them; the "
                      "emulated run counts them (--emulate, ./kit check %s --emulate)\n", R->lab->id);
    else
        tg_buf_printf(out, "work: not checked here: no case passed, so no count was judged\n");
}


/* A failed build of an emulated twin (issue 24 item 2; grade.h). "Not supported under emulation"
 * comes only from the rewrite's record (refused): a student file can make a compiler print any
 * words, so the compiler's text never excuses a failed build. On a GPU the twins only count the
 * work, and a file that breaks them (an #if on TL_EMULATED or __SANITIZE_THREAD__) once lost
 * nothing: now the work-dependent tests fail, naming the build (tg_work_twin_failed). */
int tg_twin_outcome(const grun *R, gsub *g, int count, int erc, const char *refused, const tg_buf *log)
{
    char target[PATH_MAX];
    if (count)
        tg_emu_count_name(R, 0, target, sizeof target);
    else
        snprintf(target, sizeof target, "%s", R->lab->emu_target ? R->lab->emu_target : "the emulated program");
    if (erc == 0) {
        if (count)
            g->emu_count_built = 1;
        else
            g->emu_built = 1;
        return TG_TWIN_BUILT;
    }
    if (erc < 0) {   /* the grader's own problem (a tool, the sandbox): never the student's */
        tg_buf_printf(&g->notes, "the %s build (%s) could not be run: %.300s\n", count ? "counting" : "emulated",
                      target, log && log->s ? log->s : "");
        return TG_TWIN_GRADER;
    }
    for (const char *p = refused; p && *p;) {   /* the record: verdict lines (CONTRACTS.md section 10) */
        size_t l = strcspn(p, "\n");
        tl_verdict v;
        if (tg_verdict_parse(p, l, &v) == 0 && tg_unsupported_words(&v, g->emu_unsupported, sizeof g->emu_unsupported))
            return TG_TWIN_UNSUPPORTED;
        p += l + (p[l] == '\n');
    }
    if (!count && R->lab->gpu && (R->opt->emulate || !R->env.gpu_ok))
        return TG_TWIN_BUILD_FAILED;   /* the build this run grades with: the caller fails the build */
    tg_buf errs = {0};
    int warnings = 0;
    if (log)
        tg_first_errors(log, &errs, &warnings);
    const char *first = errs.s && errs.len ? errs.s : log && log->s ? log->s : "";
    while (*first == ' ' || *first == '\n')
        ++first;
    tg_buf_printf(&g->notes, "the %s build (%s) failed: %.300s\n", count ? "counting" : "emulated", target, first);
    if (R->lab->work.kernel) {
        size_t l = strcspn(first, "\n");
        snprintf(g->twin_failed, sizeof g->twin_failed, "the %s build of this file (%s), which counts its work, "
                 "failed: %.*s", count ? "counting" : "emulated", target, (int)(l > 300 ? 300 : l), first);
    }
    tg_buf_free(&errs);
    return TG_TWIN_WORK_FAILED;
}

int tg_work_twin_failed(const grun *R, const gsub *g, tg_work_note *wn)
{
    if (!R->lab->work.kernel || !g->twin_failed[0])
        return 0;
    wn->bad++;
    snprintf(wn->headline, sizeof wn->headline, "the work rule could not be checked: %.400s", g->twin_failed);
    wn->pattern = "twin-build-failed";
    snprintf(wn->size, sizeof wn->size, "build");
    snprintf(wn->why, sizeof wn->why, "the file does not build for the emulator, which counts the work (valid "
             "CUDA that emulation lacks is named 'not supported under emulation' instead, and never costs this)");
    return 1;
}
