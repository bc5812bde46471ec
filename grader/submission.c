/* submission.c: one submission graded, in its worker process (workers.c starts it), as named
 * steps: its files taken (intake.c) or kit check's prebuilt program used, its build, the object
 * gate, the GPU's counters, each test judged with the device lock it needs, the "no work handed in"
 * rule, its reports and the markers that say it was graded. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "policy.h"
#include "tilelab.h"

/* A program kit-check.sh built under build, newer than every student file of the lab (0: missing or
 * older, so it was built from another version of the file). */
static int prebuilt_fresh(const grun *R, const char *build, const char *bin)
{
    char p[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/%s", build, bin);
    struct stat es;
    if (stat(p, &es) != 0)
        return 0;
    for (int i = 0; i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        char src[PATH_MAX + 256];
        struct stat ss;
        snprintf(src, sizeof src, "%s/labs/%s/%s", R->opt->root, R->lab->dir, R->lab->files[i]);
        if (stat(src, &ss) == 0 && (ss.st_mtim.tv_sec > es.st_mtim.tv_sec ||
                                    (ss.st_mtim.tv_sec == es.st_mtim.tv_sec && ss.st_mtim.tv_nsec > es.st_mtim.tv_nsec)))
            return 0;
    }
    return 1;
}

/* A test kind's stage: the word the live line shows and the class profile's kind (TG_PROF_*), given
 * to tg_stage together, never read back from the words (issue 22). */
static const struct {
    const char *word;
    int         kind;
} stage_of[] = {
    [TL_TEST_PUBLIC] = {"public", TG_PROF_CASES},        [TL_TEST_HIDDEN] = {"hidden", TG_PROF_CASES},
    [TL_TEST_RACECHECK] = {"racecheck", TG_PROF_SANITIZER}, [TL_TEST_MEMCHECK] = {"memcheck", TG_PROF_SANITIZER},
    [TL_TEST_SPEED] = {"speed", TG_PROF_TIMED},          [TL_TEST_CALC] = {"calc", TG_PROF_OTHER},
    [TL_TEST_CALC_API] = {"calc-api", TG_PROF_OTHER},    [TL_TEST_POLICY] = {"policy", TG_PROF_OTHER},
    [TL_TEST_DEVFACTS] = {"device facts", TG_PROF_OTHER},
};

static void stage_of_test(int test_kind, const char *fmt, const char *arg)
{
    int known = test_kind >= 0 && (size_t)test_kind < sizeof stage_of / sizeof *stage_of && stage_of[test_kind].word;
    tg_stage(known ? stage_of[test_kind].kind : TG_PROF_OTHER, fmt, known ? stage_of[test_kind].word : "test", arg);
}

/* ------------------------------------------------------------ one submission, step by step */

/* Kit check with the lab program ninja built in the student's build/: its warnings from the log
 * kit-check.sh keeps beside the results, and the twins built beside it. */
static void use_prebuilt(grun *R, gsub *g)
{
    const char *pre = R->opt->prebuilt;
    snprintf(g->build, sizeof g->build, "%.*s", (int)(strrchr(pre, '/') - pre), pre);
    g->built = 1;
    snprintf(g->log_path, sizeof g->log_path, "%s/build.log", R->run.out);
    size_t len = 0;
    char *text = tg_is_file(g->log_path) ? tg_read_file(g->log_path, 4 << 20, &len) : NULL;
    if (text) {
        tg_buf log = {0}, ignore = {0};
        tg_buf_add(&log, text, len);
        free(text);
        tg_first_errors(&log, &ignore, &g->warnings);
        if ((g->fatal_warnings = tg_student_warnings(R->lab, &log, &g->warn_lines, &g->build_errors)) > 0)
            g->built = 0;
        tg_buf_free(&ignore);
        tg_buf_free(&log);
    } else {
        g->log_path[0] = '\0';
    }
    g->emu_built = R->lab->gpu && R->opt->emulate;
    /* The emulated twin (on a GPU) and the counting twin (labs with a work rule, on a GPU and
     * under --emulate) that kit-check.sh built beside the program, each used only when it is
     * newer than every student file: a failed build leaves an older one, which counted another
     * version of the file. */
    const char *pb = R->opt->emulate ? R->lab->emu_binary : R->lab->binary;
    size_t bl = pb ? strlen(pb) : 0, pl = strlen(pre);
    if (R->lab->gpu && R->lab->work.kernel && R->lab->emu_binary && pl > bl + 1 &&
        strcmp(pre + pl - bl, pb) == 0 && pre[pl - bl - 1] == '/') {
        snprintf(g->emu_build, sizeof g->emu_build, "%.*s", (int)(pl - bl - 1), pre);
        char cbin[PATH_MAX];
        tg_emu_count_name(R, 1, cbin, sizeof cbin);
        if (!R->opt->emulate)
            g->emu_built = prebuilt_fresh(R, g->emu_build, R->lab->emu_binary);
        g->emu_count_built = prebuilt_fresh(R, g->emu_build, cbin);
    }
}

/* Kit check whose build failed: its log has the compiler's errors. */
static void use_failed_build(grun *R, gsub *g)
{
    tg_buf log = {0};
    size_t len = 0;
    char *text = tg_read_file(R->opt->build_log, 4 << 20, &len);
    tg_buf_add(&log, text ? text : "", text ? len : 0);
    free(text);
    tg_first_errors(&log, &g->build_errors, &g->warnings);
    g->fatal_warnings = tg_student_warnings(R->lab, &log, &g->warn_lines, &g->build_errors);
    snprintf(g->log_path, sizeof g->log_path, "%s", R->opt->build_log);
    tg_buf_free(&log);
    g->built = 0;
}

/* Exactly what was graded, kept for disputes: DIR/<student>/graded-files/. */
static int keep_graded_files(grun *R, gsub *g, char *why, size_t whylen)
{
    char kd[PATH_MAX + 40], err[800];
    snprintf(kd, sizeof kd, "%s/graded-files", g->odir);
    tg_rmtree(kd);
    for (int i = 0; i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        char from[PATH_MAX + 300], to[PATH_MAX + 300];
        snprintf(from, sizeof from, "%s/%s", g->files, R->lab->files[i]);
        snprintf(to, sizeof to, "%s/%s", kd, R->lab->files[i]);
        if (tg_is_file(from) && (tg_mkdirs(kd, 0755) != 0 || tg_copy_file(from, to, err, sizeof err) != 0)) {
            snprintf(why, whylen, "cannot keep a copy of the graded files in %s: %s", kd, err);
            return EXIT_GRADER;
        }
    }
    return 0;
}

/* The student's files taken (intake.c, or at submit time) into g->files: over the kit built once,
 * or into a pristine copy (from clean). 0 taken, 1 refused (refusal says why; every test then
 * scores 0), EXIT_GRADER not graded (why says why). */
static int take_files(grun *R, gsub *g, char *refusal, size_t rlen, char *why, size_t whylen)
{
    const gstudent *st = g->s;
    char err[800];
    if (R->run.kit_build[0]) {         /* the kit built once: the student's files alone, built over it */
        snprintf(g->files, sizeof g->files, "%s/files", g->work);
        snprintf(g->build, sizeof g->build, "%s/build", g->work);
        if (tg_mkdirs(g->files, 0700) != 0) {
            snprintf(why, whylen, "cannot make %s (%s)", g->files, strerror(errno));
            return EXIT_GRADER;
        }
    } else {                           /* from clean: a pristine copy with the student's files laid over */
        int n;
        if (tg_copy_pristine(R->run.pristine, g->kit, 0, &n, err, sizeof err) != 0) {
            snprintf(why, whylen, "cannot copy the pristine kit: %s", err);
            return EXIT_GRADER;
        }
        snprintf(g->files, sizeof g->files, "%s/labs/%s", g->kit, R->lab->dir);
    }
    int found[TL_LAB_MAX_FILES];
    if (st->not_graded[0]) {           /* the export itself leaves this student ungradable (lms.c) */
        snprintf(why, whylen, "%s", st->not_graded);
        return EXIT_GRADER;
    }
    if (st->lms_note[0])
        tg_buf_printf(&g->notes, "%s\n", st->lms_note);
    int rc = R->run.taken ? tg_take_prepared(R, st, g->files, &g->notes, err, sizeof err)   /* taken at submit time */
                          : tg_intake(R->lab, st->path, g->work, g->files, !R->opt->check, found, &g->notes, err,
                                      sizeof err);
    if (rc < 0 || rc == 2) {           /* a grader problem, or one the instructor must look at (files listed) */
        snprintf(why, whylen, "%s", err);
        return EXIT_GRADER;
    }
    if (!R->opt->check && tg_files_record(R, g->files, &R->run.ident, &g->record) != 0) {
        snprintf(why, whylen, "cannot hash the files taken into %s (%s)", g->files, strerror(errno));
        return EXIT_GRADER;
    }
    if (!R->opt->check && keep_graded_files(R, g, why, whylen) != 0)
        return EXIT_GRADER;
    if (rc > 0)
        snprintf(refusal, rlen, "%s", err);
    return rc;
}

/* One test judged, by its kind. */
static void judge(grun *R, gsub *g, tres *t)
{
    switch (t->t->kind) {
    case TL_TEST_PUBLIC:
    case TL_TEST_HIDDEN: tg_judge_correctness(R, g, t); break;
    case TL_TEST_RACECHECK:
    case TL_TEST_MEMCHECK: tg_judge_safety(R, g, t); break;
    case TL_TEST_SPEED: tg_judge_speed(R, g, t); break;
    case TL_TEST_CALC: tg_judge_calc(R, g, t, 0); break;
    case TL_TEST_CALC_API: tg_judge_calc(R, g, t, 1); break;
    case TL_TEST_DEVFACTS: tg_judge_devfacts(R, g, t); break;
    case TL_TEST_POLICY: break;            /* after every run: it reads what they saw */
    }
}

/* A case failed as it would if another process had taken the device's memory: the test again with
 * the device alone, and that run's verdict counts (the speed test, judged alone already, is not). */
static void again_alone(grun *R, gsub *g, tres *t)
{
    int gk = t->t->kind;
    tg_buf_printf(&g->notes, "%s: a device error while the GPU was shared; graded again with the GPU alone\n",
                  t->t->name);
    tres again = {.t = t->t};
    tg_buf_free(&t->out);
    tg_buf_free(&t->shown);
    free(t->cases);
    *t = again;
    tg_gpu_take(R, TG_GPU_ALONE);
    stage_of_test(gk, "%s again, alone%s", "");
    if (gk != TL_TEST_SPEED && gk != TL_TEST_CALC)
        judge(R, g, t);
}

/* A test that cannot run says why: the emulator cannot take the file (not graded here), the build
 * failed (its verdict heads the test), or the link gate refused the objects. 1 when so. */
static int not_run(grun *R, gsub *g, tres *t, int refused_link, const tg_buf *gate)
{
    if (!g->built && R->opt->emulate &&
        (g->emu_unsupported[0] ||      /* the rewrite's record; a compiler's words only in kit check */
         (R->opt->build_log[0] && tg_build_log_unsupported(g->build_errors.s, g->emu_unsupported,
                                                           sizeof g->emu_unsupported)))) {
        t->graded = 0;                 /* the emulator's rewrite cannot take valid CUDA: not the student's failure */
        tg_buf_printf(&t->out, "not graded here: %s; check it on a GPU (./kit check %s there)\n",
                      g->emu_unsupported, R->lab->id);
        return 1;
    }
    if (!g->built) {
        t->graded = 1;
        tg_buf_printf(&t->out, "not run: the build failed\n%s", g->build_errors.s ? g->build_errors.s : "");
        tg_build_verdict(g, &t->head.v);     /* the build's verdict heads every test */
        t->have_head = 1;
        return 1;
    }
    if (refused_link && t->t->kind != TL_TEST_POLICY) {
        t->graded = 1;
        tg_buf_printf(&t->out, "not run: the program's answers could not be trusted: the compiled student "
                      "files define or link what no lab file may (each a name the runtime or the kit "
                      "defines, a kit function this lab does not list, a system call or host asm), or "
                      "test what tells the GPU build from the emulated ones:\n%s",
                      gate->s);
        return 1;
    }
    return 0;
}

/* The correctness tests' session ended where it lives (its exit runs the student's destructors: with
 * the device held). */
static void corr_end(grun *R, gsub *g)
{
    if (g->corr.alive) {
        tg_gpu_take(R, TG_GPU_SHARED);
        tg_sess_end(g, &g->corr, 1);
    }
}

/* Before the timed phase: a kernel whose correctness case at its largest public size took far longer
 * than the class's fastest on the device (TG_EARLY_SLOW_MS more, TG_EARLY_SLOW_X times as long) will
 * most likely read slower than full credit allows, and speed.c's slow rule would profile it after its
 * speed test: its profile is taken now instead, beside the untimed work (the device shared, as every
 * profiled run unless TL_GRADE_NCU_ALONE=1), not in the phase,
 * where each profiled request held the device while the windows queued (device run 1202Z, session
 * 17: the recursive helper's 150 ms kernel at 2048, about 10 s of the phase). The same profile and the
 * same rules after the speed test; only its moment changes. */
static void early_profile(grun *R, gsub *g, const tres *t)
{
    if (!R->env.ncu_ok || R->env.ncu_every || g->ctr_demand || !(g->corr_credited > 0 || g->corr_left > 0) ||
        tg_gpu_phase_is_open() || !t->t->variant)
        return;
    const tl_lab_variant *v = tl_lab_variant_find(R->lab, t->t->variant);
    int vi = tg_variant_index(R, v);
    if (vi < 0)
        return;
    double mine = g->big_case_ms[vi], fastest = tg_gpu_fast_case(vi, 0);
    if (!(mine > 0 && fastest > 0 && mine - fastest > TG_EARLY_SLOW_MS && mine > TG_EARLY_SLOW_X * fastest))
        return;
    snprintf(g->early_why, sizeof g->early_why, "its correctness case of %s at the largest public size took %.0f ms, "
             "the class's fastest there %.0f ms on this device: a kernel that slow is profiled before the timed phase, "
             "the device shared, not after its speed test (the same profile; the wall time of a case only sets "
             "when)", v->name, mine, fastest);
    if (!tg_counters_on_demand(R, g, g->early_why))   /* (shared, as every profiled run by default) */
        g->early_why[0] = '\0';
}

/* One test with the device's lock it needs (gpushare.c): shared for GPU work (each request holds
 * it for its time: session.c), the speed test's timed requests alone (speed.c); none for the CPU's
 * tests. Kit check
 * holds it from its first GPU test on: its memcheck pass (oob.c) runs beside the cases and ends
 * with the submission. */
static void run_test(grun *R, gsub *g, tres *t)
{
    int gk = t->t->kind;
    /* (the speed test too: its timed requests alone, speed.c; the correctness tests' shared session,
     * g->corr, keeps its slot between them: judges.c) */
    int want = gk == TL_TEST_CALC || gk == TL_TEST_POLICY ? (R->opt->check || g->corr.alive ? tg_gpu_held() : TG_GPU_NONE)
             : TG_GPU_SHARED;
    int phase = gk == TL_TEST_SPEED && tg_gpu_timed_phase();
    if (phase) {                       /* the timed phase (gpushare.c): its turn, holding nothing of the device */
        corr_end(R, g);
        tg_gpu_take(R, TG_GPU_NONE);
        early_profile(R, g, t);
        tg_gpu_timed_turn();
    }
    tg_gpu_take(R, want);
    int shared_run = tg_gpu_held() == TG_GPU_SHARED && gk != TL_TEST_SPEED;   /* (speed.c redoes its own) */
    stage_of_test(gk, "%s %.30s", t->t->variant ? t->t->variant : "");
    judge(R, g, t);
    if (shared_run && tg_gpu_crowded_out(t))
        again_alone(R, g, t);
    if (gk == TL_TEST_PUBLIC || gk == TL_TEST_HIDDEN) {
        g->corr_left--;
        g->corr_credited += t->graded && t->score > 0;
    }
    if (!R->opt->check && !g->corr.alive)
        tg_gpu_take(R, TG_GPU_NONE);
    if (phase)
        tg_gpu_timed_done();
}

/* The build (not in kit check: it built), the link gate before anything runs, the GPU's counters
 * with the device alone, each test, the policy last (it reads what the runs saw). 0, or EXIT_GRADER
 * with why set. */
static int build_and_test(grun *R, gsub *g, tres *tr, int nt, char *why, size_t whylen)
{
    char err[800];
    double tb = tl_now_ms();
    tg_stage(TG_PROF_BUILD, "build");
    if (!R->opt->prebuilt[0] && !R->opt->build_log[0] && tg_build_submission(R, g, err, sizeof err) != 0) {
        snprintf(why, whylen, "%s", err);
        return EXIT_GRADER;
    }
    g->build_s = (tl_now_ms() - tb) / 1000.0;
    tg_buf gate = {0};                 /* what the objects define and link, before anything runs */
    int refused_link = g->built ? tg_judge_link_gate(R, g, &gate) : 0;
    if (refused_link)
        tg_buf_printf(&g->notes, "not run: the compiled student files define or link what no lab file may:\n%s",
                      gate.s);
    if (g->built && R->lab->gpu && R->env.gpu_ok && !R->opt->emulate)
        tg_counters_probed(R);         /* (the counters' probe, deferred past the set-up: run.c) */
    if (g->built && !refused_link && R->lab->gpu && R->env.gpu_ok && !R->opt->emulate) {
        /* the profiled runs where every submission is profiled (TL_GRADE_NCU=1): the device alone, or
         * shared and one at a time on the device; by default none (counters.c's policy) */
        int profiled = R->env.ncu_ok && R->env.ncu_every;
        if (profiled)
            tg_gpu_take(R, R->env.ncu_shared ? TG_GPU_NONE : TG_GPU_ALONE);
        tg_counters_run(R, g);         /* the work and time evidence from outside the process (counters.c) */
        if (profiled)
            tg_gpu_take(R, TG_GPU_NONE);   /* each test below takes the device as it needs it (gpushare.c) */
    }
    for (int i = 0; i < nt; ++i)
        g->corr_left += tr[i].t->kind == TL_TEST_PUBLIC || tr[i].t->kind == TL_TEST_HIDDEN;
    for (int i = 0; i < nt; ++i)
        if (!not_run(R, g, &tr[i], refused_link, &gate))
            run_test(R, g, &tr[i]);
    corr_end(R, g);
    tg_gpu_take(R, TG_GPU_NONE);
    tg_counters_after_tests(R, g, tr, nt);   /* the counters read on demand judge the work too (counters.c) */
    tg_buf_free(&gate);
    tg_stage(TG_PROF_OTHER, "policy");
    for (int i = 0; i < nt; ++i)
        if (g->built && tr[i].t->kind == TL_TEST_POLICY)
            tg_judge_policy(R, g, &tr[i]);
    return 0;
}

/* Nothing earns points for no work (a policy test passes on an empty file): student files that are
 * empty (whitespace only) or the kit's skeleton unchanged score 0 everywhere. */
static void no_work_rule(grun *R, gsub *g, tres *tr, int nt)
{
    if (R->opt->check || R->opt->prebuilt[0] || R->opt->build_log[0] || !g->built || g->refused[0] || !g->files[0])
        return;
    int nowork = 1;
    for (int i = 0; nowork && i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        char fp[PATH_MAX + 300], kp[PATH_MAX + 300];
        snprintf(fp, sizeof fp, "%s/%s", g->files, R->lab->files[i]);
        snprintf(kp, sizeof kp, "%s/labs/%s/%s", R->run.pristine, R->lab->dir, R->lab->files[i]);
        size_t fl = 0, kl = 0;
        char *ft = tg_read_file(fp, TG_FILE_MAX + 1, &fl), *kt = tg_read_file(kp, TG_FILE_MAX + 1, &kl);
        int blank = ft != NULL;
        for (size_t k = 0; blank && k < fl; ++k)
            blank = isspace((unsigned char)ft[k]);
        nowork = ft && (blank || (kt && fl == kl && memcmp(ft, kt, fl) == 0));
        free(ft);
        free(kt);
    }
    if (!nowork)
        return;
    for (int i = 0; i < nt; ++i)
        if (tr[i].graded && tr[i].score > 0) {
            tr[i].score = 0;
            tr[i].passed = 0;
            tg_buf_printf(&tr[i].out, "no work handed in (the student files are empty or the kit's skeleton "
                          "unchanged): nothing earns points\n");
        }
    tg_buf_printf(&g->notes, "no work handed in: the student files are empty or the kit's skeleton unchanged; "
                  "no test earns points\n");
}

/* What says the student was graded: DIR/<student>/graded-from.txt (what the grade is computed
 * from) and .done ("SCORE MAX SECONDS CPU_SECONDS", what a resumed run reads: the first three; the
 * CPU seconds of the worker and every program it ran, which the load does not stretch as it does the
 * wall time, for the kit's tests). 0, or EXIT_GRADER with why. */
static int write_markers(gsub *g, double score, double max, double secs, double cpu, char *why, size_t whylen)
{
    char marker[PATH_MAX + 32], line[128];
    snprintf(marker, sizeof marker, "%s/graded-from.txt", g->odir);
    if (g->record.len && tg_write_atomic(marker, g->record.s, g->record.len) != 0) {
        snprintf(why, whylen, "cannot write '%s' (%s)", marker, strerror(errno));
        return EXIT_GRADER;
    }
    tg_buf_free(&g->record);
    snprintf(marker, sizeof marker, "%s/.done", g->odir);
    int ll = snprintf(line, sizeof line, "%.2f %.2f %.2f %.2f\n", score, max, secs, cpu);
    if (tg_write_atomic(marker, line, (size_t)ll) != 0) {
        snprintf(why, whylen, "cannot write '%s' (%s)", marker, strerror(errno));
        return EXIT_GRADER;
    }
    return 0;
}

/* The student's work folders: DIR/.state/work/<student> (made afresh) and DIR/<student>. */
static int open_work(grun *R, const gstudent *st, gsub *g, char *why, size_t whylen)
{
    memset(g, 0, sizeof *g);
    g->s = st;
    snprintf(g->work, sizeof g->work, "%s/work/%s", R->run.state, st->name);
    snprintf(g->kit, sizeof g->kit, "%s/kit", g->work);
    snprintf(g->build, sizeof g->build, "%s/build", g->kit);
    snprintf(g->odir, sizeof g->odir, "%s/%s", R->run.out, st->name);
    tg_rmtree(g->work);
    if (tg_mkdirs(g->work, 0700) != 0 || tg_mkdirs(g->odir, 0755) != 0) {
        snprintf(why, whylen, "cannot make the work folders (%s)", strerror(errno));
        return EXIT_GRADER;
    }
    return 0;
}

/* One submission, in its steps: its folders; its files (kit check: the program it built, or its
 * failed build's log); the tests this run grades, every one 0 for a refused submission, else the
 * build and each test; the no-work rule; the reports and markers. */
int tg_grade_one(grun *R, const gstudent *st, double *score, double *max, double *secs, char *why, size_t whylen)
{
    double t0 = tl_now_ms(), cpu0 = tg_profile_cpu_now();   /* the worker is this submission's alone */
    /* Each answer's buffer and its P (64 MiB each at 4096^2) from the heap and kept for the next
     * answer, not a fresh mapping faulted in and zeroed per case (glibc maps every allocation above
     * 32 MiB; common/driverserve.c does the same in the lab program: issue 29). The worker is this
     * submission's process alone (workers.c forks one per submission). */
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    gsub g;
    char refusal[800] = "";
    int rc = open_work(R, st, &g, why, whylen);
    if (rc != 0)
        return rc;
    tg_stage(TG_PROF_INTAKE, "intake");
    if (R->opt->prebuilt[0])
        use_prebuilt(R, &g);
    else if (R->opt->build_log[0])
        use_failed_build(R, &g);
    else if ((rc = take_files(R, &g, refusal, sizeof refusal, why, whylen)) == EXIT_GRADER)
        return rc;
    tres tr[TL_LAB_MAX_TESTS];
    memset(tr, 0, sizeof tr);
    int nt = 0;
    for (int i = 0; i < R->lab->ntests; ++i)
        if (!R->opt->public_only || TL_TEST_IS_PUBLIC(R->lab->tests[i].kind))
            tr[nt++].t = &R->lab->tests[i];
    if (rc > 0) {                      /* refused submission: graded, every test 0 */
        snprintf(g.refused, sizeof g.refused, "%s", refusal);
        for (int i = 0; i < nt; ++i) {
            tr[i].graded = 1;
            tg_buf_printf(&tr[i].out, "not run: %s\n", refusal);
        }
        g.built = 1;                   /* (no build log to show; the note says why) */
    } else if (build_and_test(R, &g, tr, nt, why, whylen) != 0) {
        return EXIT_GRADER;
    }
    no_work_rule(R, &g, tr, nt);
    *secs = (tl_now_ms() - t0) / 1000.0;
    tg_stage(TG_PROF_REPORT, "report");
    tg_write_reports(R, &g, tr, nt, *secs, score, max);
    for (int i = 0; i < nt; ++i) {
        tg_buf_free(&tr[i].out);
        tg_buf_free(&tr[i].shown);
        free(tr[i].cases);
    }
    if (!R->opt->keep_work)
        tg_rmtree(g.work);
    if (write_markers(&g, *score, *max, *secs, tg_profile_cpu_now() - cpu0, why, whylen) != 0)
        return EXIT_GRADER;
    tg_buf_free(&g.evidence);
    tg_buf_free(&g.notes);
    tg_buf_free(&g.build_errors);
    tg_buf_free(&g.warn_lines);
    return 0;
}
