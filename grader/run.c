/* run.c: the class run, as named steps (tg_class_run at the end reads as their list): the students,
 * the out dir and its lock, the seed, the class as the out dir knows it (identity, earlier runs'
 * students), the tools, the sandbox, the pristine kit, the cases made once, the shared builds and
 * the GPU, then up to --jobs worker processes, one per submission (each graded by submission.c),
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cjson/cJSON.h>

#include "classrun.h"
#include "grade.h"
#include "policy.h"
#include "proc.h"
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


/* ------------------------------------------------------------ the class run, step by step */


/* The students: the Slurm submit's list, or the submissions given (each must exist), named. */
static int take_students(crun *c, char **subs)
{
    grun *R = c->R;
    char err[800];
    c->from_list = R->opt->slurm_task || R->opt->slurm_finish;
    if (c->from_list) {
        char o[PATH_MAX];
        if (!realpath(c->out, o) || tg_students_load(o, &c->st, &c->ns, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", c->out, tg_is_dir(c->out) ? err : "no such folder");
            return TL_EXIT_USAGE;
        }
    } else {
        c->st = calloc((size_t)c->ns, sizeof *c->st);
    }
    c->rows = calloc((size_t)c->ns, sizeof *c->rows);
    for (int i = 0; i < c->ns && !c->from_list; ++i) {
        const char *sp = subs[i];
        struct stat sb;
        if (stat(sp, &sb) != 0) {
            fprintf(stderr, "tl-grade: submission '%s' is missing (%s)\n", sp, strerror(errno));
            return TL_EXIT_USAGE;
        }
        if (!realpath(sp, c->st[i].path)) {
            fprintf(stderr, "tl-grade: cannot resolve '%s'\n", sp);
            return TL_EXIT_USAGE;
        }
        /* a tab or a newline in the name: graded under a safe folder name (tg_student_names), the
         * reports carrying the original; students.tsv escapes them */
    }
    tg_student_names(c->st, c->ns);      /* stable whatever the order; never a class file's name */
    c->nrun = c->ns;                     /* this run's students; after them, earlier runs' */
    if (R->opt->check)
        for (int i = 0; i < c->ns; ++i)
            snprintf(c->st[i].name, sizeof c->st[i].name, "working-tree");
    return 0;
}

/* The out dir: ours to write, never inside a submission; its .state (0700) and its lock. Slurm
 * tasks share the out dir (each its own students) and wait for a submit to finish; the finishing
 * job waits for them; any other run wants it alone and says so at once. */
static int open_out_dir(crun *c)
{
    grun *R = c->R;
    if (tg_mkdirs(c->out, 0755) != 0 || !realpath(c->out, R->run.out)) {
        fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", c->out, strerror(errno));
        return TL_EXIT_USAGE;
    }
    for (int i = 0; i < c->ns && !c->from_list; ++i) {
        if (tg_path_under(R->run.out, c->st[i].path)) {
            fprintf(stderr, "tl-grade: bad out dir '%s': it lies inside the submission '%s'\n", c->out, c->st[i].path);
            return TL_EXIT_USAGE;
        }
    }
    snprintf(R->run.state, sizeof R->run.state, "%s/.state", R->run.out);
    if (tg_mkdirs(R->run.state, 0700) != 0) {
        fprintf(stderr, "tl-grade: bad out dir '%s': cannot make %s (%s)\n", c->out, R->run.state, strerror(errno));
        return TL_EXIT_USAGE;
    }
    chmod(R->run.state, 0700);
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/lock", R->run.state);
    c->lock_fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    int lock_how = R->opt->slurm_task ? LOCK_SH : R->opt->slurm_finish ? LOCK_EX : LOCK_EX | LOCK_NB;
    int locked = -1;
    while (c->lock_fd >= 0 && (locked = flock(c->lock_fd, lock_how)) != 0 && errno == EINTR)
        ;
    if (c->lock_fd < 0 || locked != 0) {
        fprintf(stderr, "tl-grade: another tl-grade is writing to '%s'; wait for it or use another --out\n", c->out);
        return TL_EXIT_USAGE;
    }
    return 0;
}

/* An identity the out dir holds (have) against this run's: another lab or secret is refused; so is
 * another rubric or other cases, unless --regrade grades the whole class again (never in a Slurm
 * job); another kit is a note. rt: this run's rubric in words. */
static int same_identity(crun *c, const char *have, const char *first, const char *rt)
{
    grun *R = c->R;
    if (strcspn(have, "\n") != strlen(first) || memcmp(have, first, strlen(first)) != 0) {
        fprintf(stderr, "tl-grade: bad out dir '%s': it holds results of another run (%.*s), not lab %s with "
                "this secret; use another --out, or give the same --secret\n", c->out, (int)strcspn(have, "\n"), have,
                R->lab->id);
        return TL_EXIT_USAGE;
    }
    size_t hrl, hkl;                   /* the identity's lines (ident.c's record) */
    const char *hr = tg_record_value(have, "rubric", &hrl), *hk = tg_record_value(have, "kit", &hkl);
    int rubric_changed = !tg_record_is(have, "rubric", R->run.ident.rubric, 1);
    int cases_changed = !tg_record_is(have, "cases", R->run.ident.cases, 0);
    if ((rubric_changed || cases_changed) && (c->from_list || R->opt->regrade != 1)) {
        fprintf(stderr, "tl-grade: out dir '%s' was graded with %s%s%s than this run's:\n"
                "  then: %.*s\n  now:  rubric %s %s\n", c->out, rubric_changed ? "another rubric" : "",
                rubric_changed && cases_changed ? " and " : "", cases_changed ? "other cases" : "",
                hr ? (int)hrl + 7 : 30, hr ? hr - 7 : "(no rubric recorded: an older tl-grade)",
                R->run.ident.rubric, rt);
        fprintf(stderr, "  One gradebook holds one rubric: %s\n", c->from_list ?
                "the out dir changed after this Slurm run was submitted; submit it again" :
                "pass --regrade to grade every student of the class again with this one, or use another --out");
        return TL_EXIT_USAGE;
    }
    if (hk && !tg_record_is(have, "kit", R->run.ident.kit, 0) && !c->from_list)
        fprintf(stderr, "tl-grade: note: the kit changed since this class was graded (then %.*s, now %s); the "
                "students graded in this run are graded by this one (each result records its kit)\n",
                (int)hkl, hk, R->run.ident.kit);
    return 0;
}

/* An out dir belongs to one lab and one secret: finished results of another must never be taken
 * for this run's. The secret is kept as a fingerprint only. It also holds one rubric and one set of
 * cases (ident.c), so one gradebook never mixes two rubrics. A Slurm job checks what its submit
 * wrote (and grades with the submit's rubric); any other run writes it. */
static int keep_identity(crun *c)
{
    grun *R = c->R;
    char idp[PATH_MAX + 32], rp[PATH_MAX + 32], first[160], err[800];
    snprintf(rp, sizeof rp, "%s/rubric.tsv", R->run.state);
    if (c->from_list && tg_is_file(rp) && tg_rubric_load(R, rp, err, sizeof err) != 0) {   /* the submit's rubric */
        fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", c->out, err);
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
    int rc = have ? same_identity(c, have, first, rt.s) : 0;
    int had = have != NULL;
    free(have);
    tg_buf_free(&rt);
    if (rc)
        return rc;
    if (c->from_list && !had) {       /* a Slurm job checks the identity the submit wrote */
        fprintf(stderr, "tl-grade: bad out dir '%s': no %s (submit the run with --slurm)\n", c->out, idp);
        return TL_EXIT_USAGE;
    }
    if (!c->from_list && (tg_write_atomic(idp, ident.s, ident.len) != 0 ||
                          (R->opt->rubric_file[0] ? tg_copy_file(R->opt->rubric_file, rp, err, sizeof err) != 0 :
                                                    (unlink(rp) != 0 && errno != ENOENT)))) {
        fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s or %s (%s)\n", c->out, idp, rp, strerror(errno));
        return TL_EXIT_USAGE;
    }
    tg_buf_free(&ident);
    return 0;
}

/* What later runs and Slurm's tasks read from DIR/.state: the extensions, the roster, the seed
 * (DIR/.state is 0700, the seed 0600). A Slurm job only reads them. */
static int keep_inputs(crun *c)
{
    grun *R = c->R;
    char err[800];
    if (R->opt->extensions[0] && !c->from_list) {     /* kept beside the seed: Slurm's tasks read it there */
        char ex[PATH_MAX + 32];
        snprintf(ex, sizeof ex, "%s/extensions.csv", R->run.state);
        if (strcmp(R->opt->extensions, ex) != 0 && tg_copy_file(R->opt->extensions, ex, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: --extensions: %s\n", err);
            return TL_EXIT_USAGE;
        }
    }
    if (R->opt->roster[0] && !c->from_list) {         /* kept: later runs and Slurm's last job export with it */
        char ro[PATH_MAX + 32];
        snprintf(ro, sizeof ro, "%s/roster.csv", R->run.state);
        if (tg_copy_file(R->opt->roster, ro, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: --roster: %s\n", err);
            return TL_EXIT_USAGE;
        }
    }
    if (R->opt->slurm && c->secret) {                 /* the tasks read the seed here */
        char sp[PATH_MAX + 32], line[64];
        int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)R->run.seed);
        snprintf(sp, sizeof sp, "%s/seed", R->run.state);
        if (tg_write_atomic(sp, line, (size_t)n) != 0 || chmod(sp, 0600) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s (%s)\n", c->out, sp, strerror(errno));
            return TL_EXIT_USAGE;
        }
    }
    return 0;
}

/* --from KIND SOURCE: the students a course's export names (lms.c), in place of those given. */
static int export_students(crun *c)
{
    grun *R = c->R;
    char stage[PATH_MAX + 32], err[800];
    tg_buf rep = {0};
    snprintf(stage, sizeof stage, "%s/intake", R->run.state);
    free(c->st);
    c->st = NULL;
    if (tg_lms_collect(R->opt->from_kind, R->opt->from_source, R->opt->name_pattern, stage, &c->st, &c->ns, &rep, err,
                       sizeof err) != 0) {
        fprintf(stderr, "tl-grade: %s\n", err);
        tg_buf_free(&rep);
        return TL_EXIT_USAGE;
    }
    tg_student_names(c->st, c->ns);
    c->nrun = c->ns;
    free(c->rows);
    c->rows = calloc((size_t)c->ns + 1, sizeof *c->rows);
    tg_lms_intake_report(R, c->st, c->ns, &rep);
    tg_buf_free(&rep);
    return 0;
}

/* The class is the out dir: the students an earlier run graded here stay in it (their results,
 * their rows), after this run's; a student given again is this run's. Then the list is written. */
static int add_earlier_students(crun *c)
{
    grun *R = c->R;
    gstudent *old = NULL;
    int nold = 0;
    char e2[400];
    if (tg_students_load(R->run.out, &old, &nold, e2, sizeof e2) == 0 && nold > 0) {
        gstudent *all = realloc(c->st, (size_t)(c->ns + nold + 1) * sizeof *c->st);
        srow *rall = realloc(c->rows, (size_t)(c->ns + nold + 1) * sizeof *c->rows);
        if (all)
            c->st = all;
        if (rall)
            c->rows = rall;
        for (int k = 0; all && rall && k < nold; ++k) {
            int dup = 0;
            for (int j = 0; j < c->nrun && !dup; ++j)
                dup = strcmp(c->st[j].name, old[k].name) == 0;
            if (!dup) {
                c->st[c->ns] = old[k];
                memset(&c->rows[c->ns], 0, sizeof c->rows[c->ns]);
                ++c->ns;
            }
        }
    }
    free(old);
    for (int i = 0; i < c->nrun; ++i)
        tg_submission_time(&c->st[i]);           /* late.c: the file's own time where the export gave none */
    if (tg_students_write(R, c->st, c->ns) != 0) {
        fprintf(stderr, "tl-grade: bad out dir '%s': cannot write the student list (%s)\n", c->out, strerror(errno));
        return TL_EXIT_USAGE;
    }
    return 0;
}

/* The class as the out dir knows it (not kit check, whose out dir is its own): identity, kept
 * inputs, the export's students, earlier runs' students. */
static int the_class(crun *c)
{
    int rc;
    if ((rc = keep_identity(c)) != 0 || (rc = keep_inputs(c)) != 0)
        return rc;
    if (c->from_list)
        return 0;
    if (c->R->opt->from_kind[0] && (rc = export_students(c)) != 0)
        return rc;
    return add_earlier_students(c);
}

/* --slurm-finish, the dependent job: every task has ended, whatever became of it. The rows from
 * what the tasks left; a student with neither result nor reason gets one, said once. */
static int slurm_finish(crun *c)
{
    grun *R = c->R;
    tg_iso_probe(&R->env.iso);
    snprintf(R->env.gpu_why, sizeof R->env.gpu_why, "each Slurm task's own (results.json of each student says)");
    for (int i = 0; i < c->ns; ++i) {
        tg_collect_row(R, &c->st[i], &c->rows[i], 1);
        char np[PATH_MAX + 160];
        snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->run.out, c->st[i].name);
        if (!c->rows[i].done && !tg_is_file(np)) {   /* for --status and the next submit */
            tg_mkdirs(np, 0755);
            rmdir(np);
            tg_write_atomic(np, c->rows[i].why, strlen(c->rows[i].why));
        }
    }
    tg_write_class(R, c->st, c->rows, c->ns, 0);
    fprintf(stderr, "tl-grade: %s/summary.md, %s/gradebook.csv\n", R->run.out, R->run.out);
    return 0;
}

/* meson, ninja, nvcc and compute-sanitizer on PATH. The sandbox's scrubbed PATH must still find
 * the build tools the grader found (on the GPU server meson and ninja live in a virtualenv, not
 * /usr/bin): their folders go first. Graded emulated, a GPU lab needs the host compilers only (the
 * emulated program is its one build; the object gate reads its object): no nvcc is then no reason
 * to refuse (Gradescope). */
static int find_tools(crun *c)
{
    grun *R = c->R;
    tg_env *E = &R->env;
    if (!c->prebuilt && (tg_find_tool("meson", E->meson, sizeof E->meson) != 0 ||
                         tg_find_tool("ninja", E->ninja, sizeof E->ninja) != 0)) {
        fprintf(stderr, "tl-grade: not graded: build tool missing (%s not found on PATH); install meson and ninja\n",
                E->meson[0] ? "ninja" : "meson");
        return EXIT_GRADER;
    }
    char nvcc[PATH_MAX] = "";
    const char *tools[3] = {E->meson, E->ninja, NULL};
    if (tg_find_tool("nvcc", nvcc, sizeof nvcc) == 0)
        tools[2] = nvcc;
    for (int t = 2; t >= 0; --t) {
        if (!tools[t] || !strrchr(tools[t], '/'))
            continue;
        size_t dl = (size_t)(strrchr(tools[t], '/') - tools[t]), used = strlen(E->tool_path);
        if (used + dl + 2 < sizeof E->tool_path)
            snprintf(E->tool_path + used, sizeof E->tool_path - used, "%s%.*s", used ? ":" : "", (int)dl, tools[t]);
    }
    if (R->lab->gpu && !nvcc[0] && !c->prebuilt && R->opt->emulate && R->lab->emu_target)
        E->no_nvcc = 1;
    else if (R->lab->gpu && !nvcc[0] && !c->prebuilt) {
        fprintf(stderr, "tl-grade: not graded: lab %s needs nvcc to build, and none is on PATH or in /usr/local/cuda/bin\n",
                R->lab->id);
        return EXIT_GRADER;
    }
    tg_find_tool("compute-sanitizer", E->sanitizer, sizeof E->sanitizer);
    return 0;
}

/* The sandbox this machine offers. Without filesystem and pid isolation a submission reads the
 * seed and the solutions and forges other students' results: grading needs the instructor's
 * explicit word (kit check runs the student's own code). */
static int probe_sandbox(crun *c)
{
    grun *R = c->R;
    tg_iso *iso = &R->env.iso;
    tg_iso_probe(iso);
    snprintf(iso->grant, sizeof iso->grant, "%s", R->run.state);   /* binds from here reach uid 65534 */
    if (!tg_iso_contained(iso)) {
        if (!R->opt->check && !R->opt->unsafe_no_sandbox) {
            fprintf(stderr, "tl-grade: refusing to grade without a sandbox: %s\n"
                    "  %s\n  Install bubblewrap (./kit setup, or apt-get install bubblewrap) and check that user namespaces "
                    "work, or pass --unsafe-no-sandbox to grade anyway (every report then says so).\n",
                    iso->desc, iso->notes);
            return TL_EXIT_USAGE;
        }
        char d[sizeof iso->desc];
        snprintf(d, sizeof d, "%s", iso->desc);
        snprintf(iso->desc, sizeof iso->desc, "UNSAFE (%s): %s",
                 R->opt->check ? "kit check, the student's own code" : "--unsafe-no-sandbox", d);
    }
    /* The lab table says which labs have an emulated build (labs/emulated builds every one it
     * marks); the kit graded must hold that build's folder. */
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/labs/emulated/meson.build", R->opt->root);
    R->env.have_emu_target = R->lab->emu_target && tg_is_file(p);
    if (!R->opt->check || !R->opt->quiet) {
        fprintf(R->opt->check ? stdout : stderr, "tl-grade: lab %s, %d submission(s), isolation: %s\n", R->lab->id,
                c->ns, iso->desc);
        if (iso->notes[0] && !R->opt->check)
            fprintf(stderr, "tl-grade: isolation notes: %s\n", iso->notes);
    }
    return 0;
}

/* The pristine kit, copied fresh each run (kit check with a prebuilt program needs none; a Slurm
 * task shares the one its submit prepared, read-only). */
static int copy_kit(crun *c)
{
    grun *R = c->R;
    char err[800], p[PATH_MAX + 64];
    snprintf(R->run.pristine, sizeof R->run.pristine, "%s/pristine", R->run.state);
    if (R->opt->slurm_task) {
        if (tg_slurm_load_prepared(R, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    } else {
        tg_rmtree(R->run.pristine);
    }
    if (c->prebuilt || R->opt->slurm_task)
        return 0;
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
    return 0;
}

/* The cases: public, then hidden from the secret seed, and the safety and speed cases too: listed
 * once here, not once per worker (made by prepare_cases). */
static int list_cases(crun *c)
{
    grun *R = c->R;
    char err[800];
    tl_sizes pub = {0};
    if (R->lab->public_sizes && tl_parse_sizes(R->lab->public_sizes, &pub, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: internal: lab %s public sizes: %s\n", R->lab->id, err);
        return EXIT_GRADER;
    }
    for (int i = 0; i < pub.count; ++i)
        tg_add_size(R, pub.m[i], pub.k[i], pub.n[i], 0);
    if (R->opt->public_only)
        return 0;
    tg_make_hidden_sizes(R);
    const char *extra[2] = {R->lab->gpu ? R->lab->safety_sizes : NULL,
                            R->lab->gpu && !R->opt->emulate && R->env.iso.gpu_nodes ? R->lab->speed_size : NULL};
    for (int e = 0; e < 2; ++e) {
        tl_sizes xs;
        if (extra[e] && tl_parse_sizes(extra[e], &xs, err, sizeof err) == 0)
            for (int i = 0; i < xs.count; ++i)
                tg_add_size(R, xs.m[i], xs.k[i], xs.n[i], 2);
    }
    return 0;
}

/* The cases' inputs and references, made once, here (a Slurm submit leaves them to its tasks). A
 * GPU lab graded here without a GPU runs emulated: sizes above emu_max_work are not run there, so
 * their inputs and references are not made (a 4096^3 reference takes minutes). */
static int prepare_cases(crun *c)
{
    grun *R = c->R;
    char err[800];
    int likely_emulated = R->lab->gpu && (R->opt->emulate || !R->env.iso.gpu_nodes);
    tl_reference_gpu_hold(1);          /* one GPU context for all the large references */
    for (int i = 0; i < R->run.nsizes; ++i) {
        const gsize *s = &R->run.sizes[i];
        if (!R->opt->slurm && !(likely_emulated && tg_emu_too_big(R->opt, s->m, s->k, s->n)) &&
            tg_prepare_size(&R->run.sizes[i], err, sizeof err) != 0) {
            tl_reference_gpu_hold(0);
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    }
    tl_reference_gpu_hold(0);          /* given back before any student's program runs */
    return 0;
}

/* What the reference's child found out beside the kit's build (start_reference): the GPU and its
 * counters probed on the reference, copied back into the parent's environment (build_shared). */
typedef struct probed {
    int    done;                      /* 1: the probes ran in the child; env holds their results
                                       * (2: the counters' too, where they are deferred)        */
    int    defer;                     /* the counters' probe after the GPU's, off the set-up's path */
    pid_t  child;                     /* the child (the workers wait for its counters while it lives) */
    tg_env env;
} probed;
static probed *ref_probed;            /* MAP_SHARED with the child (NULL: none) */

static void say_counters(const grun *R);

/* The reference solution's build, started in a child of its own beside the cases and the kit's
 * build (CPU work of the set-up both) when a class run on a GPU needs it: its pid, or -1 when it
 * is built later in this process or not at all. A fork, not proc.c's posix_spawn: the child runs
 * the grader's own code (tg_build_reference), not a program. Once built, the same child tries the
 * GPU and its counters on it (probe_gpu, tg_counters_probe: a device's work, seconds of it, ncu's
 * start included) while the parent still builds the kit: the set-up's wall time is the longer of
 * the two, not their sum (the H100 class of 01:38 UTC: the kit's build 16.1 s of a 21.8 s set-up). */
static pid_t start_reference(crun *c, int want_ref)
{
    grun *R = c->R;
    pid_t refpid = -1;
    if (want_ref && !R->opt->slurm && !c->prebuilt) {
        ref_probed = mmap(NULL, sizeof *ref_probed, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (ref_probed == MAP_FAILED)
            ref_probed = NULL;
        fflush(NULL);
        /* The counters' probe (ncu on the reference: 3-6.5 s on the H100) is needed only by a
         * submission's profiled run, on demand after its speed test: by default the set-up ends
         * with the GPU's probe, and the child goes on with the counters' while the workers build
         * (tg_counters_probed waits for them). TL_GRADE_NCU=1 profiles every submission and
         * decides its build (build.c): the set-up waits for both, as before. */
        if (ref_probed)
            ref_probed->defer = !tg_counters_every_wanted();
        if ((refpid = fork()) == 0) {
            tg_build_reference(R);
            if (ref_probed && R->run.ref_build[0]) {
                ref_probed->child = getpid();
                probe_gpu(R);
                int counters = R->lab->gpu && R->env.gpu_ok && !R->opt->emulate;
                if (counters && !ref_probed->defer)
                    tg_counters_probe(R);   /* ncu tried on the reference in the sandbox, once (counters.c) */
                ref_probed->env = R->env;
                __atomic_store_n(&ref_probed->done, 1, __ATOMIC_RELEASE);
                if (counters && ref_probed->defer) {
                    tg_counters_probe(R);
                    ref_probed->env = R->env;
                    __atomic_store_n(&ref_probed->done, 2, __ATOMIC_RELEASE);
                    say_counters(R);
                }
            }
            fflush(NULL);
            _exit(R->run.ref_build[0] ? 0 : 1);
        }
    }
    return refpid;
}

static void take_counters(grun *R, const tg_env *e);

/* The probes' results from the reference's child, where it ran them: 1, else 0 (probe here). */
static int take_probed(grun *R)
{
    if (!ref_probed || !__atomic_load_n(&ref_probed->done, __ATOMIC_ACQUIRE))
        return 0;
    const tg_env *e = &ref_probed->env;
    R->env.gpu_ok = e->gpu_ok;
    R->env.gpu_unknown = e->gpu_unknown;
    memcpy(R->env.gpu_why, e->gpu_why, sizeof R->env.gpu_why);
    if (!ref_probed->defer)
        take_counters(R, e);
    return 1;
}

/* The workers' wait for the deferred counters' probe (a class on a GPU, before a submission's
 * first test; builds go on meanwhile): its results copied into R->env, or, where the child ended
 * without them, the counters not checked here, and why. At once where nothing is deferred. */
void tg_counters_probed(grun *R)
{
    if (!ref_probed || !ref_probed->defer || !R->lab->gpu || !R->env.gpu_ok || R->opt->emulate ||
        __atomic_load_n(&ref_probed->done, __ATOMIC_ACQUIRE) == 0)
        return;
    while (__atomic_load_n(&ref_probed->done, __ATOMIC_ACQUIRE) < 2) {
        pid_t ch = ref_probed->child;
        if (ch <= 0 || (kill(ch, 0) != 0 && errno == ESRCH)) {
            if (__atomic_load_n(&ref_probed->done, __ATOMIC_ACQUIRE) >= 2)
                break;
            R->env.ncu_ok = 0;
            snprintf(R->env.ncu_why, sizeof R->env.ncu_why, "the probe of the GPU's counters on the reference "
                     "ended without a result");
            return;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    take_counters(R, &ref_probed->env);
}

static void take_counters(grun *R, const tg_env *e)
{
    memcpy(R->env.ncu, e->ncu, sizeof R->env.ncu);
    memcpy(R->env.ncu_root, e->ncu_root, sizeof R->env.ncu_root);
    R->env.ncu_ok = e->ncu_ok;
    R->env.ncu_every = e->ncu_every;
    memcpy(R->env.ncu_why, e->ncu_why, sizeof R->env.ncu_why);
    memcpy(R->env.ncu_ref, e->ncu_ref, sizeof R->env.ncu_ref);
    R->env.ncu_ref_s = e->ncu_ref_s;
    R->env.ncu_shared = e->ncu_shared;
    R->env.ncu_one = e->ncu_one;
    memcpy(R->env.ncu_one_why, e->ncu_one_why, sizeof R->env.ncu_one_why);
    R->env.ncu_app_only = e->ncu_app_only;
}

/* What the instructor should know of the kit's build; without it (and a sandbox to build in) the
 * class is not graded: the pristine kit with its skeletons does not build, the grader's problem
 * (a file not in git, a broken kit), never a zero for every student. */
static int report_kit_build(crun *c, double kit_s, int ref_beside)
{
    grun *R = c->R;
    const tg_runstate *S = &R->run;
    if ((!R->opt->check || !R->opt->quiet) && (S->kit_build[0] || !R->env.iso.bwrap))
        fprintf(R->opt->check ? stdout : stderr, "tl-grade: %s%s%s\n", S->kit_build[0] ?
                "the kit is built once for this run; each submission compiles its own files over it" :
                S->kit_build_why, S->kit_build[0] && S->kit_archs[0] ? "; GPU code for sm_" : "",
                S->kit_build[0] ? S->kit_archs : "");
    if (S->kit_build[0] && !R->opt->check)
        fprintf(stderr, "tl-grade: the kit's build took %.1f s%s\n", kit_s,
                ref_beside ? " (the reference's build beside it)" : "");
    if (!S->kit_build[0] && R->env.iso.bwrap) {
        fprintf(stderr, "tl-grade: not graded: %s\n", S->kit_build_why);
        return EXIT_GRADER;
    }
    return 0;
}

/* The kit's build (beside the reference's when refpid > 0), the reference's result, the GPU and
 * its counters probed with it, and what the instructor should know of them. The reference: built
 * by the submit (a cluster's login node rarely has a GPU, so not iso.gpu_nodes there), timed by
 * each task on its own GPU. */
static int build_shared(crun *c, pid_t refpid, int want_ref)
{
    grun *R = c->R;
    double kit_s = 0;
    if (refpid > 0) {                  /* the kit's build beside the reference's: for this device */
        double tk = tl_now_ms();
        R->env.gpu_ok = 1;             /* (its architecture and targets; the probe below decides) */
        tg_build_kit(R);
        R->env.gpu_ok = 0;
        kit_s = (tl_now_ms() - tk) / 1000.0;
        int wst = 0, ended = 0;
        /* its end, or (the counters' probe deferred) its GPU probe's results: the child goes on */
        while (!(ref_probed && ref_probed->defer && __atomic_load_n(&ref_probed->done, __ATOMIC_ACQUIRE) >= 1)) {
            pid_t p = waitpid(refpid, &wst, WNOHANG);
            if (p == refpid || (p < 0 && errno != EINTR)) {
                ended = p == refpid;
                break;
            }
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (ended ? WIFEXITED(wst) && WEXITSTATUS(wst) == 0
                  : ref_probed && __atomic_load_n(&ref_probed->done, __ATOMIC_ACQUIRE) >= 1)
            snprintf(R->run.ref_build, sizeof R->run.ref_build, "%s/refbuild", R->run.state);
        else
            tg_build_reference(R);     /* again here, for its reason (a failed build fails fast) */
    } else if (want_ref) {
        tg_build_reference(R);
    } else if (!R->opt->slurm_task) {
        snprintf(R->run.ref_why, sizeof R->run.ref_why, "not needed in this run");
    }
    int probed = R->run.ref_build[0] && take_probed(R);   /* (the reference's child probed beside the kit's build) */
    if (!R->opt->slurm && !probed)
        probe_gpu(R);
    if (!R->opt->slurm && R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && !c->prebuilt) {
        if (!probed)
            tg_counters_probe(R);   /* ncu tried on the reference in the sandbox, once (counters.c) */
        if (probed && ref_probed->defer)
            fprintf(stderr, "tl-grade: the GPU's counters (ncu): probed on the reference while the first "
                    "submissions build (said below when done)\n");
        else
            say_counters(R);
    }
    if (c->prebuilt || R->opt->slurm_task)
        return 0;
    if (refpid <= 0) {
        double tk = tl_now_ms();
        tg_build_kit(R);               /* the kit's own parts, once for the whole class */
        kit_s = (tl_now_ms() - tk) / 1000.0;
    }
    return report_kit_build(c, kit_s, refpid > 0);
}

/* What the instructor should know of the GPU's counters (the set-up's lines). */
static void say_counters(const grun *R)
{
    if (R->env.ncu_ok || R->env.ncu_why[0])
        fprintf(stderr, "tl-grade: the GPU's counters (ncu %s): %s%s%s\n", R->env.ncu[0] ? R->env.ncu : "none",
                R->env.ncu_ok ? "read in the sandbox; the reference's " : "not checked here: ",
                R->env.ncu_ok ? R->env.ncu_ref : R->env.ncu_why,
                R->env.ncu_every ? "; every submission profiled (TL_GRADE_NCU=1): they judge the work"
                : R->env.ncu_ok ? "; the work is counted by the emulated twins (the default; TL_GRADE_NCU=1 "
                                  "profiles every submission), a speed test is profiled only where the wall "
                                  "clock contradicts its median" : "");
    if (R->env.ncu_ok && R->env.ncu_one)
        fprintf(stderr, "tl-grade: profiled runs: a submission's variants in one session under one ncu, its table "
                "split per request by the kit's request markers (the reference's split and read right)\n");
    else if (R->env.ncu_ok && R->env.ncu_one_why[0])
        fprintf(stderr, "tl-grade: profiled runs: one session per variant (one session for all was not used: "
                "%s)\n", R->env.ncu_one_why);
}

/* --slurm: the class prepared here is submitted as a job array (slurm.c); the tasks take the out
 * dir's lock shared. */
static int slurm_submit(crun *c)
{
    grun *R = c->R;
    if (!R->run.kit_build[0] && R->env.iso.bwrap) {
        fprintf(stderr, "tl-grade: not submitted: %s\n", R->run.kit_build_why);
        return EXIT_GRADER;
    }
    close(c->lock_fd);
    return tg_slurm_submit(R, c->st, c->ns);
}

/* The students this process grades: all, or a Slurm task's few (taken at submit time). */
static int task_students(crun *c)
{
    grun *R = c->R;
    char err[800];
    c->todo = calloc((size_t)c->ns + 1, sizeof *c->todo);
    c->ntodo = c->ns;
    for (int i = 0; i < c->ns; ++i)
        c->todo[i] = i;
    if (!R->opt->slurm_task)
        return 0;
    if ((c->ntodo = tg_slurm_task_students(R, R->opt->slurm_task, c->todo, c->ns, err, sizeof err)) < 0) {
        fprintf(stderr, "tl-grade: not graded: %s\n", err);
        return EXIT_GRADER;
    }
    R->run.taken = 1;
    for (int j = 0; j < c->ntodo; ++j)
        if (c->todo[j] < 0 || c->todo[j] >= c->ns) {
            fprintf(stderr, "tl-grade: not graded: the task list names student %d of %d\n", c->todo[j], c->ns);
            return EXIT_GRADER;
        }
    fprintf(stderr, "tl-grade: Slurm task %s of job %s on %s: %d student(s)\n", getenv("SLURM_ARRAY_TASK_ID"),
            getenv("SLURM_ARRAY_JOB_ID") ? getenv("SLURM_ARRAY_JOB_ID") : "?",
            getenv("SLURMD_NODENAME") ? getenv("SLURMD_NODENAME") : "?", c->ntodo);
    if (R->lab->gpu)
        fprintf(stderr, "tl-grade: GPU: %s\n", R->env.gpu_why);
    return 0;
}

/* ------------------------------------------------------------ the end of the run */

/* kit check: the exit code by the correctness tests of its one submission. */
static int check_exit(crun *c)
{
    grun *R = c->R;
    if (!c->rows[0].done)
        return EXIT_GRADER;
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s/results.json", R->run.out, c->st[0].name);
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
    printf("Score: %g/%g\n", c->rows[0].score, c->rows[0].max);
    if (!graded) {
        printf("nothing could be checked here (see above); exit 77\n");
        return TL_EXIT_SKIP;
    }
    return failed ? TL_EXIT_FAIL : TL_EXIT_OK;
}

/* The class's files (a Slurm task leaves them to the finishing job) and the run's exit code. */
static int finish(crun *c, double total_s)
{
    grun *R = c->R;
    if (R->opt->slurm_task) {
        int bad = 0;
        for (int j = 0; j < c->ntodo; ++j)
            bad |= !c->rows[c->todo[j]].done;
        fprintf(stderr, "tl-grade: Slurm task done: %d student(s) in %.1f s\n", c->ntodo, total_s);
        return bad ? EXIT_GRADER : 0;
    }
    tg_write_class(R, c->st, c->rows, c->ns, total_s);
    if (!R->opt->check)
        fprintf(stderr, "tl-grade: %s/summary.md, %s/gradebook.csv (%.1f s)\n", R->run.out, R->run.out, total_s);
    if (R->opt->check)
        return check_exit(c);
    int any_problem = 0;
    for (int i = 0; i < c->ns; ++i)
        any_problem |= !c->rows[i].done;
    return any_problem ? EXIT_GRADER : 0;
}

/* The class run, in its steps: the students, the out dir and its lock, the seed, the class as the
 * out dir knows it; (a Slurm run's finishing job stops there); the tools, the sandbox, the
 * pristine kit, the cases, the shared builds and the GPU; (a Slurm submit stops there); the
 * students this process grades, their workers, the class's files. */
int tg_class_run(grun *R, int ns, char **subs, const char *out, const char *secret)
{
    crun c = {.R = R, .out = out, .secret = secret, .ns = ns, .lock_fd = -1,
              .t0 = tl_now_ms(), .cpu0 = tg_profile_cpu_now()};
    char err[800];
    int rc;
    if ((rc = take_students(&c, subs)) != 0 || (rc = open_out_dir(&c)) != 0)
        return rc;
    if (tg_state_seed(R, secret, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: %s\n", err);
        return TL_EXIT_USAGE;
    }
    if (!R->opt->check && (rc = the_class(&c)) != 0)
        return rc;
    if (R->opt->slurm_finish)
        return slurm_finish(&c);
    c.prebuilt = R->opt->prebuilt[0] || R->opt->build_log[0];
    if ((rc = find_tools(&c)) != 0 || (rc = probe_sandbox(&c)) != 0 || (rc = copy_kit(&c)) != 0 ||
        (rc = list_cases(&c)) != 0)
        return rc;
    int want_ref = !R->opt->slurm_task && R->lab->gpu && !R->opt->public_only && !R->opt->emulate &&
                   (R->env.iso.gpu_nodes || R->opt->slurm) && R->lab->speed_size && R->lab->nvariants;
    pid_t refpid = start_reference(&c, want_ref);
    if ((rc = prepare_cases(&c)) != 0 || (rc = build_shared(&c, refpid, want_ref)) != 0)
        return rc;
    if (R->lab->gpu && !R->opt->check && !R->opt->slurm)
        fprintf(stderr, "tl-grade: GPU: %s\n", R->env.gpu_why);
    if (R->opt->slurm)
        return slurm_submit(&c);
    if ((rc = task_students(&c)) != 0)
        return rc;
    double class_s = tg_class_grade(&c);
    /* the deferred counters' probe, where no submission waited for it: ended before the run is */
    if (refpid > 0 && ref_probed && ref_probed->defer)
        while (waitpid(refpid, NULL, 0) < 0 && errno == EINTR)
            ;
    return finish(&c, class_s);
}
