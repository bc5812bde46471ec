/* test_grader_class.c: the grader end to end on a lab 01 class folder: the solution (as a folder,
 * a .tar.gz and a .zip), the known-wrong submissions (tests/wrong/01), the hostile corpus
 * (tests/hostile/01) and refused archives. The class is graded once per tl-grade binary (a stamp
 * file); every test below reads its verdicts, and one more run must refuse its out dir under
 * another secret. The grader's other runs (lab 03 emulated, usage, restart, kit check and
 * release, GPU hostiles) are in test_grader_runs.c; the helpers both use in grader_test_util.c. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
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
#include "util.h"

#define TG      TL_BUILD_ROOT "/grader/tl-grade"
#define CLASS   TL_BUILD_ROOT "/tests/class01"
#define IN      CLASS "/in"
#define OUT     CLASS "/out"
#define LIMIT   900

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

static cJSON *results(const char *student)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s/results.json", OUT, student);
    return load_results(p, student);
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

/* Issue 29: where the time went, per stage, in progress.json and summary.md. Not a speed test: the
 * stages are named, no figure is negative, a build costs some CPU, and the stages' wall time (the
 * workers' summed, plus the set-up) is at most the run's wall time times its jobs. */
Test(class01, the_run_says_where_its_time_went_per_stage_in_progress_json_and_the_summary, .timeout = LIMIT)
{
    class_run();
    char *pj = tg_read_file(OUT "/progress.json", 1 << 16, NULL);
    cr_assert(pj, "no progress.json in the out dir");
    cJSON *js = cJSON_Parse(pj);
    cr_assert(js, "progress.json is not JSON:\n%s", pj);
    const cJSON *pr = cJSON_GetObjectItemCaseSensitive(js, "profile");
    cr_assert(cJSON_IsObject(pr), "no profile in progress.json:\n%s", pj);
    const cJSON *wall = cJSON_GetObjectItemCaseSensitive(pr, "run_wall_s");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(pr, "jobs");
    const cJSON *nst = cJSON_GetObjectItemCaseSensitive(pr, "students");
    const cJSON *queued = cJSON_GetObjectItemCaseSensitive(pr, "queued_wall_s");
    const cJSON *stages = cJSON_GetObjectItemCaseSensitive(pr, "stages");
    cr_assert(cJSON_IsNumber(wall) && wall->valuedouble > 0, "run_wall_s: %s", pj);
    cr_assert(cJSON_IsNumber(jobs) && jobs->valueint == 2, "jobs (the run's --jobs 2): %s", pj);
    cr_assert(cJSON_IsNumber(nst) && nst->valueint >= 1, "students profiled: %s", pj);
    cr_assert(cJSON_IsNumber(queued) && queued->valuedouble >= 0, "queued_wall_s: %s", pj);
    cr_assert(cJSON_IsArray(stages), "no stages: %s", pj);
    const char *want[] = {"setup", "intake", "build", "cases", "work_count", "profiled", "sanitizers", "timed_runs", "timed_alone",
                          "waiting_gpu", "waiting_gpu_timed", "stopped_for_timed", "other_tests", "reports", NULL};
    double sum_wall = 0, build_cpu = -1;
    int n = 0;
    const cJSON *st;
    cJSON_ArrayForEach(st, stages) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(st, "stage");
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(st, "wall_s");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(st, "cpu_s");
        cr_assert(cJSON_IsString(name) && want[n] && strcmp(name->valuestring, want[n]) == 0,
                  "stage %d is not '%s': %s", n, want[n] ? want[n] : "(none)", pj);
        cr_assert(cJSON_IsNumber(w) && w->valuedouble >= 0 && cJSON_IsNumber(c) && c->valuedouble >= 0,
                  "stage %s: a figure is missing or negative: %s", want[n], pj);
        sum_wall += w->valuedouble;
        if (strcmp(want[n], "build") == 0)
            build_cpu = c->valuedouble;
        ++n;
    }
    cr_assert(want[n] == NULL, "only %d stages in the profile: %s", n, pj);
    cr_assert(build_cpu > 0, "the builds (gcc over every submission) cost no CPU in the profile: %s", pj);
    /* each stage's figure is rounded to 0.01 s: 0.005 s of slack per stage */
    cr_assert(sum_wall <= wall->valuedouble * jobs->valueint + 0.005 * n,
              "the stages sum to %.2f s of wall time, more than the run's %.2f s times %d jobs: %s", sum_wall,
              wall->valuedouble, jobs->valueint, pj);
    cJSON_Delete(js);
    free(pj);
    char *md = tg_read_file(OUT "/summary.md", 1 << 22, NULL);
    cr_assert(md && strstr(md, "## Where the time went\n"), "no profile section in summary.md");
    cr_assert(strstr(md, "| stage | wall s | CPU s |\n") && strstr(md, "\n| build | ") &&
              strstr(md, "\n| all stages | "), "the profile's table in summary.md:\n%.2000s",
              strstr(md, "## Where the time went") ? strstr(md, "## Where the time went") : md);
    free(md);
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
    /* Listed most common first, each student counted once per reason, grouped by the verdict's kind
     * and pattern (the class has 4 students whose objects link what a lab file never needs:
     * network_socket, read_secrets, write_outside and fork_bomb; one reason, whatever the count). */
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
    cr_assert(strstr(rs, "4 students: POLICY VIOLATION: links what a lab file never needs") &&
              strstr(rs, "build failed (e.g. does_not_compile)"),
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
        /* "SCORE MAX SECONDS CPU_SECONDS": the CPU seconds of the submission's worker and every
         * program it ran (the grader's limits are CPU time). The wall seconds follow the machine's
         * load (95.7 s and 140 s for one submission at load 30-33, under 60 at load 8-13), so the
         * minute is judged in CPU seconds: a submission that ran away (no limit held) exceeds it
         * at any load. */
        double sc, mx, secs, cpu;
        cr_assert_eq(sscanf(m, "%lf %lf %lf %lf", &sc, &mx, &secs, &cpu), 4, "%s: .done is '%s'", e->d_name, m);
        free(m);
        total += cpu;
        if (cpu > worst)
            worst = cpu;
        ++n;
        cr_expect(cpu < 60, "%s took %.1f CPU-s (%.1f s wall)", e->d_name, cpu, secs);
    }
    closedir(d);
    cr_assert(n >= 15);
    cr_log_info("%d submissions, %.1f CPU-s each on average, %.1f CPU-s at most", n, total / n, worst);
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

Test(hostile01, an_endless_loop_is_killed_at_the_cpu_time_limit_and_the_rest_is_graded, .timeout = LIMIT)
{
    assert_test("cpu_infinite_loop", IJK_PUB, 0, "CPU-time limit");
    assert_test("cpu_infinite_loop", IJK_HID, 0, "not run: an earlier case of cpu_ijk");
    assert_test("cpu_infinite_loop", IKJ_PUB, 1, NULL);
    assert_test("cpu_infinite_loop", BL_HID, 1, NULL);
}

Test(hostile01, a_fork_bomb_is_contained_and_leaves_no_process_behind, .timeout = LIMIT)
{
    /* issue 24: the object gate refuses fork before anything runs (every test 0, the call named);
     * the sandbox's process limit stays the second line (tests/test_grader_hostile.c) */
    assert_test("fork_bomb", IJK_PUB, 0, "links fork");
    assert_test("fork_bomb", IKJ_PUB, 0, "links fork");
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
    /* issue 24: refused by the object gate before it runs (fopen and getenv are not lab calls) */
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "read_secrets: refused before it runs, scored %g", score_of(js));
    cJSON_Delete(js);
    assert_test("read_secrets", POLICY, 0, "links fopen");
    assert_test("read_secrets", POLICY, 0, "links getenv");
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
    assert_test("network_socket", POLICY, 0, "links socket");
    assert_test("network_socket", POLICY, 0, "links connect");
    /* issue 24: the gate refuses it before it runs; the seccomp filter stays the second line */
    assert_test("network_socket", IJK_PUB, 0, "links socket");
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
    cr_assert_float_eq(score_of(js), 0.0, 1e-9, "write_outside: refused before it runs, scored %g", score_of(js));
    cJSON_Delete(js);
    assert_test("write_outside", POLICY, 0, "links fopen");
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
    assert_test("solution", POLICY, 1, "links only allowed symbols");
    assert_test("fork_bomb", POLICY, 0, "links fork");
}

Test(hostile01, the_report_says_whether_seccomp_was_used, .timeout = LIMIT)
{
    class_run();
    cJSON *js = results("solution");
    const char *out = string_at(test_of(js, POLICY), "output");
    cr_assert(strstr(out, "seccomp was used") || strstr(out, "seccomp was not used"), "%s", out);
    cJSON_Delete(js);
}

Test(usage, an_out_dir_of_another_secret_or_lab_is_refused, .timeout = LIMIT)
{
    class_run();
    cr_assert_eq(sh("echo 777 > /tmp/tl-other-secret && '%s' --kit '%s' --lab 01 --out '%s' --secret /tmp/tl-other-secret "
                    "'%s/solution' 2>/dev/null", TG, TL_SOURCE_ROOT, OUT, IN), 2,
                 "results of one secret must not be mixed with another's");
    sh("rm -f /tmp/tl-other-secret");
}

