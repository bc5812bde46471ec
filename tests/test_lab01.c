/* test_lab01.c: lab 01 end to end: the solution passes, the skeleton fails, and each
 * known-wrong submission is rejected with the message that points at its bug. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include <stdio.h>

#include "run_capture.h"
#include "../common/records.h" /* TL_REC_HEADER: the header is written down once */

static void assert_run(const char *bin, const char *variants, const char *sizes, int want_exit,
                       const char *want_text)
{
    char *argv[] = {(char *)bin, "--no-time", "--variants", (char *)variants, "--sizes", (char *)sizes, NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s", bin);
    cr_assert_eq(r.exit_code, want_exit, "%s exited %d, expected %d; it printed:\n%s", bin,
                 r.exit_code, want_exit, r.out);
    if (want_text)
        cr_assert(strstr(r.out, want_text) != NULL, "%s did not say '%s'; it printed:\n%s", bin,
                  want_text, r.out);
    run_free(&r);
}

Test(lab01, the_solution_passes_every_public_size, .timeout = 120)
{
    char *argv[] = {LAB01_REF, "--no-time", NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 0, "solution failed:\n%s", r.out);
    cr_assert(strstr(r.out, " 0 failed") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "FAIL") == NULL, "%s", r.out);
    run_free(&r);
}

Test(lab01, the_skeleton_fails_with_unwritten_elements, .timeout = 120)
{
    assert_run(LAB01, "cpu_ijk,cpu_ikj,cpu_blocked", "17,100", 1, "unwritten elements");
}

Test(lab01, bad_options_are_refused_with_exit_2, .timeout = 30)
{
    const char *cases[][2] = {{"--sizes", "0"}, {"--sizes", "12x"}, {"--variants", "gpu_magic"},
                              {"--reps", "0"}, {"--seed", "-4"}, {"--bogus", NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *argv[] = {LAB01_REF, (char *)cases[i][0], (char *)cases[i][1], NULL};
        run_result r;
        cr_assert_eq(run_capture(argv, &r), 0);
        cr_assert_eq(r.exit_code, 2, "%s %s: exit %d\n%s", cases[i][0], cases[i][1] ? cases[i][1] : "",
                     r.exit_code, r.out);
        cr_assert(strstr(r.out, "--help") != NULL, "no pointer to --help:\n%s", r.out);
        run_free(&r);
    }
}

Test(lab01, records_are_written_atomically_in_the_contract_format, .timeout = 60)
{
    char path[] = "/tmp/tl-rec-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    char *argv[] = {LAB01_REF, "--sizes", "33", "--reps", "2", "--records", path, "--quiet", NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    run_free(&r);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[512];
    int meta = 0, header = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            meta++;
        else if (!header) {
            cr_assert_str_eq(line, TL_REC_HEADER "\n"); /* common/records.h */
            header = 1;
        } else {
            rows++;
            cr_assert(strncmp(line, "gemm,01,cpu_", 12) == 0, "row: %s", line);
            cr_assert(strstr(line, ",PASS,") != NULL, "row: %s", line);
        }
    }
    fclose(f);
    cr_assert_geq(meta, 15, "metadata lines: %d", meta);
    cr_assert_eq(rows, 4);
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    cr_assert_neq(access(tmp, F_OK), 0, "temporary records file left behind");
    unlink(path);
}

/* Known-wrong submissions (tests/wrong/01/): each must fail with the message for its bug. */
/* Arrays, not pointers: Criterion runs each test in a fresh exec of this binary, so a
 * parameter's pointers would not survive (address-space layout changes). */
typedef struct wrong_case {
    char bin[512], variant[32], sizes[32], message[64];
} wrong_case;

ParameterizedTestParameters(lab01_wrong, is_rejected_with_the_message_for_its_bug)
{
    static wrong_case cases[] = {
        {WRONG_LOOP_SHORT, "cpu_ijk", "100", "the k loop stops one short"},
        {WRONG_ACC_NOT_RESET, "cpu_ijk", "100", "accumulator not reset"},
        {WRONG_TRANSPOSED, "cpu_ijk", "100", "swapped indices"},
        {WRONG_BLOCKED_DROPS_PARTIAL, "cpu_blocked", "100", "last partial tile dropped"},
    };
    return cr_make_param_array(wrong_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(wrong_case *c, lab01_wrong, is_rejected_with_the_message_for_its_bug, .timeout = 120)
{
    assert_run(c->bin, c->variant, c->sizes, 1, c->message);
}
