/* test_warnings.c: the compiler warnings that are the bug (issue 16 item 2). The known-wrong files
 * of tests/wrong/warnings/ are compiled the way the kit builds them (gcc -O2 -Wall -Wextra for lab
 * 01; nvcc with -DTILE_WIDTH=32 for lab 03) and the grader's tg_student_warnings must show each
 * warning with its file and line and make it a failure with the reason; the reference solutions'
 * own builds must give none.
 * Run:  meson test -C build warnings -v */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"

/* Copies src to DIR/name, runs cmd there (its stderr with stdout), the output into log. */
static void compile(const char *src, const char *name, const char *cmd, tg_buf *log)
{
    char dir[] = "/tmp/tl-warn-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char line[4096];
    snprintf(line, sizeof line, "cp '%s' '%s/%s' && cd '%s' && %s 2>&1", src, dir, name, dir, cmd);
    FILE *p = popen(line, "r");
    cr_assert_not_null(p);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        tg_buf_add(log, buf, n);
    pclose(p);
    snprintf(line, sizeof line, "rm -rf '%s'", dir);
    (void)!system(line);
}

#define INC "-I" TL_SOURCE_ROOT "/common -I" TL_BUILD_ROOT "/common "

Test(warnings, an_uninitialised_accumulator_is_shown_and_fails, .timeout = 60)
{
    tg_buf log = {0}, shown = {0}, fatal = {0};
    compile(TL_SOURCE_ROOT "/tests/wrong/warnings/sum-uninit.c", "gmm.c",
            "cc -std=c11 -O2 -g -Wall -Wextra -fdiagnostics-color=always " INC "-I" TL_SOURCE_ROOT
            "/labs/01-cpu-baseline -c gmm.c -o /dev/null", &log);
    int n = tg_student_warnings(tl_lab_find("01"), &log, &shown, &fatal);
    cr_assert_eq(n, 1, "%d fatal warnings from:\n%s", n, log.s ? log.s : "");
    cr_assert(shown.s && strstr(shown.s, "gmm.c:") && strstr(shown.s, "uninitialized"),
              "the warning is not shown with file and line: %s", shown.s ? shown.s : "(nothing)");
    cr_assert(strstr(fatal.s, "read before it is set"), "%s", fatal.s);
    cr_assert_null(strchr(shown.s, '\033'), "colour escapes left in: %s", shown.s);
    tg_buf_free(&log); tg_buf_free(&shown); tg_buf_free(&fatal);
}

Test(warnings, a_redefined_tile_width_is_shown_and_fails, .timeout = 120)
{
    if (system("command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]") != 0)
        cr_skip_test("no nvcc here: lab 03's file cannot be compiled");
    tg_buf log = {0}, shown = {0}, fatal = {0};
    compile(TL_SOURCE_ROOT "/tests/wrong/warnings/tile-redefined.cu", "tiled.cu",
            "PATH=/usr/local/cuda/bin:$PATH nvcc -E -DTILE_WIDTH=32 " INC "-I" TL_SOURCE_ROOT
            "/labs/03-tiled-kernel tiled.cu -o /dev/null", &log);
    int n = tg_student_warnings(tl_lab_find("03"), &log, &shown, &fatal);
    cr_assert_eq(n, 1, "%d fatal warnings from:\n%s", n, log.s ? log.s : "");
    cr_assert(strstr(shown.s, "tiled.cu:") && strstr(shown.s, "TILE_WIDTH"), "%s", shown.s);
    cr_assert(strstr(fatal.s, "16-wide tiles"), "%s", fatal.s);
    tg_buf_free(&log); tg_buf_free(&shown); tg_buf_free(&fatal);
}

Test(warnings, the_reference_solutions_give_none, .timeout = 120)
{
    tg_buf log = {0}, shown = {0}, fatal = {0};
    compile(TL_SOURCE_ROOT "/solutions/01-cpu-baseline/gmm.c", "gmm.c",
            "cc -std=c11 -O2 -g -Wall -Wextra " INC "-I" TL_SOURCE_ROOT "/labs/01-cpu-baseline -c gmm.c -o /dev/null",
            &log);
    cr_assert_eq(tg_student_warnings(tl_lab_find("01"), &log, &shown, &fatal), 0, "%s", log.s ? log.s : "");
    cr_assert_eq(shown.len, 0, "%s", shown.s);
    tg_buf_free(&log); tg_buf_free(&shown); tg_buf_free(&fatal);
}
