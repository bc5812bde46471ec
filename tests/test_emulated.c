/* test_emulated.c: emulation mode on every GPU lab: the reference solutions pass, the skeletons
 * fail, and each known-wrong submission is caught with the diagnostic that names its bug (the
 * emulator's own where it has one: a race naming the shared array and the line, a divergent
 * barrier, an access past the end of a named buffer, an invalid launch). Runs without a GPU. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "run_capture.h"

typedef struct emu_case {
    char bin[64];          /* under build/labs/emulated/                      */
    int  exit_code;
    char want[3][96];      /* every one of these must appear in the output    */
} emu_case;

ParameterizedTestParameters(emulated, program_gets_its_verdict)
{
    static emu_case cases[] = {
        {"lab02-ref-emu", 0, {" 0 failed"}},
        {"lab03-ref-emu", 0, {" 0 failed"}},
        {"lab04-ref-emu", 0, {" 0 failed"}},
        {"lab02-emu", 1, {"unwritten elements"}},
        {"lab03-emu", 1, {"unwritten elements"}},
        {"lab04-emu", 1, {"unwritten elements"}},
        {"lab02-wrong-floor-grid-emu", 1, {"tilelab-emu: invalid-launch", "ceiling division"}},
        {"lab02-wrong-swapped-emu", 1, {"swapped indices", "[Col][Row]"}},
        {"lab02-wrong-pvalue-uninit-emu", 1, {"FAIL"}},
        {"lab03-wrong-nosync1-emu", 1, {"tilelab-emu: race:", "__shared__ float", "nosync1.cu:"}},
        {"lab03-wrong-nosync2-emu", 1, {"tilelab-emu: race:", "__shared__ float", "nosync2.cu:"}},
        {"lab03-wrong-swapped-emu", 1, {"swapped indices"}},
        {"lab03-wrong-tile-transposed-emu", 1, {"swapped indices", "transpose(N)"}},
        {"lab03-wrong-pvalue-uninit-emu", 1, {"FAIL"}},
        {"lab04-wrong-sync-in-branch-emu", 1, {"tilelab-emu: divergent-barrier", "sync-in-branch.cu:"}},
        {"lab04-wrong-noguard-m-emu", 1, {"tilelab-emu: global-out-of-bounds: read of", "d_M", "past its end"}},
        {"lab04-wrong-noguard-n-emu", 1, {"tilelab-emu: global-out-of-bounds: read of", "d_N", "past its end"}},
        {"lab04-wrong-noguard-store-emu", 1, {"tilelab-emu: global-out-of-bounds: write of", "d_P", "past its end"}},
        {"lab04-wrong-floor-grid-emu", 1, {"tilelab-emu: invalid-launch"}},
        {"lab04-wrong-swapped-emu", 1, {"swapped indices"}},
        {"lab06-ref-emu", 0, {" 0 failed"}},
        {"lab06-emu", 1, {"unwritten elements"}},
        {"lab06-wrong-mapping-emu", 1, {"warptile      FAIL"}},
        {"lab06-wrong-regs-off-by-one-emu", 1, {"coarse1d      FAIL"}},
        {"lab06-wrong-nosync-stage-emu", 1, {"tilelab-emu: race:", "__shared__ float Mts", "nosync-stage.cu:"}},
        {"lab06-wrong-drop-partial-tile-emu", 1, {"tilelab-emu: invalid-launch", "ceiling division"}},
        {"lab06-wrong-untransposed-read-emu", 1, {"tilelab-emu: shared-out-of-bounds: Mts", "untransposed-read.cu:"}},
        /* a float4 load from a misaligned address faults on x86 (movaps), as on a GPU */
        {"lab06-wrong-misaligned-vec-emu", 1, {"tilelab-emu: segmentation fault", "misaligned-vec.cu:"}},
    };
    return cr_make_param_array(emu_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(emu_case *c, emulated, program_gets_its_verdict, .timeout = 300)
{
    char path[512];
    snprintf(path, sizeof path, "%s/labs/emulated/%s", TL_BUILD_ROOT, c->bin);
    char *argv[] = {path, "--no-time", NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s", path);
    cr_assert_eq(r.exit_code, c->exit_code, "%s exited %d (signal %d), expected %d:\n%s", c->bin,
                 r.exit_code, r.signal, c->exit_code, r.out);
    for (int i = 0; i < 3 && c->want[i][0]; ++i)
        cr_assert(strstr(r.out, c->want[i]) != NULL, "%s did not say '%s':\n%s", c->bin, c->want[i], r.out);
    cr_assert(strstr(r.out, "GFLOP/s") == NULL || strstr(r.out, "emulated") != NULL,
              "an emulated run must say it is emulated:\n%s", r.out);
    run_free(&r);
}

Test(emulated, refuses_to_report_times, .timeout = 120)
{
    char path[512];
    snprintf(path, sizeof path, "%s/labs/emulated/lab03-ref-emu", TL_BUILD_ROOT);
    char *argv[] = {path, "--sizes", "64", "--variants", "tiled16", NULL};   /* timing not disabled */
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    cr_assert(strstr(r.out, "no timings") != NULL, "%s", r.out);
    /* The PASS row carries '-' where a GPU run would print GFLOP/s. */
    cr_assert(strstr(r.out, "PASS") != NULL, "%s", r.out);
    const char *row = strstr(r.out, "tiled16");
    cr_assert(row && strstr(row, " -") != NULL, "%s", r.out);
    run_free(&r);
}
