/* test_grader_class.c: the grader end to end on a lab 01 class folder: the solution (as a folder,
 * a .tar.gz and a .zip), the known-wrong submissions (tests/wrong/01), the hostile corpus
 * (tests/hostile/01) and refused archives. The class is graded once per tl-grade binary (a stamp
 * file); every test below reads its verdicts. Also: usage errors, a killed run that is restarted,
 * the student edition, and the GPU hostiles (skipped without a GPU and lab 03). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util.h"

#define TG      TL_BUILD_ROOT "/grader/tl-grade"
#define CLASS   TL_BUILD_ROOT "/tests/class01"
#define IN      CLASS "/in"
#define OUT     CLASS "/out"
#define LIMIT   900

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void put_submission(const char *name, const char *src, const char *prefix)
{
    cr_assert_eq(sh("mkdir -p '%s/%s'", IN, name), 0);
    char to[1024];
    snprintf(to, sizeof to, "%s/%s/gmm.c", IN, name);
    FILE *f = fopen(to, "w");
    cr_assert(f);
    if (prefix)
        fputs(prefix, f);
    fclose(f);
    cr_assert_eq(sh("cat '%s' >> '%s'", src, to), 0);
}

static const char *const wrong[] = {"loop_short", "acc_not_reset", "transposed", "blocked_drops_partial", NULL};
static const char *const hostile[] = {"cpu_infinite_loop", "fork_bomb", "gigabytes_of_output", "exit_early", "print_pass",
                                      "abort", "huge_malloc", "read_secrets", "network_socket", "write_outside", NULL};

static void make_class(void)
{
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s'", CLASS, IN), 0);
    char defs[2048];
    snprintf(defs, sizeof defs, "#define TL_HOSTILE_ROOT \"%s\"\n#define TL_HOSTILE_OUT \"%s\"\n", TL_SOURCE_ROOT, OUT);
    put_submission("solution", TL_SOURCE_ROOT "/solutions/01-cpu-baseline/gmm.c", NULL);
    for (int i = 0; wrong[i]; ++i) {
        char src[1024];
        snprintf(src, sizeof src, "%s/tests/wrong/01/%s.c", TL_SOURCE_ROOT, wrong[i]);
        put_submission(wrong[i], src, NULL);
    }
    put_submission("does_not_compile", TL_SOURCE_ROOT "/tests/wrong/01/does_not_compile.c", NULL);
    for (int i = 0; hostile[i]; ++i) {
        char src[1024];
        snprintf(src, sizeof src, "%s/tests/hostile/01/%s.c", TL_SOURCE_ROOT, hostile[i]);
        put_submission(hostile[i], src, defs);
    }
    /* Archives: the solution wrapped in a folder (.tar.gz) and in a labs/ tree (.zip); two evil ones. */
    cr_assert_eq(sh("cd '%s' && mkdir -p t/alice && cp '%s/solutions/01-cpu-baseline/gmm.c' t/alice/ && "
                    "tar -czf tarball_solution.tar.gz -C t alice && rm -rf t", CLASS, TL_SOURCE_ROOT), 0);
    if (sh("command -v zip >/dev/null") == 0)
        cr_assert_eq(sh("cd '%s' && mkdir -p z/labs/01-cpu-baseline && cp '%s/solutions/01-cpu-baseline/gmm.c' "
                        "z/labs/01-cpu-baseline/ && (cd z && zip -qr ../zipped_solution.zip labs) && rm -rf z",
                        CLASS, TL_SOURCE_ROOT), 0);
    cr_assert_eq(sh("cd '%s' && mkdir -p e && cp '%s/solutions/01-cpu-baseline/gmm.c' e/gmm.c && "
                    "tar -cf evil_dotdot.tar --transform 's,^,../../,' -C e gmm.c && "
                    "ln -s /etc/passwd e/link && tar -cf evil_symlink.tar -C e link gmm.c && rm -rf e",
                    CLASS, TL_SOURCE_ROOT), 0);
    /* Oversized (incompressible 9 MiB) and a device node (root only: mknod). */
    cr_assert_eq(sh("cd '%s' && mkdir -p o && head -c 9437184 /dev/urandom > o/gmm.c && "
                    "tar -czf evil_oversized.tar.gz -C o gmm.c && rm -rf o", CLASS), 0);
    sh("cd '%s' && mkdir -p d && cp '%s/solutions/01-cpu-baseline/gmm.c' d/ && mknod d/null c 1 3 2>/dev/null && "
       "tar -cf evil_device.tar -C d gmm.c null; rm -rf d", CLASS, TL_SOURCE_ROOT);
    /* Archives as students make them, made here (tests/hostile/archives.py says which), bsdtar's
     * tar.gz when installed, and a zip whose headers understate its size. */
    if (sh("command -v python3 >/dev/null") == 0)
        cr_assert_eq(sh("python3 '%s/tests/hostile/archives.py' '%s' '%s/solutions/01-cpu-baseline/gmm.c'",
                        TL_SOURCE_ROOT, CLASS, TL_SOURCE_ROOT), 0);
    if (sh("command -v bsdtar >/dev/null") == 0)
        cr_assert_eq(sh("cd '%s' && mkdir -p b/bsdtar_solution && cp '%s/solutions/01-cpu-baseline/gmm.c' "
                        "b/bsdtar_solution/ && bsdtar -czf bsdtar_solution.tar.gz -C b bsdtar_solution && rm -rf b",
                        CLASS, TL_SOURCE_ROOT), 0);
    cr_assert_eq(sh("echo 424242 > '%s/secret'", CLASS), 0);
}

/* Grades the class once per tl-grade binary and test binary; later tests reuse the verdicts. */
static void class_run(void)
{
    struct stat st;
    cr_assert_eq(stat(TG, &st), 0, "tl-grade is not built");
    struct stat me;                                /* this test binary: the class it builds */
    cr_assert_eq(stat("/proc/self/exe", &me), 0);
    char stamp[160];
    snprintf(stamp, sizeof stamp, "%lld-%lld %lld-%lld\n", (long long)st.st_mtime, (long long)st.st_size,
             (long long)me.st_mtime, (long long)me.st_size);
    char *old = tg_read_file(CLASS "/stamp", 128, NULL);
    int fresh = old && strcmp(old, stamp) == 0;
    free(old);
    if (fresh && tg_is_file(OUT "/summary.md"))
        return;
    make_class();
    int rc = sh("'%s' --kit '%s' --lab 01 --out '%s' --secret '%s/secret' --jobs 2 '%s'/* '%s'/*.tar* '%s'/*.zip "
                "> '%s/run.log' 2>&1", TG, TL_SOURCE_ROOT, OUT, CLASS, IN, CLASS, CLASS, CLASS);
    char *log = tg_read_file(CLASS "/run.log", 1 << 20, NULL);
    cr_assert_eq(rc, 0, "the class run failed (exit %d):\n%s", rc, log ? log : "");
    free(log);
    tg_write_atomic(CLASS "/stamp", stamp, strlen(stamp));
}

/* results.json, loaded with cJSON; every check below reads its fields. */
static cJSON *load_results(const char *path, const char *student)
{
    char *s = tg_read_file(path, 1 << 22, NULL);
    cr_assert(s, "no results.json for %s", student);
    cJSON *js = cJSON_Parse(s);
    cr_assert(js, "results.json of %s is not JSON:\n%.2000s", student, s);
    free(s);
    return js;
}

static cJSON *results(const char *student)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s/results.json", OUT, student);
    return load_results(p, student);
}

static double number_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsNumber(v), "results.json: no number '%s'", key);
    return v->valuedouble;
}

static double score_of(const cJSON *js)
{
    return number_at(js, "score");
}

/* The score's maximum on this machine (tests not graded here left out): tilelab.max. */
static double max_of(const cJSON *js)
{
    return number_at(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "max");
}

static const char *string_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsString(v), "results.json: no string '%s'", key);
    return v->valuestring;
}

/* The top output (Gradescope's "output"): the build, the refusal, the evidence, the score line. */
static const char *output_of(const cJSON *js)
{
    return string_at(js, "output");
}

/* One test of "tests" by name (graded tests only). */
static const cJSON *test_of(const cJSON *js, const char *name)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(js, "tests"))
        if (strcmp(string_at(t, "name"), name) == 0)
            return t;
    cr_assert_fail("no test '%s' in results.json", name);
    return NULL;
}

/* 1 when any string anywhere in results.json contains needle. */
static int any_text(const cJSON *j, const char *needle)
{
    if (cJSON_IsString(j))
        return strstr(j->valuestring, needle) != NULL;
    const cJSON *c;
    cJSON_ArrayForEach(c, j)
        if (any_text(c, needle))
            return 1;
    return 0;
}

static int count_failed(const cJSON *js)
{
    int n = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(js, "tests"))
        n += strcmp(string_at(t, "status"), "failed") == 0;
    return n;
}

static void assert_test_in(const cJSON *js, const char *student, const char *test, int passed, const char *needle)
{
    const cJSON *t = test_of(js, test);
    const char *status = string_at(t, "status"), *out = string_at(t, "output");
    cr_assert_str_eq(status, passed ? "passed" : "failed", "%s: test '%s' should have %s:\n%s", student, test,
                     passed ? "passed" : "failed", out);
    if (needle)
        cr_assert(strstr(out, needle), "%s: test '%s' should say '%s':\n%s", student, test, needle, out);
}

static void assert_test(const char *student, const char *test, int passed, const char *needle)
{
    class_run();
    cJSON *js = results(student);
    assert_test_in(js, student, test, passed, needle);
    cJSON_Delete(js);
}

static const char *isolation(void)
{
    static char iso[512];
    char *s = tg_read_file(OUT "/summary.md", 1 << 22, NULL);
    cr_assert(s);
    const char *p = strstr(s, "- isolation: ");
    cr_assert(p);
    snprintf(iso, sizeof iso, "%.*s", (int)strcspn(p, "\n"), p);
    free(s);
    return iso;
}

#define IJK_PUB "GMM_CPU (cpu_ijk), public sizes"
#define IJK_HID "GMM_CPU (cpu_ijk), hidden sizes"
#define IKJ_PUB "GMM_CPU_ikj (cpu_ikj), public sizes"
#define IKJ_HID "GMM_CPU_ikj (cpu_ikj), hidden sizes"
#define BL_PUB  "GMM_CPU_blocked Block 32 (cpu_blocked), public sizes"
#define BL_HID  "GMM_CPU_blocked Block 32 (cpu_blocked), hidden sizes"
#define POLICY  "policy: no network, processes, files or asm (gmm.c)"

/* ------------------------------------------------------------ the class */

Test(class01, the_whole_batch_finishes_with_a_row_per_submission, .timeout = LIMIT)
{
    class_run();
    char *csv = tg_read_file(OUT "/gradebook.csv", 1 << 20, NULL);
    cr_assert(csv);
    cr_assert(strncmp(csv, "student,score,max,", 18) == 0, "gradebook header: %.80s", csv);
    const char *all[] = {"solution", "tarball_solution", "evil_dotdot", "evil_symlink", NULL};
    for (int i = 0; all[i]; ++i) {
        char row[80];
        snprintf(row, sizeof row, "\n%s,", all[i]);
        cr_assert(strstr(csv, row), "no gradebook row for %s", all[i]);
    }
    for (int i = 0; hostile[i]; ++i) {
        char row[80];
        snprintf(row, sizeof row, "\n%s,", hostile[i]);
        cr_assert(strstr(csv, row), "no gradebook row for %s", hostile[i]);
    }
    free(csv);
    char *md = tg_read_file(OUT "/summary.md", 1 << 22, NULL);
    cr_assert(md && strstr(md, "## Grader-side problems\n\nnone"), "grader-side problems in the class run");
    free(md);
}

Test(class01, progress_is_plain_lines_off_a_terminal_and_a_json_file_that_ends_finished, .timeout = LIMIT)
{
    class_run();
    char *log = tg_read_file(CLASS "/run.log", 1 << 20, NULL);
    cr_assert(log);
    cr_assert(!strchr(log, '\r') && !strstr(log, "\033["), "a live line (\\r, escapes) was written to a file:\n%.600s", log);
    cr_assert(strstr(log, " not graded so far; "), "the plain lines carry no failure count:\n%.600s", log);
    cr_assert(strstr(log, " left\n"), "the plain lines carry no time left:\n%.600s", log);
    free(log);
    char *pj = tg_read_file(OUT "/progress.json", 1 << 16, NULL);
    cr_assert(pj, "no progress.json in the out dir");
    cJSON *js = cJSON_Parse(pj);
    cr_assert(js, "progress.json is not JSON:\n%s", pj);
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(js, "state");
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(js, "total");
    const cJSON *graded = cJSON_GetObjectItemCaseSensitive(js, "graded");
    const cJSON *ng = cJSON_GetObjectItemCaseSensitive(js, "not_graded");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(js, "workers");
    cr_assert(cJSON_IsString(state) && strcmp(state->valuestring, "finished") == 0, "state: %s", pj);
    cr_assert(cJSON_IsNumber(total) && cJSON_IsNumber(graded) && cJSON_IsNumber(ng), "%s", pj);
    cr_assert_eq(graded->valueint + ng->valueint, total->valueint, "graded + not graded != total: %s", pj);
    cr_assert(cJSON_IsArray(w) && cJSON_GetArraySize(w) == 0, "workers still listed after the run: %s", pj);
    cJSON_Delete(js);
    free(pj);
}

Test(class01, a_terminal_gets_one_live_line_naming_each_workers_stage, .timeout = LIMIT)
{
    class_run();
    if (sh("command -v script >/dev/null") != 0)
        cr_skip_test("no script(1) here (bsdutils) to give the grader a terminal");
    /* Three students graded again into a fresh out dir, on a pseudo-terminal. */
    cr_assert_eq(sh("rm -rf '%s/tty' && mkdir -p '%s/tty/in' && cp -r '%s/solution' '%s/loop_short' '%s/transposed' "
                    "'%s/tty/in/'", CLASS, CLASS, IN, IN, IN, CLASS), 0);
    int rc = sh("cd '%s/tty' && TERM=xterm COLUMNS=200 script -qec \"'%s' --kit '%s' --lab 01 --out out --secret "
                "'%s/secret' --jobs 2 in/solution in/loop_short in/transposed\" typescript >/dev/null 2>&1",
                CLASS, TG, TL_SOURCE_ROOT, CLASS);
    cr_assert_eq(rc, 0, "the run on a terminal failed (exit %d)", rc);
    char *t = tg_read_file(CLASS "/tty/typescript", 1 << 20, NULL);
    cr_assert(t);
    cr_assert(strstr(t, "\r\033[K[0/3] 0 not graded | time left: unknown yet | "), "no live line before the first "
              "student finished:\n%.1500s", t);
    cr_assert(strstr(t, ": build ") || strstr(t, ": public "), "the live line names no worker's stage:\n%.1500s", t);
    cr_assert(strstr(t, "[3/3] "), "no line for the last student:\n%.1500s", t);
    cr_assert(strstr(t, " left | ") || strstr(t, "unknown yet | "), "the live line has no time left:\n%.1500s", t);
    free(t);
}

Test(class01, the_summary_shows_the_class_at_a_glance_with_a_chart_and_an_escaped_html_page, .timeout = LIMIT)
{
    class_run();
    char *md = tg_read_file(OUT "/summary.md", 1 << 22, NULL);
    cr_assert(md && strstr(md, "## The class at a glance\n"), "no glance section in summary.md");
    cr_assert(strstr(md, "| 90-100% | "), "no score distribution in summary.md");
    cr_assert(strstr(md, "| GMM_CPU (cpu_ijk), public sizes | "), "no pass rate per test in summary.md");
    const char *rs = strstr(md, "**Most common failure reasons**"), *end = strstr(md, "## Per student");
    cr_assert(rs && end && rs < end, "no failure reasons in the glance section");
    /* Listed most common first, each student counted once per reason (the class has 3 policy
     * violators: network_socket, read_secrets, write_outside). */
    int last = 1 << 30, items = 0;
    for (const char *q = strstr(rs, "\n1. "); q && q < end; q = strstr(q + 1, "\n")) {
        int num, count;
        if (sscanf(q + 1, "%d. %d student", &num, &count) != 2)
            continue;
        cr_assert(count <= last, "failure reasons out of order near: %.120s", q + 1);
        last = count;
        ++items;
    }
    cr_assert(items >= 3, "fewer than 3 failure reasons for a class with many bugs:\n%.1500s", rs);
    cr_assert(strstr(rs, "3 students: POLICY VIOLATION") && strstr(rs, "build failed (e.g. does_not_compile)"),
              "the policy violators or the failed build are not among the reasons:\n%.1500s", rs);
    if (sh("command -v gnuplot >/dev/null") == 0) {
        char *png = tg_read_file(OUT "/class.png", 1 << 22, NULL);
        cr_assert(png && memcmp(png, "\x89PNG", 4) == 0, "gnuplot is here but class.png is not a PNG");
        cr_assert(strstr(md, "](class.png)"), "summary.md does not show the chart");
        free(png);
    } else {
        cr_assert(strstr(md, "chart not drawn: gnuplot is not installed"), "a missing chart is not explained");
    }
    char *h = tg_read_file(OUT "/summary.html", 1 << 22, NULL);
    cr_assert(h && strncmp(h, "<!DOCTYPE html>", 15) == 0, "no summary.html");
    cr_assert(strstr(h, "<td>solution</td><td>100/100</td>"), "summary.html has no row for the solution");
    cr_assert(strstr(h, "<td>policy: no network, processes, files or asm (gmm.c)</td>"), "no pass rate rows in the page");
    /* Escaped: the only tags are the page's own. */
    for (const char *p = strchr(h, '<'); p; p = strchr(p + 1, '<')) {
        static const char *const ok[] = {"<!DOCTYPE", "<html", "</html", "<head", "</head", "<meta", "<title", "</title",
                                         "<style", "</style", "<body", "</body", "<h1", "</h1", "<h2", "</h2", "<h3",
                                         "</h3", "<p>", "</p>", "<img ", "<table", "</table", "<tr", "</tr", "<th",
                                         "</th", "<td", "</td", "<ol", "</ol", "<li", "</li", "<code", "</code", NULL};
        int known = 0;
        for (int i = 0; ok[i] && !known; ++i)
            known = strncmp(p, ok[i], strlen(ok[i])) == 0;
        cr_assert(known, "summary.html has a tag it did not write: %.60s", p);
    }
    free(h);
    free(md);
}

Test(class01, every_results_json_is_valid_json, .timeout = LIMIT)
{
    class_run();
    int rc = sh("command -v python3 >/dev/null || exit 77; for f in '%s'/*/results.json; do "
                "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert \"score\" in d and \"tests\" in d' \"$f\" || exit 1; done", OUT);
    if (rc == 77)
        cr_skip_test("python3 is not installed");
    cr_assert_eq(rc, 0, "a results.json is not valid JSON in Gradescope's shape");
}

Test(class01, no_submission_takes_more_than_a_minute, .timeout = LIMIT)
{
    class_run();
    DIR *d = opendir(OUT);
    cr_assert(d);
    struct dirent *e;
    int n = 0;
    double total = 0, worst = 0;
    while ((e = readdir(d))) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s/.done", OUT, e->d_name);
        char *m = tg_read_file(p, 256, NULL);
        if (!m)
            continue;
        double sc, mx, secs;
        cr_assert_eq(sscanf(m, "%lf %lf %lf", &sc, &mx, &secs), 3);
        free(m);
        total += secs;
        if (secs > worst)
            worst = secs;
        ++n;
        cr_expect(secs < 60, "%s took %.1f s", e->d_name, secs);
    }
    closedir(d);
    cr_assert(n >= 15);
    cr_log_info("%d submissions, %.1f s each on average, %.1f s at most", n, total / n, worst);
}

Test(class01, the_solution_gets_full_marks_as_folder_tarball_and_zip, .timeout = LIMIT)
{
    class_run();
    const char *names[] = {"solution", "tarball_solution", "zipped_solution", NULL};
    for (int i = 0; names[i]; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s/results.json", OUT, names[i]);
        if (!tg_is_file(p) && strcmp(names[i], "zipped_solution") == 0)
            continue;                               /* no zip tool on this machine */
        cJSON *js = results(names[i]);
        cr_assert_float_eq(score_of(js), 100.0, 1e-9, "%s scored %g", names[i], score_of(js));
        cJSON_Delete(js);
    }
}

Test(class01, archives_from_python_windows_macos_and_bsdtar_are_accepted, .timeout = LIMIT)
{
    class_run();
    if (!tg_is_file(CLASS "/python_zip.zip"))
        cr_skip_test("python3 is not installed: the archives of other tools were not made");
    const char *names[] = {"python_zip", "windows_zip", "macos_zip", "pax_tar", "bsdtar_solution", NULL};
    for (int i = 0; names[i]; ++i) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s/results.json", OUT, names[i]);
        if (!tg_is_file(p) && strcmp(names[i], "bsdtar_solution") == 0)
            continue;                               /* no bsdtar on this machine */
        cJSON *js = results(names[i]);
        cr_assert_float_eq(score_of(js), 100.0, 1e-9, "%s scored %g:\n%s", names[i], score_of(js), output_of(js));
        cJSON_Delete(js);
    }
}

Test(class01, a_zip_whose_headers_understate_its_size_is_refused_on_the_bytes_unpacked, .timeout = LIMIT)
{
    class_run();
    if (!tg_is_file(CLASS "/evil_zip_lies.zip"))
        cr_skip_test("python3 is not installed: the crafted zip was not made");
    cJSON *js = results("evil_zip_lies");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9);
    cr_assert(strstr(output_of(js), "archive refused") && strstr(output_of(js), "counted on the bytes unpacked"),
              "%s", output_of(js));
    cJSON_Delete(js);
}

/* ------------------------------------------------------------ known-wrong */

Test(wrong01, a_loop_bound_one_short_loses_the_ijk_points_with_the_reason, .timeout = LIMIT)
{
    assert_test("loop_short", IJK_PUB, 0, "loop bound");
    assert_test("loop_short", IKJ_PUB, 1, NULL);
}

Test(wrong01, an_accumulator_not_reset_is_named, .timeout = LIMIT)
{
    assert_test("acc_not_reset", IJK_PUB, 0, "accumulator not reset");
    assert_test("acc_not_reset", BL_PUB, 1, NULL);
}

Test(wrong01, a_transposed_index_is_named, .timeout = LIMIT)
{
    assert_test("transposed", IJK_PUB, 0, "swapped indices");
    assert_test("transposed", IJK_PUB, 0, "M * transpose(N)");
    assert_test("transposed", IKJ_PUB, 1, NULL);
}

Test(wrong01, a_dropped_partial_block_fails_ragged_sizes_only_and_is_named, .timeout = LIMIT)
{
    assert_test("blocked_drops_partial", BL_PUB, 0, "last partial tile dropped");
    assert_test("blocked_drops_partial", BL_PUB, 0, "correct: 64, 128, 512");
    assert_test("blocked_drops_partial", BL_HID, 0, NULL);
    assert_test("blocked_drops_partial", IJK_PUB, 1, NULL);
}

Test(wrong01, a_build_failure_scores_0_and_quotes_the_compiler, .timeout = LIMIT)
{
    class_run();
    cJSON *js = results("does_not_compile");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9);
    const char *top = output_of(js);
    cr_assert(strstr(top, "the build failed") && strstr(top, "gmm.c") && strstr(top, "error"), "%s", top);
    cr_assert_str_eq(string_at(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "status"), "build failed");
    cJSON_Delete(js);
}

Test(wrong01, every_wrong_submission_scores_less_than_the_solution, .timeout = LIMIT)
{
    class_run();
    for (int i = 0; wrong[i]; ++i) {
        cJSON *js = results(wrong[i]);
        double s = score_of(js);
        cr_assert(s < 100.0 && s > 0.0, "%s scored %g", wrong[i], s);
        cJSON_Delete(js);
    }
}

/* ------------------------------------------------------------ hostile */

Test(hostile01, an_endless_loop_is_killed_at_the_wall_clock_limit_and_the_rest_is_graded, .timeout = LIMIT)
{
    assert_test("cpu_infinite_loop", IJK_PUB, 0, "wall-clock limit");
    assert_test("cpu_infinite_loop", IJK_HID, 0, "not run: an earlier case of cpu_ijk");
    assert_test("cpu_infinite_loop", IKJ_PUB, 1, NULL);
    assert_test("cpu_infinite_loop", BL_HID, 1, NULL);
}

/* Processes whose command line holds needle and that belong to the run whose out dir's path ends
 * in scope: their command line names it (no bubblewrap) or one of their mounts comes from it (the
 * sandbox's /build; mountinfo gives the path within its filesystem, so the callers drop the out
 * dir's first component). Other kits' tests on the same machine run lab01 --serve too. */
static int processes_running(const char *needle, const char *scope)
{
    DIR *d = opendir("/proc");
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char p[300], cmd[4096] = "";
        snprintf(p, sizeof p, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        size_t r = fread(cmd, 1, sizeof cmd - 1, f);
        fclose(f);
        for (size_t i = 0; i < r; ++i)
            if (!cmd[i])
                cmd[i] = ' ';
        cmd[r] = '\0';
        if (!strstr(cmd, needle))
            continue;
        snprintf(p, sizeof p, "/proc/%s/mountinfo", e->d_name);
        char *mounts = tg_read_file(p, 1 << 22, NULL);
        n += strstr(cmd, scope) != NULL || (mounts && strstr(mounts, scope) != NULL);
        free(mounts);
    }
    closedir(d);
    return n;
}

Test(hostile01, a_fork_bomb_is_contained_and_leaves_no_process_behind, .timeout = LIMIT)
{
    assert_test("fork_bomb", IJK_PUB, 0, "wall-clock limit");
    if (strstr(isolation(), "cgroup"))
        assert_test("fork_bomb", IJK_PUB, 0, "the process limit refused");
    assert_test("fork_bomb", IKJ_PUB, 1, NULL);
    cr_assert_eq(processes_running("01-cpu-baseline/lab01 --serve", strchr(OUT + 1, '/')), 0,
                 "student processes survived the class run");
}

Test(hostile01, gigabytes_of_output_are_counted_not_kept, .timeout = LIMIT)
{
    assert_test("gigabytes_of_output", IJK_PUB, 0, "MiB; 64 KiB kept");
    cJSON *js = results("gigabytes_of_output");
    char *text = cJSON_PrintUnformatted(js);
    cr_assert(strlen(text) < 200 * 1024, "results.json is %zu bytes: the output was not capped", strlen(text));
    free(text);
    cJSON_Delete(js);
}

Test(hostile01, exiting_0_early_is_not_a_pass, .timeout = LIMIT)
{
    assert_test("exit_early", IJK_PUB, 0, "exited with status 0");
    assert_test("exit_early", IKJ_PUB, 1, NULL);
}

Test(hostile01, printing_pass_and_score_100_earns_nothing, .timeout = LIMIT)
{
    class_run();
    cJSON *js = results("print_pass");
    cr_assert_float_eq(score_of(js), 5.0, 1e-9, "print_pass: no correctness point, only the policy's 5");
    cr_assert(strstr(output_of(js), "Score: 100/100") && strstr(output_of(js), "evidence only"),
              "its prints should be quoted as evidence:\n%s", output_of(js));
    cJSON_Delete(js);
}

Test(hostile01, abort_is_reported_as_sigabrt, .timeout = LIMIT)
{
    assert_test("abort", IJK_PUB, 0, "SIGABRT");
    assert_test("abort", IKJ_PUB, 1, NULL);
}

Test(hostile01, a_huge_malloc_meets_the_memory_or_time_limit, .timeout = LIMIT)
{
    class_run();
    if (strstr(isolation(), "cgroup"))
        assert_test("huge_malloc", IJK_PUB, 0, "memory limit");
    else
        assert_test("huge_malloc", IJK_PUB, 0, NULL);
    assert_test("huge_malloc", IKJ_PUB, 1, NULL);
}

Test(hostile01, the_solutions_the_kit_and_the_out_dir_are_unreadable, .timeout = LIMIT)
{
    class_run();
    if (!strstr(isolation(), "bubblewrap"))
        cr_skip_test("no bubblewrap here: the filesystem is not isolated (%s)", isolation());
    cJSON *js = results("read_secrets");
    cr_assert_not(any_text(js, "LEAK"), "the sandbox leaked:\n%s", output_of(js));
    cr_assert_float_eq(score_of(js), 95.0, 1e-9, "read_secrets: every case right, the policy points lost");
    cJSON_Delete(js);
    assert_test("read_secrets", POLICY, 0, "calls fopen()");
    assert_test("read_secrets", POLICY, 0, "calls getenv()");
}

Test(hostile01, no_network_in_the_sandbox, .timeout = LIMIT)
{
    class_run();
    if (!strstr(isolation(), "bubblewrap") && !strstr(isolation(), "unshare"))
        cr_skip_test("network not isolated here (%s)", isolation());
    cJSON *js = results("network_socket");
    cr_assert_not(any_text(js, "LEAK"), "the sandbox has network:\n%s", output_of(js));
    cr_assert(score_of(js) < 100.0, "network_socket scored %g", score_of(js));
    cJSON_Delete(js);
    assert_test("network_socket", POLICY, 0, "calls socket()");
    assert_test("network_socket", POLICY, 0, "includes <sys/socket.h");
    if (strstr(isolation(), "seccomp")) {
        assert_test("network_socket", IJK_PUB, 0, "killed: tried to open a network socket");
        assert_test("network_socket", POLICY, 0, "killed: tried to open a network socket");
    }
}

Test(hostile01, nothing_is_written_outside_the_sandbox, .timeout = LIMIT)
{
    class_run();
    if (!strstr(isolation(), "bubblewrap"))
        cr_skip_test("no bubblewrap here: the filesystem is not isolated (%s)", isolation());
    const char *paths[] = {"/root/tl_hostile_was_here", "/tl_hostile_was_here", "/tmp/tl_hostile_was_here",
                           TL_SOURCE_ROOT "/tl_hostile_was_here", OUT "/tl_hostile_was_here",
                           OUT "/.state/tl_hostile_was_here", NULL};
    for (int i = 0; paths[i]; ++i)
        cr_assert_not(access(paths[i], F_OK) == 0, "the hostile submission wrote %s", paths[i]);
    cJSON *js = results("write_outside");
    cr_assert_float_eq(score_of(js), 95.0, 1e-9, "write_outside: every case right, the policy points lost");
    cJSON_Delete(js);
    assert_test("write_outside", POLICY, 0, "calls fopen()");
}

Test(hostile01, archives_with_dotdot_or_links_are_refused_with_the_reason, .timeout = LIMIT)
{
    class_run();
    cJSON *js = results("evil_dotdot");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9);
    cr_assert(strstr(output_of(js), "archive refused") && strstr(output_of(js), ".."), "%s", output_of(js));
    cJSON_Delete(js);
    js = results("evil_symlink");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9);
    cr_assert(strstr(output_of(js), "archive refused") && strstr(output_of(js), "link"), "%s", output_of(js));
    cJSON_Delete(js);
    char *part = tg_read_file(OUT "/evil_symlink/summary.part.md", 1 << 20, NULL);
    cr_assert(part && !strstr(part, "every test passed"), "a refused archive's summary says it passed:\n%s", part);
    free(part);
    js = results("evil_oversized");
    cr_assert_float_eq(score_of(js), 0.0, 1e-9);
    cr_assert(strstr(output_of(js), "archive refused") && strstr(output_of(js), "MiB accepted"), "%s", output_of(js));
    cJSON_Delete(js);
    if (tg_is_file(CLASS "/evil_device.tar")) {
        js = results("evil_device");
        cr_assert_float_eq(score_of(js), 0.0, 1e-9);
        cr_assert(strstr(output_of(js), "archive refused") && strstr(output_of(js), "device"), "%s", output_of(js));
        cJSON_Delete(js);
    }
}

Test(hostile01, every_hostile_submission_scores_less_than_the_solution_with_a_reason, .timeout = LIMIT)
{
    class_run();
    for (int i = 0; hostile[i]; ++i) {
        cJSON *js = results(hostile[i]);
        cr_assert(score_of(js) < 100.0, "%s scored %g, as much as the solution", hostile[i], score_of(js));
        cr_assert(count_failed(js) > 0, "%s: no failed test names the reason", hostile[i]);
        cJSON_Delete(js);
    }
    assert_test("solution", POLICY, 1, "static scan of gmm.c");
    assert_test("fork_bomb", POLICY, 0, "calls fork()");
}

Test(hostile01, the_report_says_whether_seccomp_was_used, .timeout = LIMIT)
{
    class_run();
    cJSON *js = results("solution");
    const char *out = string_at(test_of(js, POLICY), "output");
    cr_assert(strstr(out, "seccomp was used") || strstr(out, "seccomp was not used"), "%s", out);
    cJSON_Delete(js);
}

/* ------------------------------------------------------------ lab 03, emulated */

#define CLASS3  TL_BUILD_ROOT "/tests/class03emu"
#define T16_PUB "tiled kernel TILE_WIDTH 16 (tiled16), public sizes"
#define T32_PUB "tiled kernel TILE_WIDTH 32 (tiled32), public sizes"
#define RACE03  "no shared-memory races (racecheck, tiled16)"
#define SPEED03 "speed against the reference (tiled32)"

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
    cr_assert_eq(sh("cp '%s/solutions/03-tiled-kernel/tiled.cu' '%s/in/solution/' && "
                    "cp '%s/tests/wrong/03/nosync1.cu' '%s/in/nosync1/tiled.cu' && "
                    "cp '%s/tests/wrong/03/tile-transposed.cu' '%s/in/tile-transposed/tiled.cu' && "
                    "{ cat '%s/solutions/03-tiled-kernel/tiled.cu'; printf '#include <stdlib.h>\\n"
                    "static const char *tl_peek(void) { return getenv(\"HOME\"); }\\n'; } "
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

Test(class03emu, a_missing_syncthreads_loses_points_as_a_race, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("nosync1");
    cr_assert(score_of(js) < max_of(js), "nosync1 scored %g of %g", score_of(js), max_of(js));
    cJSON_Delete(js);
    assert_test3("nosync1", T16_PUB, 0, "race");
    assert_test3("nosync1", RACE03, 0, "tilelab-emu:");
}

Test(class03emu, a_transposed_tile_load_loses_points_as_swapped_indices, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("tile-transposed");
    cr_assert(score_of(js) < max_of(js), "tile-transposed scored %g of %g", score_of(js), max_of(js));
    cJSON_Delete(js);
    assert_test3("tile-transposed", T32_PUB, 0, "wrong result");
}

Test(class03emu, a_getenv_call_loses_the_policy_points_and_is_named, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("getenv");
    cr_assert_float_eq(score_of(js), max_of(js) - 5, 1e-9, "getenv scored %g of %g", score_of(js), max_of(js));
    cJSON_Delete(js);
    assert_test3("getenv", "policy: no network, processes, files or asm (tiled.cu)", 0, "calls getenv()");
    char *md = tg_read_file(CLASS3 "/out/summary.md", 1 << 22, NULL);
    cr_assert(md && strstr(md, "policy violation"), "summary.md does not name the violation");
    free(md);
}

Test(class03emu, a_network_socket_is_killed_by_seccomp_and_named, .timeout = LIMIT)
{
    class03_run();
    cJSON *js = results3("network_socket");
    cr_assert(score_of(js) < max_of(js) - 5, "network_socket scored %g of %g", score_of(js), max_of(js));
    int seccomp = strstr(string_at(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "isolation"),
                         "seccomp (no inet sockets)") != NULL;
    cJSON_Delete(js);
    assert_test3("network_socket", "policy: no network, processes, files or asm (tiled.cu)", 0, "calls socket()");
    if (seccomp) {
        assert_test3("network_socket", T16_PUB, 0, "killed: tried to open a network socket");
        assert_test3("network_socket", "policy: no network, processes, files or asm (tiled.cu)", 0,
                     "killed: tried to open a network socket");
    }
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

Test(usage, an_out_dir_of_another_secret_or_lab_is_refused, .timeout = LIMIT)
{
    class_run();
    cr_assert_eq(sh("echo 777 > /tmp/tl-other-secret && '%s' --kit '%s' --lab 01 --out '%s' --secret /tmp/tl-other-secret "
                    "'%s/solution' 2>/dev/null", TG, TL_SOURCE_ROOT, OUT, IN), 2,
                 "results of one secret must not be mixed with another's");
    sh("rm -f /tmp/tl-other-secret");
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
    cr_assert(strstr(text, "FAIL  GMM_CPU (cpu_ijk), public sizes") && strstr(text, "likely:"), "%s", text);
    free(text);
    cr_assert_eq(sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-check.sh' 09 >/dev/null 2>&1", TL_SOURCE_ROOT,
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

Test(kit, the_student_edition_has_no_solutions_builds_and_checks, .timeout = LIMIT)
{
    char dest[] = "/tmp/tl-release-XXXXXX";
    cr_assert(mkdtemp(dest));                     /* empty: kit release may use it */
    char log[] = TL_BUILD_ROOT "/tests/release.log";
    int rc = sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-release.sh' '%s' > '%s' 2>&1", TL_SOURCE_ROOT, TL_BUILD_ROOT,
                TL_SOURCE_ROOT, dest, log);
    char *text = tg_read_file(log, 1 << 20, NULL);
    cr_assert_eq(rc, 0, "kit release failed:\n%s", text);
    free(text);
    char p[1024];
    snprintf(p, sizeof p, "%s/solutions", dest);
    cr_assert_not(tg_is_dir(p), "the student edition has solutions/");
    snprintf(p, sizeof p, "%s/tests", dest);
    cr_assert_not(tg_is_dir(p), "the student edition has tests/ (the wrong and hostile corpus)");
    snprintf(p, sizeof p, "%s/labs/01-cpu-baseline/gmm.c", dest);
    cr_assert(tg_is_file(p));
    cr_assert_eq(sh("grep -q 'TODO' '%s'", p), 0, "the lab file is not the skeleton");
    cr_assert_eq(sh("TL_ROOT='%s' TL_BUILD='%s' sh '%s/grader/kit-release.sh' '%s' >/dev/null 2>&1", TL_SOURCE_ROOT,
                    TL_BUILD_ROOT, TL_SOURCE_ROOT,
                    dest), 2, "kit release overwrote a non-empty folder");
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
    cr_assert(md && strstr(md, "gpu_infinite_loop") && strstr(md, "wall-clock limit"), "%s", md ? md : "");
    free(md);
}
