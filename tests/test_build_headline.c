/* test_build_headline.c: a build that fails names why on its first line (issue 12 items 1 and 4):
 * the known-wrong files of tests/wrong/build/ are compiled (and linked) the way the kit builds
 * them, and tg_build_headline on the grader's first errors must name the duplicate symbol and both
 * files, the compiler's first error at the student's file and line, or the redefined TILE_WIDTH;
 * never only "collect2: error: ld returned 1 exit status".
 * Run:  meson test -C build 'build headline' -v */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"

/* Copies src to DIR/name, runs cmd there (its stderr with stdout), the output into log. */
static void compile(const char *src, const char *name, const char *cmd, tg_buf *log)
{
    char dir[] = "/tmp/tl-bhead-XXXXXX";
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

static int have_nvcc(void)
{
    return system("command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]") == 0;
}

#define INC "-I" TL_SOURCE_ROOT "/common -I" TL_BUILD_ROOT "/common "

Test(build_headline, a_duplicate_symbol_is_named_with_both_files, .timeout = 120)
{
    /* lab 01's link: the kit's lab.c object and its core library, with the student's gmm.c */
    const char *lab = TL_BUILD_ROOT "/labs/01-cpu-baseline/lab01.p/lab.c.o";
    FILE *f = fopen(lab, "rb");
    if (!f)
        cr_skip_test("lab 01 is not built here (%s): build it first (ninja -C build labs/01-cpu-baseline/lab01)",
                     lab);
    fclose(f);
    tg_buf log = {0}, errs = {0};
    int warnings;
    compile(TL_SOURCE_ROOT "/tests/wrong/build/dup-main.c", "gmm.c",
            "mkdir -p lab01.p && cc -std=c11 -O2 " INC "-I" TL_SOURCE_ROOT "/labs/01-cpu-baseline -c gmm.c "
            "-o lab01.p/gmm.c.o && cc -o lab01 '" TL_BUILD_ROOT "/labs/01-cpu-baseline/lab01.p/lab.c.o' "
            "lab01.p/gmm.c.o '" TL_BUILD_ROOT "/common/libtlcore.a' -lm -pthread", &log);
    cr_assert(log.s && strstr(log.s, "multiple definition of `main'"), "the link did not fail as expected:\n%s",
              log.s ? log.s : "");
    tg_first_errors(&log, &errs, &warnings);
    char head[700];
    tg_build_headline(errs.s, head, sizeof head);
    cr_assert(strstr(head, "duplicate symbol 'main'") && strstr(head, "gmm.c") && strstr(head, "lab.c"),
              "the headline must name the symbol and both files: '%s'\nfrom:\n%s", head, errs.s);
    cr_assert(strstr(errs.s, "multiple definition of `main'"), "the first errors must quote the linker:\n%s", errs.s);
    tg_buf_free(&log);
    tg_buf_free(&errs);
}

Test(build_headline, a_compile_error_is_quoted_at_the_students_file_and_line, .timeout = 120)
{
    if (!have_nvcc())
        cr_skip_test("no nvcc here: lab 03's file cannot be compiled");
    tg_buf log = {0}, errs = {0};
    int warnings;
    compile(TL_SOURCE_ROOT "/tests/wrong/build/undeclared.cu", "tiled.cu",
            "PATH=/usr/local/cuda/bin:$PATH nvcc -c -DTILE_WIDTH=16 " INC "-I" TL_SOURCE_ROOT
            "/labs/03-tiled-kernel $PWD/tiled.cu -o /dev/null", &log);
    tg_first_errors(&log, &errs, &warnings);
    char head[700];
    tg_build_headline(errs.s, head, sizeof head);
    /* nvcc: "/tmp/.../tiled.cu(49): error: identifier "Tile_Width" is undefined"; the path cut */
    cr_assert(strncmp(head, "tiled.cu(", 9) == 0 && strstr(head, "Tile_Width") && strstr(head, "error"),
              "the headline must be the first error at tiled.cu and its line: '%s'\nfrom:\n%s", head, log.s);
    tg_buf_free(&log);
    tg_buf_free(&errs);
}

Test(build_headline, a_redefined_tile_width_is_named, .timeout = 120)
{
    if (!have_nvcc())
        cr_skip_test("no nvcc here: lab 03's file cannot be compiled");
    tg_buf log = {0}, shown = {0}, fatal = {0};
    compile(TL_SOURCE_ROOT "/tests/wrong/warnings/tile-redefined.cu", "tiled.cu",
            "PATH=/usr/local/cuda/bin:$PATH nvcc -E -DTILE_WIDTH=32 " INC "-I" TL_SOURCE_ROOT
            "/labs/03-tiled-kernel tiled.cu -o /dev/null", &log);
    cr_assert_eq(tg_student_warnings(tl_lab_find("03"), &log, &shown, &fatal), 1, "%s", log.s ? log.s : "");
    char head[700];
    tg_build_headline(fatal.s, head, sizeof head);
    cr_assert(strncmp(head, "a redefined TILE_WIDTH: tiled.cu:", 33) == 0, "'%s'\nfrom:\n%s", head, fatal.s);
    tg_buf_free(&log);
    tg_buf_free(&shown);
    tg_buf_free(&fatal);
}

Test(build_headline, the_collect2_line_is_never_the_headline, .timeout = 10)
{
    const char *errs = "  /usr/bin/ld: x/lab01.p/gmm.c.o: in function `GMM_CPU':\n"
                       "  gmm.c:(.text+0x0): undefined reference to `helper'\n"
                       "  collect2: error: ld returned 1 exit status\n";
    char head[700];
    tg_build_headline(errs, head, sizeof head);
    cr_assert(strstr(head, "undefined reference to `helper'") && !strstr(head, "collect2"), "'%s'", head);
}
