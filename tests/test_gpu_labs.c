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

#include "run_capture.h"

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
static void skip_unless_ran(int rc, const char *rel, const char *out)
{
    if (rc == -1)
        cr_skip_test("%s is not built (this build has no CUDA)", rel);
    if (rc == 77)
        cr_skip_test("no usable CUDA device (%s exited 77)", rel);
    (void)out;
}

/* ------------------------------------------------------------------ the programs */

typedef struct program_case {
    const char *rel;        /* under the build folder                                     */
    const char *args;
    int         expect;     /* exit code                                                  */
    const char *names[5];   /* for expect 1: the output must name one of these (NULL-ended) */
} program_case;

/* Sizes: large enough and repeated enough that races show on real hardware (several phases,
 * thousands of blocks, five checked runs per case), small enough to stay fast. */
#define S02 "--sizes 1,15,17,100,255,256,1000,1024 --no-time"
#define S03 "--sizes 16,32,64,256,1024,2048 --repeat 5 --no-time"
#define S04 "--repeat 5 --no-time"
#define S06 "--repeat 5 --no-time"
#define RACE {"race", "scattered errors", "all wrong", NULL}
#define UNINIT {"NaN/Inf computed", "all wrong", "scattered errors", "race", NULL}

static const program_case cases[] = {
    /* reference solutions: exit 0 (timed, as a student would run them) */
    {"solutions/02-naive-kernel/lab02-ref", "--quiet", 0, {NULL}},
    {"solutions/03-tiled-kernel/lab03-ref", "--quiet", 0, {NULL}},
    {"solutions/04-boundary-handling/lab04-ref", "--quiet", 0, {NULL}},
    {"solutions/05-occupancy-study/lab05-ref", "--quiet", 0, {NULL}},
    {"solutions/06-register-tiling/lab06-ref", "--quiet", 0, {NULL}},
    /* skeletons: compile, run, fail */
    {"labs/02-naive-kernel/lab02", S02, 1, {"unwritten elements", NULL}},
    {"labs/03-tiled-kernel/lab03", S03, 1, {"unwritten elements", "grid too small", NULL}},
    {"labs/04-boundary-handling/lab04", S04, 1, {"unwritten elements", "grid too small", NULL}},
    {"labs/06-register-tiling/lab06", S06, 1, {"unwritten elements", "grid too small", NULL}},
    /* known-wrong submissions */
    {"tests/wrong/lab02-wrong-floor-grid", S02, 1, {"grid too small", NULL}},
    {"tests/wrong/lab02-wrong-swapped", S02, 1, {"swapped indices", NULL}},
    {"tests/wrong/lab02-wrong-pvalue-uninit", S02, 1, UNINIT},
    {"tests/wrong/lab03-wrong-nosync1", S03, 1, RACE},
    {"tests/wrong/lab03-wrong-nosync2", S03, 1, RACE},
    {"tests/wrong/lab03-wrong-swapped", S03, 1, {"swapped indices", NULL}},
    {"tests/wrong/lab03-wrong-tile-transposed", S03, 1, {"swapped indices", "all wrong", NULL}},
    {"tests/wrong/lab03-wrong-pvalue-uninit", S03, 1, UNINIT},
    {"tests/wrong/lab04-wrong-sync-in-branch", S04, 1, {"boundary handling", "race", "NaN/Inf computed", "scattered errors", NULL}},
    {"tests/wrong/lab04-wrong-noguard-m", S04, 1, {"NaN/Inf computed", "boundary handling", "illegal", NULL}},
    {"tests/wrong/lab04-wrong-noguard-n", S04, 1, {"NaN/Inf computed", "boundary handling", "illegal", NULL}},
    {"tests/wrong/lab04-wrong-noguard-store", S04, 1, {"write outside P", "illegal", NULL}},
    {"tests/wrong/lab04-wrong-floor-grid", S04, 1, {"grid too small", NULL}},
    {"tests/wrong/lab04-wrong-swapped", S04, 1, {"swapped indices", NULL}},
    /* lab 06: tests/wrong/README.md; verdicts as seen on an H100 (tests/gpu/lab06-on-device.sh) */
    {"tests/wrong/lab06-wrong-mapping", S06, 1, {"all wrong", "boundary handling", "scattered errors", NULL}},
    {"tests/wrong/lab06-wrong-regs-off-by-one", S06, 1, {"all wrong", "boundary handling", "NaN/Inf computed", NULL}},
    {"tests/wrong/lab06-wrong-nosync-stage", S06, 1, RACE},
    {"tests/wrong/lab06-wrong-drop-partial-tile", S06, 1, {"grid too small", NULL}},
    {"tests/wrong/lab06-wrong-untransposed-read", S06, 1, {"illegal", "all wrong", "NaN/Inf computed", NULL}},
    {"tests/wrong/lab06-wrong-misaligned-vec", S06, 1, {"misaligned", "illegal", "NaN/Inf computed", NULL}},
};

ParameterizedTestParameters(gpu_labs, program_gets_its_verdict)
{
    static int idx[sizeof cases / sizeof cases[0]];
    for (size_t i = 0; i < sizeof idx / sizeof idx[0]; ++i)
        idx[i] = (int)i;
    return cr_make_param_array(int, idx, sizeof idx / sizeof idx[0]);
}

ParameterizedTest(int *i, gpu_labs, program_gets_its_verdict, .timeout = 300)
{
    const program_case *c = &cases[*i];
    char *out;
    int rc = run_program(c->rel, c->args, &out);
    skip_unless_ran(rc, c->rel, out);
    cr_assert_eq(rc, c->expect, "%s %s: exit %d, expected %d; its output ends:\n%s", c->rel, c->args,
                 rc, c->expect, tail(out));
    if (c->expect == 1) {
        int named = 0;
        for (int n = 0; c->names[n] && !named; ++n)
            named = strstr(out, c->names[n]) != NULL;
        cr_assert(named, "%s failed as it should, but its output names none of the expected bug "
                  "classes (first: '%s'); it ends:\n%s", c->rel, c->names[0], tail(out));
    }
    free(out);
}

/* ------------------------------------------------------------------ lab 05 without a GPU */

Test(lab05_calculator, reference_matches_every_known_answer_without_a_gpu, .timeout = 60)
{
    char *out;
    int rc = run_program("solutions/05-occupancy-study/lab05-ref", "--calc", &out);
    cr_assert_neq(rc, -1, "lab05-ref is not built");
    cr_assert_eq(rc, 0, "lab05-ref --calc: exit %d, expected 0:\n%s", rc, tail(out));
    cr_assert(strstr(out, "16 of 16 known answers right"), "lab05-ref --calc output:\n%s", tail(out));
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
