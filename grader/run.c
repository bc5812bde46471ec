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

static int gpu_lock_fd = -1;
static void gpu_lock(grun *R, int on)
{
    if (!R->lab->gpu)
        return;
    if (on) {
        char p[200];
        snprintf(p, sizeof p, "/tmp/tilelab-gpu-%ld.lock", (long)getuid());
        gpu_lock_fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (gpu_lock_fd >= 0)
            while (flock(gpu_lock_fd, LOCK_EX) != 0 && errno == EINTR)
                ;
    } else if (gpu_lock_fd >= 0) {
        flock(gpu_lock_fd, LOCK_UN);
        close(gpu_lock_fd);
        gpu_lock_fd = -1;
    }
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
            if (tg_student_warnings(R->lab, &log, &g.warn_lines, &g.build_errors) > 0)
                g.built = 0;
            tg_buf_free(&ignore);
            tg_buf_free(&log);
        } else {
            g.log_path[0] = '\0';
        }
        g.emu_built = R->lab->gpu && R->emulate;
    } else if (R->build_log[0]) {  /* kit check: that build failed; its log has the compiler's errors */
        tg_buf log = {0};
        size_t len = 0;
        char *text = tg_read_file(R->build_log, 4 << 20, &len);
        tg_buf_add(&log, text ? text : "", text ? len : 0);
        free(text);
        tg_first_errors(&log, &g.build_errors, &g.warnings);
        tg_student_warnings(R->lab, &log, &g.warn_lines, &g.build_errors);
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
        int found[TG_MAX_FILES];
        rc = tg_intake(R->lab, st->path, g.work, g.files, !R->check, found, &g.notes, err, sizeof err);
        if (rc < 0) {
            snprintf(why, whylen, "%s", err);
            return EXIT_GRADER;
        }
    }
    tres tr[TG_MAX_TESTS];
    memset(tr, 0, sizeof tr);
    int nt = 0;
    for (int i = 0; i < R->lab->ntests; ++i) {
        const tg_test *t = &R->lab->tests[i];
        if (R->public_only && !TG_KIND_PUBLIC(t->kind))
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
        if (!R->prebuilt[0] && !R->build_log[0] && tg_build_submission(R, &g, err, sizeof err) != 0) {
            snprintf(why, whylen, "%s", err);
            return EXIT_GRADER;
        }
        g.build_s = (tl_now_ms() - tb) / 1000.0;
        if (R->lab->gpu)
            gpu_lock(R, 1);
        for (int i = 0; i < nt; ++i) {
            if (!g.built) {
                tr[i].graded = 1;
                tg_buf_printf(&tr[i].out, "not run: the build failed\n%s", g.build_errors.s ? g.build_errors.s : "");
                continue;
            }
            switch (tr[i].t->kind) {
            case TG_CORRECT_PUBLIC:
            case TG_CORRECT_HIDDEN: tg_judge_correctness(R, &g, &tr[i]); break;
            case TG_RACECHECK:
            case TG_MEMCHECK: tg_judge_safety(R, &g, &tr[i]); break;
            case TG_SPEED: tg_judge_speed(R, &g, &tr[i]); break;
            case TG_CALC: tg_judge_calc(R, &g, &tr[i], 0); break;
            case TG_CALC_API: tg_judge_calc(R, &g, &tr[i], 1); break;
            case TG_POLICY: break;            /* after every run: it reads what they saw */
            }
        }
        for (int i = 0; i < nt; ++i)
            if (g.built && tr[i].t->kind == TG_POLICY)
                tg_judge_policy(R, &g, &tr[i]);
        if (R->lab->gpu)
            gpu_lock(R, 0);
    }
    *secs = (tl_now_ms() - t0) / 1000.0;
    tg_write_reports(R, &g, tr, nt, *secs, score, max);
    for (int i = 0; i < nt; ++i)
        tg_buf_free(&tr[i].out);
    if (!R->keep_work)
        tg_rmtree(g.work);
    char marker[PATH_MAX + 16], line[128];
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

static void student_name(const char *path, char *out, size_t len)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    size_t l = strlen(buf);
    while (l > 1 && buf[l - 1] == '/')
        buf[--l] = '\0';
    const char *b = strrchr(buf, '/');
    b = b ? b + 1 : buf;
    char name[256];
    snprintf(name, sizeof name, "%s", b);
    static const char *const exts[] = {".tar.gz", ".tgz", ".tar", ".zip", NULL};
    for (int i = 0; exts[i]; ++i) {
        size_t nl = strlen(name), el = strlen(exts[i]);
        if (nl > el && strcmp(name + nl - el, exts[i]) == 0) {
            name[nl - el] = '\0';
            break;
        }
    }
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < len && j < 100; ++i) {
        char c = name[i];
        out[j++] = (isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.') ? c : '_';
    }
    out[j] = '\0';
    if (!out[0] || out[0] == '.')
        out[0] = '_';
    if (!out[0])
        snprintf(out, len, "_");
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
        R->gpu_ok = 1;
        return;
    }
    if (!R->ref_build[0]) {
        snprintf(R->gpu_why, sizeof R->gpu_why, "unknown: the reference build failed, so the device was not tried (%s)", R->ref_why);
        R->gpu_ok = 1;   /* let the student binary say whether it finds a device */
        return;
    }
    gsub g;
    memset(&g, 0, sizeof g);
    gstudent probe = {"probe", ""};
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

int tg_class_run(grun *R, int ns, char **subs, const char *out, const char *secret)
{
    char p[PATH_MAX + 64];
    int lock_fd = -1;            /* the out dir's lock, held for the whole run */
    gstudent *st = calloc((size_t)ns, sizeof *st);
    srow *rows = calloc((size_t)ns, sizeof *rows);
    for (int i = 0; i < ns; ++i) {
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
        student_name(sp, st[i].name, sizeof st[i].name);
        if (R->check)
            snprintf(st[i].name, sizeof st[i].name, "working-tree");
        for (int j = 0, k = 2; j < i; ++j)       /* the same name twice: alice, alice-2 */
            if (strcmp(st[j].name, st[i].name) == 0) {
                char base[128];
                snprintf(base, sizeof base, "%.100s", st[i].name);
                snprintf(st[i].name, sizeof st[i].name, "%s-%d", base, k++);
                j = -1;
            }
    }
    /* The out dir: ours to write, never inside the kit's solutions or a submission. */
    if (tg_mkdirs(out, 0755) != 0 || !realpath(out, R->out)) {
        fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", out, strerror(errno));
        return TL_EXIT_USAGE;
    }
    for (int i = 0; i < ns; ++i) {
        size_t l = strlen(st[i].path);
        if (strncmp(R->out, st[i].path, l) == 0 && (R->out[l] == '/' || R->out[l] == '\0')) {
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
    if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "tl-grade: another tl-grade is writing to '%s'; wait for it or use another --out\n", out);
        return TL_EXIT_USAGE;
    }
    char err[800];
    if (tg_state_seed(R, secret, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: %s\n", err);
        return TL_EXIT_USAGE;
    }
    /* An out dir belongs to one lab and one secret: finished results of another must never be
     * taken for this run's. The secret is kept as a fingerprint only. */
    if (!R->check) {
        char ident[160], idp[PATH_MAX + 32];
        int il = snprintf(ident, sizeof ident, "lab %s secret %016llx\n", R->lab->id,
                          (unsigned long long)tg_mix64(R->seed ^ 0x5EC2E7ull));
        snprintf(idp, sizeof idp, "%s/identity", R->state);
        char *have = tg_read_file(idp, 256, NULL);
        if (have && strcmp(have, ident) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': it holds results of another run (%.*s), not lab %s with "
                    "this secret; use another --out, or give the same --secret\n", out, (int)strcspn(have, "\n"), have,
                    R->lab->id);
            free(have);
            return TL_EXIT_USAGE;
        }
        free(have);
        if (tg_write_atomic(idp, ident, (size_t)il) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s (%s)\n", out, idp, strerror(errno));
            return TL_EXIT_USAGE;
        }
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
    if (R->lab->gpu && !nvcc[0] && !prebuilt) {
        fprintf(stderr, "tl-grade: not graded: lab %s needs nvcc to build, and none is on PATH or in /usr/local/cuda/bin\n",
                R->lab->id);
        return EXIT_GRADER;
    }
    tg_find_tool("compute-sanitizer", R->sanitizer, sizeof R->sanitizer);
    tg_iso_probe(&R->iso);
    snprintf(p, sizeof p, "%s/labs/emulated/meson.build", R->root);
    if (R->lab->emu_target) {
        char *mb = tg_read_file(p, 1 << 20, NULL);
        char q[80];
        snprintf(q, sizeof q, "'%s'", R->lab->emu_target);
        R->have_emu_target = mb && strstr(mb, q);
        free(mb);
    }
    if (!R->check || !R->quiet) {
        fprintf(R->check ? stdout : stderr, "tl-grade: lab %s, %d submission(s), isolation: %s\n", R->lab->id, ns, R->iso.desc);
        if (R->iso.notes[0] && !R->check)
            fprintf(stderr, "tl-grade: isolation notes: %s\n", R->iso.notes);
    }
    /* The pristine kit, copied fresh each run (kit check with a prebuilt program needs none). */
    snprintf(R->pristine, sizeof R->pristine, "%s/pristine", R->state);
    tg_rmtree(R->pristine);
    if (!prebuilt) {
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
    /* A GPU lab graded here without a GPU runs emulated: sizes above TL_EMU_MAX_WORK are not run
     * there, so their inputs and references are not made (a 4096^3 reference takes minutes). */
    int likely_emulated = R->lab->gpu && (R->emulate || !R->iso.gpu_nodes);
    for (int i = 0; i < R->nsizes; ++i)
        if (!(likely_emulated && (double)R->sizes[i].m * R->sizes[i].k * R->sizes[i].n > TL_EMU_MAX_WORK) &&
            tg_prepare_size(&R->sizes[i], err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    if (R->lab->gpu && !R->public_only && !R->emulate && R->iso.gpu_nodes && R->lab->speed_size && R->lab->nvariants)
        tg_build_reference(R);
    else
        snprintf(R->ref_why, sizeof R->ref_why, "not needed in this run");
    probe_gpu(R);
    if (!prebuilt) {
        double tk = tl_now_ms();
        tg_build_kit(R);           /* the kit's own parts, once for the whole class */
        if ((!R->check || !R->quiet) && (R->kit_build[0] || !R->iso.bwrap))
            fprintf(R->check ? stdout : stderr, "tl-grade: %s%s%s\n", R->kit_build[0] ?
                    "the kit is built once for this run; each submission compiles its own files over it" :
                    R->kit_build_why, R->kit_build[0] && R->kit_archs[0] ? "; GPU code for sm_" : "",
                    R->kit_build[0] ? R->kit_archs : "");
        if (R->kit_build[0] && !R->check)
            fprintf(stderr, "tl-grade: the kit's build took %.1f s\n", (tl_now_ms() - tk) / 1000.0);
        if (!R->kit_build[0] && R->iso.bwrap) {
            /* The pristine kit with its skeletons does not build: the grader's problem (a file not
             * in git, a broken kit), never a zero for every student. */
            fprintf(stderr, "tl-grade: not graded: %s\n", R->kit_build_why);
            return EXIT_GRADER;
        }
    }
    if (R->lab->gpu && !R->check)
        fprintf(stderr, "tl-grade: GPU: %s\n", R->gpu_why);

    /* The class: up to --jobs submissions at once, each in its own worker process. */
    double t_start = tl_now_ms();
    int next = 0, running = 0, finished = 0;
    pid_t *pids = calloc((size_t)ns, sizeof *pids);
    while (finished < ns) {
        while (running < R->jobs && next < ns) {
            int i = next++;
            char marker[PATH_MAX + 160];
            snprintf(marker, sizeof marker, "%s/%s/.done", R->out, st[i].name);
            char *m = R->check ? NULL : tg_read_file(marker, 256, NULL);
            if (m && sscanf(m, "%lf %lf %lf", &rows[i].score, &rows[i].max, &rows[i].secs) == 3) {
                rows[i].done = 1;
                ++finished;
                fprintf(stderr, "[%d/%d] %s ... %g/%g (graded earlier; delete %s/%s to grade again)\n", finished, ns,
                        st[i].name, rows[i].score, rows[i].max, R->out, st[i].name);
                free(m);
                continue;
            }
            free(m);
            if (R->check) {
                char od[PATH_MAX + 160];
                snprintf(od, sizeof od, "%s/%s", R->out, st[i].name);
                tg_rmtree(od);
            }
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) {
                snprintf(rows[i].why, sizeof rows[i].why, "cannot fork (%s)", strerror(errno));
                ++finished;
                continue;
            }
            if (pid == 0) {
#ifdef __linux__
                prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
                close(lock_fd);
                double sc, mx, secs;
                char why[600] = "";
                int rc = grade_one(R, &st[i], &sc, &mx, &secs, why, sizeof why);
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
            ++running;
        }
        if (running == 0)
            continue;
        int wst;
        pid_t w = wait(&wst);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < ns; ++i) {
            if (pids[i] != w)
                continue;
            pids[i] = 0;
            --running;
            ++finished;
            char marker[PATH_MAX + 160];
            snprintf(marker, sizeof marker, "%s/%s/.done", R->out, st[i].name);
            char *m = tg_read_file(marker, 256, NULL);
            if (WIFEXITED(wst) && WEXITSTATUS(wst) == 0 && m &&
                sscanf(m, "%lf %lf %lf", &rows[i].score, &rows[i].max, &rows[i].secs) == 3) {
                rows[i].done = 1;
                if (!R->check)
                    fprintf(stderr, "[%d/%d] %s ... %g/%g (%.1f s)\n", finished, ns, st[i].name, rows[i].score,
                            rows[i].max, rows[i].secs);
            } else {
                char np[PATH_MAX + 160];
                snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->out, st[i].name);
                char *why = tg_read_file(np, 600, NULL);
                snprintf(rows[i].why, sizeof rows[i].why, "%s",
                         why ? why : WIFSIGNALED(wst) ? "the grader's worker died (signal)" : "the grader's worker failed");
                free(why);
                fprintf(stderr, "[%d/%d] %s ... not graded: %s\n", finished, ns, st[i].name, rows[i].why);
            }
            free(m);
        }
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
