/* run.c: the class run: the out dir and its lock, the seed, the tools, the pristine kit, the cases
 * made once, then up to --jobs worker processes, one per submission (each graded by submission.c),
 * progress lines and resume. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* Is the GPU usable? Ask the reference build (trusted) for a small case. */
static void probe_gpu(grun *R)
{
    if (!R->lab->gpu) {
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "not needed");
        return;
    }
    if (R->opt->emulate) {
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "not used (--emulate)");
        return;
    }
    if (!R->env.iso.gpu_nodes) {
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "no usable CUDA device: no /dev/nvidia* on this machine");
        return;
    }
    if (!R->lab->nvariants) {
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "unknown: /dev/nvidia* present; the lab program says whether it finds a device");
        R->env.gpu_unknown = 1;
        R->env.gpu_ok = 1;
        return;
    }
    if (!R->run.ref_build[0]) {
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "unknown: the reference build failed, so the device was not tried (%s)", R->run.ref_why);
        R->env.gpu_unknown = 1;
        R->env.gpu_ok = 1;   /* let the student binary say whether it finds a device */
        return;
    }
    gsub g;
    memset(&g, 0, sizeof g);
    gstudent probe = {.name = "probe", .display = "probe"};
    g.s = &probe;
    snprintf(g.work, sizeof g.work, "%s/probe", R->run.state);
    tg_mkdirs(g.work, 0700);
    char err[300];
    int si = tg_add_size(R, 16, 16, 16, 2);
    if (si < 0 || tg_prepare_size(&R->run.sizes[si], err, sizeof err) != 0)
        return;
    gsess ss = {.build = R->run.ref_build, .binary = R->lab->ref_binary};
    cres r;
    tg_run_case(R, &g, &ss, &R->run.sizes[si], &R->lab->variants[0], 0, 60, &r);
    tg_sess_end(&g, &ss, 1);
    if (r.st == C_PASS) {
        R->env.gpu_ok = 1;
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "a usable CUDA device answered (the reference solution ran a 16x16x16 case)");
    } else {
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "no usable CUDA device: %.250s", r.reason);
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
    snprintf(p, sizeof p, "%s/%s/.done", R->run.out, s->name);
    char *m = tg_read_file(p, 256, NULL);
    memset(row, 0, sizeof *row);
    if (m && sscanf(m, "%lf %lf %lf", &row->score, &row->max, &row->secs) == 3) {
        row->done = 1;
        free(m);
        return;
    }
    free(m);
    snprintf(p, sizeof p, "%s/%s/not-graded.txt", R->run.out, s->name);
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
    int from_list = R->opt->slurm_task || R->opt->slurm_finish;   /* a Slurm job: the list the submit wrote */
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
    if (R->opt->check)
        for (int i = 0; i < ns; ++i)
            snprintf(st[i].name, sizeof st[i].name, "working-tree");
    /* The out dir: ours to write, never inside the kit's solutions or a submission. */
    if (tg_mkdirs(out, 0755) != 0 || !realpath(out, R->run.out)) {
        fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", out, strerror(errno));
        return TL_EXIT_USAGE;
    }
    for (int i = 0; i < ns && !from_list; ++i) {
        if (tg_path_under(R->run.out, st[i].path)) {
            fprintf(stderr, "tl-grade: bad out dir '%s': it lies inside the submission '%s'\n", out, st[i].path);
            return TL_EXIT_USAGE;
        }
    }
    snprintf(R->run.state, sizeof R->run.state, "%s/.state", R->run.out);
    if (tg_mkdirs(R->run.state, 0700) != 0) {
        fprintf(stderr, "tl-grade: bad out dir '%s': cannot make %s (%s)\n", out, R->run.state, strerror(errno));
        return TL_EXIT_USAGE;
    }
    chmod(R->run.state, 0700);
    snprintf(p, sizeof p, "%s/lock", R->run.state);
    lock_fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    /* Slurm tasks share the out dir (each its own students) and wait for a submit to finish; the
     * finishing job waits for them; any other run wants it alone and says so at once. */
    int lock_how = R->opt->slurm_task ? LOCK_SH : R->opt->slurm_finish ? LOCK_EX : LOCK_EX | LOCK_NB;
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
    if (!R->opt->check) {
        char idp[PATH_MAX + 32], rp[PATH_MAX + 32], first[160];
        snprintf(rp, sizeof rp, "%s/rubric.tsv", R->run.state);
        if (from_list && tg_is_file(rp) && tg_rubric_load(R, rp, err, sizeof err) != 0) {   /* the submit's rubric */
            fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", out, err);
            return TL_EXIT_USAGE;
        }
        tg_identity(R, &R->run.ident);
        tg_buf rt = {0}, ident = {0};
        tg_identity_rubric_text(R, &rt);
        snprintf(first, sizeof first, "lab %s secret %016llx", R->lab->id,
                 (unsigned long long)tg_mix64(R->run.seed ^ 0x5EC2E7ull));
        tg_buf_printf(&ident, "%s\nrubric %s %s%s%s\ncases %s\nkit %s\n", first, R->run.ident.rubric, rt.s,
                      R->opt->rubric_file[0] ? "; from " : "", R->opt->rubric_file, R->run.ident.cases, R->run.ident.kit);
        snprintf(idp, sizeof idp, "%s/identity", R->run.state);
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
            int rubric_changed = !tg_record_is(have, "rubric", R->run.ident.rubric, 1);
            int cases_changed = !tg_record_is(have, "cases", R->run.ident.cases, 0);
            if ((rubric_changed || cases_changed) && (from_list || R->opt->regrade != 1)) {
                fprintf(stderr, "tl-grade: out dir '%s' was graded with %s%s%s than this run's:\n"
                        "  then: %.*s\n  now:  rubric %s %s\n", out, rubric_changed ? "another rubric" : "",
                        rubric_changed && cases_changed ? " and " : "", cases_changed ? "other cases" : "",
                        hr ? (int)hrl + 7 : 30, hr ? hr - 7 : "(no rubric recorded: an older tl-grade)",
                        R->run.ident.rubric, rt.s);
                fprintf(stderr, "  One gradebook holds one rubric: %s\n", from_list ?
                        "the out dir changed after this Slurm run was submitted; submit it again" :
                        "pass --regrade to grade every student of the class again with this one, or use another --out");
                free(have);
                return TL_EXIT_USAGE;
            }
            if (hk && !tg_record_is(have, "kit", R->run.ident.kit, 0) && !from_list)
                fprintf(stderr, "tl-grade: note: the kit changed since this class was graded (then %.*s, now %s); the "
                        "students graded in this run are graded by this one (each result records its kit)\n",
                        (int)hkl, hk, R->run.ident.kit);
        }
        int had = have != NULL;
        free(have);
        tg_buf_free(&rt);
        if (from_list && !had) {      /* a Slurm job checks the identity the submit wrote */
            fprintf(stderr, "tl-grade: bad out dir '%s': no %s (submit the run with --slurm)\n", out, idp);
            return TL_EXIT_USAGE;
        }
        if (!from_list && (tg_write_atomic(idp, ident.s, ident.len) != 0 ||
                           (R->opt->rubric_file[0] ? tg_copy_file(R->opt->rubric_file, rp, err, sizeof err) != 0 :
                                                (unlink(rp) != 0 && errno != ENOENT)))) {
            fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s or %s (%s)\n", out, idp, rp, strerror(errno));
            return TL_EXIT_USAGE;
        }
        tg_buf_free(&ident);
        if (R->opt->extensions[0] && !from_list) {      /* kept beside the seed: Slurm's tasks read it there */
            char ex[PATH_MAX + 32];
            snprintf(ex, sizeof ex, "%s/extensions.csv", R->run.state);
            if (strcmp(R->opt->extensions, ex) != 0 && tg_copy_file(R->opt->extensions, ex, err, sizeof err) != 0) {
                fprintf(stderr, "tl-grade: --extensions: %s\n", err);
                return TL_EXIT_USAGE;
            }
        }
        if (R->opt->roster[0] && !from_list) {          /* kept: later runs and Slurm's last job export with it */
            char ro[PATH_MAX + 32];
            snprintf(ro, sizeof ro, "%s/roster.csv", R->run.state);
            if (tg_copy_file(R->opt->roster, ro, err, sizeof err) != 0) {
                fprintf(stderr, "tl-grade: --roster: %s\n", err);
                return TL_EXIT_USAGE;
            }
        }
        if (R->opt->slurm && secret) {      /* the tasks read the seed here: DIR/.state is 0700, the seed 0600 */
            char sp[PATH_MAX + 32], line[64];
            int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)R->run.seed);
            snprintf(sp, sizeof sp, "%s/seed", R->run.state);
            if (tg_write_atomic(sp, line, (size_t)n) != 0 || chmod(sp, 0600) != 0) {
                fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s (%s)\n", out, sp, strerror(errno));
                return TL_EXIT_USAGE;
            }
        }
        if (R->opt->from_kind[0] && !from_list) {   /* the students a course's export names (lms.c) */
            char stage[PATH_MAX + 32];
            tg_buf rep = {0};
            snprintf(stage, sizeof stage, "%s/intake", R->run.state);
            free(st);
            st = NULL;
            if (tg_lms_collect(R->opt->from_kind, R->opt->from_source, R->opt->name_pattern, stage, &st, &ns, &rep, err,
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
            if (tg_students_load(R->run.out, &old, &nold, e2, sizeof e2) == 0 && nold > 0) {
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
    if (R->opt->slurm_finish) {             /* the dependent job: every task has ended, whatever became of it */
        tg_iso_probe(&R->env.iso);
        snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "each Slurm task's own (results.json of each student says)");
        for (int i = 0; i < ns; ++i) {
            collect_row(R, &st[i], &rows[i], 1);
            char np[PATH_MAX + 160];
            snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->run.out, st[i].name);
            if (!rows[i].done && !tg_is_file(np)) {   /* said once, for --status and the next submit */
                tg_mkdirs(np, 0755);
                rmdir(np);
                tg_write_atomic(np, rows[i].why, strlen(rows[i].why));
            }
        }
        tg_write_class(R, st, rows, ns, 0);
        fprintf(stderr, "tl-grade: %s/summary.md, %s/gradebook.csv\n", R->run.out, R->run.out);
        return 0;
    }
    int prebuilt = R->opt->prebuilt[0] || R->opt->build_log[0];   /* kit check built it: no tools, no copy */
    if (!prebuilt &&
        (tg_find_tool("meson", R->env.meson, sizeof R->env.meson) != 0 || tg_find_tool("ninja", R->env.ninja, sizeof R->env.ninja) != 0)) {
        fprintf(stderr, "tl-grade: not graded: build tool missing (%s not found on PATH); install meson and ninja\n",
                R->env.meson[0] ? "ninja" : "meson");
        return EXIT_GRADER;
    }
    char nvcc[PATH_MAX] = "";
    /* The sandbox's scrubbed PATH must still find the build tools the grader found (on the GPU
     * server meson and ninja live in a virtualenv, not /usr/bin): their folders go first. */
    const char *tools[3] = {R->env.meson, R->env.ninja, NULL};
    if (tg_find_tool("nvcc", nvcc, sizeof nvcc) == 0)
        tools[2] = nvcc;
    for (int t = 2; t >= 0; --t) {
        if (!tools[t] || !strrchr(tools[t], '/'))
            continue;
        size_t dl = (size_t)(strrchr(tools[t], '/') - tools[t]), used = strlen(R->env.tool_path);
        if (used + dl + 2 < sizeof R->env.tool_path)
            snprintf(R->env.tool_path + used, sizeof R->env.tool_path - used, "%s%.*s", used ? ":" : "", (int)dl, tools[t]);
    }
    /* Graded emulated, a GPU lab needs the host compilers only (the emulated program is its one
     * build; the object gate reads its object): no nvcc is then no reason to refuse (Gradescope). */
    if (R->lab->gpu && !nvcc[0] && !prebuilt && R->opt->emulate && R->lab->emu_target)
        R->env.no_nvcc = 1;
    else if (R->lab->gpu && !nvcc[0] && !prebuilt) {
        fprintf(stderr, "tl-grade: not graded: lab %s needs nvcc to build, and none is on PATH or in /usr/local/cuda/bin\n",
                R->lab->id);
        return EXIT_GRADER;
    }
    tg_find_tool("compute-sanitizer", R->env.sanitizer, sizeof R->env.sanitizer);
    tg_iso_probe(&R->env.iso);
    snprintf(R->env.iso.grant, sizeof R->env.iso.grant, "%s", R->run.state);   /* binds from here reach uid 65534 */
    if (!tg_iso_contained(&R->env.iso)) {
        /* Without filesystem and pid isolation a submission reads the seed and the solutions and
         * forges other students' results: grading needs the instructor's explicit word. */
        if (!R->opt->check && !R->opt->unsafe_no_sandbox) {
            fprintf(stderr, "tl-grade: refusing to grade without a sandbox: %s\n"
                    "  %s\n  Install bubblewrap (./kit setup, or apt-get install bubblewrap) and check that user namespaces "
                    "work, or pass --unsafe-no-sandbox to grade anyway (every report then says so).\n",
                    R->env.iso.desc, R->env.iso.notes);
            return TL_EXIT_USAGE;
        }
        char d[sizeof R->env.iso.desc];
        snprintf(d, sizeof d, "%s", R->env.iso.desc);
        snprintf(R->env.iso.desc, sizeof R->env.iso.desc, "UNSAFE (%s): %s",
                 R->opt->check ? "kit check, the student's own code" : "--unsafe-no-sandbox", d);
    }
    /* The lab table says which labs have an emulated build (labs/emulated builds every one it
     * marks); the kit graded must hold that build's folder. */
    snprintf(p, sizeof p, "%s/labs/emulated/meson.build", R->opt->root);
    R->env.have_emu_target = R->lab->emu_target && tg_is_file(p);
    if (!R->opt->check || !R->opt->quiet) {
        fprintf(R->opt->check ? stdout : stderr, "tl-grade: lab %s, %d submission(s), isolation: %s\n", R->lab->id, ns, R->env.iso.desc);
        if (R->env.iso.notes[0] && !R->opt->check)
            fprintf(stderr, "tl-grade: isolation notes: %s\n", R->env.iso.notes);
    }
    /* The pristine kit, copied fresh each run (kit check with a prebuilt program needs none). */
    snprintf(R->run.pristine, sizeof R->run.pristine, "%s/pristine", R->run.state);
    if (R->opt->slurm_task) {               /* prepared by the submit: shared by every task, read-only */
        if (tg_slurm_load_prepared(R, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    } else {
        tg_rmtree(R->run.pristine);
    }
    if (!prebuilt && !R->opt->slurm_task) {
        int nfiles;
        if (tg_copy_pristine(R->opt->root, R->run.pristine, R->opt->check, &nfiles, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: not graded: cannot copy the kit: %s\n", err);
            return EXIT_GRADER;
        }
        snprintf(p, sizeof p, "%s/labs/%s/meson.build", R->run.pristine, R->lab->dir);
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
    if (!R->opt->public_only) {
        tg_make_hidden_sizes(R);
        /* The safety and speed cases too: computed once here, not once per worker. */
        const char *extra[2] = {R->lab->gpu ? R->lab->safety_sizes : NULL,
                                R->lab->gpu && !R->opt->emulate && R->env.iso.gpu_nodes ? R->lab->speed_size : NULL};
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
    int want_ref = !R->opt->slurm_task && R->lab->gpu && !R->opt->public_only && !R->opt->emulate && (R->env.iso.gpu_nodes || R->opt->slurm) &&
                   R->lab->speed_size && R->lab->nvariants;
    pid_t refpid = -1;
    if (want_ref && !R->opt->slurm && !prebuilt) {
        fflush(NULL);
        if ((refpid = fork()) == 0) {
            tg_build_reference(R);
            _exit(R->run.ref_build[0] ? 0 : 1);
        }
    }
    /* A GPU lab graded here without a GPU runs emulated: sizes above R->opt->emu_max_work are not run
     * there, so their inputs and references are not made (a 4096^3 reference takes minutes). */
    int likely_emulated = R->lab->gpu && (R->opt->emulate || !R->env.iso.gpu_nodes);
    tl_reference_gpu_hold(1);          /* one GPU context for all the large references */
    for (int i = 0; i < R->run.nsizes; ++i)
        if (!R->opt->slurm &&               /* the submit only prepares the build; its tasks make the cases */
            !(likely_emulated && (double)R->run.sizes[i].m * R->run.sizes[i].k * R->run.sizes[i].n > R->opt->emu_max_work) &&
            tg_prepare_size(&R->run.sizes[i], err, sizeof err) != 0) {
            tl_reference_gpu_hold(0);
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    tl_reference_gpu_hold(0);          /* given back before any student's program runs */
    double kit_s = 0;
    if (refpid > 0) {                  /* the kit's build beside the reference's: for this device */
        double tk = tl_now_ms();
        R->env.gpu_ok = 1;                 /* (its architecture and targets; the probe below decides) */
        tg_build_kit(R);
        R->env.gpu_ok = 0;
        kit_s = (tl_now_ms() - tk) / 1000.0;
        int wst;
        while (waitpid(refpid, &wst, 0) < 0 && errno == EINTR)
            ;
        if (WIFEXITED(wst) && WEXITSTATUS(wst) == 0)
            snprintf(R->run.ref_build, sizeof R->run.ref_build, "%s/refbuild", R->run.state);
        else
            tg_build_reference(R);     /* again here, for its reason (a failed build fails fast) */
    } else if (want_ref) {
        tg_build_reference(R);
    } else if (!R->opt->slurm_task) {
        snprintf(R->run.ref_why, sizeof R->run.ref_why, "not needed in this run");
    }
    if (!R->opt->slurm)
        probe_gpu(R);
    if (!R->opt->slurm && R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && !prebuilt) {
        tg_counters_probe(R);   /* ncu tried on the reference in the sandbox, once (counters.c) */
        if (R->env.ncu_ok || R->env.ncu_why[0])
            fprintf(stderr, "tl-grade: the GPU's counters (ncu %s): %s%s\n", R->env.ncu[0] ? R->env.ncu : "none",
                    R->env.ncu_ok ? "read in the sandbox; the reference's " : "not checked here: ",
                    R->env.ncu_ok ? R->env.ncu_ref : R->env.ncu_why);
    }
    if (!prebuilt && !R->opt->slurm_task) {
        if (refpid <= 0) {
            double tk = tl_now_ms();
            tg_build_kit(R);       /* the kit's own parts, once for the whole class */
            kit_s = (tl_now_ms() - tk) / 1000.0;
        }
        if ((!R->opt->check || !R->opt->quiet) && (R->run.kit_build[0] || !R->env.iso.bwrap))
            fprintf(R->opt->check ? stdout : stderr, "tl-grade: %s%s%s\n", R->run.kit_build[0] ?
                    "the kit is built once for this run; each submission compiles its own files over it" :
                    R->run.kit_build_why, R->run.kit_build[0] && R->run.kit_archs[0] ? "; GPU code for sm_" : "",
                    R->run.kit_build[0] ? R->run.kit_archs : "");
        if (R->run.kit_build[0] && !R->opt->check)
            fprintf(stderr, "tl-grade: the kit's build took %.1f s%s\n", kit_s,
                    refpid > 0 ? " (the reference's build beside it)" : "");
        if (!R->run.kit_build[0] && R->env.iso.bwrap) {
            /* The pristine kit with its skeletons does not build: the grader's problem (a file not
             * in git, a broken kit), never a zero for every student. */
            fprintf(stderr, "tl-grade: not graded: %s\n", R->run.kit_build_why);
            return EXIT_GRADER;
        }
    }
    if (R->lab->gpu && !R->opt->check && !R->opt->slurm)
        fprintf(stderr, "tl-grade: GPU: %s\n", R->env.gpu_why);
    if (R->opt->slurm) {
        if (!R->run.kit_build[0] && R->env.iso.bwrap) {
            fprintf(stderr, "tl-grade: not submitted: %s\n", R->run.kit_build_why);
            return EXIT_GRADER;
        }
        close(lock_fd);                /* the tasks take it shared */
        return tg_slurm_submit(R, st, ns);
    }
    /* The students this process grades: all, or a Slurm task's few. */
    int *todo = calloc((size_t)ns + 1, sizeof *todo), ntodo = ns;
    for (int i = 0; i < ns; ++i)
        todo[i] = i;
    if (R->opt->slurm_task && (ntodo = tg_slurm_task_students(R, R->opt->slurm_task, todo, ns, err, sizeof err)) < 0) {
        fprintf(stderr, "tl-grade: not graded: %s\n", err);
        return EXIT_GRADER;
    }
    if (R->opt->slurm_task) {
        R->run.taken = 1;
        for (int j = 0; j < ntodo; ++j)
            if (todo[j] < 0 || todo[j] >= ns) {
                fprintf(stderr, "tl-grade: not graded: the task list names student %d of %d\n", todo[j], ns);
                return EXIT_GRADER;
            }
        fprintf(stderr, "tl-grade: Slurm task %s of job %s on %s: %d student(s)\n", getenv("SLURM_ARRAY_TASK_ID"),
                getenv("SLURM_ARRAY_JOB_ID") ? getenv("SLURM_ARRAY_JOB_ID") : "?",
                getenv("SLURMD_NODENAME") ? getenv("SLURMD_NODENAME") : "?", ntodo);
        if (R->lab->gpu)
            fprintf(stderr, "tl-grade: GPU: %s\n", R->env.gpu_why);
    }

    /* The class: up to --jobs submissions at once, each in its own worker process. On a real GPU
     * (gpushare.c): each worker on one device, the one with the fewest workers; a worker waiting
     * for a device's lock does not count against --jobs (up to as many again), so the cores
     * build and count while timed runs queue. */
    double t_start = tl_now_ms();
    int next = 0, running = 0, finished = 0;
    pid_t *pids = calloc((size_t)ns, sizeof *pids);
    int *slots = calloc((size_t)ns, sizeof *slots);
    int on_gpu = R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && R->env.iso.gpu_nodes;
    char (*devs)[TG_GPU_ID_LEN] = calloc(TG_GPU_MAX, TG_GPU_ID_LEN);
    int ndev = on_gpu ? tg_gpu_list(getenv("CUDA_VISIBLE_DEVICES"), tg_gpu_nodes(), devs, TG_GPU_MAX) : 0;
    int max_workers = on_gpu && !R->opt->check ? 2 * R->opt->jobs : R->opt->jobs, share_cap = 1;
    int dev_workers[TG_GPU_MAX] = {0}, *dev_of = calloc((size_t)ns, sizeof *dev_of);
    tg_gpu_board *board = on_gpu ? tg_gpu_board_new(ndev) : NULL;
    if (on_gpu) {
        const char *env = getenv("TL_GRADE_GPU_SHARE");
        long long mib = tg_gpu_mem_mib();
        share_cap = env && atoi(env) > 0 ? atoi(env) : tg_gpu_share_cap(mib, (max_workers + (ndev > 0 ? ndev : 1) - 1) /
                                                                                 (ndev > 0 ? ndev : 1));
        if (!R->opt->check)
            fprintf(stderr, "tl-grade: GPUs: %d device(s) (%s%s), each shared by at most %d process(es) (%s), the "
                    "timed runs alone\n", ndev > 0 ? ndev : 1, ndev > 0 ? devs[0] : "the default",
                    ndev > 1 ? " ..." : "", share_cap, env && atoi(env) > 0 ? "TL_GRADE_GPU_SHARE" :
                    mib > 0 ? "device memory / 4 GiB" : "device memory not known: 16 GiB assumed");
    }
    tg_progress *prog = R->opt->check ? NULL : tg_progress_start(R, ntodo, max_workers);
    tg_progress_setup(prog, class_t0, (t_start - class_t0) / 1000.0, tg_profile_cpu_now() - class_cpu0);
    while (finished < ntodo) {
        while (running < max_workers && running - tg_gpu_waiting(board) < R->opt->jobs && next < ntodo) {
            int i = todo[next++];
            char marker[PATH_MAX + 160], why_again[700] = "";
            snprintf(marker, sizeof marker, "%s/%s/.done", R->run.out, st[i].name);
            char *m = R->opt->check ? NULL : tg_read_file(marker, 256, NULL);
            int named = tg_regrade_named(R, &st[i]);
            if (m && sscanf(m, "%lf %lf %lf", &rows[i].score, &rows[i].max, &rows[i].secs) == 3 &&
                (R->opt->slurm_task || tg_still_fresh(R, &st[i], i < nrun, named, why_again, sizeof why_again))) {
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
            if (!R->opt->check && i >= nrun && !R->opt->slurm_task && R->opt->regrade != 1 && !named) {
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
            snprintf(od, sizeof od, "%s/%s", R->run.out, st[i].name);
            if (R->opt->check)
                tg_rmtree(od);
            else {                     /* a failure of an earlier run is not this run's */
                snprintf(od, sizeof od, "%s/%s/not-graded.txt", R->run.out, st[i].name);
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
                int rc = tg_grade_one(R, &st[i], &sc, &mx, &secs, why, sizeof why);
                tg_stage_end();        /* its last stage into the run's profile */
                if (rc != 0) {
                    char np[PATH_MAX + 160];
                    snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->run.out, st[i].name);
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
                snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->run.out, st[i].name);
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
    if (prog && !R->opt->slurm_task)
        tg_progress_profile(prog, &R->run.prof);   /* summary.md's "Where the time went" */
    tg_progress_end(prog);
    free(slots);
    if (R->opt->slurm_task) {               /* the finishing job writes the class's files */
        int bad = 0;
        for (int j = 0; j < ntodo; ++j)
            bad |= !rows[todo[j]].done;
        fprintf(stderr, "tl-grade: Slurm task done: %d student(s) in %.1f s\n", ntodo, (tl_now_ms() - t_start) / 1000.0);
        return bad ? EXIT_GRADER : 0;
    }
    double total_s = (tl_now_ms() - t_start) / 1000.0;
    tg_write_class(R, st, rows, ns, total_s);
    if (!R->opt->check)
        fprintf(stderr, "tl-grade: %s/summary.md, %s/gradebook.csv (%.1f s)\n", R->run.out, R->run.out, total_s);
    int any_problem = 0;
    for (int i = 0; i < ns; ++i)
        any_problem |= !rows[i].done;
    if (R->opt->check) {
        /* kit check: exit by the correctness tests of the one submission */
        if (!rows[0].done)
            return EXIT_GRADER;
        snprintf(p, sizeof p, "%s/%s/results.json", R->run.out, st[0].name);
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
