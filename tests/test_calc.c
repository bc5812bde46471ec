/* test_calc.c: lab 05's calculator judged the grader's way (issue 16 item 1, issue 11 item 8).
 *
 * 1. known.c's answers are the reference solution's, field by field (they are data, so the
 *    student edition, which has no solutions/, still knows them).
 * 2. The --serve wire: a request and an answer survive formatting and parsing.
 * 3. `tl-grade --check --lab 05 --prebuilt PROGRAM`: the reference calculator scores every
 *    point, the skeleton fails, and each known-wrong calculator of tests/wrong/manifest.tsv fails
 *    with its reason named by the grader's own comparison, not by the student's process.
 * 4. Correctness credit (grader/judges.c) is weighted by work: lab 01's transposed kernel, right
 *    only at size 1, earns nothing for its public sizes.
 * Run:  meson test -C build calculator -v */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "run_capture.h"
#include "wrong_manifest.h"

int ref_occupancy(const tl_occ_device *d, const tl_occ_kernel *k, tl_occ_result *r);   /* the solution's */

Test(calculator, known_answers_are_the_reference_solutions)
{
    cr_assert_geq(tl_occ_nknown, 30, "known.c holds %d configurations", tl_occ_nknown);
    for (int i = 0; i < tl_occ_nknown; ++i) {
        const tl_occ_known *c = &tl_occ_known_cases[i];
        tl_occ_device d;
        tl_occ_known_device(c, &d);
        tl_occ_result ref, want;
        int rc = ref_occupancy(&d, &c->k, &ref);
        tl_occ_known_result(c, &want);
        char why[600] = "";
        cr_assert_eq(tl_occ_compare(&d, &c->k, rc, &ref, c->rc, &want, why, sizeof why), 0,
                     "known.c case %d (%s): its stored answer differs from the reference: %s", i, c->note, why);
    }
}

Test(calculator, every_device_and_a_carveout_are_among_the_known_answers)
{
    for (int di = 0; tl_occ_devices[di]; ++di) {
        int n = 0;
        for (int i = 0; i < tl_occ_nknown; ++i)
            n += tl_occ_known_cases[i].dev == tl_occ_devices[di];
        cr_assert_geq(n, 2, "%s has %d known configurations", tl_occ_devices[di]->name, n);
    }
    int carve = 0, zero = 0, refused_block = 0;
    for (int i = 0; i < tl_occ_nknown; ++i) {
        carve += tl_occ_known_cases[i].smem_per_sm > 0;
        zero += tl_occ_known_cases[i].k.regs_per_thread == 0;
        refused_block += tl_occ_known_cases[i].rc != 0 && strstr(tl_occ_known_cases[i].note, "one block may hold");
    }
    cr_assert(carve >= 2 && zero >= 2 && refused_block >= 2, "carve-outs %d, 0-register kernels %d, "
              "registers-per-block refusals %d", carve, zero, refused_block);
}

/* Issue 25: the public set covers the edge of the per-block shared-memory limit: a block between
 * that limit less the driver's reserve and the limit itself runs, so a calculator that counts the
 * reserve against the per-block limit fails ./kit check 05 (tests/wrong/05/reserve_in_block_limit.c). */
Test(calculator, a_known_block_sits_between_the_per_block_limit_and_that_limit_less_the_reserve)
{
    int found = 0;
    for (int i = 0; i < tl_occ_nknown; ++i) {
        const tl_occ_known *c = &tl_occ_known_cases[i];
        int lim = c->dev->smem_per_block, res = c->dev->smem_reserved_per_block;
        found += res > 0 && c->rc == 0 && c->k.smem_per_block > lim - res && c->k.smem_per_block <= lim;
    }
    cr_assert_geq(found, 1, "no known configuration asks for between the per-block shared-memory limit less "
                  "the reserve and the limit: a calculator that counts the reserve there would pass");
}

Test(calculator, the_serve_wire_round_trips)
{
    tl_occ_device d = tl_occ_h100, d2;
    d.smem_per_sm = 100 * 1024;
    tl_occ_kernel k = {161, 0, 3000}, k2;
    char line[512];
    tl_occ_request_line(line, sizeof line, &d, &k);
    cr_assert_eq(tl_occ_request_parse(line, &d2, &k2), 0, "'%s' does not parse", line);
    cr_assert_eq(d2.smem_per_sm, d.smem_per_sm);
    cr_assert_eq(d2.reg_partitions, d.reg_partitions);
    cr_assert_eq(memcmp(&k, &k2, sizeof k), 0);
    tl_occ_result r, r2;
    int rc = ref_occupancy(&d, &k, &r), rc2;
    cr_assert_eq(rc, 0);
    tl_occ_answer_line(line, sizeof line, rc, &r);
    cr_assert_eq(tl_occ_answer_parse(line, &rc2, &r2), 0, "'%s' does not parse", line);
    char why[600];
    cr_assert_eq(tl_occ_compare(&d, &k, rc, &r, rc2, &r2, why, sizeof why), 0, "%s", why);
    cr_assert_eq(r2.by_registers, TL_OCC_NO_LIMIT);
    cr_assert_neq(tl_occ_answer_parse("ok 1 2 3\n", &rc2, &r2), 0);
    cr_assert_eq(tl_occ_answer_parse("refused too many threads\n", &rc2, &r2), 0);
    cr_assert_eq(rc2, -1);
    cr_assert_str_eq(r2.why, "too many threads");
}

/* tl-grade --check on a built program of lab 05 (or lab); the output in *out. */
static int grade_lab(const char *lab, const char *rel, char **out);
static int grade(const char *rel, char **out)
{
    return grade_lab("05", rel, out);
}

static int grade_lab(const char *lab, const char *rel, char **out)
{
    char prog[1024], dir[] = "/tmp/tl-calc-XXXXXX";
    snprintf(prog, sizeof prog, "%s/%s", TL_BUILD_ROOT, rel);
    if (access(prog, X_OK) != 0)
        cr_assert_fail("%s is not built", prog);
    cr_assert_not_null(mkdtemp(dir));
    char *argv[] = {TL_BUILD_ROOT "/grader/tl-grade", "--check", "--kit", TL_SOURCE_ROOT, "--lab", (char *)lab, "--out", dir,
                    "--prebuilt", prog, NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    char cmd[64 + sizeof dir];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
    *out = r.out;
    return r.signal ? 128 + r.signal : r.exit_code;
}

Test(calculator, the_grader_gives_the_reference_every_point, .timeout = 120)
{
    char *out;
    int rc = grade("solutions/05-occupancy-study/lab05-ref", &out);
    cr_assert_eq(rc, 0, "tl-grade --check on lab05-ref: exit %d:\n%s", rc, out);
    /* one total (issue 23): the part the grader cannot judge here (the API comparison, GPU only) is
     * named and counted 0 of its points, never rescaled away */
    cr_assert(strstr(out, "PASS  occupancy calculator on known and hidden configurations  (60/60)") &&
              (strstr(out, "Score: 60/95") || strstr(out, "Score: 95/95")),
              "no full score of the calculator (60/60, and 60/95 without a GPU) in:\n%s", out);
    free(out);
}

Test(calculator, the_grader_fails_the_skeleton, .timeout = 120)
{
    char *out;
    int rc = grade("labs/05-occupancy-study/lab05", &out);
    cr_assert_eq(rc, 1, "tl-grade --check on the skeleton: exit %d:\n%s", rc, out);
    cr_assert(strstr(out, "not written yet"), "the skeleton's refusal is not quoted:\n%s", out);
    free(out);
}

ParameterizedTestParameters(calculator, the_grader_names_each_wrong_calculator)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "05", rows, why, sizeof why);
    if (n < 0) {
        fprintf(stderr, "test_calc: %s\n", why);
        n = 0;
    }
    return cr_make_param_array(wrong_row, rows, (size_t)n);
}

ParameterizedTest(wrong_row *c, calculator, the_grader_names_each_wrong_calculator, .timeout = 120)
{
    char *out;
    int rc = grade(c->program, &out);
    cr_assert_eq(rc, 1, "tl-grade --check on %s: exit %d, expected 1:\n%s", c->program, rc, out);
    int named = 0;
    for (int i = 0; i < c->nexpect && !named; ++i)
        named = strstr(out, c->expect[i]) != NULL;
    cr_assert(named, "%s: the grader's output names none of '%s':\n%s", c->file, c->expect[0], out);
    free(out);
}

Test(calculator, the_manifest_lists_the_five_wrong_calculators)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "05", rows, why, sizeof why);
    cr_assert_geq(n, 5, "tests/wrong/manifest.tsv lists %d lab 05 calculators (%s)", n, n < 0 ? why : "");
}

Test(credit, size_one_does_not_rescue_a_wrong_kernel, .timeout = 120)
{
    char *out;
    int rc = grade_lab("01", "tests/wrong/lab01-wrong-transposed", &out);
    cr_assert_eq(rc, 1, "exit %d:\n%s", rc, out);
    cr_assert(strstr(out, "FAIL  GMM_CPU (cpu_ijk), public sizes  (0/20)"), "cpu_ijk's public sizes earn points:\n%s", out);
    cr_assert(strstr(out, "only trivial sizes"), "the reason is not given:\n%s", out);
    free(out);
}
