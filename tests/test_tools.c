/* test_tools.c: the kit's small programs refuse bad input with exit 2 and a message that names
 * the file and the problem. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "run_capture.h"

static void write_file(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static void assert_info(const char *path, int want_exit, const char *want)
{
    char *argv[] = {TL_MAT, "info", (char *)path, NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, want_exit, "exit %d for %s:\n%s", r.exit_code, path, r.out);
    cr_assert(strstr(r.out, path) != NULL, "the message does not name the file:\n%s", r.out);
    cr_assert(strstr(r.out, want) != NULL, "the message lacks '%s':\n%s", want, r.out);
    run_free(&r);
}

Test(tl_mat, a_generated_file_is_valid_and_a_damaged_one_gives_exit_2, .timeout = 30)
{
    char dir[] = "/tmp/tl-tools-XXXXXX", good[128], cut[128], junk[128];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(good, sizeof good, "%s/good.mat", dir);
    snprintf(cut, sizeof cut, "%s/cut.mat", dir);
    snprintf(junk, sizeof junk, "%s/junk.mat", dir);
    char *gen[] = {TL_MAT, "gen", "30", "20", "5", good, NULL};
    run_result r;
    cr_assert_eq(run_capture(gen, &r), 0);
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    run_free(&r);
    assert_info(good, 0, "30 x 20 float32");

    FILE *f = fopen(good, "rb");
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    write_file(cut, buf, n / 2);
    assert_info(cut, 2, "truncated");
    write_file(junk, "GIF89a garbage that is no matrix at all....", 40);
    assert_info(junk, 2, "wrong magic");

    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(tl_mat, bad_usage_gives_exit_2, .timeout = 30)
{
    char *argv[] = {TL_MAT, "gen", "0", "3", "1", "/tmp/x.mat", NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 2, "%s", r.out);
    cr_assert(strstr(r.out, "ROWS and COLS") != NULL, "%s", r.out);
    run_free(&r);
}

/* Issue 25 item 6: every kit command's option error is one line naming the option or argument and
 * the fix, exit 2; never a help text after it. These stop before anything is installed or built. */
static void assert_one_line_error(const char *cmd, const char *want)
{
    char sh[1200];
    snprintf(sh, sizeof sh,
             "cd '%s' && out=$(TL_ROOT='%s' TL_BUILD=/nonexistent-tl-build %s 2>&1 >/dev/null); rc=$?; "
             "[ $rc = 2 ] && [ \"$(printf '%%s\\n' \"$out\" | wc -l)\" = 1 ] && printf '%%s' \"$out\" | grep -qF -- \"%s\" "
             "|| { echo \"rc $rc: [$out]\" >&2; exit 1; }", TL_SOURCE_ROOT, TL_SOURCE_ROOT, cmd, want);
    cr_assert_eq(system(sh), 0, "%s: not one line holding \"%s\" with exit 2 (the output is above)", cmd, want);
}

Test(kit, an_option_error_is_one_line_naming_it, .timeout = 30)
{
    assert_one_line_error("./kit check", "check needs a lab number: ./kit check NN");
    assert_one_line_error("./kit check --emulate", "'--emulate' before the lab number");
    assert_one_line_error("./kit frobnicate", "unknown command 'frobnicate': the commands are");
    assert_one_line_error("sh grader/kit-gradescope.sh --lab", "--lab needs a lab: --lab NN");
    assert_one_line_error("sh grader/kit-gradescope.sh --lab 02 --out", "--out needs the zip to write");
    assert_one_line_error("sh plots/kit-plots.sh --fast", "unknown option '--fast'");
    assert_one_line_error("sh grader/kit-check.sh 02 --bogus", "unknown option '--bogus'");
    assert_one_line_error(TL_MAT " frob", "unknown command 'frob'");
    assert_one_line_error(TL_MAT " gen 3 3", "tl-mat gen takes ROWS COLS SEED FILE, got 2 arguments");
}

/* Issue 22: a part of the kit (plots, slides, release, gradescope) checks its arguments before the
 * kit installs, configures or builds anything for it (./kit runs the part with TL_KIT_ARGS_ONLY=1
 * first), as kit grade and kit check do theirs: a usage error is one line and exit 2 in a second.
 * meson, ninja and apt-get are shims that write down each call; none may be made, and the build
 * folder named is not created. */
Test(kit, a_bad_argument_of_a_part_is_answered_before_anything_is_installed_configured_or_built, .timeout = 60)
{
    char dir[] = "/tmp/tl-kit-order-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char sh[2400];
    snprintf(sh, sizeof sh, "mkdir -p '%s/bin' && for t in meson ninja apt-get; do printf '#!/bin/sh\\necho \"$0 $*\" >> %s/calls\\n' "
             "> '%s/bin/'$t && chmod +x '%s/bin/'$t || exit 1; done", dir, dir, dir, dir);
    cr_assert_eq(system(sh), 0, "the shims");
    static const char *const cases[][2] = {
        {"plots --fast", "unknown option '--fast': ./kit plots takes only records files"},
        {"plots no-such-records.csv", "records file 'no-such-records.csv' not found"},
        {"plots /etc/hostname", "'/etc/hostname' is not a tilelab records file"},
        {"slides --fast", "unknown option '--fast'"},
        {"release", "usage: ./kit release DIR"},
        {"release --fast", "unknown option '--fast' (./kit release --help)"},
        {"gradescope --lab 02 --out a.tar", "--out 'a.tar': the autograder is a .zip"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(sh, sizeof sh,
                 "cd '%s' && out=$(PATH='%s/bin':\"$PATH\" TL_BUILD='%s/build' ./kit %s 2>&1 >/dev/null); rc=$?; "
                 "[ $rc = 2 ] && [ \"$(printf '%%s\\n' \"$out\" | wc -l)\" = 1 ] && printf '%%s' \"$out\" | grep -qF -- \"%s\" "
                 "|| { echo \"rc $rc: [$out]\" >&2; exit 1; }", TL_SOURCE_ROOT, dir, dir, cases[i][0], cases[i][1]);
        cr_assert_eq(system(sh), 0, "./kit %s: not one line holding \"%s\" with exit 2 (the output is above)", cases[i][0],
                     cases[i][1]);
        snprintf(sh, sizeof sh, "! cat '%s/calls' 2>/dev/null | grep . >&2 && [ ! -e '%s/build' ]", dir, dir);
        cr_assert_eq(system(sh), 0, "./kit %s: meson, ninja or apt-get was called (above), or the build folder made, "
                     "before the usage error", cases[i][0]);
    }
    snprintf(sh, sizeof sh, "rm -rf '%s'", dir);
    cr_assert_eq(system(sh), 0);
}
