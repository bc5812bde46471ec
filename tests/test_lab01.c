/* test_lab01.c: lab 01 end to end: the solution passes, the skeleton fails, and each
 * known-wrong submission is rejected with the message that points at its bug. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include <stdio.h>

#include "run_capture.h"
#include "../common/records.h" /* TL_REC_HEADER: the header is written down once */
#include "wrong_manifest.h"

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

/* Known-wrong submissions of lab 01 (tests/wrong/manifest.tsv): each must fail with the message
 * for its bug. */
ParameterizedTestParameters(lab01_wrong, is_rejected_with_the_message_for_its_bug)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "01", rows, why, sizeof why);
    if (n < 0) {
        fprintf(stderr, "test_lab01: %s\n", why);
        n = 0;      /* no parameters: the test below that counts the rows fails */
    }
    return cr_make_param_array(wrong_row, rows, (size_t)n);
}

ParameterizedTest(wrong_row *c, lab01_wrong, is_rejected_with_the_message_for_its_bug, .timeout = 120)
{
    char bin[1024], args[256];
    snprintf(bin, sizeof bin, "%s/%s", TL_BUILD_ROOT, c->program);
    snprintf(args, sizeof args, "%s", c->args);
    char *argv[16];
    int argc = 0;
    argv[argc++] = bin;
    for (char *save = NULL, *a = strtok_r(args, " ", &save); a && argc < 15; a = strtok_r(NULL, " ", &save))
        argv[argc++] = a;
    argv[argc] = NULL;
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s (is it built? tests/wrong/meson.build)", bin);
    cr_assert_eq(r.exit_code, 1, "%s %s exited %d, expected 1; it printed:\n%s", c->file, c->args, r.exit_code, r.out);
    int named = 0;
    for (int i = 0; i < c->nexpect && !named; ++i)
        named = strstr(r.out, c->expect[i]) != NULL;
    cr_assert(named, "%s did not say '%s'; it printed:\n%s", c->file, c->expect[0], r.out);
    run_free(&r);
}

Test(lab01_wrong, the_manifest_lists_every_lab01_bug, .timeout = 10)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "01", rows, why, sizeof why);
    cr_assert_geq(n, 0, "%s", why);
    cr_assert_geq(n, 4, "tests/wrong/manifest.tsv lists %d lab 01 bugs; the four classic ones are expected", n);
}
