/* test_grader_work.c: issue 11 item 4, the work is done by the student's kernel the way the lab asks:
 * the known-wrong files that compute a right P on the host or untiled (tests/wrong/manifest.tsv,
 * 'work:' rows) get no correctness credit from the grader under emulation, with a headline naming
 * it (./kit check's reuse figures of the solution: tests/demo/demo.sh). Each case is tl-grade --check --emulate on
 * a folder: the student's file built over the kit's build in the sandbox, as a grading run builds it
 * (kit check itself judges the program its build made, --prebuilt: the headline suite's path). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#define TG    TL_BUILD_ROOT "/grader/tl-grade"
#define LIMIT 1200

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* ---------------------------------------------------------------- item 4: the work, counted */

/* kit check's path (tl-grade --check --emulate) on a folder holding FILE as the lab's student
 * file: its stdout, and the exit code in *rc. */
static char *check_emulated(const char *lab, const char *file, const char *as, int *rc)
{
    /* In the build folder, open like the styles classes' folders below (and the other grading
     * suites'): the grader's sandbox builds as the same uid for all of them (build.c, the kit cache
     * keys on it), so these runs reuse the labs' kit builds the styles classes and the lab 03 class
     * make, instead of a root-owned second build of each lab (a 0700 mkdtemp folder under /tmp was
     * out of uid 65534's reach). */
    char dir[] = TL_BUILD_ROOT "/tests/tl-work-XXXXXX";
    cr_assert(mkdtemp(dir));
    cr_assert_eq(chmod(dir, 0755), 0);
    cr_assert_eq(sh("mkdir -p '%s/sub' && cp '%s/%s' '%s/sub/%s'", dir, TL_SOURCE_ROOT, file, dir, as), 0);
    char cmd[2048];
    /* up to 512^3 (TL_GRADE_EMU_MAX_SIZE): the work is counted at 128^3 at most and every verdict
     * here shows at the fully checked sizes; kit check's larger ones run in the headline suite */
    /* --kit named: without it tl-grade takes $TL_ROOT (which ./kit exports) or the current folder,
     * so a plain `meson test` run failed here as "not in the kit's git tree" */
    snprintf(cmd, sizeof cmd, "TL_GRADE_EMU_MAX_SIZE=512 '%s' --kit '%s' --check --lab %s --out '%s/out' --emulate "
             "'%s/sub' > '%s/log' 2>&1", TG, TL_SOURCE_ROOT, lab, dir, dir, dir);
    int st = system(cmd);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    char log[1200];
    snprintf(log, sizeof log, "%s/log", dir);
    char *text = tg_read_file(log, 1 << 22, NULL);
    sh("rm -rf '%s'", dir);
    cr_assert(text, "no output from %s", cmd);
    return text;
}

/* Lab 02's host-computes.cu through a grading build of its own (the student's file compiled in the
 * sandbox, as a class run builds it). The other files of this kind (03/host-computes.cu,
 * 03/naive-in-tiled.cu, 04/naive-in-boundary.cu) have headline rows in tests/wrong/manifest.tsv:
 * the headline suite judges them on kit check's own path (the prebuilt program) with these same
 * assertions (exit 1, the headline, every correctness test 0; test_headline.c), which saved their
 * three grading builds and lab 04's kit build (18 CPU-s, tests/bench/README.md, session 12); the
 * grading build's path for the work rule stays tested here and by the styles classes below. */
Test(work, a_host_side_or_untiled_computation_earns_no_correctness_credit_and_the_headline_names_it,
     .timeout = LIMIT)
{
    struct { const char *lab, *file, *as, *want; } cases[] = {
        {"02", "tests/wrong/02/host-computes.cu", "naive.cu", "no credit: host-side computation: no kernel ran"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int rc;
        char *out = check_emulated(cases[i].lab, cases[i].file, cases[i].as, &rc);
        cr_assert_eq(rc, 1, "%s: exit %d, expected 1:\n%s", cases[i].file, rc, out);
        cr_assert(strstr(out, cases[i].want), "%s: no '%s' in:\n%s", cases[i].file, cases[i].want, out);
        /* Every correctness test of the lab scores 0: P was right, the work was not the lab's. */
        for (const char *p = out; (p = strstr(p, "sizes  (")) != NULL; ++p)
            cr_assert(strncmp(p, "sizes  (0/", 10) == 0, "%s: a correctness test scored: %.60s\n%s", cases[i].file, p, out);
        free(out);
    }
}

/* ./kit check's reuse figures of the lecture kernel (global loads per multiply-add 2/16 and 2/32) are
 * asserted on the demo's own ./kit check 03 of the solution (tests/demo/demo.sh), the command a
 * student runs; a grading run of the same file here cost 4 CPU-s more (session 13). */

Test(work, the_emulators_controls_reached_through_an_asm_label_score_nothing, .timeout = LIMIT)
{
    /* Where nvcc builds the lab program too (here), the labels name nothing there and the link
     * fails; where only the emulated program is built (no CUDA toolkit), the policy test names the
     * control and every case fails its work check (race checking off). Either way: nothing. */
    int rc;
    char *out = check_emulated("03", "tests/hostile/03/emu_controls.cu", "tiled.cu", &rc);
    cr_assert_eq(rc, 1, "exit %d:\n%s", rc, out);
    int link_failed = strstr(out, "BUILD FAILED") && strstr(out, "undefined reference to `tl_emu_set_race_check'");
    int judged = strstr(out, "race checking was switched off") && strstr(out, "the emulator's own controls");
    cr_assert(link_failed || judged, "neither the link failure nor the work and policy verdicts:\n%s", out);
    cr_assert(strstr(out, "Score: 0/"), "%s", out);
    free(out);
}

/* ---------------------------------------------------------------- issue 24 items 3/6: every style */

/* One class per lab, graded emulated: the honest styles (tests/styles/NN/ and the corpus's
 * tests/corpus/NN-right-style-*.cu: pointer arithmetic, __device__, __forceinline__, template and
 * recursive helpers, references, __ldg, lambdas, float4 loads and stores, atomics; for lab 03 also
 * the tiles filled and read by helpers, 03-right-helper-fills-tile.cu and 03-right-stage-helper.cu)
 * and the hostile decoys of tests/hostile/NN/decoy_*. results.json of each student, by name. */
static double styles_score(const char *lab, const char *student, char **output)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/tests/styles-class/%s/out/%s/results.json", TL_BUILD_ROOT, lab, student);
    char *text = tg_read_file(p, 1 << 22, NULL);
    cr_assert(text, "no results for %s in lab %s (%s)", student, lab, p);
    const char *s = strstr(text, "\"score\":");
    cr_assert(s, "%s", text);
    double v = atof(s + 8);
    *output = text;
    return v;
}

/* The students of the lab's class (one a line in DIR/students), graded. */
static void styles_class(const char *lab)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/styles-class/%s", TL_BUILD_ROOT, lab);
    const char *file = strcmp(lab, "02") == 0 ? "naive.cu" : strcmp(lab, "06") == 0 ? "regtile.cu" : "tiled.cu";
    const char *soldir = strcmp(lab, "02") == 0   ? "02-naive-kernel"
                         : strcmp(lab, "06") == 0 ? "06-register-tiling"
                                                  : "03-tiled-kernel";
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/in/solution' && cp '%s/solutions/%s/%s' '%s/in/solution/' && "
                    "for f in '%s/tests/styles/%s'/*.cu '%s/tests/corpus/%s'-right-style-*.cu "
                    "'%s/tests/corpus/%s'-right-helper-fills-tile.cu '%s/tests/corpus/%s'-right-stage-helper.cu "
                    "'%s/tests/hostile/%s'/decoy_*.cu '%s/tests/hostile/%s'/reads_discarded.cu "
                    "'%s/tests/hostile/%s'/gpu_replay_answer.cu; do [ -f \"$f\" ] || continue; "
                    "n=$(basename \"$f\" .cu); mkdir -p '%s/in/'\"$n\" && cp \"$f\" '%s/in/'\"$n\"'/%s' && "
                    "echo \"$n\" >> '%s/students'; done",
                    dir, dir, TL_SOURCE_ROOT, soldir, file, dir,
                    TL_SOURCE_ROOT, lab, TL_SOURCE_ROOT, lab, TL_SOURCE_ROOT, lab, TL_SOURCE_ROOT, lab, TL_SOURCE_ROOT,
                    lab, TL_SOURCE_ROOT, lab, TL_SOURCE_ROOT, lab, dir, dir, file, dir), 0);
    /* sizes up to 512^3 for every student alike (TL_GRADE_EMU_MAX_SIZE): the scores compared are
     * the solution's and each style's under the same bound; the work is counted at 128^3 at most */
    int rc = sh("echo 4242 > '%s/secret' && PATH=\"$PATH:/usr/local/cuda/bin\" TL_GRADE_EMU_MAX_SIZE=512 '%s' --kit "
                "'%s' --lab %s --emulate "
                "--out '%s/out' --secret '%s/secret' --jobs 2 '%s'/in/* > '%s/run.log' 2>&1", dir, TG, TL_SOURCE_ROOT,
                lab, dir, dir, dir, dir);
    char log[1100];
    snprintf(log, sizeof log, "%s/run.log", dir);
    char *text = tg_read_file(log, 1 << 20, NULL);
    cr_assert_eq(rc, 0, "the lab %s styles class failed (exit %d):\n%s", lab, rc, text ? text : "");
    free(text);
}

/* Every honest style scores what the solution scores (its work judged and passed: the output names
 * the counted figures, never "not checked here"); every decoy scores less, with the headline given;
 * reads_discarded (every access of the lab's kernel, the sums dropped, P from the launcher's host
 * product) scores less as "P was computed on the host" (the guarded device's round trips), and lab
 * 03's gpu_replay_answer (an answer kept and replayed) as "P not computed from this call's inputs". */
static void styles_judge(const char *lab, const char *decoy_headline, int min_students)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/tests/styles-class/%s/students", TL_BUILD_ROOT, lab);
    char *list = tg_read_file(p, 1 << 16, NULL);
    cr_assert(list, "no student list %s", p);
    char *sol;
    double full = styles_score(lab, "solution", &sol);
    int n = 0;
    for (char *save = NULL, *name = strtok_r(list, "\n", &save); name; name = strtok_r(NULL, "\n", &save), ++n) {
        char *out;
        double got = styles_score(lab, name, &out);
        if (strcmp(name, "reads_discarded") == 0) {
            cr_assert_lt(got, full, "lab %s %s scored as much as the solution (%g)", lab, name, got);
            cr_assert(strstr(out, "P was computed on the host: the launcher copied device memory to the host"),
                      "lab %s %s: not named as computed on the host:\n%s", lab, name, out);
        } else if (strcmp(name, "gpu_replay_answer") == 0) {
            /* its answer kept on the device and replayed on a repeated call: the re-run with M doubled */
            cr_assert_lt(got, full, "lab %s %s scored as much as the solution (%g)", lab, name, got);
            cr_assert(strstr(out, "P not computed from this call's inputs: with M doubled"),
                      "lab %s %s: not named as a kept answer:\n%s", lab, name, out);
        } else if (strncmp(name, "decoy_", 6) != 0) {
            cr_assert_eq(got, full, "lab %s %s scored %g, the solution %g:\n%s", lab, name, got, full, out);
            cr_assert(strstr(out, "work at size"), "lab %s %s: its work was not judged:\n%s", lab, name, out);
        } else {
            cr_assert_lt(got, full, "lab %s %s scored as much as the solution (%g)", lab, name, got);
            cr_assert(strstr(out, decoy_headline), "lab %s %s: no '%s' in:\n%s", lab, name, decoy_headline, out);
        }
        cr_assert_null(strstr(out, "host-side computation"), "lab %s %s is called host-side:\n%s", lab, name, out);
        free(out);
    }
    cr_assert_geq(n, min_students, "lab %s: %d students in the styles class, expected at least %d", lab, n,
                  min_students);
    free(list);
    free(sol);
}

/* Issue 24 item 3: lab 06's work rule against its decoys (tests/hostile/06/decoy_*): P computed on
 * the host and copied by a kernel that reads M and N once, by one shaped like step (b) that stages
 * every tile and reads it back once, and by one that stages every tile and never reads it. Each
 * fails every correctness test with the reason; the solution keeps every point (graded emulated). */
Test(work, lab_06_decoys_fail_its_work_rule_naming_why, .timeout = LIMIT)
{
    styles_class("06");
    styles_judge("06", "P not computed from the tiles:", 4);   /* the three decoys and reads_discarded */
}

Test(work, every_honest_way_of_reading_device_memory_is_counted_and_a_decoy_is_not_the_lab_s_kernel,
     .timeout = LIMIT)
{
    styles_class("03");
    styles_class("02");
    styles_judge("03", "P not computed from the tiles:", 9);   /* with gpu_replay_answer */
    styles_judge("02", "not the lab's kernel:", 5);   /* with reads_discarded */
}
