/* grader_test_util.c: the helpers the grader's end-to-end suites share (grader_test_util.h). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "grader_test_util.h"
#include "util.h"

int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* results.json, loaded with cJSON; every check below reads its fields. */
cJSON *load_results(const char *path, const char *student)
{
    char *s = tg_read_file(path, 1 << 22, NULL);
    cr_assert(s, "no results.json for %s", student);
    cJSON *js = cJSON_Parse(s);
    cr_assert(js, "results.json of %s is not JSON:\n%.2000s", student, s);
    free(s);
    return js;
}

double number_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsNumber(v), "results.json: no number '%s'", key);
    return v->valuedouble;
}

/* The score of the tests graded on this machine (the top-level score is out of every test's
 * points, tilelab.max, with the tests not graded here counted as 0 unless --rescale). */
double score_of(const cJSON *js)
{
    return number_at(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "graded_score");
}

/* The points of the tests graded on this machine (tests not graded here left out): tilelab.graded_max. */
double max_of(const cJSON *js)
{
    return number_at(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "graded_max");
}

const char *string_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsString(v), "results.json: no string '%s'", key);
    return v->valuestring;
}

/* The top output (Gradescope's "output"): the build, the refusal, the evidence, the score line. */
const char *output_of(const cJSON *js)
{
    return string_at(js, "output");
}

/* One test of "tests" by name (graded tests only). */
const cJSON *test_of(const cJSON *js, const char *name)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(js, "tests"))
        if (strcmp(string_at(t, "name"), name) == 0)
            return t;
    cr_assert_fail("no test '%s' in results.json", name);
    return NULL;
}

/* 1 when any string anywhere in results.json contains needle. */
int any_text(const cJSON *j, const char *needle)
{
    if (cJSON_IsString(j))
        return strstr(j->valuestring, needle) != NULL;
    const cJSON *c;
    cJSON_ArrayForEach(c, j)
        if (any_text(c, needle))
            return 1;
    return 0;
}

int count_failed(const cJSON *js)
{
    int n = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(js, "tests"))
        n += strcmp(string_at(t, "status"), "failed") == 0;
    return n;
}

void assert_test_in(const cJSON *js, const char *student, const char *test, int passed, const char *needle)
{
    const cJSON *t = test_of(js, test);
    const char *status = string_at(t, "status"), *out = string_at(t, "output");
    cr_assert_str_eq(status, passed ? "passed" : "failed", "%s: test '%s' should have %s:\n%s", student, test,
                     passed ? "passed" : "failed", out);
    if (needle)
        cr_assert(strstr(out, needle), "%s: test '%s' should say '%s':\n%s", student, test, needle, out);
}

/* Processes whose command line holds needle and that belong to the run whose out dir's path ends
 * in scope: their command line names it (no bubblewrap) or one of their mounts comes from it (the
 * sandbox's /build; mountinfo gives the path within its filesystem, so the callers drop the out
 * dir's first component). Other kits' tests on the same machine run lab01 --serve too. */
int processes_running(const char *needle, const char *scope)
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
