/* test_gpu_labs.c: the GPU labs' programs judged from the outside, as a student or the grader
 * would run them: each reference solution must pass, each skeleton must fail, and each
 * known-wrong submission (tests/wrong/) must fail with its bug named. Lab 05's calculator is
 * checked on its tables with no GPU at all.
 *
 * Run:  meson test -C build gpu-labs -v     (Criterion through TAP; one test at a time)
 * Without a usable CUDA device a GPU program exits 77 and its test is SKIPPED, never passed.
 * No CUDA call happens in this process: every program runs in a child (run_capture.h). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_list.h"
#include "run_capture.h"
#include "wrong_manifest.h"

/* Runs TL_BUILD_ROOT/rel with args (space-separated), stdout and stderr into *out (malloc'ed).
 * Returns the exit code (128 + signal when killed), -1 when the program is not there. */
static int run_program(const char *rel, const char *args, char **out)
{
    const char *root = getenv("TL_BUILD_ROOT");
    cr_assert(root, "TL_BUILD_ROOT is not set (meson test sets it)");
    char path[1024], argbuf[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    if (access(path, X_OK) != 0) {
        *out = calloc(1, 1);
        return -1;
    }
    char *argv[64];
    int argc = 0;
    argv[argc++] = path;
    snprintf(argbuf, sizeof argbuf, "%s", args);
    for (char *save = NULL, *a = strtok_r(argbuf, " ", &save); a && argc < 63; a = strtok_r(NULL, " ", &save))
        argv[argc++] = a;
    argv[argc] = NULL;
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s", path);
    *out = r.out;
    return r.signal ? 128 + r.signal : r.exit_code;
}

/* The last lines of a program's output, for failure messages. */
static const char *tail(const char *out)
{
    size_t n = strlen(out);
    return n > 1500 ? out + n - 1500 : out;
}

/* Skips (never passes) when the program is absent or found no usable GPU. */
static void skip_unless_ran(int rc, const char *rel)
{
    if (rc == -1)
        cr_skip_test("%s is not built here (no CUDA, or no GPU: a known-wrong CUDA program is built where a GPU "
                     "runs it, or with -Dgpu_programs=enabled)", rel);
    if (rc == 77)
        cr_skip_test("no usable CUDA device (%s exited 77)", rel);
}

/* ------------------------------------------------------------------ the programs */

typedef struct program_case {
    char        rel[160];   /* under the build folder                                     */
    const char *args;
    int         expect;     /* exit code                                                  */
    const char *names[5];   /* for expect 1: the output must name one of these (NULL-ended) */
} program_case;

/* From the lab table (tl-lab): every GPU lab's reference passes (timed, as a student would run
 * it), and the skeleton of every GPU lab with the kit's driver compiles, runs its public sizes and
 * fails (lab 05's own main is checked below). */
static program_case cases[2 * LAB_LIST_MAX];
static size_t ncases;

static void load_cases(void)
{
    static lab_row labs[LAB_LIST_MAX];
    int n = lab_list_load(TL_LAB, labs, LAB_LIST_MAX);
    if (n < 0) {
        fprintf(stderr, "test_gpu_labs: %s list failed\n", TL_LAB);
        n = 0;        /* the_lab_table_lists_gpu_labs below fails with the reason */
    }
    ncases = 0;
    for (int i = 0; i < n; ++i) {
        if (!labs[i].gpu)
            continue;
        program_case *c = &cases[ncases++];
        snprintf(c->rel, sizeof c->rel, "%s", labs[i].ref_binary);
        c->args = "--quiet";
        c->expect = 0;
        if (labs[i].own_main)
            continue;
        c = &cases[ncases++];
        snprintf(c->rel, sizeof c->rel, "%s", labs[i].binary);
        c->args = "--no-time";
        c->expect = 1;
        c->names[0] = "unwritten elements";
        c->names[1] = "grid too small";
    }
}

static void assert_verdict(const char *rel, const char *args, int expect, const char *const *names, int nnames)
{
    char *out;
    int rc = run_program(rel, args, &out);
    skip_unless_ran(rc, rel);
    cr_assert_eq(rc, expect, "%s %s: exit %d, expected %d; its output ends:\n%s", rel, args, rc, expect, tail(out));
    if (expect == 1) {
        int named = 0;
        for (int n = 0; n < nnames && !named; ++n)
            named = strstr(out, names[n]) != NULL;
        cr_assert(named, "%s failed as it should, but its output names none of the expected bug "
                  "classes (first: '%s'); it ends:\n%s", rel, names[0], tail(out));
    }
    free(out);
}

ParameterizedTestParameters(gpu_labs, program_gets_its_verdict)
{
    load_cases();
    static int idx[2 * LAB_LIST_MAX];
    for (size_t i = 0; i < ncases; ++i)
        idx[i] = (int)i;
    return cr_make_param_array(int, idx, ncases);
}

ParameterizedTest(int *i, gpu_labs, program_gets_its_verdict, .timeout = 300)
{
    load_cases();     /* each test runs in a process of its own */
    const program_case *c = &cases[*i];
    int n = 0;
    while (c->names[n])
        ++n;
    assert_verdict(c->rel, c->args, c->expect, c->names, n);
}

/* Known-wrong submissions of the GPU labs (tests/wrong/manifest.tsv, every lab but 01): exit 1
 * with one of the expected classes named. Races need several phases, many blocks and repeats:
 * the manifest's arguments say so. */
ParameterizedTestParameters(gpu_labs, known_wrong_submission_is_caught)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "!01", rows, why, sizeof why);
    if (n < 0) {
        fprintf(stderr, "test_gpu_labs: %s\n", why);
        n = 0;      /* the_manifest_reads test below fails with the reason */
    }
    return cr_make_param_array(wrong_row, rows, (size_t)n);
}

ParameterizedTest(wrong_row *c, gpu_labs, known_wrong_submission_is_caught, .timeout = 300)
{
    if (c->work_only)
        cr_skip_test("%s: P is right, computed the wrong way (%s): the lab program cannot count loads on a GPU; "
                     "the work judge catches it (its emulated twin in the emulated suite, ncu in "
                     "tests/gpu/work-on-device.sh)", c->file, c->expect[0]);
    /* "kit check: ...": P is right, so the program alone passes; ./kit check's memcheck pass on a
     * GPU catches it (grader/oob.c; tests/gpu/kit-check-oob.sh proves it on the device). */
    if (strncmp(c->expect[0], "kit check: ", 11) == 0)
        cr_skip_test("%s: P is right; caught by ./kit check's memcheck on a GPU (tests/gpu/kit-check-oob.sh), "
                     "not by the program alone", c->file);
    const char *names[WRONG_MAX_NAMES];
    for (int i = 0; i < c->nexpect; ++i)
        names[i] = c->expect[i];
    assert_verdict(c->program, c->args, 1, names, c->nexpect);
}

Test(gpu_labs, the_lab_table_lists_gpu_labs, .timeout = 30)
{
    load_cases();
    cr_assert_gt(ncases, 0, "%s lists no GPU lab (tl-lab list and get NN gpu)", TL_LAB);
}

Test(gpu_labs, the_manifest_reads_and_lists_gpu_bugs, .timeout = 10)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "!01", rows, why, sizeof why);
    cr_assert_geq(n, 0, "%s", why);
    cr_assert_gt(n, 0, "tests/wrong/manifest.tsv lists no GPU lab's known-wrong submission");
}

/* ------------------------------------------------------------------ lab 05 without a GPU */

Test(lab05_calculator, reference_matches_every_known_answer_without_a_gpu, .timeout = 60)
{
    char *out;
    int rc = run_program("solutions/05-occupancy-study/lab05-ref", "--calc", &out);
    cr_assert_neq(rc, -1, "lab05-ref is not built");
    cr_assert_eq(rc, 0, "lab05-ref --calc: exit %d, expected 0:\n%s", rc, tail(out));
    cr_assert(strstr(out, "31 of 31 known answers right"), "lab05-ref --calc output:\n%s", tail(out));
    free(out);
}

Test(lab05_calculator, skeleton_fails_its_known_answers, .timeout = 60)
{
    char *out;
    int rc = run_program("labs/05-occupancy-study/lab05", "--calc", &out);
    cr_assert_neq(rc, -1, "lab05 is not built");
    cr_assert_eq(rc, 1, "lab05 (skeleton) --calc: exit %d, expected 1:\n%s", rc, tail(out));
    cr_assert(strstr(out, "FAIL"), "the skeleton's failures are not reported:\n%s", tail(out));
    free(out);
}

Test(lab05_calculator, gpu_part_skips_rather_than_passes_without_a_device, .timeout = 120)
{
    char *out;
    int rc = run_program("solutions/05-occupancy-study/lab05-ref", "--quiet --reps 3", &out);
    cr_assert_neq(rc, -1, "lab05-ref is not built");
    if (rc == 77) {
        cr_assert(strstr(out, "SKIP"), "exit 77 without saying SKIP:\n%s", tail(out));
        cr_skip_test("no usable CUDA device: part A passed, the GPU part said SKIP");
    }
    cr_assert_eq(rc, 0, "lab05-ref on a GPU: exit %d:\n%s", rc, tail(out));
    free(out);
}
