/* run.c: the class run: the out dir and its lock, the seed, the tools, the pristine kit, the cases
 * made once, then up to --jobs worker processes, one per submission, progress lines and resume. */
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

#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cjson/cJSON.h>

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
        snprintf(src, sizeof src, "%s/labs/%s/%s", R->root, R->lab->dir, R->lab->files[i]);
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

static int grade_one(grun *R, const gstudent *st, double *score, double *max, double *secs, char *why, size_t whylen)
{
    double t0 = tl_now_ms();
    gsub g;
    memset(&g, 0, sizeof g);
    g.s = st;
    snprintf(g.work, sizeof g.work, "%s/work/%s", R->state, st->name);
    snprintf(g.kit, sizeof g.kit, "%s/kit", g.work);
    snprintf(g.build, sizeof g.build, "%s/build", g.kit);
    snprintf(g.odir, sizeof g.odir, "%s/%s", R->out, st->name);
    tg_rmtree(g.work);
    if (tg_mkdirs(g.work, 0700) != 0 || tg_mkdirs(g.odir, 0755) != 0) {
        snprintf(why, whylen, "cannot make the work folders (%s)", strerror(errno));
        return EXIT_GRADER;
    }
    char err[800];
    int rc = 0;
    tg_stage(TG_PROF_INTAKE, "intake");
    if (R->prebuilt[0]) {          /* kit check: the lab program ninja built in the student's build/ */
        snprintf(g.build, sizeof g.build, "%.*s", (int)(strrchr(R->prebuilt, '/') - R->prebuilt), R->prebuilt);
        g.built = 1;
        /* kit-check.sh keeps ninja's log beside the results: the student's warnings come from it. */
        snprintf(g.log_path, sizeof g.log_path, "%s/build.log", R->out);
        size_t len = 0;
        char *text = tg_is_file(g.log_path) ? tg_read_file(g.log_path, 4 << 20, &len) : NULL;
        if (text) {
            tg_buf log = {0}, ignore = {0};
            tg_buf_add(&log, text, len);
            free(text);
            tg_first_errors(&log, &ignore, &g.warnings);
            if ((g.fatal_warnings = tg_student_warnings(R->lab, &log, &g.warn_lines, &g.build_errors)) > 0)
                g.built = 0;
            tg_buf_free(&ignore);
            tg_buf_free(&log);
        } else {
            g.log_path[0] = '\0';
        }
        g.emu_built = R->lab->gpu && R->emulate;
        /* The emulated twin (on a GPU) and the counting twin (labs with a work rule, on a GPU and
         * under --emulate) that kit-check.sh built beside the program, each used only when it is
         * newer than every student file: a failed build leaves an older one, which counted another
         * version of the file. */
        const char *pb = R->emulate ? R->lab->emu_binary : R->lab->binary;
        size_t bl = pb ? strlen(pb) : 0, pl = strlen(R->prebuilt);
        if (R->lab->gpu && R->lab->work.kernel && R->lab->emu_binary && pl > bl + 1 &&
            strcmp(R->prebuilt + pl - bl, pb) == 0 && R->prebuilt[pl - bl - 1] == '/') {
            snprintf(g.emu_build, sizeof g.emu_build, "%.*s", (int)(pl - bl - 1), R->prebuilt);
            char cbin[PATH_MAX];
            tg_emu_count_name(R, 1, cbin, sizeof cbin);
            if (!R->emulate)
                g.emu_built = prebuilt_fresh(R, g.emu_build, R->lab->emu_binary);
            g.emu_count_built = prebuilt_fresh(R, g.emu_build, cbin);
        }
    } else if (R->build_log[0]) {  /* kit check: that build failed; its log has the compiler's errors */
        tg_buf log = {0};
        size_t len = 0;
        char *text = tg_read_file(R->build_log, 4 << 20, &len);
        tg_buf_add(&log, text ? text : "", text ? len : 0);
        free(text);
        tg_first_errors(&log, &g.build_errors, &g.warnings);
        g.fatal_warnings = tg_student_warnings(R->lab, &log, &g.warn_lines, &g.build_errors);
        snprintf(g.log_path, sizeof g.log_path, "%s", R->build_log);
        tg_buf_free(&log);
        g.built = 0;
    } else {
        if (R->kit_build[0]) {     /* the kit built once: the student's files alone, built over it */
            snprintf(g.files, sizeof g.files, "%s/files", g.work);
            snprintf(g.build, sizeof g.build, "%s/build", g.work);
            if (tg_mkdirs(g.files, 0700) != 0) {
                snprintf(why, whylen, "cannot make %s (%s)", g.files, strerror(errno));
                return EXIT_GRADER;
            }
        } else {                   /* from clean: a pristine copy with the student's files laid over */
            int n;
            if (tg_copy_pristine(R->pristine, g.kit, 0, &n, err, sizeof err) != 0) {
                snprintf(why, whylen, "cannot copy the pristine kit: %s", err);
                return EXIT_GRADER;
            }
            snprintf(g.files, sizeof g.files, "%s/labs/%s", g.kit, R->lab->dir);
        }
        int found[TL_LAB_MAX_FILES];
        if (st->not_graded[0]) {   /* the export itself leaves this student ungradable (lms.c) */
            snprintf(why, whylen, "%s", st->not_graded);
            return EXIT_GRADER;
        }
        if (st->lms_note[0])
            tg_buf_printf(&g.notes, "%s\n", st->lms_note);
        rc = R->taken ? tg_take_prepared(R, st, g.files, &g.notes, err, sizeof err)   /* taken at submit time */
                      : tg_intake(R->lab, st->path, g.work, g.files, !R->check, found, &g.notes, err, sizeof err);
        if (rc < 0 || rc == 2) {   /* a grader problem, or one the instructor must look at (files listed) */
            snprintf(why, whylen, "%s", err);
            return EXIT_GRADER;
        }
        if (!R->check && tg_files_record(R, g.files, &R->ident, &g.record) != 0) {
            snprintf(why, whylen, "cannot hash the files taken into %s (%s)", g.files, strerror(errno));
            return EXIT_GRADER;
        }
        if (!R->check) {           /* exactly what was graded, kept for disputes: DIR/<student>/graded-files/ */
            char kd[PATH_MAX + 40];
            snprintf(kd, sizeof kd, "%s/graded-files", g.odir);
            tg_rmtree(kd);
            for (int i = 0; i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
                char from[PATH_MAX + 300], to[PATH_MAX + 300];
                snprintf(from, sizeof from, "%s/%s", g.files, R->lab->files[i]);
                snprintf(to, sizeof to, "%s/%s", kd, R->lab->files[i]);
                if (tg_is_file(from) && (tg_mkdirs(kd, 0755) != 0 || tg_copy_file(from, to, err, sizeof err) != 0)) {
                    snprintf(why, whylen, "cannot keep a copy of the graded files in %s: %s", kd, err);
                    return EXIT_GRADER;
                }
            }
        }
    }
    tres tr[TL_LAB_MAX_TESTS];
    memset(tr, 0, sizeof tr);
    int nt = 0;
    for (int i = 0; i < R->lab->ntests; ++i) {
        const tl_lab_test *t = &R->lab->tests[i];
        if (R->public_only && !TL_TEST_IS_PUBLIC(t->kind))
            continue;
        tr[nt++].t = t;
    }
    if (rc > 0) {                  /* refused submission: graded, every test 0 */
        snprintf(g.refused, sizeof g.refused, "%s", err);
        for (int i = 0; i < nt; ++i) {
            tr[i].graded = 1;
            tg_buf_printf(&tr[i].out, "not run: %s\n", err);
        }
        g.built = 1;               /* (no build log to show; the note says why) */
    } else {
        double tb = tl_now_ms();
        tg_stage(TG_PROF_BUILD, "build");
        if (!R->prebuilt[0] && !R->build_log[0] && tg_build_submission(R, &g, err, sizeof err) != 0) {
            snprintf(why, whylen, "%s", err);
            return EXIT_GRADER;
        }
        g.build_s = (tl_now_ms() - tb) / 1000.0;
        tg_buf gate = {0};            /* what the objects define and link, before anything runs */
        int refused_link = g.built ? tg_judge_link_gate(R, &g, &gate) : 0;
        if (refused_link)
            tg_buf_printf(&g.notes, "not run: the compiled student files define or link what no lab file may:\n%s",
                          gate.s);
        if (g.built && !refused_link && R->lab->gpu && R->gpu_ok && !R->emulate) {
            /* the profiled runs: the device alone, or shared and one at a time on the host (counters.c) */
            tg_gpu_take(R, R->ncu_shared ? TG_GPU_NONE : TG_GPU_ALONE);
            tg_counters_run(R, &g);        /* the work and time evidence from outside the process (counters.c) */
            tg_gpu_take(R, TG_GPU_NONE);   /* each test below takes the device as it needs it (gpushare.c) */
        }
        for (int i = 0; i < nt; ++i) {
            if (!g.built && R->emulate &&
                (g.emu_unsupported[0] ||   /* the rewrite's record; a compiler's words only in kit check */
                 (R->build_log[0] && tg_build_log_unsupported(g.build_errors.s, g.emu_unsupported, sizeof g.emu_unsupported)))) {
                /* the emulator's rewrite cannot take valid CUDA: not the student's failure */
                tr[i].graded = 0;
                tg_buf_printf(&tr[i].out, "not graded here: %s; check it on a GPU (./kit check %s there)\n",
                              g.emu_unsupported, R->lab->id);
                continue;
            }
            if (!g.built) {
                tr[i].graded = 1;
                tg_buf_printf(&tr[i].out, "not run: the build failed\n%s", g.build_errors.s ? g.build_errors.s : "");
                tg_build_verdict(&g, &tr[i].head.v);     /* the build's verdict heads every test */
                tr[i].have_head = 1;
                continue;
            }
            if (refused_link && tr[i].t->kind != TL_TEST_POLICY) {
                tr[i].graded = 1;
                tg_buf_printf(&tr[i].out, "not run: the program's answers could not be trusted: the compiled student "
                              "files define or link what no lab file may (each a name the runtime or the kit "
                              "defines, a kit function this lab does not list, a system call or host asm):\n%s",
                              gate.s);
                continue;
            }
            /* The device's lock for this test only (gpushare.c): shared for untimed GPU work,
             * the timed queue for the speed test (its timed runs alone: judges.c); none for the
             * CPU's tests. Kit check holds it from its first GPU test on: its memcheck pass
             * (oob.c) runs beside the cases and ends with the submission. */
            int gk = tr[i].t->kind;
            int want = gk == TL_TEST_SPEED ? TG_GPU_QUEUED
                     : gk == TL_TEST_CALC || gk == TL_TEST_POLICY ? (R->check ? tg_gpu_held() : TG_GPU_NONE)
                     : TG_GPU_SHARED;
            tg_gpu_take(R, want);
            int shared_run = tg_gpu_held() == TG_GPU_SHARED;
            stage_of_test(tr[i].t->kind, "%s %.30s", tr[i].t->variant ? tr[i].t->variant : "");
            switch (tr[i].t->kind) {
            case TL_TEST_PUBLIC:
            case TL_TEST_HIDDEN: tg_judge_correctness(R, &g, &tr[i]); break;
            case TL_TEST_RACECHECK:
            case TL_TEST_MEMCHECK: tg_judge_safety(R, &g, &tr[i]); break;
            case TL_TEST_SPEED: tg_judge_speed(R, &g, &tr[i]); break;
            case TL_TEST_CALC: tg_judge_calc(R, &g, &tr[i], 0); break;
            case TL_TEST_CALC_API: tg_judge_calc(R, &g, &tr[i], 1); break;
            case TL_TEST_DEVFACTS: tg_judge_devfacts(R, &g, &tr[i]); break;
            case TL_TEST_POLICY: break;            /* after every run: it reads what they saw */
            }
            if (shared_run && tg_gpu_crowded_out(&tr[i])) {
                /* A case failed as it would if another process had taken the device's memory:
                 * the test again with the device alone, and that run's verdict counts. */
                tg_buf_printf(&g.notes, "%s: a device error while the GPU was shared; graded again with the GPU "
                              "alone\n", tr[i].t->name);
                tres again = {.t = tr[i].t};
                tg_buf_free(&tr[i].out);
                tg_buf_free(&tr[i].shown);
                free(tr[i].cases);
                tr[i] = again;
                tg_gpu_take(R, TG_GPU_ALONE);
                stage_of_test(gk, "%s again, alone%s", "");
                if (gk == TL_TEST_PUBLIC || gk == TL_TEST_HIDDEN)
                    tg_judge_correctness(R, &g, &tr[i]);
                else if (gk == TL_TEST_RACECHECK || gk == TL_TEST_MEMCHECK)
                    tg_judge_safety(R, &g, &tr[i]);
                else if (gk == TL_TEST_CALC_API)
                    tg_judge_calc(R, &g, &tr[i], 1);
                else if (gk == TL_TEST_DEVFACTS)
                    tg_judge_devfacts(R, &g, &tr[i]);
            }
            if (!R->check)
                tg_gpu_take(R, TG_GPU_NONE);
        }
        tg_gpu_take(R, TG_GPU_NONE);
        tg_buf_free(&gate);
        tg_stage(TG_PROF_OTHER, "policy");
        for (int i = 0; i < nt; ++i)
            if (g.built && tr[i].t->kind == TL_TEST_POLICY)
                tg_judge_policy(R, &g, &tr[i]);
    }
    /* Nothing earns points for no work (a policy test passes on an empty file): student files
     * that are empty (whitespace only) or the kit's skeleton unchanged score 0 everywhere. */
    if (!R->check && !R->prebuilt[0] && !R->build_log[0] && g.built && !g.refused[0] && g.files[0]) {
        int nowork = 1;
        for (int i = 0; nowork && i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
            char fp[PATH_MAX + 300], kp[PATH_MAX + 300];
            snprintf(fp, sizeof fp, "%s/%s", g.files, R->lab->files[i]);
            snprintf(kp, sizeof kp, "%s/labs/%s/%s", R->pristine, R->lab->dir, R->lab->files[i]);
            size_t fl = 0, kl = 0;
            char *ft = tg_read_file(fp, TG_FILE_MAX + 1, &fl), *kt = tg_read_file(kp, TG_FILE_MAX + 1, &kl);
            int blank = ft != NULL;
            for (size_t k = 0; blank && k < fl; ++k)
                blank = isspace((unsigned char)ft[k]);
            nowork = ft && (blank || (kt && fl == kl && memcmp(ft, kt, fl) == 0));
            free(ft);
            free(kt);
        }
        for (int i = 0; nowork && i < nt; ++i)
            if (tr[i].graded && tr[i].score > 0) {
                tr[i].score = 0;
                tr[i].passed = 0;
                tg_buf_printf(&tr[i].out, "no work handed in (the student files are empty or the kit's skeleton "
                              "unchanged): nothing earns points\n");
            }
        if (nowork)
            tg_buf_printf(&g.notes, "no work handed in: the student files are empty or the kit's skeleton unchanged; "
                          "no test earns points\n");
    }
    *secs = (tl_now_ms() - t0) / 1000.0;
    tg_stage(TG_PROF_REPORT, "report");
    tg_write_reports(R, &g, tr, nt, *secs, score, max);
    for (int i = 0; i < nt; ++i) {
        tg_buf_free(&tr[i].out);
        tg_buf_free(&tr[i].shown);
        free(tr[i].cases);
    }
    if (!R->keep_work)
        tg_rmtree(g.work);
    char marker[PATH_MAX + 32], line[128];
    snprintf(marker, sizeof marker, "%s/graded-from.txt", g.odir);
    if (g.record.len && tg_write_atomic(marker, g.record.s, g.record.len) != 0) {
        snprintf(why, whylen, "cannot write '%s' (%s)", marker, strerror(errno));
        return EXIT_GRADER;
    }
    tg_buf_free(&g.record);
    snprintf(marker, sizeof marker, "%s/.done", g.odir);
    int ll = snprintf(line, sizeof line, "%.2f %.2f %.2f\n", *score, *max, *secs);
    if (tg_write_atomic(marker, line, (size_t)ll) != 0) {
        snprintf(why, whylen, "cannot write '%s' (%s)", marker, strerror(errno));
        return EXIT_GRADER;
    }
    tg_buf_free(&g.evidence);
    tg_buf_free(&g.notes);
    tg_buf_free(&g.build_errors);
    tg_buf_free(&g.warn_lines);
    return 0;
}

/* Is the GPU usable? Ask the reference build (trusted) for a small case. */
static void probe_gpu(grun *R)
{
    if (!R->lab->gpu) {
        snprintf(R->gpu_why, sizeof R->gpu_why, "not needed");
        return;
    }
    if (R->emulate) {
        snprintf(R->gpu_why, sizeof R->gpu_why, "not used (--emulate)");
        return;
    }
    if (!R->iso.gpu_nodes) {
        snprintf(R->gpu_why, sizeof R->gpu_why, "no usable CUDA device: no /dev/nvidia* on this machine");
        return;
    }
    if (!R->lab->nvariants) {
        snprintf(R->gpu_why, sizeof R->gpu_why, "unknown: /dev/nvidia* present; the lab program says whether it finds a device");
        R->gpu_unknown = 1;
        R->gpu_ok = 1;
        return;
    }
    if (!R->ref_build[0]) {
        snprintf(R->gpu_why, sizeof R->gpu_why, "unknown: the reference build failed, so the device was not tried (%s)", R->ref_why);
        R->gpu_unknown = 1;
        R->gpu_ok = 1;   /* let the student binary say whether it finds a device */
        return;
    }
    gsub g;
    memset(&g, 0, sizeof g);
    gstudent probe = {.name = "probe", .display = "probe"};
    g.s = &probe;
    snprintf(g.work, sizeof g.work, "%s/probe", R->state);
    tg_mkdirs(g.work, 0700);
    char err[300];
    int si = tg_add_size(R, 16, 16, 16, 2);
    if (si < 0 || tg_prepare_size(&R->sizes[si], err, sizeof err) != 0)
        return;
    gsess ss = {.build = R->ref_build, .binary = R->lab->ref_binary};
    cres r;
    tg_run_case(R, &g, &ss, &R->sizes[si], &R->lab->variants[0], 0, 60, &r);
    tg_sess_end(&g, &ss, 1);
    if (r.st == C_PASS) {
        R->gpu_ok = 1;
        snprintf(R->gpu_why, sizeof R->gpu_why, "a usable CUDA device answered (the reference solution ran a 16x16x16 case)");
    } else {
        snprintf(R->gpu_why, sizeof R->gpu_why, "no usable CUDA device: %.250s", r.reason);
    }
    tg_buf_free(&r.explain);
    tg_buf_free(&g.evidence);
}

/* One student's row from what their worker left in DIR: the .done marker (graded) or
 * not-graded.txt (why not). in_finish: a Slurm run's finishing job, where a student with neither
 * had a task that never ended well. */
static void collect_row(const grun *R, const gstudent *s, srow *row, int in_finish)
{
    char p[PATH_MAX + 160];
    snprintf(p, sizeof p, "%s/%s/.done", R->out, s->name);
    char *m = tg_read_file(p, 256, NULL);
    memset(row, 0, sizeof *row);
    if (m && sscanf(m, "%lf %lf %lf", &row->score, &row->max, &row->secs) == 3) {
        row->done = 1;
        free(m);
        return;
    }
    free(m);
    snprintf(p, sizeof p, "%s/%s/not-graded.txt", R->out, s->name);
    char *why = tg_read_file(p, 600, NULL);
    snprintf(row->why, sizeof row->why, "%s", why ? why : in_finish ?
             "its Slurm task ended without grading it (killed, timed out or its node failed; see "
             "DIR/.state/slurm/logs/); submit the run again to grade it" : "the grader's worker failed");
    free(why);
}

int tg_class_run(grun *R, int ns, char **subs, const char *out, const char *secret)
{
    double class_t0 = tl_now_ms(), class_cpu0 = tg_profile_cpu_now();   /* the profile's set-up stage */
    char p[PATH_MAX + 64];
    int lock_fd = -1;            /* the out dir's lock, held for the whole run */
    gstudent *st = NULL;
    char err[800];
    int from_list = R->slurm_task || R->slurm_finish;   /* a Slurm job: the list the submit wrote */
    if (from_list) {
        char o[PATH_MAX];
        if (!realpath(out, o) || tg_students_load(o, &st, &ns, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", out, tg_is_dir(out) ? err : "no such folder");
            return TL_EXIT_USAGE;
        }
    } else {
        st = calloc((size_t)ns, sizeof *st);
    }
    srow *rows = calloc((size_t)ns, sizeof *rows);
    for (int i = 0; i < ns && !from_list; ++i) {
        const char *sp = subs[i];
        struct stat sb;
        if (stat(sp, &sb) != 0) {
            fprintf(stderr, "tl-grade: submission '%s' is missing (%s)\n", sp, strerror(errno));
            return TL_EXIT_USAGE;
        }
        if (!realpath(sp, st[i].path)) {
            fprintf(stderr, "tl-grade: cannot resolve '%s'\n", sp);
            return TL_EXIT_USAGE;
        }
        /* a tab or a newline in the name: graded under a safe folder name (tg_student_names), the
         * reports carrying the original; students.tsv escapes them */
    }
    tg_student_names(st, ns);            /* stable whatever the order; never a class file's name */
    int nrun = ns;                       /* this run's students; after them, earlier runs' (run below) */
    if (R->check)
        for (int i = 0; i < ns; ++i)
            snprintf(st[i].name, sizeof st[i].name, "working-tree");
    /* The out dir: ours to write, never inside the kit's solutions or a submission. */
    if (tg_mkdirs(out, 0755) != 0 || !realpath(out, R->out)) {
        fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", out, strerror(errno));
        return TL_EXIT_USAGE;
    }
    for (int i = 0; i < ns && !from_list; ++i) {
        if (tg_path_under(R->out, st[i].path)) {
            fprintf(stderr, "tl-grade: bad out dir '%s': it lies inside the submission '%s'\n", out, st[i].path);
            return TL_EXIT_USAGE;
        }
    }
    snprintf(R->state, sizeof R->state, "%s/.state", R->out);
    if (tg_mkdirs(R->state, 0700) != 0) {
        fprintf(stderr, "tl-grade: bad out dir '%s': cannot make %s (%s)\n", out, R->state, strerror(errno));
        return TL_EXIT_USAGE;
    }
    chmod(R->state, 0700);
    snprintf(p, sizeof p, "%s/lock", R->state);
    lock_fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    /* Slurm tasks share the out dir (each its own students) and wait for a submit to finish; the
     * finishing job waits for them; any other run wants it alone and says so at once. */
    int lock_how = R->slurm_task ? LOCK_SH : R->slurm_finish ? LOCK_EX : LOCK_EX | LOCK_NB;
    int locked = -1;
    while (lock_fd >= 0 && (locked = flock(lock_fd, lock_how)) != 0 && errno == EINTR)
        ;
    if (lock_fd < 0 || locked != 0) {
        fprintf(stderr, "tl-grade: another tl-grade is writing to '%s'; wait for it or use another --out\n", out);
        return TL_EXIT_USAGE;
    }
    if (tg_state_seed(R, secret, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: %s\n", err);
        return TL_EXIT_USAGE;
    }
    /* An out dir belongs to one lab and one secret: finished results of another must never be
     * taken for this run's. The secret is kept as a fingerprint only. It also holds one rubric and
     * one set of cases (ident.c): a change of either is refused unless --regrade grades the whole
     * class again, so one gradebook never mixes two rubrics. */
    if (!R->check) {
        char idp[PATH_MAX + 32], rp[PATH_MAX + 32], first[160];
        snprintf(rp, sizeof rp, "%s/rubric.tsv", R->state);
        if (from_list && tg_is_file(rp) && tg_rubric_load(R, rp, err, sizeof err) != 0) {   /* the submit's rubric */
            fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", out, err);
            return TL_EXIT_USAGE;
        }
        tg_identity(R, &R->ident);
        tg_buf rt = {0}, ident = {0};
        tg_identity_rubric_text(R, &rt);
        snprintf(first, sizeof first, "lab %s secret %016llx", R->lab->id,
                 (unsigned long long)tg_mix64(R->seed ^ 0x5EC2E7ull));
        tg_buf_printf(&ident, "%s\nrubric %s %s%s%s\ncases %s\nkit %s\n", first, R->ident.rubric, rt.s,
                      R->rubric_file[0] ? "; from " : "", R->rubric_file, R->ident.cases, R->ident.kit);
        snprintf(idp, sizeof idp, "%s/identity", R->state);
        char *have = tg_read_file(idp, 1 << 16, NULL);
        if (have && (strcspn(have, "\n") != strlen(first) || memcmp(have, first, strlen(first)) != 0)) {
            fprintf(stderr, "tl-grade: bad out dir '%s': it holds results of another run (%.*s), not lab %s with "
                    "this secret; use another --out, or give the same --secret\n", out, (int)strcspn(have, "\n"), have,
                    R->lab->id);
            free(have);
            return TL_EXIT_USAGE;
        }
        if (have) {
            size_t hrl, hkl;           /* the identity's lines (ident.c's record) */
            const char *hr = tg_record_value(have, "rubric", &hrl), *hk = tg_record_value(have, "kit", &hkl);
            int rubric_changed = !tg_record_is(have, "rubric", R->ident.rubric, 1);
            int cases_changed = !tg_record_is(have, "cases", R->ident.cases, 0);
            if ((rubric_changed || cases_changed) && (from_list || R->regrade != 1)) {
                fprintf(stderr, "tl-grade: out dir '%s' was graded with %s%s%s than this run's:\n"
                        "  then: %.*s\n  now:  rubric %s %s\n", out, rubric_changed ? "another rubric" : "",
                        rubric_changed && cases_changed ? " and " : "", cases_changed ? "other cases" : "",
                        hr ? (int)hrl + 7 : 30, hr ? hr - 7 : "(no rubric recorded: an older tl-grade)",
                        R->ident.rubric, rt.s);
                fprintf(stderr, "  One gradebook holds one rubric: %s\n", from_list ?
                        "the out dir changed after this Slurm run was submitted; submit it again" :
                        "pass --regrade to grade every student of the class again with this one, or use another --out");
                free(have);
                return TL_EXIT_USAGE;
            }
            if (hk && !tg_record_is(have, "kit", R->ident.kit, 0) && !from_list)
                fprintf(stderr, "tl-grade: note: the kit changed since this class was graded (then %.*s, now %s); the "
                        "students graded in this run are graded by this one (each result records its kit)\n",
                        (int)hkl, hk, R->ident.kit);
        }
        int had = have != NULL;
        free(have);
        tg_buf_free(&rt);
        if (from_list && !had) {      /* a Slurm job checks the identity the submit wrote */
            fprintf(stderr, "tl-grade: bad out dir '%s': no %s (submit the run with --slurm)\n", out, idp);
            return TL_EXIT_USAGE;
        }
        if (!from_list && (tg_write_atomic(idp, ident.s, ident.len) != 0 ||
                           (R->rubric_file[0] ? tg_copy_file(R->rubric_file, rp, err, sizeof err) != 0 :
                                                (unlink(rp) != 0 && errno != ENOENT)))) {
            fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s or %s (%s)\n", out, idp, rp, strerror(errno));
            return TL_EXIT_USAGE;
        }
        tg_buf_free(&ident);
        if (R->extensions[0] && !from_list) {      /* kept beside the seed: Slurm's tasks read it there */
            char ex[PATH_MAX + 32];
            snprintf(ex, sizeof ex, "%s/extensions.csv", R->state);
            if (strcmp(R->extensions, ex) != 0 && tg_copy_file(R->extensions, ex, err, sizeof err) != 0) {
                fprintf(stderr, "tl-grade: --extensions: %s\n", err);
                return TL_EXIT_USAGE;
            }
        }
        if (R->roster[0] && !from_list) {          /* kept: later runs and Slurm's last job export with it */
            char ro[PATH_MAX + 32];
            snprintf(ro, sizeof ro, "%s/roster.csv", R->state);
            if (tg_copy_file(R->roster, ro, err, sizeof err) != 0) {
                fprintf(stderr, "tl-grade: --roster: %s\n", err);
                return TL_EXIT_USAGE;
            }
        }
        if (R->slurm && secret) {      /* the tasks read the seed here: DIR/.state is 0700, the seed 0600 */
            char sp[PATH_MAX + 32], line[64];
            int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)R->seed);
            snprintf(sp, sizeof sp, "%s/seed", R->state);
            if (tg_write_atomic(sp, line, (size_t)n) != 0 || chmod(sp, 0600) != 0) {
                fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s (%s)\n", out, sp, strerror(errno));
                return TL_EXIT_USAGE;
            }
        }
        if (R->from_kind[0] && !from_list) {   /* the students a course's export names (lms.c) */
            char stage[PATH_MAX + 32];
            tg_buf rep = {0};
            snprintf(stage, sizeof stage, "%s/intake", R->state);
            free(st);
            st = NULL;
            if (tg_lms_collect(R->from_kind, R->from_source, R->name_pattern, stage, &st, &ns, &rep, err,
                               sizeof err) != 0) {
                fprintf(stderr, "tl-grade: %s\n", err);
                tg_buf_free(&rep);
                return TL_EXIT_USAGE;
            }
            tg_student_names(st, ns);
            nrun = ns;
            free(rows);
            rows = calloc((size_t)ns + 1, sizeof *rows);
            tg_lms_intake_report(R, st, ns, &rep);
            tg_buf_free(&rep);
        }
        /* The class is the out dir: the students an earlier run graded here stay in it (their
         * results, their rows), after this run's; a student given again is this run's. */
        if (!from_list) {
            gstudent *old = NULL;
            int nold = 0;
            char e2[400];
            if (tg_students_load(R->out, &old, &nold, e2, sizeof e2) == 0 && nold > 0) {
                gstudent *all = realloc(st, (size_t)(ns + nold + 1) * sizeof *st);
                srow *rall = realloc(rows, (size_t)(ns + nold + 1) * sizeof *rows);
                if (all)
                    st = all;
                if (rall)
                    rows = rall;
                for (int k = 0; all && rall && k < nold; ++k) {
                    int dup = 0;
                    for (int j = 0; j < nrun && !dup; ++j)
                        dup = strcmp(st[j].name, old[k].name) == 0;
                    if (!dup) {
                        st[ns] = old[k];
                        memset(&rows[ns], 0, sizeof rows[ns]);
                        ++ns;
                    }
                }
            }
            free(old);
        }
        for (int i = 0; i < nrun && !from_list; ++i)
            tg_submission_time(&st[i]);          /* late.c: the file's own time where the export gave none */
        if (!from_list && tg_students_write(R, st, ns) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': cannot write the student list (%s)\n", out, strerror(errno));
            return TL_EXIT_USAGE;
        }
    }
    if (R->slurm_finish) {             /* the dependent job: every task has ended, whatever became of it */
        tg_iso_probe(&R->iso);
        snprintf(R->gpu_why, sizeof R->gpu_why, "each Slurm task's own (results.json of each student says)");
        for (int i = 0; i < ns; ++i) {
            collect_row(R, &st[i], &rows[i], 1);
            char np[PATH_MAX + 160];
            snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->out, st[i].name);
            if (!rows[i].done && !tg_is_file(np)) {   /* said once, for --status and the next submit */
                tg_mkdirs(np, 0755);
                rmdir(np);
                tg_write_atomic(np, rows[i].why, strlen(rows[i].why));
            }
        }
        tg_write_class(R, st, rows, ns, 0);
        fprintf(stderr, "tl-grade: %s/summary.md, %s/gradebook.csv\n", R->out, R->out);
        return 0;
    }
    int prebuilt = R->prebuilt[0] || R->build_log[0];   /* kit check built it: no tools, no copy */
    if (!prebuilt &&
        (tg_find_tool("meson", R->meson, sizeof R->meson) != 0 || tg_find_tool("ninja", R->ninja, sizeof R->ninja) != 0)) {
        fprintf(stderr, "tl-grade: not graded: build tool missing (%s not found on PATH); install meson and ninja\n",
                R->meson[0] ? "ninja" : "meson");
        return EXIT_GRADER;
    }
    char nvcc[PATH_MAX] = "";
    /* The sandbox's scrubbed PATH must still find the build tools the grader found (on the GPU
     * server meson and ninja live in a virtualenv, not /usr/bin): their folders go first. */
    const char *tools[3] = {R->meson, R->ninja, NULL};
    if (tg_find_tool("nvcc", nvcc, sizeof nvcc) == 0)
        tools[2] = nvcc;
    for (int t = 2; t >= 0; --t) {
        if (!tools[t] || !strrchr(tools[t], '/'))
            continue;
        size_t dl = (size_t)(strrchr(tools[t], '/') - tools[t]), used = strlen(R->tool_path);
        if (used + dl + 2 < sizeof R->tool_path)
            snprintf(R->tool_path + used, sizeof R->tool_path - used, "%s%.*s", used ? ":" : "", (int)dl, tools[t]);
    }
    /* Graded emulated, a GPU lab needs the host compilers only (the emulated program is its one
     * build; the object gate reads its object): no nvcc is then no reason to refuse (Gradescope). */
    if (R->lab->gpu && !nvcc[0] && !prebuilt && R->emulate && R->lab->emu_target)
        R->no_nvcc = 1;
    else if (R->lab->gpu && !nvcc[0] && !prebuilt) {
        fprintf(stderr, "tl-grade: not graded: lab %s needs nvcc to build, and none is on PATH or in /usr/local/cuda/bin\n",
                R->lab->id);
        return EXIT_GRADER;
    }
    tg_find_tool("compute-sanitizer", R->sanitizer, sizeof R->sanitizer);
    tg_iso_probe(&R->iso);
    snprintf(R->iso.grant, sizeof R->iso.grant, "%s", R->state);   /* binds from here reach uid 65534 */
    if (!tg_iso_contained(&R->iso)) {
        /* Without filesystem and pid isolation a submission reads the seed and the solutions and
         * forges other students' results: grading needs the instructor's explicit word. */
        if (!R->check && !R->unsafe_no_sandbox) {
            fprintf(stderr, "tl-grade: refusing to grade without a sandbox: %s\n"
                    "  %s\n  Install bubblewrap (./kit setup, or apt-get install bubblewrap) and check that user namespaces "
                    "work, or pass --unsafe-no-sandbox to grade anyway (every report then says so).\n",
                    R->iso.desc, R->iso.notes);
            return TL_EXIT_USAGE;
        }
        char d[sizeof R->iso.desc];
        snprintf(d, sizeof d, "%s", R->iso.desc);
        snprintf(R->iso.desc, sizeof R->iso.desc, "UNSAFE (%s): %s",
                 R->check ? "kit check, the student's own code" : "--unsafe-no-sandbox", d);
    }
    /* The lab table says which labs have an emulated build (labs/emulated builds every one it
     * marks); the kit graded must hold that build's folder. */
    snprintf(p, sizeof p, "%s/labs/emulated/meson.build", R->root);
    R->have_emu_target = R->lab->emu_target && tg_is_file(p);
    if (!R->check || !R->quiet) {
        fprintf(R->check ? stdout : stderr, "tl-grade: lab %s, %d submission(s), isolation: %s\n", R->lab->id, ns, R->iso.desc);
        if (R->iso.notes[0] && !R->check)
            fprintf(stderr, "tl-grade: isolation notes: %s\n", R->iso.notes);
    }
    /* The pristine kit, copied fresh each run (kit check with a prebuilt program needs none). */
    snprintf(R->pristine, sizeof R->pristine, "%s/pristine", R->state);
    if (R->slurm_task) {               /* prepared by the submit: shared by every task, read-only */
        if (tg_slurm_load_prepared(R, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    } else {
        tg_rmtree(R->pristine);
    }
    if (!prebuilt && !R->slurm_task) {
        int nfiles;
        if (tg_copy_pristine(R->root, R->pristine, R->check, &nfiles, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: not graded: cannot copy the kit: %s\n", err);
            return EXIT_GRADER;
        }
        snprintf(p, sizeof p, "%s/labs/%s/meson.build", R->pristine, R->lab->dir);
        if (!tg_is_file(p)) {
            fprintf(stderr, "tl-grade: not graded: labs/%s is not in the kit's git tree (untracked files are not "
                    "graded against: an instructor's class folders must stay out); git add it first\n", R->lab->dir);
            return EXIT_GRADER;
        }
    }
    /* Cases: public, then hidden from the secret seed; references computed once, here. */
    tl_sizes pub = {0};
    if (R->lab->public_sizes && tl_parse_sizes(R->lab->public_sizes, &pub, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: internal: lab %s public sizes: %s\n", R->lab->id, err);
        return EXIT_GRADER;
    }
    for (int i = 0; i < pub.count; ++i)
        tg_add_size(R, pub.m[i], pub.k[i], pub.n[i], 0);
    if (!R->public_only) {
        tg_make_hidden_sizes(R);
        /* The safety and speed cases too: computed once here, not once per worker. */
        const char *extra[2] = {R->lab->gpu ? R->lab->safety_sizes : NULL,
                                R->lab->gpu && !R->emulate && R->iso.gpu_nodes ? R->lab->speed_size : NULL};
        for (int e = 0; e < 2; ++e) {
            tl_sizes xs;
            if (extra[e] && tl_parse_sizes(extra[e], &xs, err, sizeof err) == 0)
                for (int i = 0; i < xs.count; ++i)
                    tg_add_size(R, xs.m[i], xs.k[i], xs.n[i], 2);
        }
    }
    /* The reference: built by the submit (a cluster's login node rarely has a GPU, so not
     * iso.gpu_nodes there), timed by each task on its own GPU. A class run on a GPU builds it in a
     * child of its own, beside the cases and the kit's build (CPU work of the set-up both), and
     * waits for it before the device is probed with it. */
    int want_ref = !R->slurm_task && R->lab->gpu && !R->public_only && !R->emulate && (R->iso.gpu_nodes || R->slurm) &&
                   R->lab->speed_size && R->lab->nvariants;
    pid_t refpid = -1;
    if (want_ref && !R->slurm && !prebuilt) {
        fflush(NULL);
        if ((refpid = fork()) == 0) {
            tg_build_reference(R);
            _exit(R->ref_build[0] ? 0 : 1);
        }
    }
    /* A GPU lab graded here without a GPU runs emulated: sizes above R->emu_max_work are not run
     * there, so their inputs and references are not made (a 4096^3 reference takes minutes). */
    int likely_emulated = R->lab->gpu && (R->emulate || !R->iso.gpu_nodes);
    tl_reference_gpu_hold(1);          /* one GPU context for all the large references */
    for (int i = 0; i < R->nsizes; ++i)
        if (!R->slurm &&               /* the submit only prepares the build; its tasks make the cases */
            !(likely_emulated && (double)R->sizes[i].m * R->sizes[i].k * R->sizes[i].n > R->emu_max_work) &&
            tg_prepare_size(&R->sizes[i], err, sizeof err) != 0) {
            tl_reference_gpu_hold(0);
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    tl_reference_gpu_hold(0);          /* given back before any student's program runs */
    double kit_s = 0;
    if (refpid > 0) {                  /* the kit's build beside the reference's: for this device */
        double tk = tl_now_ms();
        R->gpu_ok = 1;                 /* (its architecture and targets; the probe below decides) */
        tg_build_kit(R);
        R->gpu_ok = 0;
        kit_s = (tl_now_ms() - tk) / 1000.0;
        int wst;
        while (waitpid(refpid, &wst, 0) < 0 && errno == EINTR)
            ;
        if (WIFEXITED(wst) && WEXITSTATUS(wst) == 0)
            snprintf(R->ref_build, sizeof R->ref_build, "%s/refbuild", R->state);
        else
            tg_build_reference(R);     /* again here, for its reason (a failed build fails fast) */
    } else if (want_ref) {
        tg_build_reference(R);
    } else if (!R->slurm_task) {
        snprintf(R->ref_why, sizeof R->ref_why, "not needed in this run");
    }
    if (!R->slurm)
        probe_gpu(R);
    if (!R->slurm && R->lab->gpu && R->gpu_ok && !R->emulate && !prebuilt) {
        tg_counters_probe(R);   /* ncu tried on the reference in the sandbox, once (counters.c) */
        if (R->ncu_ok || R->ncu_why[0])
            fprintf(stderr, "tl-grade: the GPU's counters (ncu %s): %s%s\n", R->ncu[0] ? R->ncu : "none",
                    R->ncu_ok ? "read in the sandbox; the reference's " : "not checked here: ",
                    R->ncu_ok ? R->ncu_ref : R->ncu_why);
    }
    if (!prebuilt && !R->slurm_task) {
        if (refpid <= 0) {
            double tk = tl_now_ms();
            tg_build_kit(R);       /* the kit's own parts, once for the whole class */
            kit_s = (tl_now_ms() - tk) / 1000.0;
        }
        if ((!R->check || !R->quiet) && (R->kit_build[0] || !R->iso.bwrap))
            fprintf(R->check ? stdout : stderr, "tl-grade: %s%s%s\n", R->kit_build[0] ?
                    "the kit is built once for this run; each submission compiles its own files over it" :
                    R->kit_build_why, R->kit_build[0] && R->kit_archs[0] ? "; GPU code for sm_" : "",
                    R->kit_build[0] ? R->kit_archs : "");
        if (R->kit_build[0] && !R->check)
            fprintf(stderr, "tl-grade: the kit's build took %.1f s%s\n", kit_s,
                    refpid > 0 ? " (the reference's build beside it)" : "");
        if (!R->kit_build[0] && R->iso.bwrap) {
            /* The pristine kit with its skeletons does not build: the grader's problem (a file not
             * in git, a broken kit), never a zero for every student. */
            fprintf(stderr, "tl-grade: not graded: %s\n", R->kit_build_why);
            return EXIT_GRADER;
        }
    }
    if (R->lab->gpu && !R->check && !R->slurm)
        fprintf(stderr, "tl-grade: GPU: %s\n", R->gpu_why);
    if (R->slurm) {
        if (!R->kit_build[0] && R->iso.bwrap) {
            fprintf(stderr, "tl-grade: not submitted: %s\n", R->kit_build_why);
            return EXIT_GRADER;
        }
        close(lock_fd);                /* the tasks take it shared */
        return tg_slurm_submit(R, st, ns);
    }
    /* The students this process grades: all, or a Slurm task's few. */
    int *todo = calloc((size_t)ns + 1, sizeof *todo), ntodo = ns;
    for (int i = 0; i < ns; ++i)
        todo[i] = i;
    if (R->slurm_task && (ntodo = tg_slurm_task_students(R, R->slurm_task, todo, ns, err, sizeof err)) < 0) {
        fprintf(stderr, "tl-grade: not graded: %s\n", err);
        return EXIT_GRADER;
    }
    if (R->slurm_task) {
        R->taken = 1;
        for (int j = 0; j < ntodo; ++j)
            if (todo[j] < 0 || todo[j] >= ns) {
                fprintf(stderr, "tl-grade: not graded: the task list names student %d of %d\n", todo[j], ns);
                return EXIT_GRADER;
            }
        fprintf(stderr, "tl-grade: Slurm task %s of job %s on %s: %d student(s)\n", getenv("SLURM_ARRAY_TASK_ID"),
                getenv("SLURM_ARRAY_JOB_ID") ? getenv("SLURM_ARRAY_JOB_ID") : "?",
                getenv("SLURMD_NODENAME") ? getenv("SLURMD_NODENAME") : "?", ntodo);
        if (R->lab->gpu)
            fprintf(stderr, "tl-grade: GPU: %s\n", R->gpu_why);
    }

    /* The class: up to --jobs submissions at once, each in its own worker process. On a real GPU
     * (gpushare.c): each worker on one device, the one with the fewest workers; a worker waiting
     * for a device's lock does not count against --jobs (up to as many again), so the cores
     * build and count while timed runs queue. */
    double t_start = tl_now_ms();
    int next = 0, running = 0, finished = 0;
    pid_t *pids = calloc((size_t)ns, sizeof *pids);
    int *slots = calloc((size_t)ns, sizeof *slots);
    int on_gpu = R->lab->gpu && R->gpu_ok && !R->emulate && R->iso.gpu_nodes;
    char (*devs)[TG_GPU_ID_LEN] = calloc(TG_GPU_MAX, TG_GPU_ID_LEN);
    int ndev = on_gpu ? tg_gpu_list(getenv("CUDA_VISIBLE_DEVICES"), tg_gpu_nodes(), devs, TG_GPU_MAX) : 0;
    int max_workers = on_gpu && !R->check ? 2 * R->jobs : R->jobs, share_cap = 1;
    int dev_workers[TG_GPU_MAX] = {0}, *dev_of = calloc((size_t)ns, sizeof *dev_of);
    tg_gpu_board *board = on_gpu ? tg_gpu_board_new(ndev) : NULL;
    if (on_gpu) {
        const char *env = getenv("TL_GRADE_GPU_SHARE");
        long long mib = tg_gpu_mem_mib();
        share_cap = env && atoi(env) > 0 ? atoi(env) : tg_gpu_share_cap(mib, (max_workers + (ndev > 0 ? ndev : 1) - 1) /
                                                                                 (ndev > 0 ? ndev : 1));
        if (!R->check)
            fprintf(stderr, "tl-grade: GPUs: %d device(s) (%s%s), each shared by at most %d process(es) (%s), the "
                    "timed runs alone\n", ndev > 0 ? ndev : 1, ndev > 0 ? devs[0] : "the default",
                    ndev > 1 ? " ..." : "", share_cap, env && atoi(env) > 0 ? "TL_GRADE_GPU_SHARE" :
                    mib > 0 ? "device memory / 4 GiB" : "device memory not known: 16 GiB assumed");
    }
    tg_progress *prog = R->check ? NULL : tg_progress_start(R, ntodo, max_workers);
    tg_progress_setup(prog, class_t0, (t_start - class_t0) / 1000.0, tg_profile_cpu_now() - class_cpu0);
    while (finished < ntodo) {
        while (running < max_workers && running - tg_gpu_waiting(board) < R->jobs && next < ntodo) {
            int i = todo[next++];
            char marker[PATH_MAX + 160], why_again[700] = "";
            snprintf(marker, sizeof marker, "%s/%s/.done", R->out, st[i].name);
            char *m = R->check ? NULL : tg_read_file(marker, 256, NULL);
            int named = tg_regrade_named(R, &st[i]);
            if (m && sscanf(m, "%lf %lf %lf", &rows[i].score, &rows[i].max, &rows[i].secs) == 3 &&
                (R->slurm_task || tg_still_fresh(R, &st[i], i < nrun, named, why_again, sizeof why_again))) {
                rows[i].done = 1;
                ++finished;
                char what[PATH_MAX + 400];
                snprintf(what, sizeof what, "%g/%g (graded earlier from the same files, rubric and cases; "
                         "--regrade=NAME grades it again)", rows[i].score, rows[i].max);
                if (prog)
                    tg_progress_done(prog, -1, st[i].name, 2, what);
                free(m);
                continue;
            }
            free(m);
            if (!R->check && i >= nrun && !R->slurm_task && R->regrade != 1 && !named) {
                /* an earlier run's student not graded then: kept with its reason (grade it with
                 * its submission given again, or --regrade) */
                collect_row(R, &st[i], &rows[i], 0);
                ++finished;
                if (prog)
                    tg_progress_done(prog, -1, st[i].name, 1, rows[i].why);
                continue;
            }
            if (why_again[0])
                fprintf(stderr, "tl-grade: %s: %s\n", st[i].display[0] ? st[i].display : st[i].name, why_again);
            unlink(marker);            /* graded again: until it is, it is not graded */
            char od[PATH_MAX + 160];
            snprintf(od, sizeof od, "%s/%s", R->out, st[i].name);
            if (R->check)
                tg_rmtree(od);
            else {                     /* a failure of an earlier run is not this run's */
                snprintf(od, sizeof od, "%s/%s/not-graded.txt", R->out, st[i].name);
                unlink(od);
            }
            fflush(NULL);
            slots[i] = tg_progress_slot(prog, st[i].name);
            int dev = ndev > 1 ? tg_gpu_pick(dev_workers, ndev) : 0;
            pid_t pid = fork();
            if (pid < 0) {
                snprintf(rows[i].why, sizeof rows[i].why, "cannot fork (%s)", strerror(errno));
                ++finished;
                if (prog)
                    tg_progress_done(prog, slots[i], st[i].name, 1, rows[i].why);
                continue;
            }
            if (pid == 0) {
#ifdef __linux__
                prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
                tg_progress_worker(prog, slots[i]);
                close(lock_fd);
                if (on_gpu) {          /* this submission's device: every run of it, and the reference's */
                    char key[160];
                    if (ndev > 0)
                        setenv("CUDA_VISIBLE_DEVICES", devs[dev], 1);
                    tg_gpu_key(getenv("SLURM_JOB_ID"), ndev > 0 ? devs[dev] : "", key, sizeof key);
                    tg_gpu_use(getenv("TL_GRADE_LOCK_DIR"), key, share_cap);
                    tg_gpu_board_join(board, dev);
                }
                double sc, mx, secs;
                char why[600] = "";
                int rc = grade_one(R, &st[i], &sc, &mx, &secs, why, sizeof why);
                tg_stage_end();        /* its last stage into the run's profile */
                if (rc != 0) {
                    char np[PATH_MAX + 160];
                    snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->out, st[i].name);
                    tg_mkdirs(np, 0755);
                    rmdir(np);
                    tg_write_atomic(np, why, strlen(why));
                }
                fflush(NULL);
                _exit(rc);
            }
            pids[i] = pid;
            dev_of[i] = dev;
            dev_workers[dev]++;
            ++running;
        }
        if (running == 0)
            continue;
        int wst;
        pid_t w = waitpid(-1, &wst, prog ? WNOHANG : 0);
        if (w == 0) {                  /* nobody finished: show where the run stands */
            tg_progress_tick(prog);
            struct timespec ts = {0, 200 * 1000 * 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < ns; ++i) {
            if (pids[i] != w)
                continue;
            pids[i] = 0;
            dev_workers[dev_of[i]]--;
            --running;
            ++finished;
            if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0) {
                char np[PATH_MAX + 160];
                snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->out, st[i].name);
                if (!tg_is_file(np)) {
                    const char *why = WIFSIGNALED(wst) ? "the grader's worker died (signal)" : "the grader's worker failed";
                    tg_mkdirs(np, 0755);
                    rmdir(np);
                    tg_write_atomic(np, why, strlen(why));
                }
            }
            collect_row(R, &st[i], &rows[i], 0);
            char what[800];
            if (rows[i].done)
                snprintf(what, sizeof what, "%g/%g (%.1f s)", rows[i].score, rows[i].max, rows[i].secs);
            else
                snprintf(what, sizeof what, "not graded: %s", rows[i].why);
            if (prog)
                tg_progress_done(prog, slots[i], st[i].name, !rows[i].done, what);
            else if (!rows[i].done)
                fprintf(stderr, "[%d/%d] %s ... %s\n", finished, ntodo, st[i].name, what);
        }
    }
    if (prog && !R->slurm_task)
        tg_progress_profile(prog, &R->prof);   /* summary.md's "Where the time went" */
    tg_progress_end(prog);
    free(slots);
    if (R->slurm_task) {               /* the finishing job writes the class's files */
        int bad = 0;
        for (int j = 0; j < ntodo; ++j)
            bad |= !rows[todo[j]].done;
        fprintf(stderr, "tl-grade: Slurm task done: %d student(s) in %.1f s\n", ntodo, (tl_now_ms() - t_start) / 1000.0);
        return bad ? EXIT_GRADER : 0;
    }
    double total_s = (tl_now_ms() - t_start) / 1000.0;
    tg_write_class(R, st, rows, ns, total_s);
    if (!R->check)
        fprintf(stderr, "tl-grade: %s/summary.md, %s/gradebook.csv (%.1f s)\n", R->out, R->out, total_s);
    int any_problem = 0;
    for (int i = 0; i < ns; ++i)
        any_problem |= !rows[i].done;
    if (R->check) {
        /* kit check: exit by the correctness tests of the one submission */
        if (!rows[0].done)
            return EXIT_GRADER;
        snprintf(p, sizeof p, "%s/%s/results.json", R->out, st[0].name);
        cJSON *js = tg_read_results(p);
        int graded = 0, failed = 0;
        for (int i = 0; i < R->lab->ntests; ++i) {
            double sc, mx;
            if (tg_results_test(js, R->lab->tests[i].name, &sc, &mx) == 1) {
                ++graded;
                failed += sc < mx;
            }
        }
        cJSON_Delete(js);
        printf("Score: %g/%g\n", rows[0].score, rows[0].max);
        if (!graded) {
            printf("nothing could be checked here (see above); exit 77\n");
            return TL_EXIT_SKIP;
        }
        return failed ? TL_EXIT_FAIL : TL_EXIT_OK;
    }
    return any_problem ? EXIT_GRADER : 0;
}
