/* slurm.c: the Slurm back end of the class run, and the run's student list. `tl-grade --slurm`
 * prepares a run here (the intake of every submission, the seed, the kit built once, the
 * reference built) into DIR on a shared filesystem, then submits one job array whose tasks are
 * `tl-grade --slurm-task G` (each grading a few students into DIR, in the same sandbox, timing
 * speed against the reference on its own GPU), and a job that depends on it, `tl-grade
 * --slurm-finish`, which writes gradebook.csv and summary.md. `tl-grade --status DIR` says where a
 * run stands. State lives in files under DIR/.state, never in the scheduler alone:
 *   students.tsv        index, name, submission path (every class run writes it)
 *   taken/<name>/       the student's files as intake took them, notes.txt, refused.txt
 *   slurm/prepared      the kit build and reference build the tasks use
 *   slurm/tasks.G.tsv   generation G's array: line T holds the students of task T
 *   slurm/jobs          one line per submission: G, the array's job id, the finishing job's id
 *   slurm/logs/         each task's output (G-T.txt) and the finishing job's (G-finish.txt)
 *   bin/tl-grade        the grader that submitted, run by the tasks (one binary for the run) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "grade.h"

/* ------------------------------------------------------------------ the student list */

/* A path in the list: tab, newline and backslash written \t, \n, \\ (a submission's name may
 * hold any of them: issue 24). */
int tg_students_write(const grun *R, const gstudent *st, int ns)
{
    tg_buf b = {0};
    for (int i = 0; i < ns; ++i) {
        /* every field escaped (\t, \n, \\): a name or path may hold any byte but NUL */
        const char *f[10] = {st[i].name, st[i].path, st[i].display, st[i].email, st[i].sid, st[i].submitted_at,
                             st[i].from, st[i].lms_note, st[i].not_graded, NULL};
        tg_buf_printf(&b, "%d", i);
        for (int k = 0; f[k]; ++k) {
            tg_buf_add(&b, "\t", 1);
            for (const char *c = f[k]; *c; ++c)
                tg_buf_printf(&b, "%s", *c == '\t' ? "\\t" : *c == '\n' ? "\\n" : *c == '\\' ? "\\\\" : (char[2]){*c, 0});
        }
        tg_buf_add(&b, "\n", 1);
    }
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/students.tsv", R->run.state);
    int rc = tg_write_atomic(p, b.s ? b.s : "", b.len);
    tg_buf_free(&b);
    return rc;
}

/* One field of students.tsv as written (\t, \n, \\ escaped) into dst. */
static void unescape_field(char *dst, size_t len, const char *src)
{
    size_t o = 0;
    for (const char *c = src; *c && o + 1 < len; ++c) {
        if (*c == '\\' && (c[1] == 't' || c[1] == 'n' || c[1] == '\\')) {
            ++c;
            dst[o++] = *c == 't' ? '\t' : *c == 'n' ? '\n' : '\\';
        } else
            dst[o++] = *c;
    }
    dst[o] = '\0';
}

int tg_students_load(const char *out, gstudent **stp, int *nsp, char *err, size_t errlen)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/.state/students.tsv", out);
    size_t len = 0;
    char *text = tg_read_file(p, 64 << 20, &len);
    if (!text) {
        snprintf(err, errlen, "'%s' holds no grading run (no %s); give the --out DIR of a ./kit grade run", out, p);
        return -1;
    }
    int cap = 1;
    for (size_t i = 0; i < len; ++i)
        cap += text[i] == '\n';
    gstudent *st = calloc((size_t)cap, sizeof *st);
    int ns = 0;
    for (char *line = text, *nl; line && *line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t2 || ns >= cap) {
            snprintf(err, errlen, "%s is damaged (a line without index, name and path)", p);
            free(text);
            free(st);
            return -1;
        }
        *t1 = *t2 = '\0';
        unescape_field(st[ns].name, sizeof st[ns].name, t1 + 1);
        /* path, then (a list written since the LMS intake) display, email, SID, time, source, note,
         * not-graded reason: tab-separated, each escaped as tg_students_write wrote it */
        char *f[8] = {t2 + 1};
        for (int k = 1; k < 8 && f[k - 1]; ++k) {
            f[k] = strchr(f[k - 1], '\t');
            if (f[k])
                *f[k]++ = '\0';
        }
        unescape_field(st[ns].path, sizeof st[ns].path, f[0]);
        char *dst[7] = {st[ns].display, st[ns].email, st[ns].sid, st[ns].submitted_at, st[ns].from, st[ns].lms_note,
                        st[ns].not_graded};
        size_t len7[7] = {sizeof st[ns].display, sizeof st[ns].email, sizeof st[ns].sid, sizeof st[ns].submitted_at,
                          sizeof st[ns].from, sizeof st[ns].lms_note, sizeof st[ns].not_graded};
        for (int k = 0; k < 7; ++k)
            unescape_field(dst[k], len7[k], f[k + 1] ? f[k + 1] : "");
        ++ns;
    }
    free(text);
    *stp = st;
    *nsp = ns;
    return 0;
}

/* ------------------------------------------------------------------ helpers */

/* Runs argv (no shell), its stdout into out (NUL-terminated, at most outlen - 1 bytes); stderr
 * goes to ours. Returns the exit status, or -1 when it could not be run. */
static int run_capture(char *const argv[], char *out, size_t outlen)
{
    fflush(NULL);
    tg_proc_io io = {.out = TG_PROC_CAPTURE, .buf = out, .buflen = outlen, .search = 1};
    int st = tg_proc_run((const char *const *)argv, &io);
    if (st < 0 && outlen)
        out[0] = '\0';
    return st >= 128 ? -1 : st;   /* a signal, as before: -1 */
}

/* s in single quotes for sh ('...' with each ' written '\''). */
static void sh_quote(tg_buf *b, const char *s)
{
    tg_buf_add(b, "'", 1);
    for (; *s; ++s) {
        if (*s == '\'')
            tg_buf_add(b, "'\\''", 4);
        else
            tg_buf_add(b, s, 1);
    }
    tg_buf_add(b, "'", 1);
}

static int is_done(const grun *R, const gstudent *s)
{
    char p[PATH_MAX + 160];
    snprintf(p, sizeof p, "%s/%s/.done", R->run.out, s->name);
    return tg_is_file(p);
}

/* The last line of slurm/jobs: generation, array job, finishing job. 0 when none. */
static int last_jobs(const char *state, int *gen, char *arr, char *fin, size_t l)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/slurm/jobs", state);
    char *text = tg_read_file(p, 1 << 20, NULL);
    *gen = 0;
    if (!text)
        return 0;
    char a[64], f[64];
    int g;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        if (sscanf(line, "%d %63s %63s", &g, a, f) == 3) {
            *gen = g;
            snprintf(arr, l, "%s", a);
            snprintf(fin, l, "%s", f);
        }
    free(text);
    return *gen > 0;
}

/* Jobs of ids (comma-separated numbers) still known to squeue: "ID STATE" lines into out.
 * Returns the number of lines, or -1 when squeue could not be asked. */
static int queued(const char *ids, char *out, size_t outlen)
{
    char sq[PATH_MAX];
    if (tg_find_tool("squeue", sq, sizeof sq) != 0)
        return -1;
    char *argv[] = {sq, "-h", "-r", "-j", (char *)ids, "-o", "%i %T", NULL};
    int rc = run_capture(argv, out, outlen);
    if (rc != 0)   /* squeue fails for ids it no longer knows: nothing queued */
        out[0] = '\0';
    int n = 0;
    for (const char *q = out; *q; ++q)
        n += *q == '\n';
    return n;
}

/* ------------------------------------------------------------------ prepared state */

int tg_slurm_save_prepared(const grun *R)
{
    tg_buf b = {0};
    tg_buf_printf(&b, "kit_build\t%s\nkit_archs\t%s\nkit_build_why\t%s\nref_build\t%s\nref_why\t%s\n", R->run.kit_build,
                  R->run.kit_archs, R->run.kit_build_why, R->run.ref_build, R->run.ref_why);
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/slurm/prepared", R->run.state);
    int rc = tg_write_atomic(p, b.s, b.len);
    tg_buf_free(&b);
    return rc;
}

int tg_slurm_load_prepared(grun *R, char *err, size_t errlen)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/slurm/prepared", R->run.state);
    char *text = tg_read_file(p, 1 << 20, NULL);
    if (!text) {
        snprintf(err, errlen, "no %s: this out dir was not prepared by tl-grade --slurm", p);
        return -1;
    }
    struct { const char *key; char *dst; size_t len; } f[] = {
        {"kit_build", R->run.kit_build, sizeof R->run.kit_build},       {"kit_archs", R->run.kit_archs, sizeof R->run.kit_archs},
        {"kit_build_why", R->run.kit_build_why, sizeof R->run.kit_build_why}, {"ref_build", R->run.ref_build, sizeof R->run.ref_build},
        {"ref_why", R->run.ref_why, sizeof R->run.ref_why}};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
            if (strcmp(line, f[i].key) == 0)
                snprintf(f[i].dst, f[i].len, "%s", tab + 1);
    }
    free(text);
    return 0;
}

int tg_take_prepared(const grun *R, const gstudent *st, const char *files_dir, tg_buf *notes, char *err, size_t errlen)
{
    char dir[PATH_MAX + 160], p[PATH_MAX + 320];
    snprintf(dir, sizeof dir, "%s/taken/%s", R->run.state, st->name);
    if (!tg_is_dir(dir)) {
        snprintf(err, errlen, "the submission was not taken at submit time (no %s); submit the run again", dir);
        return -1;
    }
    snprintf(p, sizeof p, "%s/notes.txt", dir);
    size_t len = 0;
    char *text = tg_read_file(p, 1 << 20, &len);
    if (text)
        tg_buf_add(notes, text, len);
    free(text);
    snprintf(p, sizeof p, "%s/refused.txt", dir);
    text = tg_read_file(p, 1 << 16, NULL);
    if (text) {
        snprintf(err, errlen, "%s", text);
        free(text);
        return 1;
    }
    snprintf(p, sizeof p, "%s/not-graded.txt", dir);   /* intake: the instructor must look */
    text = tg_read_file(p, 1 << 16, NULL);
    if (text) {
        snprintf(err, errlen, "%s", text);
        free(text);
        return 2;
    }
    for (int i = 0; i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        char from[PATH_MAX + 400], to[PATH_MAX + 400];
        snprintf(from, sizeof from, "%s/files/%s", dir, R->lab->files[i]);
        snprintf(to, sizeof to, "%s/%s", files_dir, R->lab->files[i]);
        if (tg_is_file(from) && tg_copy_file(from, to, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* The intake, here: the student's files into DIR/.state/taken/<name>. 0 taken (or refused: the
 * refusal is kept and graded as the local run grades it), -1 a grader-side problem (err). */
static int take_one(grun *R, const gstudent *s, char *err, size_t errlen)
{
    char dir[PATH_MAX + 160], files[PATH_MAX + 200], work[PATH_MAX + 200], p[PATH_MAX + 220];
    snprintf(dir, sizeof dir, "%s/taken/%s", R->run.state, s->name);
    snprintf(files, sizeof files, "%s/files", dir);
    snprintf(work, sizeof work, "%s/work", dir);
    tg_rmtree(dir);
    if (tg_mkdirs(files, 0700) != 0 || tg_mkdirs(work, 0700) != 0) {
        snprintf(err, errlen, "cannot make %s (%s)", files, strerror(errno));
        return -1;
    }
    int found[TL_LAB_MAX_FILES];
    tg_buf notes = {0};
    char why[800] = "";
    int rc = tg_intake(R->lab, s->path, work, files, 1, found, &notes, why, sizeof why);
    tg_rmtree(work);
    if (rc < 0) {
        snprintf(err, errlen, "%s", why);
        tg_buf_free(&notes);
        return -1;
    }
    snprintf(p, sizeof p, "%s/notes.txt", dir);
    int w = tg_write_atomic(p, notes.s ? notes.s : "", notes.len);
    tg_buf_free(&notes);
    if (w == 0 && (rc == 1 || rc == 2)) {
        snprintf(p, sizeof p, "%s/%s", dir, rc == 1 ? "refused.txt" : "not-graded.txt");
        w = tg_write_atomic(p, why, strlen(why));
    }
    if (w != 0) {
        snprintf(err, errlen, "cannot write %s (%s)", p, strerror(errno));
        return -1;
    }
    return 0;
}

int tg_slurm_task_students(const grun *R, int gen, int *idx, int max, char *err, size_t errlen)
{
    const char *tid = getenv("SLURM_ARRAY_TASK_ID");
    long t;
    if (!tid || tl_parse_int(tid, 0, 1000000, &t) != 0) {
        snprintf(err, errlen, "--slurm-task runs inside a Slurm array task (SLURM_ARRAY_TASK_ID is %s)",
                 tid ? "not a number" : "not set");
        return -1;
    }
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/slurm/tasks.%d.tsv", R->run.state, gen);
    char *text = tg_read_file(p, 64 << 20, NULL);
    if (!text) {
        snprintf(err, errlen, "no %s: the run's task list is missing", p);
        return -1;
    }
    char *line = text;
    for (long i = 0; i < t && line; ++i) {
        line = strchr(line, '\n');
        if (line)
            ++line;
    }
    int n = 0;
    if (line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        for (char *tok = strtok(line, " "); tok && n < max; tok = strtok(NULL, " "))
            idx[n++] = atoi(tok);
    }
    free(text);
    if (!n)
        snprintf(err, errlen, "task %ld has no line in %s", t, p);
    return n ? n : -1;
}

/* ------------------------------------------------------------------ submitting */

static int write_script(const char *path, const tg_buf *body)
{
    if (tg_write_atomic(path, body->s, body->len) != 0)
        return -1;
    return chmod(path, 0700);
}

int tg_slurm_submit(grun *R, const gstudent *st, int ns)
{
    char sbatch[PATH_MAX], err[900];
    if (tg_find_tool("sbatch", sbatch, sizeof sbatch) != 0) {
        fprintf(stderr, "tl-grade: --slurm: sbatch is not on PATH; run this on a machine with the Slurm client "
                "commands (Debian: slurm-client), usually the cluster's login node\n");
        return TL_EXIT_USAGE;
    }
    char sdir[PATH_MAX + 16], logs[PATH_MAX + 32], p[PATH_MAX + 64];
    snprintf(sdir, sizeof sdir, "%s/slurm", R->run.state);
    snprintf(logs, sizeof logs, "%s/logs", sdir);
    if (tg_mkdirs(logs, 0700) != 0) {
        fprintf(stderr, "tl-grade: cannot make %s (%s)\n", logs, strerror(errno));
        return EXIT_GRADER;
    }
    int gen = 0;
    char arr[64] = "", fin[64] = "", q[4096];
    if (last_jobs(R->run.state, &gen, arr, fin, sizeof arr)) {
        char ids[140];
        snprintf(ids, sizeof ids, "%s,%s", arr, fin);
        if (queued(ids, q, sizeof q) > 0) {
            fprintf(stderr, "tl-grade: --slurm: this run's jobs %s (tasks) and %s (gradebook) are still queued or "
                    "running; wait for them (./kit grade --status %s) or cancel them (scancel %s %s), then submit "
                    "again\n", arr, fin, R->run.out, arr, fin);
            return TL_EXIT_USAGE;
        }
    }
    ++gen;
    /* The grader the tasks run: this very binary, copied into the run (a rebuild of the kit's
     * tl-grade while the array runs must not change the grader half-way). */
    char bin[PATH_MAX + 32], tmp[PATH_MAX + 48], self[PATH_MAX];
    snprintf(bin, sizeof bin, "%s/bin", R->run.state);
    tg_mkdirs(bin, 0700);
    snprintf(tmp, sizeof tmp, "%s/bin/.tl-grade.tmp", R->run.state);
    snprintf(bin, sizeof bin, "%s/bin/tl-grade", R->run.state);
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) {
        fprintf(stderr, "tl-grade: --slurm: cannot find this program's file (/proc/self/exe)\n");
        return EXIT_GRADER;
    }
    self[sl] = '\0';
    if (tg_copy_file(self, tmp, err, sizeof err) != 0 || chmod(tmp, 0700) != 0 || rename(tmp, bin) != 0) {
        fprintf(stderr, "tl-grade: --slurm: cannot copy the grader into the run: %s\n", err);
        return EXIT_GRADER;
    }
    /* The intake here, then the task list of the students not graded yet. */
    int *todo = calloc((size_t)ns + 1, sizeof *todo), nt = 0, skipped = 0;
    for (int i = 0; i < ns; ++i) {
        int again = R->opt->regrade == 1;
        if (R->opt->regrade == 2)       /* --regrade=NAME,...: by folder or by name */
            again = tg_regrade_named(R, &st[i]);
        if (again) {               /* graded again: until it is, it is not graded */
            char od[PATH_MAX + 160];
            snprintf(od, sizeof od, "%s/%s/.done", R->run.out, st[i].name);
            unlink(od);
        }
        /* graded earlier: kept only while its grade still stands (the same files, rubric and cases:
         * the local run's check, tg_still_fresh); a resubmission whose files changed is graded again */
        char why_again[700] = "";
        if (is_done(R, &st[i]) && tg_still_fresh(R, &st[i], 1, 0, why_again, sizeof why_again)) {
            ++skipped;
            continue;
        }
        if (why_again[0] && is_done(R, &st[i])) {
            fprintf(stderr, "tl-grade: %s: %s\n", st[i].display[0] ? st[i].display : st[i].name, why_again);
            char od[PATH_MAX + 160];
            snprintf(od, sizeof od, "%s/%s/.done", R->run.out, st[i].name);
            unlink(od);        /* until the task grades it again, it is not graded */
        }
        char od[PATH_MAX + 160];
        snprintf(od, sizeof od, "%s/%s/not-graded.txt", R->run.out, st[i].name);
        unlink(od);
        if (take_one(R, &st[i], err, sizeof err) != 0) {
            snprintf(od, sizeof od, "%s/%s", R->run.out, st[i].name);
            tg_mkdirs(od, 0755);
            snprintf(od, sizeof od, "%s/%s/not-graded.txt", R->run.out, st[i].name);
            tg_write_atomic(od, err, strlen(err));
            fprintf(stderr, "tl-grade: %s: not graded: %s\n", st[i].name, err);
            continue;
        }
        todo[nt++] = i;
    }
    if (skipped)
        fprintf(stderr, "tl-grade: %d student(s) graded earlier from the same files, rubric and cases are not submitted again "
                "(--regrade=NAME grades one "
                "again, --regrade the class)\n", skipped);
    int per = R->opt->per_task > 0 ? R->opt->per_task : 1, ntasks = (nt + per - 1) / per;
    tg_buf tasks = {0};
    for (int t = 0; t < ntasks; ++t) {
        for (int j = t * per; j < nt && j < (t + 1) * per; ++j)
            tg_buf_printf(&tasks, "%s%d", j > t * per ? " " : "", todo[j]);
        tg_buf_add(&tasks, "\n", 1);
    }
    free(todo);
    snprintf(p, sizeof p, "%s/tasks.%d.tsv", sdir, gen);
    if (tg_write_atomic(p, tasks.s ? tasks.s : "", tasks.len) != 0 || tg_slurm_save_prepared(R) != 0) {
        fprintf(stderr, "tl-grade: cannot write %s (%s)\n", p, strerror(errno));
        tg_buf_free(&tasks);
        return EXIT_GRADER;
    }
    tg_buf_free(&tasks);
    /* The scripts: tl-grade again, with the options that shape the grades. */
    tg_buf common = {0};
    sh_quote(&common, bin);
    tg_buf_printf(&common, " --kit ");
    sh_quote(&common, R->opt->root);
    tg_buf_printf(&common, " --lab %s --out ", R->lab->id);
    sh_quote(&common, R->run.out);
    if (R->opt->public_only)
        tg_buf_printf(&common, " --public-only");
    if (R->opt->emulate)
        tg_buf_printf(&common, " --emulate");
    if (R->opt->gpu_archs[0])
        tg_buf_printf(&common, " --gpu-archs %s", R->opt->gpu_archs);
    if (R->opt->rescale)
        tg_buf_printf(&common, " --rescale");
    if (R->opt->due_epoch) {            /* the late policy: the tasks' identity must be the submit's */
        tg_buf_printf(&common, " --due ");
        sh_quote(&common, R->opt->due_text);
        tg_buf_printf(&common, " --grace %d --late-penalty %g --late-cap %g", R->opt->grace_min, R->opt->late_per_day, R->opt->late_cap);
        if (R->opt->extensions[0]) {
            char ex[PATH_MAX + 32];
            snprintf(ex, sizeof ex, "%s/extensions.csv", R->run.state);
            tg_buf_printf(&common, " --extensions ");
            sh_quote(&common, ex);
        }
    }
    /* The batch scripts an HPC admin reads: every request is an #SBATCH line in the script, kept as
     * DIR/.state/slurm/task.G.sh and finish.G.sh; sbatch gets only --parsable and the dependency.
     * Defaults from the lab table: a task's time is its students' worst case (the build's CPU limit
     * per compiler, the case limit times the time-outs a submission may have, the sanitizer limit
     * per sanitizer test) plus a setup allowance; its memory is the sandbox's limits of the
     * students graded at once plus the grader's own (cases, references). */
    int per_s = R->opt->per_task > 0 ? R->opt->per_task : 1, at_once = R->opt->cpus_per_task > 1 ? R->opt->cpus_per_task : 1;
    int sanitizer_tests = 0;
    for (int i = 0; i < R->lab->ntests; ++i)
        sanitizer_tests += R->lab->tests[i].kind == TL_TEST_RACECHECK || R->lab->tests[i].kind == TL_TEST_MEMCHECK;
    double student_s = 3.0 * SUB_BUILD_CPU_S + TIMEOUTS_PER_SUBMISSION * R->lab->case_limit_s +
                       sanitizer_tests * R->lab->sanitizer_limit_s + 60.0;
    double task_s = ((per_s + at_once - 1) / at_once) * student_s + 300.0;
    char tdef[32], mdef[32];
    int tmin = (int)((task_s + 59) / 60);
    snprintf(tdef, sizeof tdef, "%02d:%02d:00", tmin / 60, tmin % 60);
    long long run_mem = R->lab->gpu && !R->opt->emulate ? (8LL << 30) : R->lab->gpu ? (2LL << 30) : (1LL << 30);
    long long one = run_mem > SUB_BUILD_MEM ? run_mem : SUB_BUILD_MEM;
    snprintf(mdef, sizeof mdef, "%lldG", (one * at_once + (2LL << 30)) >> 30);
    const char *ttime = R->opt->slurm_time[0] ? R->opt->slurm_time : tdef, *tmem = R->opt->slurm_mem[0] ? R->opt->slurm_mem : mdef;
    char array[64], name[64], fname[80], out_task[PATH_MAX + 64], out_fin[PATH_MAX + 64], jobid[256];
    snprintf(name, sizeof name, "tl-grade-%s", R->lab->id);
    snprintf(fname, sizeof fname, "%s-gradebook", name);
    snprintf(out_task, sizeof out_task, "%s/%d-%%a.txt", logs, gen);
    snprintf(out_fin, sizeof out_fin, "%s/%d-finish.txt", logs, gen);
    if (R->opt->max_parallel > 0)
        snprintf(array, sizeof array, "0-%d%%%d", ntasks - 1, R->opt->max_parallel);
    else
        snprintf(array, sizeof array, "0-%d", ntasks > 0 ? ntasks - 1 : 0);
    tg_buf task = {0}, finish = {0};
    tg_buf_printf(&task, "#!/bin/sh\n# One task of tl-grade's job array (generation %d) for lab %s: grades the "
                  "students on line\n# $SLURM_ARRAY_TASK_ID of tasks.%d.tsv (%d a task, %d at once) into %s.\n"
                  "# Made by tl-grade --slurm. Time: %s%s; memory: %s%s.\n", gen, R->lab->id, gen, per_s, at_once,
                  R->run.out, ttime, R->opt->slurm_time[0] ? " (--time)" : " (from the lab's limits: per student 3 x the build's "
                  "CPU limit + the time-outs a submission may have x the case limit + the sanitizer tests x their "
                  "limit + 60 s; per task the students one after another + 300 s)", tmem,
                  R->opt->slurm_mem[0] ? " (--mem)" : " (the sandbox's limits of the students graded at once + 2 GiB for "
                  "the grader)");
    tg_buf_printf(&task, "#SBATCH --job-name=%s\n#SBATCH --array=%s\n#SBATCH --output=%s\n#SBATCH --chdir=%s\n"
                  "#SBATCH --time=%s\n#SBATCH --mem=%s\n#SBATCH --ntasks=1\n", name, array, out_task, sdir, ttime, tmem);
    tg_buf_printf(&finish, "#!/bin/sh\n# tl-grade's finishing job (generation %d): gradebook.csv, summary.md and "
                  "the exports from every\n# student's results; runs after the array, whatever became of its tasks. "
                  "Made by tl-grade --slurm.\n#SBATCH --job-name=%s\n#SBATCH --output=%s\n#SBATCH --chdir=%s\n"
                  "#SBATCH --time=00:10:00\n#SBATCH --mem=2G\n#SBATCH --ntasks=1\n", gen, fname, out_fin, sdir);
    if (R->opt->cpus_per_task > 0)
        tg_buf_printf(&task, "#SBATCH --cpus-per-task=%d\n", R->opt->cpus_per_task);
    if (R->opt->gpus_per_task > 0)
        tg_buf_printf(&task, "#SBATCH --gpus-per-task=%d\n", R->opt->gpus_per_task);
    if (R->opt->gres[0])
        tg_buf_printf(&task, "#SBATCH --gres=%s\n", R->opt->gres);
    for (int k = 0; k < 2; ++k) {
        tg_buf *b = k ? &finish : &task;
        if (R->opt->partition[0])
            tg_buf_printf(b, "#SBATCH --partition=%s\n", R->opt->partition);
        if (R->opt->account[0])
            tg_buf_printf(b, "#SBATCH --account=%s\n", R->opt->account);
    }
    tg_buf_printf(&task, "exec %s --jobs %d --slurm-task %d\n", common.s, at_once, gen);
    tg_buf_printf(&finish, "exec %s --slurm-finish\n", common.s);
    char task_sh[PATH_MAX + 32], fin_sh[PATH_MAX + 32];
    snprintf(task_sh, sizeof task_sh, "%s/task.%d.sh", sdir, gen);
    snprintf(fin_sh, sizeof fin_sh, "%s/finish.%d.sh", sdir, gen);
    int wr = write_script(task_sh, &task) | write_script(fin_sh, &finish);
    tg_buf_free(&common);
    tg_buf_free(&task);
    tg_buf_free(&finish);
    if (wr != 0) {
        fprintf(stderr, "tl-grade: cannot write the batch scripts in %s (%s)\n", sdir, strerror(errno));
        return EXIT_GRADER;
    }
    char *argv[24];
    int a = 0;
    argv[a++] = sbatch;
    argv[a++] = "--parsable";
    int fixed = a;
    char arrjob[64] = "";
    if (ntasks > 0) {
        argv[a++] = task_sh;
        argv[a] = NULL;
        int rc = run_capture(argv, jobid, sizeof jobid);
        jobid[strcspn(jobid, ";\n")] = '\0';
        if (rc != 0 || !jobid[0] || strspn(jobid, "0123456789") != strlen(jobid)) {
            fprintf(stderr, "tl-grade: --slurm: sbatch refused the job array (exit %d; its message is above; the "
                    "script is %s); nothing was submitted\n", rc, task_sh);
            return EXIT_GRADER;
        }
        snprintf(arrjob, sizeof arrjob, "%s", jobid);
    }
    a = fixed;
    char dep[96];
    snprintf(dep, sizeof dep, "afterany:%s", arrjob);
    if (arrjob[0]) {
        argv[a++] = "--dependency";
        argv[a++] = dep;
    }
    argv[a++] = fin_sh;
    argv[a] = NULL;
    int rc = run_capture(argv, jobid, sizeof jobid);
    jobid[strcspn(jobid, ";\n")] = '\0';
    if (rc != 0 || !jobid[0]) {
        fprintf(stderr, "tl-grade: --slurm: sbatch refused the finishing job (exit %d; its message is above); the "
                "array %s runs; write the gradebook afterwards with: %s\n", rc, arrjob[0] ? arrjob : "(none)", fin_sh);
        return EXIT_GRADER;
    }
    snprintf(p, sizeof p, "%s/jobs", sdir);
    char *old = tg_read_file(p, 1 << 20, NULL);
    tg_buf jobs = {0};
    tg_buf_printf(&jobs, "%s%d %s %s\n", old ? old : "", gen, arrjob[0] ? arrjob : "-", jobid);
    free(old);
    tg_write_atomic(p, jobs.s, jobs.len);
    tg_buf_free(&jobs);
    if (ntasks)
        fprintf(stderr, "tl-grade: submitted %d student(s) in %d task(s): job array %s, then job %s writes "
                "%s/gradebook.csv and summary.md\n", nt, ntasks, arrjob, jobid, R->run.out);
    else
        fprintf(stderr, "tl-grade: no student left to grade; job %s writes %s/gradebook.csv and summary.md\n", jobid,
                R->run.out);
    if (ntasks && R->opt->max_parallel > 0)
        fprintf(stderr, "tl-grade: at most %d task(s) run at once\n", R->opt->max_parallel);
    fprintf(stderr, "tl-grade: the batch scripts (every request an #SBATCH line): %s, %s (time %s, memory %s a task)\n",
            task_sh, fin_sh, ttime, tmem);
    fprintf(stderr, "tl-grade: follow it with: ./kit grade --status %s\n", R->run.out);
    printf("%s %s\n", arrjob[0] ? arrjob : "-", jobid);
    return 0;
}

/* ------------------------------------------------------------------ --status */

int tg_status(const char *outarg)
{
    char out[PATH_MAX], err[900];
    if (!realpath(outarg, out)) {
        fprintf(stderr, "tl-grade: --status '%s': no such folder (%s)\n", outarg, strerror(errno));
        return TL_EXIT_USAGE;
    }
    gstudent *st;
    int ns;
    if (tg_students_load(out, &st, &ns, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: --status: %s\n", err);
        return TL_EXIT_USAGE;
    }
    int done = 0, failed = 0;
    double sum = 0;
    tg_buf fails = {0};
    for (int i = 0; i < ns; ++i) {
        char p[PATH_MAX + 200];
        snprintf(p, sizeof p, "%s/%s/.done", out, st[i].name);
        char *m = tg_read_file(p, 256, NULL);
        double sc, mx;
        if (m && sscanf(m, "%lf %lf", &sc, &mx) == 2) {
            ++done;
            sum += mx > 0 ? 100.0 * sc / mx : 0;
        } else {
            snprintf(p, sizeof p, "%s/%s/not-graded.txt", out, st[i].name);
            char *why = tg_read_file(p, 400, NULL);
            if (why) {
                ++failed;
                tg_buf_printf(&fails, "  %s: not graded: %.*s\n", st[i].name, (int)strcspn(why, "\n"), why);
            }
            free(why);
        }
        free(m);
    }
    printf("%s: %d of %d graded", out, done, ns);
    if (done)
        printf(" (mean %.1f%%)", sum / done);
    printf(", %d not graded, %d to go\n", failed, ns - done - failed);
    if (fails.len)
        printf("%s", fails.s);
    tg_buf_free(&fails);
    char state[PATH_MAX + 16], p[PATH_MAX + 64];
    snprintf(state, sizeof state, "%s/.state", out);
    snprintf(p, sizeof p, "%s/progress.json", out);
    int gen;
    char arr[64], fin[64], q[8192];
    if (last_jobs(state, &gen, arr, fin, sizeof arr)) {
        char ids[140];
        snprintf(ids, sizeof ids, "%s,%s", arr, fin);
        int n = queued(ids, q, sizeof q);
        if (n < 0) {
            printf("slurm: submission %d: job array %s, gradebook job %s (squeue not found here: their state is "
                   "unknown)\n", gen, arr, fin);
        } else {
            int pend = 0, run = 0, other = 0, fin_q = 0;
            for (char *line = strtok(q, "\n"); line; line = strtok(NULL, "\n")) {
                char id[64], stt[64];
                if (sscanf(line, "%63s %63s", id, stt) != 2)
                    continue;
                if (strcmp(id, fin) == 0) {
                    fin_q = 1;
                    continue;
                }
                if (strcmp(stt, "PENDING") == 0)
                    ++pend;
                else if (strcmp(stt, "RUNNING") == 0)
                    ++run;
                else
                    ++other;
            }
            printf("slurm: submission %d: job array %s: %d task(s) running, %d pending%s; gradebook job %s: %s\n", gen,
                   arr, run, pend, other ? ", others finishing" : "", fin,
                   fin_q ? "waiting" : "done (or gone from the queue)");
            if (!n)
                printf("slurm: nothing of this run is queued or running%s\n",
                       done + failed < ns ? "; submit the same command again to grade the students left" : "");
            printf("slurm: task logs in %s/slurm/logs/\n", state);
        }
    } else if (tg_is_file(p)) {
        char *pj = tg_read_file(p, 1 << 16, NULL);
        printf("local run, %s: %s", p, pj ? pj : "");
        free(pj);
    }
    snprintf(p, sizeof p, "%s/gradebook.csv", out);
    struct stat sb;
    if (stat(p, &sb) == 0) {
        char when[64];
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&sb.st_mtime));
        printf("gradebook: %s (written %s)\n", p, when);
    } else {
        printf("gradebook: not written yet\n");
    }
    free(st);
    return 0;
}
