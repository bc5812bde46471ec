/* test_grader_runs.c: the grader's runs beside the lab 01 class (test_grader_class.c): a lab 03
 * class graded emulated, usage errors, a killed run that is restarted, kit check and the student
 * edition, and the GPU hostiles (skipped without a GPU and lab 03). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "grader_test_util.h"
#include "hostile_expected.h"
#include "util.h"

#define TG      TL_BUILD_ROOT "/grader/tl-grade"
#define LIMIT   900

/* ------------------------------------------------------------ lab 03, emulated */

#define CLASS3  TL_BUILD_ROOT "/tests/class03emu"
#define T16_PUB "tiled kernel TILE_WIDTH 16 (tiled16), public sizes"
#define T32_PUB "tiled kernel TILE_WIDTH 32 (tiled32), public sizes"
#define RACE03  "no shared-memory races (racecheck, tiled16)"
#define SPEED03 "speed against the reference (tiled32)"

/* Issue 24 item 2: a byte-order mark (legitimate), a sabotaged emulated build, a sabotaged counting
 * twin, an #error that reads like the kit's "not supported under emulation"; session 9's red team:
 * C++'s operator new replaced, and a naive kernel behind an include the emulator lacks. */
static const char *const hostile24[] = {"bom_utf8", "sabotage_emulated", "sabotage_count", "spoof_unsupported",
                                        "interpose_count_only", "spoof_unsupported_runtime", "interpose_operator_new",
                                        "naive_unsupported_include", NULL};

/* A lab 03 class graded with --emulate (the labs/emulated programs): the solution, two known-wrong
 * kernels and a policy breaker. Graded once per tl-grade binary, like the lab 01 class. */
static void class03_run(void)
{
    if (!tg_is_dir(TL_SOURCE_ROOT "/labs/03-tiled-kernel"))
        cr_skip_test("lab 03 is not in this kit");
    if (sh("command -v nvcc >/dev/null || test -x /usr/local/cuda/bin/nvcc") != 0)
        cr_skip_test("no nvcc: lab 03 cannot be built here");
    struct stat st, me;
    cr_assert_eq(stat(TG, &st), 0, "tl-grade is not built");
    cr_assert_eq(stat("/proc/self/exe", &me), 0);
    char stamp[160];
    snprintf(stamp, sizeof stamp, "%lld-%lld %lld-%lld\n", (long long)st.st_mtime, (long long)st.st_size,
             (long long)me.st_mtime, (long long)me.st_size);
    char *old = tg_read_file(CLASS3 "/stamp", 128, NULL);
    int fresh = old && strcmp(old, stamp) == 0;
    free(old);
    if (fresh && tg_is_file(CLASS3 "/out/summary.md"))
        return;
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/in/solution' '%s/in/nosync1' '%s/in/tile-transposed' "
                    "'%s/in/getenv' '%s/in/network_socket' && echo 31337 > '%s/secret' && "
                    "cp '%s/tests/hostile/03/network_socket.cu' '%s/in/network_socket/tiled.cu'",
                    CLASS3, CLASS3, CLASS3, CLASS3, CLASS3, CLASS3, CLASS3, TL_SOURCE_ROOT, CLASS3), 0);
    for (int i = 0; hostile24[i]; ++i) {
        const char *n = hostile24[i];
        cr_assert_eq(sh("mkdir -p '%s/in/%s' && cp '%s/tests/hostile/03/%s.cu' '%s/in/%s/tiled.cu'", CLASS3, n,
                        TL_SOURCE_ROOT, n, CLASS3, n), 0);
    }
    /* valid CUDA the emulator lacks (an unused include of cuda_fp16.h): not graded here, never failed */
    cr_assert_eq(sh("mkdir -p '%s/in/honest_fp16' && { printf '#include <cuda_fp16.h>\\n'; "
                    "cat '%s/solutions/03-tiled-kernel/tiled.cu'; } > '%s/in/honest_fp16/tiled.cu'", CLASS3,
                    TL_SOURCE_ROOT, CLASS3), 0);
    cr_assert_eq(sh("cp '%s/solutions/03-tiled-kernel/tiled.cu' '%s/in/solution/' && "
                    "cp '%s/tests/wrong/03/nosync1.cu' '%s/in/nosync1/tiled.cu' && "
                    "cp '%s/tests/wrong/03/tile-transposed.cu' '%s/in/tile-transposed/tiled.cu' && "
                    "{ cat '%s/solutions/03-tiled-kernel/tiled.cu'; printf '#include <stdlib.h>\\n"
                    "__attribute__((used)) static const char *tl_peek(void) { return getenv(\"HOME\"); }\\n'; } "
                    "> '%s/in/getenv/tiled.cu'",
                    TL_SOURCE_ROOT, CLASS3, TL_SOURCE_ROOT, CLASS3, TL_SOURCE_ROOT, CLASS3, TL_SOURCE_ROOT, CLASS3), 0);
    int rc = sh("PATH=\"$PATH:/usr/local/cuda/bin\" '%s' --kit '%s' --lab 03 --emulate --out '%s/out' "
                "--secret '%s/secret' --jobs 2 '%s'/in/* > '%s/run.log' 2>&1", TG, TL_SOURCE_ROOT, CLASS3, CLASS3,
                CLASS3, CLASS3);
    char *log = tg_read_file(CLASS3 "/run.log", 1 << 20, NULL);
    cr_assert_eq(rc, 0, "the lab 03 emulated class run failed (exit %d):\n%s", rc, log ? log : "");
    free(log);
    tg_write_atomic(CLASS3 "/stamp", stamp, strlen(stamp));
}

static cJSON *results3(const char *student)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/out/%s/results.json", CLASS3, student);
    return load_results(p, student);
}

static void assert_test3(const char *student, const char *test, int passed, const char *needle)
{
    cJSON *js = results3(student);
    assert_test_in(js, student, test, passed, needle);
    cJSON_Delete(js);
}

Test(class03emu, the_solution_gets_every_graded_point_and_speed_is_not_graded, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("solution");
    cr_assert_float_eq(score_of(js), max_of(js), 1e-9, "the solution scored %g of %g", score_of(js), max_of(js));
    cr_assert_float_eq(max_of(js), 80.0, 1e-9, "emulated: out of 100 minus the 20 speed points");
    cr_assert(any_text(js, "refused (not attempted): speed is measured only on a real GPU"), "%s", output_of(js));
    cr_assert(any_text(js, "not run under emulation (too large for the CPU"), "%s", output_of(js));
    cJSON_Delete(js);
    assert_test3("solution", T16_PUB, 1, "not run under emulation");
    assert_test3("solution", RACE03, 1, "emulated build");
}

/* Every lab 03 file of tests/hostile/expected.txt graded in this class gets its emulated grade there
 * (the GPU's grades are checked by tests/gpu/hostile-on-device.sh). */
Test(class03emu, every_hostile_file_gets_the_emulated_grade_of_expected_txt, .timeout = LIMIT)
{
    class03_run();
    cJSON *sol = results3("solution");
    for (int i = 0; hostile24[i]; ++i) {
        char w[700];
        int listed = hostile_expected(TL_SOURCE_ROOT "/tests/hostile/expected.txt", "03", hostile24[i], "emulated", w,
                                      sizeof w);
        cr_assert_geq(listed, 0, "%s", w);
        cJSON *js = results3(hostile24[i]);
        if (listed == 1 && strcmp(w, "full") == 0)
            cr_assert_float_eq(score_of(js), score_of(sol), 1e-9, "%s: expected.txt says full emulated, scored %g",
                               hostile24[i], score_of(js));
        else   /* less: fewer points (naive_unsupported_include's are "not graded here", 0, never failed) */
            cr_assert(score_of(js) < score_of(sol), "%s: expected.txt says less emulated, scored %g (the solution %g)",
                      hostile24[i], score_of(js), score_of(sol));
        cJSON_Delete(js);
    }
    cJSON_Delete(sol);
}

/* Issue 24 item 2: a byte-order mark is accepted by every build, the emulated one included. */
Test(class03emu, a_file_with_a_utf8_byte_order_mark_gets_every_graded_point, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("bom_utf8");
    cr_assert_float_eq(score_of(js), 80.0, 1e-9, "scored %g: %s", score_of(js), output_of(js));
    cJSON_Delete(js);
}

/* Issue 24 item 2: the emulated build is the one this run grades with, so its failure is the
 * student's: every test 0 with the compiler's error, nothing "not graded", nothing scaled. */
Test(class03emu, a_file_that_breaks_only_the_emulated_build_scores_0_quoting_the_compiler, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("sabotage_emulated");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "scored %g: %s", score_of(js), output_of(js));
    cr_assert(strstr(output_of(js), "the build failed") && strstr(output_of(js), "no emulation for this file"),
              "the compiler's error is not quoted: %s", output_of(js));
    cr_assert_null(strstr(output_of(js), "no emulated build"), "%s", output_of(js));
    cJSON_Delete(js);
}

/* Issue 24: a file that breaks only the counting twin (labNN-emu-count, the build that counts the
 * work) once lost nothing; then its work-dependent tests failed, naming that build; since issue 29 its
 * test of what tells the builds apart (__SANITIZE_THREAD__) is refused before any test runs, naming
 * the line, as on a GPU. */
Test(class03emu, a_file_that_tests_what_tells_the_builds_apart_is_refused_naming_the_test, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("sabotage_count");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "scored %g: %s", score_of(js), output_of(js));
    cr_assert(any_text(js, "tiled.cu:6: tests __SANITIZE_THREAD__, which the GPU build and the emulated build"),
              "the refusal does not name the test: %s", output_of(js));
    cJSON_Delete(js);
}

/* Issue 24: "not supported under emulation" is the kit's own outcome (the rewrite's record): an
 * #error, or a #line naming the kit's header, that prints the words is the student's failed build;
 * valid CUDA the emulator lacks is not graded here, never failed. */
Test(class03emu, only_the_kits_record_makes_not_supported_and_words_in_an_error_directive_do_not, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("spoof_unsupported");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "scored %g: %s", score_of(js), output_of(js));
    cr_assert(strstr(output_of(js), "the build failed"), "%s", output_of(js));
    cr_assert_null(strstr(output_of(js), "not graded here"), "the spoof was taken for the kit's outcome: %s",
                   output_of(js));
    cJSON_Delete(js);
    js = results3("honest_fp16");
    cr_assert(strstr(output_of(js), "not graded here: ") && any_text(js, "not supported under emulation: cuda_fp16.h"),
              "%s", output_of(js));
    cr_assert_null(strstr(output_of(js), "the build failed"), "valid CUDA the emulator lacks was failed: %s",
                   output_of(js));
    cJSON_Delete(js);
    char *csv = tg_read_file(CLASS3 "/out/gradebook.csv", 1 << 20, NULL);
    cr_assert(csv && strstr(csv, "\nhonest_fp16,5.00,100.00,"), "the policy's 5 points, the rest not graded (0):\n%s",
              csv ? csv : "(none)");
    free(csv);
}

/* Issue 24: the emulator's run-time "not supported" comes from inside the student's process: said at
 * the sizes where the kernel is wrong while the others ran, it failed those sizes. A file can reach it
 * only behind a test of what tells the builds apart (#ifdef TL_EMULATED: nvcc's compile check fails on
 * the emulator's name otherwise), which the object gate refuses since issue 29, naming it. */
Test(class03emu, run_time_not_supported_at_some_sizes_only_counts_them_as_failed, .timeout = LIMIT)
{
    class03_run();
    assert_test3("spoof_unsupported_runtime", T16_PUB, 0, "tests TL_EMULATED, which the GPU build and the emulated");
    cJSON *js = results3("spoof_unsupported_runtime");
    cJSON *sol = results3("solution");
    cr_assert_lt(score_of(js), score_of(sol), "scored %g, the solution %g: %s", score_of(js), score_of(sol),
                 output_of(js));
    cJSON_Delete(sol);
    cJSON_Delete(js);
}

/* Issue 24: every object of a student file is judged by the gate (each tile width's, the emulated
 * program's and the counting twin's), so a definition in one of them alone is refused. */
Test(class03emu, a_kit_name_defined_in_the_counting_twin_only_is_refused_before_any_test, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("interpose_count_only");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "scored %g: %s", score_of(js), output_of(js));
    cr_assert(any_text(js, "tl_now_ms"), "the refusal does not name the symbol: %s", output_of(js));
    cJSON_Delete(js);
}

Test(class03emu, one_total_the_speed_not_graded_here_is_named_and_counts_0_in_every_report, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("solution");
    const cJSON *tl = cJSON_GetObjectItemCaseSensitive(js, "tilelab");
    cr_assert_float_eq(number_at(js, "score"), 80.0, 1e-9, "results.json's score is not the gradebook's");
    cr_assert_float_eq(number_at(tl, "max"), 100.0, 1e-9, "one maximum: every test's points");
    cr_assert(strstr(output_of(js), "not graded here: " SPEED03 " (20), counted as 0"), "%s", output_of(js));
    cJSON_Delete(js);
    char *csv = tg_read_file(CLASS3 "/out/gradebook.csv", 1 << 20, NULL);
    cr_assert(csv && strstr(csv, "\nsolution,80.00,100.00,"), "%s", csv ? csv : "(none)");
    cr_assert(strstr(csv, ",graded," SPEED03 " (20),"), "the part not graded here is not named:\n%s", csv);
    cr_assert(!strstr(csv, ",not graded,"), "'not graded' in a numeric column:\n%s", csv);
    free(csv);
    char *md = tg_read_file(CLASS3 "/out/summary.md", 1 << 22, NULL);
    cr_assert(md && strstr(md, "| solution | 80/100 |"), "%.1500s", md ? md : "(none)");
    free(md);
}

Test(class03emu, a_missing_syncthreads_loses_points_as_a_race, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("nosync1");
    cr_assert(score_of(js) < max_of(js), "nosync1 scored %g of %g", score_of(js), max_of(js));
    cJSON_Delete(js);
    assert_test3("nosync1", T16_PUB, 0, "race");
    assert_test3("nosync1", RACE03, 0, "race on __shared__ memory");   /* the emulator's verdict, in words */
}

Test(class03emu, a_transposed_tile_load_loses_points_as_swapped_indices, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("tile-transposed");
    cr_assert(score_of(js) < max_of(js), "tile-transposed scored %g of %g", score_of(js), max_of(js));
    cJSON_Delete(js);
    assert_test3("tile-transposed", T32_PUB, 0, "wrong result");
}

/* Since issue 24 a link the allow-list does not hold is refused before anything runs (the object's
 * answers could not be trusted): every test 0, each naming the symbol. */
Test(class03emu, a_getenv_call_runs_nothing_and_is_named, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("getenv");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "getenv scored %g of %g", score_of(js), max_of(js));
    cJSON_Delete(js);
    assert_test3("getenv", T16_PUB, 0, "links getenv");
    assert_test3("getenv", "policy: no network, processes, files or asm (tiled.cu)", 0, "links getenv");
    char *md = tg_read_file(CLASS3 "/out/summary.md", 1 << 22, NULL);
    cr_assert(md && strstr(md, "getenv"), "summary.md does not name the violation");
    free(md);
}

/* The socket is refused from the object before it runs; the run-time filter (seccomp) stays
 * behind it for what no object shows (tests/gpu/hostile-on-device.sh). */
Test(class03emu, a_network_socket_runs_nothing_and_is_named, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("network_socket");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "network_socket scored %g of %g", score_of(js), max_of(js));
    cJSON_Delete(js);
    assert_test3("network_socket", T16_PUB, 0, "links socket");
    assert_test3("network_socket", "policy: no network, processes, files or asm (tiled.cu)", 0, "links socket");
}

/* ------------------------------------------------------------ usage */

Test(usage, bad_invocations_exit_2_with_a_message, .timeout = 60)
{
    cr_assert_eq(sh("'%s' --kit '%s' --lab 07 --out /tmp/tl-u x 2>/dev/null", TG, TL_SOURCE_ROOT), 2, "unknown lab");
    cr_assert_eq(sh("'%s' --kit '%s' --lab 01 --out /tmp/tl-u /nonexistent/alice 2>/dev/null", TG, TL_SOURCE_ROOT), 2,
                 "missing submission");
    cr_assert_eq(sh("touch /tmp/tl-u-file && '%s' --kit '%s' --lab 01 --out /tmp/tl-u-file '%s/labs/01-cpu-baseline' "
                    "2>/dev/null", TG, TL_SOURCE_ROOT, TL_SOURCE_ROOT), 2, "out dir is a file");
    cr_assert_eq(sh("'%s' --kit '%s' --lab 01 --out /tmp/tl-u 2>/dev/null", TG, TL_SOURCE_ROOT), 2, "no submissions");
    cr_assert_eq(sh("'%s' --kit '%s' --lab 01 --bogus 2>/dev/null", TG, TL_SOURCE_ROOT), 2, "unknown option");
    cr_assert_eq(sh("'%s' --kit '%s' --lab 01 2>/dev/null", TG, TL_SOURCE_ROOT), 2, "no --out");
    /* The same through the front door's script. */
    cr_assert_eq(sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-grade.sh' --help >/dev/null", TL_SOURCE_ROOT,
                    TL_BUILD_ROOT, TL_SOURCE_ROOT), 0, "kit grade --help");
    cr_assert_eq(sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-grade.sh' --lab 07 --out /tmp/tl-u x 2>/dev/null",
                    TL_SOURCE_ROOT, TL_BUILD_ROOT, TL_SOURCE_ROOT), 2, "kit grade with an unknown lab");
    cr_assert_eq(sh("TL_ROOT='%s' TL_BUILD=/nonexistent sh '%s/grader/kit-grade.sh' --help 2>/dev/null",
                    TL_SOURCE_ROOT, TL_SOURCE_ROOT), 2, "kit grade without a configured build");
    sh("rm -rf /tmp/tl-u /tmp/tl-u-file");
}

/* A GPU class setting in the environment that the class would not use is said at the start (exit 2,
 * one line naming the variable and what it takes), not dropped where a worker reads it. Asked before
 * anything is built, on a machine with or without a GPU. */
Test(usage, a_bad_gpu_class_setting_in_the_environment_is_said_at_the_start, .timeout = 60)
{
    static const char *const cases[][2] = {
        {"TL_GRADE_GPU_SHARE=0", "TL_GRADE_GPU_SHARE='0': give a whole number of processes from 1 to 4096"},
        {"TL_GRADE_GPU_SHARE=ten", "TL_GRADE_GPU_SHARE='ten'"},
        {"TL_GRADE_GPU_WORKERS=2", "TL_GRADE_GPU_WORKERS='2': give a whole number of workers from --jobs (4) to 256"},
        {"TL_GRADE_GPU_WORKERS=999", "TL_GRADE_GPU_WORKERS='999'"},
        {"TL_GRADE_NCU=yes", "TL_GRADE_NCU='yes': give 1 (every submission profiled) or 0 (never)"},
        {"TL_GRADE_GPU_YIELD_CPU=-1", "TL_GRADE_GPU_YIELD_CPU='-1': give a share of a core from 0 to 16"},
        {"TL_GRADE_GPU_TIMED=end", "TL_GRADE_GPU_TIMED='end': give last (each device's speed tests after all of its "
         "untimed work, the default) or inline"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        cr_assert_eq(sh("out=$(%s '%s' --kit '%s' --lab 02 --out /tmp/tl-genv --jobs 4 /nonexistent-student 2>&1 >/dev/null); "
                        "rc=$?; [ $rc = 2 ] && [ \"$(printf '%%s\\n' \"$out\" | wc -l)\" = 1 ] && "
                        "printf '%%s' \"$out\" | grep -qF -- \"%s\" || { echo \"rc $rc: $out\" >&2; exit 1; }",
                        cases[i][0], TG, TL_SOURCE_ROOT, cases[i][1]), 0,
                     "%s: not one line with \"%s\" and exit 2 (the output is above)", cases[i][0], cases[i][1]);
    /* and the values the class uses pass this check (the run then stops at the missing student) */
    cr_assert_eq(sh("out=$(TL_GRADE_GPU_SHARE=8 TL_GRADE_GPU_WORKERS=24 TL_GRADE_NCU=0 TL_GRADE_GPU_TIMED=inline "
                    "TL_GRADE_GPU_YIELD_CPU=0.5 '%s' --kit '%s' --lab 02 --out /tmp/tl-genv --jobs 4 /nonexistent-student "
                    "2>&1 >/dev/null); ! printf '%%s' \"$out\" | grep -q TL_GRADE_ || { echo \"$out\" >&2; exit 1; }",
                    TG, TL_SOURCE_ROOT), 0, "a valid GPU class setting was refused (the output is above)");
    sh("rm -rf /tmp/tl-genv");
}

/* Issue 25 item 6: an option error is one line naming the option, what it takes and where every option
 * is described, exit 2; never the whole help after it (`./kit grade --jobs` printed 70 lines). */
Test(usage, an_option_error_is_one_line_naming_the_option_not_the_whole_help, .timeout = 60)
{
    static const char *const cases[][2] = {
        {"--jobs", "--jobs needs a value: --jobs N|auto (submissions built and graded at once)"},
        {"--lab 02 --out", "--out needs a value: --out DIR"},
        {"--jbos 3", "unknown option '--jbos'; did you mean --jobs?"},
        /* from the table of options (grader/options.c), also for an option the help describes inside
         * another's paragraph, and for an abbreviation getopt accepts */
        {"--lab 02 --due 2026-11-21T23:59Z --late-penalty",
         "--late-penalty needs a value: --late-penalty P (--due: percent of the score per day late"},
        {"--job", "--job needs a value: --jobs N|auto (submissions built and graded at once)"},
        {"--lab 02 --out /tmp/tl-u --prebuilt /etc/hostname", "--prebuilt and --build-failed go with --check"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        /* exit 2, exactly one line on stderr, holding the words and the kit's help command */
        cr_assert_eq(sh("out=$(TL_GRADE_HELP='./kit grade --help' '%s' --kit '%s' %s 2>&1 >/dev/null); rc=$?; "
                        "[ $rc = 2 ] && [ \"$(printf '%%s\\n' \"$out\" | wc -l)\" = 1 ] && "
                        "printf '%%s' \"$out\" | grep -qF -- \"%s\" && "
                        "printf '%%s' \"$out\" | grep -qF './kit grade --help lists every option' || "
                        "{ echo \"rc $rc: $out\" >&2; exit 1; }", TG, TL_SOURCE_ROOT, cases[i][0], cases[i][1]), 0,
                     "tl-grade %s: not one line with \"%s\" and exit 2 (the output is above)", cases[i][0], cases[i][1]);
    }
}

/* Issue 22: a bad option of ./kit grade or ./kit check is answered before anything long is built:
 * kit grade builds tl-grade-args (tl-grade's reading of its command line, grader/cmdline.c, without
 * the kit tl-grade links) and asks it, kit check builds tl-lab and asks it (tl-lab args) before the
 * lab's program. In a build folder whose ninja only writes down what it is asked (the programs asked are
 * this build's own), nothing else may have been asked for. */
#define GRADE_ASKS "-C [^ ]+ (-t query grader/tl-grade|grader/tl-grade-args)"
#define CHECK_ASKS "-C [^ ]+ common/tl-lab"
Test(usage, a_bad_option_of_kit_grade_or_kit_check_is_answered_before_the_long_builds, .timeout = 120)
{
    const char *d = TL_BUILD_ROOT "/tests/kit-order";
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/build/grader' '%s/build/common' '%s/bin' && : > '%s/build/build.ninja' && "
                    "ln -s '%s/grader/tl-grade-args' '%s/build/grader/tl-grade-args' && ln -s '%s/common/tl-lab' '%s/build/common/tl-lab' && "
                    "(TL_ROOT='%s' TL_WHO=kit; . '%s/common/kit-lib.sh'; if tl_find_nvcc; then echo enabled; else echo disabled; fi) "
                    "> '%s/build/.kit-cuda'",
                    d, d, d, d, d, TL_BUILD_ROOT, d, TL_BUILD_ROOT, d, TL_SOURCE_ROOT, TL_SOURCE_ROOT, d), 0,
                 "the fake build folder");
    char shim[512];
    snprintf(shim, sizeof shim, "%s/bin/ninja", d);
    FILE *f = fopen(shim, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\n# what the kit asked ninja for, one call a line; nothing is built\n"
               "printf '%%s\\n' \"$*\" >> '%s/ninja.log'\n", d);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(chmod(shim, 0755), 0);
    /* the command, the one line it answers, what ninja may be asked (every call, a whole line) */
    static const char *const cases[][3] = {
        {"grade --lab 02 --out /tmp/tl-u --jobs", "--jobs needs a value: --jobs N|auto", GRADE_ASKS},
        {"grade --lab 02 --emulte x", "unknown option '--emulte'; did you mean --emulate?", GRADE_ASKS},
        {"grade --lab 02 --out /tmp/tl-u --jobs 0 x", "--jobs '0': give a number from 1 to 256", GRADE_ASKS},
        {"grade --lab 09 --out /tmp/tl-u x", "unknown lab '09'; the labs are", GRADE_ASKS},
        {"check 03 --emulat", "unknown option '--emulat'; did you mean --emulate?", CHECK_ASKS},
        {"check 03 --sizs 16", "unknown option '--sizs'; did you mean --sizes?", CHECK_ASKS},
        {"check 03 --sizes", "--sizes needs a value: --sizes LIST", CHECK_ASKS},
        {"check 03 --sizes 16,0", "--sizes: bad size '0'", CHECK_ASKS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        cr_assert_eq(sh("cd '%s' && rm -f '%s/ninja.log' && out=$(PATH='%s/bin':\"$PATH\" TL_BUILD='%s/build' ./kit %s 2>&1 "
                        ">/dev/null); rc=$?; [ $rc = 2 ] && [ \"$(printf '%%s\\n' \"$out\" | wc -l)\" = 1 ] && "
                        "printf '%%s' \"$out\" | grep -qF -- \"%s\" || { echo \"rc $rc: $out\" >&2; exit 1; }",
                        TL_SOURCE_ROOT, d, d, d, cases[i][0], cases[i][1]), 0,
                     "./kit %s: not one line with \"%s\" and exit 2 (the output is above)", cases[i][0], cases[i][1]);
        /* ninja was asked for the small program (and whether the build has tl-grade), nothing else */
        cr_assert_eq(sh("grep -q . '%s/ninja.log' && ! grep -Evx -- '%s' '%s/ninja.log' >&2", d, cases[i][2], d), 0,
                     "./kit %s: ninja was asked for more than %s before the answer (the lines above)", cases[i][0],
                     cases[i][2]);
    }
    sh("rm -rf '%s'", d);
}

Test(usage, a_kit_that_does_not_build_is_not_graded_never_a_zero, .timeout = 300)
{
    if (sh("command -v bwrap >/dev/null && command -v git >/dev/null") != 0)
        cr_skip_test("no bubblewrap or git here: the kit is built per submission, not once");
    const char *d = TL_BUILD_ROOT "/tests/brokenkit";
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/kit/labs/01-cpu-baseline' '%s/in/alice' && cd '%s/kit' && git init -q && "
                    "printf \"project('broken', 'c')\\nerror('this kit is broken on purpose')\\n\" > meson.build && "
                    "echo '# lab 01' > labs/01-cpu-baseline/meson.build && cp '%s/solutions/01-cpu-baseline/gmm.c' "
                    "labs/01-cpu-baseline/ && cp labs/01-cpu-baseline/gmm.c '%s/in/alice/' && git add -A && "
                    "git -c user.email=t@example.org -c user.name=t commit -qm kit", d, d, d, d, TL_SOURCE_ROOT, d), 0);
    char log[1100];
    snprintf(log, sizeof log, "%s/run.log", d);
    int rc = sh("'%s' --kit '%s/kit' --lab 01 --out '%s/out' --public-only '%s/in/alice' > '%s' 2>&1", TG, d, d, d, log);
    char *text = tg_read_file(log, 1 << 20, NULL);
    cr_assert_eq(rc, 3, "a kit that does not build must exit 3 (grader-side), got %d:\n%s", rc, text);
    cr_assert(text && strstr(text, "not graded: the kit itself"), "%s", text);
    free(text);
    char done[1100];
    snprintf(done, sizeof done, "%s/out/alice/.done", d);
    cr_assert_neq(access(done, F_OK), 0, "a student was marked graded while the kit itself did not build");
}

/* ------------------------------------------------------------ the kit's build, cached */

/* One run of a one-student lab 01 class over D/kit with the cache CACHE, its out folder OUTS/outN;
 * returns kitbuild.log. */
static char *graded_with_cache_in(const char *d, const char *outs, const char *cache, int n)
{
    int rc = sh("TL_GRADE_KIT_CACHE='%s' '%s' --kit '%s/kit' --lab 01 --out '%s/out%d' --public-only --jobs 1 "
                "'%s/in/alice' > '%s/run%d.log' 2>&1", cache, TG, d, outs, n, d, d, n);
    char p[1200];
    snprintf(p, sizeof p, "%s/run%d.log", d, n);
    char *log = tg_read_file(p, 1 << 20, NULL);
    cr_assert_eq(rc, 0, "grading run %d exited %d:\n%s", n, rc, log ? log : "(no log)");
    free(log);
    snprintf(p, sizeof p, "%s/out%d/alice/results.json", outs, n);
    cJSON *js = load_results(p, "alice");
    cr_assert_float_eq(score_of(js), max_of(js), 1e-9, "run %d: the solution lost points over the kit's build", n);
    cJSON_Delete(js);
    snprintf(p, sizeof p, "%s/out%d/alice/build.log", outs, n);
    char *blog = tg_read_file(p, 1 << 20, NULL);
    cr_assert(blog && strstr(blog, "Compiling C object labs/01-cpu-baseline/lab01.p/gmm.c.o") &&
              !strstr(blog, "lab.c.o"), "run %d: the student's build did more or less than gmm.c:\n%s", n,
              blog ? blog : "(none)");
    free(blog);
    snprintf(p, sizeof p, "%s/out%d/.state/kitbuild.log", outs, n);
    char *klog = tg_read_file(p, 1 << 20, NULL);
    cr_assert(klog, "run %d left no kitbuild.log", n);
    return klog;
}

static char *graded_with_cache(const char *d, const char *cache, int n)
{
    return graded_with_cache_in(d, d, cache, n);
}

Test(kitcache, the_kits_build_is_reused_for_the_same_sources_and_built_again_when_a_file_changes, .timeout = LIMIT)
{
    if (sh("command -v bwrap >/dev/null && command -v git >/dev/null") != 0)
        cr_skip_test("no bubblewrap or git here: the kit is built per submission, not once");
    const char *d = TL_BUILD_ROOT "/tests/kitcache";
    char cache[1100];
    snprintf(cache, sizeof cache, "%s/cache", d);
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/in/alice' && git clone -q '%s' '%s/kit' && "
                    "cp '%s/solutions/01-cpu-baseline/gmm.c' '%s/in/alice/'", d, d, TL_SOURCE_ROOT, d, TL_SOURCE_ROOT, d), 0);
    char *k1 = graded_with_cache(d, cache, 1);
    cr_assert(strstr(k1, "Linking target labs/01-cpu-baseline/lab01") && !strstr(k1, "copied from"),
              "the first run (empty cache) did not build the kit:\n%s", k1);
    char *k2 = graded_with_cache(d, cache, 2);
    cr_assert(strstr(k2, "the kit's build copied from") && strstr(k2, cache),
              "the second run (same kit) built the kit again:\n%s", k2);
    /* One byte of a tracked file changed: another key, a build of its own. */
    cr_assert_eq(sh("echo >> '%s/kit/labs/01-cpu-baseline/README.md'", d), 0);
    char *k3 = graded_with_cache(d, cache, 3);
    cr_assert(strstr(k3, "Linking target labs/01-cpu-baseline/lab01") && !strstr(k3, "copied from"),
              "a changed kit was given the cached build of the old one:\n%s", k3);
    cr_assert_eq(sh("test $(ls '%s' | grep -c '^kit-[0-9a-f]*$') = 2", cache), 0, "the cache should hold two builds");
    free(k1); free(k2); free(k3);
    sh("rm -rf '%s'", d);
}

/* The files of a kit build belong to the uid the sandbox built as: uid 65534 where the out folder is
 * within its reach, else root without capabilities in a user namespace, which cannot write over
 * 65534's files (nor 65534 over root's 0755 folders). A build cached by a run of one kind is never
 * given to a run of the other: once it was, and every test of that run scored 0 ("Permission denied"
 * on the student's objects: the grader work suite's kit check, the Slurm class). */
Test(kitcache, a_run_whose_out_folder_the_sandbox_uid_cannot_reach_builds_over_a_kit_it_can_write, .timeout = LIMIT)
{
    if (sh("command -v bwrap >/dev/null && command -v git >/dev/null") != 0)
        cr_skip_test("no bubblewrap or git here: the kit is built per submission, not once");
    if (geteuid() != 0)
        cr_skip_test("not root: every sandbox runs as this user, one owner for every build");
    /* (in /tmp, not the build folder: the first run's out folder must be within uid 65534's reach,
     * and a clone in a folder only root may enter, as `mktemp -d` makes, is not) */
    char d[64] = "/tmp/tl-kitcache-uid.XXXXXX";
    cr_assert_not_null(mkdtemp(d));
    cr_assert_eq(chmod(d, 0755), 0);
    char cache[1100], priv[1100];
    snprintf(cache, sizeof cache, "%s/cache", d);
    snprintf(priv, sizeof priv, "%s/private", d);
    cr_assert_eq(sh("mkdir -p '%s/in/alice' && mkdir -m 700 '%s' && git clone -q '%s' '%s/kit' && "
                    "cp '%s/solutions/01-cpu-baseline/gmm.c' '%s/in/alice/'", d, priv, TL_SOURCE_ROOT, d,
                    TL_SOURCE_ROOT, d), 0);
    char *k1 = graded_with_cache(d, cache, 1);          /* out within uid 65534's reach */
    cr_assert(!strstr(k1, "copied from"), "the first run (empty cache) did not build the kit:\n%s", k1);
    char *k2 = graded_with_cache_in(d, priv, cache, 2); /* out under a folder only root may enter */
    cr_assert(!strstr(k2, "copied from"), "a run building as another uid was given the cached build:\n%s", k2);
    char *k3 = graded_with_cache_in(d, priv, cache, 3);
    cr_assert(strstr(k3, "the kit's build copied from") && strstr(k3, cache),
              "the second run of the same kind built the kit again:\n%s", k3);
    free(k1); free(k2); free(k3);
    sh("rm -rf '%s'", d);
}

/* ------------------------------------------------------------ restart */

Test(resume, a_killed_run_started_again_loses_nothing_and_skips_finished_work, .timeout = LIMIT)
{
    const char *dir = TL_BUILD_ROOT "/tests/resume01";
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/in/a_solution' '%s/in/b_wrong' '%s/in/c_slow'", dir, dir, dir, dir), 0);
    cr_assert_eq(sh("cp '%s/solutions/01-cpu-baseline/gmm.c' '%s/in/a_solution/' && "
                    "cp '%s/tests/wrong/01/loop_short.c' '%s/in/b_wrong/gmm.c' && "
                    "cp '%s/tests/hostile/01/cpu_infinite_loop.c' '%s/in/c_slow/gmm.c'",
                    TL_SOURCE_ROOT, dir, TL_SOURCE_ROOT, dir, TL_SOURCE_ROOT, dir), 0);
    char out[1024], a[1024], b[1024], c[1024];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(a, sizeof a, "%s/in/a_solution", dir);
    snprintf(b, sizeof b, "%s/in/b_wrong", dir);
    snprintf(c, sizeof c, "%s/in/c_slow", dir);
    pid_t p = fork();
    if (p == 0) {
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 1);
        dup2(nul, 2);
        execl(TG, TG, "--kit", TL_SOURCE_ROOT, "--lab", "01", "--out", out, "--jobs", "1", a, b, c, (char *)NULL);
        _exit(127);
    }
    char marker[1100];
    snprintf(marker, sizeof marker, "%s/a_solution/.done", out);
    for (int i = 0; i < 600 && access(marker, F_OK) != 0; ++i)
        usleep(100 * 1000);
    cr_assert_eq(access(marker, F_OK), 0, "the first submission never finished");
    kill(p, SIGKILL);                            /* mid-run: b or c is being graded */
    waitpid(p, NULL, 0);
    char *first = tg_read_file(marker, 256, NULL);
    usleep(300 * 1000);
    char log[1100];
    snprintf(log, sizeof log, "%s/rerun.log", dir);
    int rc = sh("'%s' --kit '%s' --lab 01 --out '%s' --jobs 1 '%s' '%s' '%s' > '%s' 2>&1", TG, TL_SOURCE_ROOT, out, a, b, c, log);
    char *text = tg_read_file(log, 1 << 20, NULL);
    cr_assert_eq(rc, 0, "the restarted run failed:\n%s", text);
    cr_assert(strstr(text, "a_solution ... 100/100 (graded earlier"), "the finished submission was graded again:\n%s", text);
    char *again = tg_read_file(marker, 256, NULL);
    cr_assert_str_eq(first, again, "the finished result changed");
    char *csv = tg_read_file(TL_BUILD_ROOT "/tests/resume01/out/gradebook.csv", 1 << 20, NULL);
    cr_assert(csv && strstr(csv, "\na_solution,100.00") && strstr(csv, "\nb_wrong,70.00") && strstr(csv, "\nc_slow,70.00"),
              "gradebook after the restart:\n%s", csv ? csv : "(none)");
    free(first); free(again); free(text); free(csv);
    cr_assert_eq(processes_running("01-cpu-baseline/lab01 --serve", strchr(out + 1, '/')), 0,
                 "the killed run left student processes");
}

/* ------------------------------------------------------------ kit check, kit release */

Test(kit, kit_check_fails_on_the_skeleton_with_the_teaching_output, .timeout = LIMIT)
{
    char log[] = TL_BUILD_ROOT "/tests/kitcheck.log";
    int rc = sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-check.sh' 01 > '%s' 2>&1", TL_SOURCE_ROOT, TL_BUILD_ROOT,
                TL_SOURCE_ROOT, log);
    char *text = tg_read_file(log, 1 << 20, NULL);
    cr_assert_eq(rc, 1, "kit check 01 on the skeleton should exit 1:\n%s", text);
    cr_assert(strstr(text, "FAIL  GMM_CPU (cpu_ijk), public sizes") && strstr(text, "where and why"), "%s", text);
    free(text);
    cr_assert_eq(sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-check.sh' 99 >/dev/null 2>&1", TL_SOURCE_ROOT,
                    TL_BUILD_ROOT, TL_SOURCE_ROOT), 2, "an unknown lab is a usage error");
}

Test(kit, kit_checks_failed_build_is_a_fail_quoting_the_compiler_never_a_skip, .timeout = 60)
{
    const char *dir = TL_BUILD_ROOT "/tests/kitcheck-failed";
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s' && printf '%%s\\n' '[1/2] Compiling C object lab01.p/gmm.c.o' "
                    "'../labs/01-cpu-baseline/gmm.c:36:9: error: expected expression before token' "
                    "'ninja: build stopped: subcommand failed.' > '%s/build.log'", dir, dir, dir), 0);
    char log[1100];
    snprintf(log, sizeof log, "%s/out.txt", dir);
    int rc = sh("'%s' --kit '%s' --check --quiet --lab 01 --out '%s/out' --build-failed '%s/build.log' > '%s' 2>&1", TG,
                TL_SOURCE_ROOT, dir, dir, log);
    char *text = tg_read_file(log, 1 << 20, NULL);
    cr_assert_eq(rc, 1, "a failed build must exit 1 (a check failed), got %d:\n%s", rc, text);
    cr_assert(strstr(text, "BUILD FAILED") && strstr(text, "gmm.c:36:9: error: expected expression"), "%s", text);
    free(text);
    cr_assert_eq(sh("'%s' --check --lab 01 --out '%s/out' --build-failed /nonexistent/log 2>/dev/null", TG, dir), 2,
                 "a missing log is a usage error");
}

Test(kit, print_pristine_lists_the_kit_without_solutions_tests_or_builds, .timeout = 60)
{
    char list[] = TL_BUILD_ROOT "/tests/pristine.txt";
    cr_assert_eq(sh("'%s' --print-pristine '%s' > '%s'", TG, TL_SOURCE_ROOT, list), 0);
    char *text = tg_read_file(list, 1 << 22, NULL);
    cr_assert(text && strstr(text, "labs/01-cpu-baseline/gmm.c\n") && strstr(text, "grader/tl-grade.c\n"), "%s", text);
    cr_assert_eq(sh("grep -qE '^(solutions|tests|build[^/]*|\\.git)/' '%s'", list), 1,
                 "the pristine list holds solutions/, tests/, a build folder or .git");
    free(text);
}

/* kit release's refusals come before anything is copied or built. The edition itself (no solutions/,
 * no tests/, the skeletons, built and checked from clean) is written and tested once, by the release
 * suite (tests/release/student-edition.sh): a second release here would build the kit from clean
 * again and prove nothing more. */
Test(kit, kit_release_refuses_a_folder_that_is_not_empty, .timeout = 120)
{
    char dest[] = "/tmp/tl-release-XXXXXX";
    cr_assert(mkdtemp(dest));
    cr_assert_eq(sh("echo keep > '%s/notes.txt'", dest), 0);
    cr_assert_eq(sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-release.sh' '%s' >/dev/null 2>&1", TL_SOURCE_ROOT,
                    TL_BUILD_ROOT, TL_SOURCE_ROOT, dest), 2, "kit release overwrote a non-empty folder");
    cr_assert_eq(sh("test \"$(ls -A '%s')\" = notes.txt && grep -qx keep '%s/notes.txt'", dest, dest), 0,
                 "kit release changed the non-empty folder it refused");
    cr_assert_eq(sh("test ! -e '%s.tmp'", dest), 0, "kit release left a half-written edition beside the folder");
    sh("rm -rf '%s'", dest);
}

/* ------------------------------------------------------------ GPU hostiles */

Test(hostile03, gpu_hostiles_are_graded_on_a_gpu_only, .timeout = LIMIT)
{
    if (!tg_is_dir(TL_SOURCE_ROOT "/labs/03-tiled-kernel"))
        cr_skip_test("lab 03 is not in this kit yet: tests/hostile/03 waits for it");
    if (access("/dev/nvidiactl", F_OK) != 0)
        cr_skip_test("no GPU here: tests/hostile/03 runs on the GPU machine (grader/README.md says how)");
    const char *dir = TL_BUILD_ROOT "/tests/class03";
    const char *names[] = {"gpu_infinite_loop", "huge_cudamalloc", "device_reset", NULL};
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/in'", dir, dir), 0);
    for (int i = 0; names[i]; ++i)
        cr_assert_eq(sh("mkdir -p '%s/in/%s' && cp '%s/tests/hostile/03/%s.cu' '%s/in/%s/tiled.cu'", dir, names[i],
                        TL_SOURCE_ROOT, names[i], dir, names[i]), 0);
    int rc = sh("'%s' --kit '%s' --lab 03 --out '%s/out' --jobs 1 '%s'/in/* > '%s/run.log' 2>&1", TG, TL_SOURCE_ROOT,
                dir, dir, dir);
    cr_assert_eq(rc, 0, "the lab 03 hostile run failed (see %s/run.log)", dir);
    char *md = tg_read_file(TL_BUILD_ROOT "/tests/class03/out/summary.md", 1 << 22, NULL);
    /* a spinning kernel: the CPU-time limit where the CUDA runtime spins while it waits, else the
     * wall clock (blocking sync costs no CPU) */
    cr_assert(md && strstr(md, "gpu_infinite_loop") && (strstr(md, "wall-clock limit") || strstr(md, "CPU-time limit")),
              "%s", md ? md : "");
    free(md);
}
