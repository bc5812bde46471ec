/* glance.c: the class at a glance, for the instructor: the score distribution, each test's pass
 * rate and the most common failure reasons, as a section of summary.md, as DIR/summary.html (every
 * string escaped) and as a chart DIR/class.png drawn by gnuplot with grader/class.gp (where gnuplot
 * is missing the chart is skipped and both pages say why). Reads each student's results.json. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "proc.h"
#include "grade.h"
#include "headline.h"
#include "verdict_read.h"

#define BUCKETS  10                   /* score bins of 10 % each (100 % in the last)            */
#define REASONS  8                    /* failure reasons listed                                  */

typedef struct reason {
    char text[160];
    int  students;
    char example[128];                /* one student who has it                                  */
} reason;

/* s as HTML text and as a Markdown table cell or list item: report.c's one escaper (no terminal
 * control, no ANSI escape, no bidi override; nothing HTML or Markdown acts on). */
static void html(tg_buf *b, const char *s)
{
    char *e = tg_html_text(s);
    if (e)
        tg_buf_add(b, e, strlen(e));
    free(e);
}

static void md_cell(tg_buf *b, const char *s)
{
    char *e = tg_md_inline(s);
    if (e)
        tg_buf_add(b, e, strlen(e));
    free(e);
}

/* The verdict of a failing test in results.json (extra_data.tilelab_cases): its headline's, else
 * its first case's. 1 found. */
static int test_verdict(const cJSON *js, const char *test, tl_verdict *v)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "extra_data"),
                                                           "tilelab_cases")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "test");
        if (!cJSON_IsString(n) || strcmp(n->valuestring, test) != 0)
            continue;
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(t, "headline");
        if (!h)
            h = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(t, "cases"), 0);
        return h && tg_verdict_from_cjson(cJSON_GetObjectItemCaseSensitive(h, "verdict"), v) == 0;
    }
    return 0;
}

/* A test that failed without a verdict (speed, the calculator, the device facts): its output's
 * first line, digits as N, as the group. */
static void first_line_group(const char *out, char *found, size_t cap)
{
    size_t j = 0;
    for (const char *p = out; *p && *p != '\n' && j + 1 < cap; ++p) {
        if (isdigit((unsigned char)*p)) {
            found[j++] = 'N';
            while (isdigit((unsigned char)p[1]) || p[1] == '.')
                ++p;
        } else {
            found[j++] = *p;
        }
    }
    found[j] = '\0';
}

static void add_reason(reason *rs, int *nr, int cap, const char *text, const char *student)
{
    for (int i = 0; i < *nr; ++i)
        if (strcmp(rs[i].text, text) == 0) {
            rs[i].students++;
            return;
        }
    if (*nr >= cap)
        return;
    snprintf(rs[*nr].text, sizeof rs[*nr].text, "%s", text);
    snprintf(rs[*nr].example, sizeof rs[*nr].example, "%s", student);
    rs[*nr].students = 1;
    ++*nr;
}

static int by_students(const void *a, const void *b)
{
    const reason *x = a, *y = b;
    return y->students - x->students;
}

/* gnuplot -c grader/class.gp SCORES TESTS PNG; 0 drawn, else why not in why. */
static int draw_chart(const grun *R, const char *scores, const char *tests, const char *png, char *why, size_t wl)
{
    char gp[PATH_MAX], script[PATH_MAX + 32];
    if (tg_find_tool("gnuplot", gp, sizeof gp) != 0) {
        snprintf(why, wl, "gnuplot is not installed here (Debian: gnuplot-nox; ./kit setup installs it)");
        return -1;
    }
    snprintf(script, sizeof script, "%s/grader/class.gp", R->opt->root);
    if (!tg_is_file(script)) {
        snprintf(why, wl, "the kit has no %s", script);
        return -1;
    }
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp.png", png);
    fflush(NULL);
    const char *argv[] = {gp, "-c", script, scores, tests, tmp, R->lab->id, NULL};
    tg_proc_io io = {.out = TG_PROC_NULL};
    int st = tg_proc_run(argv, &io);
    if (st != 0 || !tg_is_file(tmp) || rename(tmp, png) != 0) {
        snprintf(why, wl, "gnuplot failed (exit %d) on %s", st, script);
        unlink(tmp);
        return -1;
    }
    return 0;
}

void tg_write_glance(grun *R, const gstudent *st, const srow *rows, int ns, tg_buf *md, const char *date)
{
    const tl_lab_info *L = R->lab;
    int bins[BUCKETS] = {0}, graded = 0;
    int pass[TL_LAB_MAX_TESTS] = {0}, ran[TL_LAB_MAX_TESTS] = {0};
    reason *rs = calloc(256, sizeof *rs);
    int nr = 0;
    for (int i = 0; i < ns; ++i) {
        if (!rows[i].done || rows[i].max <= 0)
            continue;
        ++graded;
        int b = (int)(10.0 * rows[i].score / rows[i].max);
        bins[b < 0 ? 0 : b >= BUCKETS ? BUCKETS - 1 : b]++;
        char p[PATH_MAX + 200];
        snprintf(p, sizeof p, "%s/%s/results.json", R->run.out, st[i].name);
        cJSON *js = tg_read_results(p);
        char mine[24][160];          /* this student's reasons, each counted once */
        int nm = 0;
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "status");
        if (cJSON_IsString(status) && status->valuestring[0])
            snprintf(mine[nm++], 160, "%.150s", status->valuestring);
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(js, "tests")) {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "name"), *s = cJSON_GetObjectItemCaseSensitive(t, "score"),
                        *m = cJSON_GetObjectItemCaseSensitive(t, "max_score"), *o = cJSON_GetObjectItemCaseSensitive(t, "output");
            if (!cJSON_IsString(n) || !cJSON_IsNumber(s) || !cJSON_IsNumber(m))
                continue;
            for (int k = 0; k < L->ntests; ++k)
                if (strcmp(L->tests[k].name, n->valuestring) == 0) {
                    ran[k]++;
                    pass[k] += s->valuedouble >= m->valuedouble - 1e-9;
                }
            /* a failed test's group: its verdict's kind and pattern, in words (headline.c) */
            tl_verdict v;
            if (nm < 24 && s->valuedouble < m->valuedouble - 1e-9 &&
                !(status && cJSON_IsString(status) && status->valuestring[0])) {
                if (test_verdict(js, n->valuestring, &v))
                    tg_verdict_group(&v, mine[nm++], 160);
                else if (cJSON_IsString(o) && o->valuestring[0])
                    first_line_group(o->valuestring, mine[nm++], 160);
            }
        }
        for (int k = 0; k < nm; ++k) {
            int seen = 0;              /* one student, one count per reason, however many tests show it */
            for (int j = 0; j < k; ++j)
                seen |= strcmp(mine[j], mine[k]) == 0;
            if (!seen)
                add_reason(rs, &nr, 256, mine[k], st[i].name);
        }
        cJSON_Delete(js);
    }
    qsort(rs, (size_t)nr, sizeof *rs, by_students);
    /* The chart's data, then the chart. */
    char chart[PATH_MAX + 32], why[400] = "", sdat[PATH_MAX + 32], tdat[PATH_MAX + 32];
    snprintf(chart, sizeof chart, "%s/class.png", R->run.out);
    snprintf(sdat, sizeof sdat, "%s/glance-scores.dat", R->run.state);
    snprintf(tdat, sizeof tdat, "%s/glance-tests.dat", R->run.state);
    tg_buf d1 = {0}, d2 = {0};
    tg_buf_printf(&d1, "# bin_low_percent students\n");
    for (int b = 0; b < BUCKETS; ++b)
        tg_buf_printf(&d1, "%d %d\n", b * 10, bins[b]);
    tg_buf_printf(&d2, "# index pass_percent \"test\"\n");
    int ntd = 0;
    for (int k = 0; k < L->ntests; ++k) {
        if (!ran[k])
            continue;
        tg_buf_printf(&d2, "%d %.1f \"", ntd++, 100.0 * pass[k] / ran[k]);
        for (const char *c = L->tests[k].name; *c; ++c)
            if (*c != '"' && *c != '\\')
                tg_buf_add(&d2, c, 1);
        tg_buf_printf(&d2, "\"\n");
    }
    int drawn = -1;
    if (!graded)
        snprintf(why, sizeof why, "no student graded yet");
    else if (tg_write_atomic(sdat, d1.s, d1.len) != 0 || tg_write_atomic(tdat, d2.s, d2.len) != 0)
        snprintf(why, sizeof why, "cannot write the chart's data in %s (%s)", R->run.state, strerror(errno));
    else
        drawn = draw_chart(R, sdat, tdat, chart, why, sizeof why);
    if (drawn != 0)
        unlink(chart);
    tg_buf_free(&d1);
    tg_buf_free(&d2);

    /* summary.md's section. */
    tg_buf_printf(md, "## The class at a glance\n\n");
    if (drawn == 0)
        tg_buf_printf(md, "![score distribution and pass rate per test](class.png)\n\n");
    else
        tg_buf_printf(md, "(chart not drawn: %s)\n\n", why);
    tg_buf_printf(md, "| score | students |\n|---|---|\n");
    for (int b = 0; b < BUCKETS; ++b)
        tg_buf_printf(md, "| %d-%d%% | %d |\n", b * 10, b == BUCKETS - 1 ? 100 : b * 10 + 9, bins[b]);
    tg_buf_printf(md, "\n| test | passed (full points) |\n|---|---|\n");
    for (int k = 0; k < L->ntests; ++k)
        if (ran[k]) {
            tg_buf_add(md, "| ", 2);
            md_cell(md, L->tests[k].name);
            tg_buf_printf(md, " | %d of %d (%.0f%%) |\n", pass[k], ran[k], 100.0 * pass[k] / ran[k]);
        }
    tg_buf_printf(md, "\n**Most common failure reasons** (students who have each)\n\n");
    if (!nr)
        tg_buf_printf(md, "none\n");
    for (int i = 0; i < nr && i < REASONS; ++i) {
        tg_buf_printf(md, "%d. %d student%s: ", i + 1, rs[i].students, rs[i].students == 1 ? "" : "s");
        md_cell(md, rs[i].text);
        tg_buf_printf(md, " (e.g. %s)\n", rs[i].example);
    }
    tg_buf_printf(md, "\n");

    /* summary.html: the same, and the students' table; every string escaped. */
    tg_buf h = {0};
    tg_buf_printf(&h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Lab ");
    html(&h, L->id);
    tg_buf_printf(&h, ": grades</title>\n<style>body{font-family:sans-serif;max-width:70em;margin:auto}"
                  "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
                  ".ng{color:#a00}</style></head><body>\n<h1>Lab ");
    html(&h, L->id);
    tg_buf_printf(&h, " (");
    html(&h, L->title);
    tg_buf_printf(&h, "): grades</h1>\n<p>");
    html(&h, date);
    tg_buf_printf(&h, "; %d submission(s), %d graded. Isolation: ", ns, graded);
    html(&h, R->env.iso.desc);
    tg_buf_printf(&h, "</p>\n<h2>The class at a glance</h2>\n");
    if (drawn == 0)
        tg_buf_printf(&h, "<p><img src=\"class.png\" alt=\"score distribution and pass rate per test\"></p>\n");
    else {
        tg_buf_printf(&h, "<p>(chart not drawn: ");
        html(&h, why);
        tg_buf_printf(&h, ")</p>\n");
    }
    tg_buf_printf(&h, "<table><tr><th>test</th><th>passed (full points)</th></tr>\n");
    for (int k = 0; k < L->ntests; ++k)
        if (ran[k]) {
            tg_buf_printf(&h, "<tr><td>");
            html(&h, L->tests[k].name);
            tg_buf_printf(&h, "</td><td>%d of %d (%.0f%%)</td></tr>\n", pass[k], ran[k], 100.0 * pass[k] / ran[k]);
        }
    tg_buf_printf(&h, "</table>\n<h3>Most common failure reasons</h3>\n<ol>\n");
    for (int i = 0; i < nr && i < REASONS; ++i) {
        tg_buf_printf(&h, "<li>%d student%s: ", rs[i].students, rs[i].students == 1 ? "" : "s");
        html(&h, rs[i].text);
        tg_buf_printf(&h, " (e.g. ");
        html(&h, rs[i].example);
        tg_buf_printf(&h, ")</li>\n");
    }
    tg_buf_printf(&h, "</ol>\n<h2>Students</h2>\n<table><tr><th>student</th><th>score</th><th>time</th></tr>\n");
    for (int i = 0; i < ns; ++i) {
        tg_buf_printf(&h, "<tr><td>");
        html(&h, st[i].name);
        if (rows[i].done)
            tg_buf_printf(&h, "</td><td>%g/%g</td><td>%.1f s</td></tr>\n", rows[i].score, rows[i].max, rows[i].secs);
        else {
            tg_buf_printf(&h, "</td><td class=\"ng\">not graded</td><td>");
            html(&h, rows[i].why);
            tg_buf_printf(&h, "</td></tr>\n");
        }
    }
    tg_buf_printf(&h, "</table>\n<p>Each student's report: <code>&lt;student&gt;/results.json</code>; the "
                  "details: summary.md.</p>\n</body></html>\n");
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/summary.html", R->run.out);
    tg_write_atomic(p, h.s, h.len);
    tg_buf_free(&h);
    free(rs);
}
