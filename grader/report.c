/* report.c: what the grader writes: results.json (Gradescope; with cJSON), summary.part.md,
 * the class's gradebook.csv and summary.md, and the `kit check` printout. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "grade.h"
#include "policy.h"
#include "tilelab.h"

/* ------------------------------------------------------------------ reports */

/* A JSON string of any bytes: made valid UTF-8 first (cJSON passes bytes >= 0x80 as they are). */
static cJSON *jtext(const char *s, size_t len)
{
    char *clean = tg_utf8_clean(s ? s : "", s ? len : 0);
    cJSON *j = cJSON_CreateString(clean ? clean : "");
    free(clean);
    return j;
}

static const char *kind_word(tg_kind k)
{
    switch (k) {
    case TG_CORRECT_PUBLIC: return "correctness";
    case TG_CORRECT_HIDDEN: return "correctness";
    case TG_RACECHECK: return "safety";
    case TG_MEMCHECK: return "safety";
    case TG_SPEED: return "speed";
    case TG_CALC: return "calculator";
    case TG_CALC_API: return "calculator";
    case TG_POLICY: return "policy";
    }
    return "?";
}

static void quote_evidence(tg_buf *b, const gsub *g, const char *indent)
{
    if (!g->printed)
        return;
    size_t show = g->evidence.len < EVIDENCE_SHOWN ? g->evidence.len : EVIDENCE_SHOWN;
    tg_buf_printf(b, "%sthe program printed %llu bytes (evidence only, never the verdict)%s:\n", indent,
                  g->printed, g->printed > show ? "; the first ones" : "");
    const char *p = g->evidence.s;
    size_t i = 0;
    int lines = 0;
    while (i < show && lines < 12) {
        const char *e = memchr(p + i, '\n', show - i);
        size_t l = e ? (size_t)(e - (p + i)) : show - i;
        tg_buf_printf(b, "%s  | %.*s\n", indent, (int)(l > 160 ? 160 : l), p + i);
        i += l + 1;
        ++lines;
    }
}

/* kit check: the teaching output for one student at a terminal. */
void tg_print_check(const gsub *g, const tres *tr, int nt, double score, double max)
{
    if (g->notes.len)
        printf("%s", g->notes.s);
    if (!g->built) {
        int warned = g->build_errors.s && strstr(g->build_errors.s, "a warning that changes what the program means");
        printf("\nBUILD FAILED: %s\n%s\n", warned ? "a compiler warning in your files is the bug (it counts as a failure):"
               : "the compiler's first errors:", g->build_errors.s ? g->build_errors.s : "");
        if (g->log_path[0])
            printf("the whole build log: %s\n", g->log_path);
        return;
    }
    if (g->warnings) {
        printf("built with %d compiler warning(s)%s\n%s", g->warnings,
               g->warn_lines.len ? "; in your files:" : " (none in your files)", g->warn_lines.s ? g->warn_lines.s : "");
        if (g->log_path[0])
            printf("the whole build log: %s\n", g->log_path);
    }
    for (int i = 0; i < nt; ++i) {
        const char *word = !tr[i].graded ? "SKIP" : tr[i].passed ? "PASS" : "FAIL";
        printf("\n%s  %s", word, tr[i].t->name);
        if (tr[i].graded)
            printf("  (%g/%g)", tr[i].score, tr[i].t->points);
        printf("\n");
        if (tr[i].passed) {
            const char *nr = tr[i].out.s ? strstr(tr[i].out.s, "not run under emulation") : NULL;
            if (nr)
                printf("      %.*s\n", (int)strcspn(nr, "\n"), nr);
            continue;
        }
        for (const char *q = tr[i].out.s; q && *q;) {
            const char *e = strchr(q, '\n');
            size_t l = e ? (size_t)(e - q) : strlen(q);
            printf("      %.*s\n", (int)l, q);
            q = e ? e + 1 : q + l;
        }
    }
    if (g->printed) {
        tg_buf ev = {0};
        quote_evidence(&ev, g, "");
        printf("\n%s", ev.s);
        tg_buf_free(&ev);
    }
    (void)score; (void)max;
}

void tg_write_reports(grun *R, gsub *g, tres *tr, int nt, double secs, double *score_out, double *max_out)
{
    const tg_lab *L = R->lab;
    double score = 0, max = 0;
    for (int i = 0; i < nt; ++i)
        if (tr[i].graded) {
            score += tr[i].score;
            max += tr[i].t->points;
        }
    score = tg_round2(score);
    *score_out = score;
    *max_out = max;

    /* results.json (Gradescope's fields, and ours under "tilelab"): written with cJSON. */
    tg_buf top = {0};
    tg_buf_printf(&top, "tilelab lab %s (%s): %s\n", L->id, L->dir, L->title);
    if (g->refused[0])
        tg_buf_printf(&top, "%s: no test could run\n", g->refused);
    else if (!g->built)
        tg_buf_printf(&top, "the build failed: no test could run. The compiler's first errors:\n%s",
                      g->build_errors.s ? g->build_errors.s : "");
    else if (g->warnings)
        tg_buf_printf(&top, "built with %d compiler warning(s); see the build log%s\n%s", g->warnings,
                      g->warn_lines.len ? "; in the student's files:" : "", g->warn_lines.s ? g->warn_lines.s : "");
    if (g->notes.len)
        tg_buf_add(&top, g->notes.s, g->notes.len);
    quote_evidence(&top, g, "");
    tg_buf_printf(&top, "isolation: %s\n", R->iso.desc);
    tg_buf_printf(&top, "Score: %g/%g\n", score, max);
    const char *status = g->refused[0] ? g->refused : !g->built ? "build failed" : "";
    cJSON *js = cJSON_CreateObject();
    cJSON_AddNumberToObject(js, "score", score);
    cJSON_AddNumberToObject(js, "execution_time", tg_round2(secs));
    cJSON_AddItemToObject(js, "output", jtext(top.s, top.len));
    cJSON *tests = cJSON_AddArrayToObject(js, "tests");
    cJSON *tl = cJSON_CreateObject();
    cJSON_AddItemToObject(tl, "student", jtext(g->s->name, strlen(g->s->name)));
    cJSON_AddStringToObject(tl, "lab", L->id);
    cJSON_AddNumberToObject(tl, "max", max);
    cJSON_AddBoolToObject(tl, "built", g->built);
    cJSON_AddItemToObject(tl, "status", jtext(status, strlen(status)));   /* "" or why every test is 0 */
    cJSON_AddItemToObject(tl, "isolation", jtext(R->iso.desc, strlen(R->iso.desc)));
    cJSON *b = cJSON_AddObjectToObject(tl, "build");   /* what building this submission cost */
    cJSON_AddStringToObject(b, "how", R->prebuilt[0] || R->build_log[0] ? "kit check (ninja in the student's build)"
                                      : R->kit_build[0] ? "over the kit built once" : "from clean");
    cJSON_AddNumberToObject(b, "seconds", tg_round2(g->build_s));
    cJSON *ng = cJSON_AddArrayToObject(tl, "not_graded");
    for (int i = 0; i < nt; ++i) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", tr[i].t->name);
        if (tr[i].graded) {
            cJSON_AddNumberToObject(o, "score", tr[i].score);
            cJSON_AddNumberToObject(o, "max_score", tr[i].t->points);
            cJSON_AddStringToObject(o, "status", tr[i].passed ? "passed" : "failed");
            cJSON_AddItemToObject(o, "output", jtext(tr[i].out.s ? tr[i].out.s : "", tr[i].out.len));
            cJSON_AddStringToObject(o, "visibility", tr[i].t->kind == TG_CORRECT_HIDDEN ? "after_published" : "visible");
            cJSON_AddItemToArray(tests, o);
        } else {
            cJSON_AddNumberToObject(o, "max_score", tr[i].t->points);
            cJSON_AddItemToObject(o, "why", jtext(tr[i].out.s ? tr[i].out.s : "", tr[i].out.len));
            cJSON_AddItemToArray(ng, o);
        }
    }
    cJSON_AddItemToObject(js, "tilelab", tl);
    char *text = cJSON_Print(js);
    cJSON_Delete(js);
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/results.json", g->odir);
    if (!text || tg_write_atomic(p, text, strlen(text)) != 0)
        fprintf(stderr, "tl-grade: cannot write %s (%s)\n", p, text ? strerror(errno) : "out of memory");
    free(text);

    /* summary.part.md: this student's section of summary.md */
    tg_buf md = {0};
    tg_buf_printf(&md, "### %s: %g/%g (%.1f s)\n\n", g->s->name, score, max, secs);
    if (g->refused[0])
        tg_buf_printf(&md, "- **%s**: every test scores 0\n", g->refused);
    else if (!g->built)
        tg_buf_printf(&md, "- **build failed**: every test scores 0. First errors:\n\n```\n%s```\n",
                      g->build_errors.s ? g->build_errors.s : "");
    if (g->notes.len) {
        for (const char *q = g->notes.s; *q;) {
            const char *e = strchr(q, '\n');
            size_t l = e ? (size_t)(e - q) : strlen(q);
            tg_buf_printf(&md, "- note: %.*s\n", (int)l, q);
            q = e ? e + 1 : q + l;
        }
    }
    int failed = 0;
    for (int i = 0; i < nt; ++i) {
        if (!g->built || g->refused[0])
            break;
        if (tr[i].graded && tr[i].passed)
            continue;
        ++failed;
        if (!tr[i].graded)
            tg_buf_printf(&md, "- %s (%g points): %s", tr[i].t->name, tr[i].t->points,
                          tr[i].out.s ? tr[i].out.s : "\n");
        else {
            tg_buf_printf(&md, "- **failed: %s** (%s) %g/%g\n\n```\n", tr[i].t->name, kind_word(tr[i].t->kind),
                          tr[i].score, tr[i].t->points);
            int lines = 0, max_lines = SUMMARY_LINES;
            for (int j = 0; j < i; ++j)
                if (tr[i].t->kind == TG_CORRECT_HIDDEN && tr[j].t->kind == TG_CORRECT_PUBLIC && tr[j].graded &&
                    !tr[j].passed && strcmp(tr[j].t->variant, tr[i].t->variant) == 0)
                    max_lines = 3;      /* the public test above already explains this variant */
            for (const char *q = tr[i].out.s; q && *q;) {
                const char *e = strchr(q, '\n');
                size_t l = e ? (size_t)(e - q) : strlen(q);
                if (++lines > max_lines) {
                    int more = 0;
                    for (; q && *q; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
                        ++more;
                    tg_buf_printf(&md, "... %d more line(s) in %s/results.json\n", more, g->s->name);
                    break;
                }
                tg_buf_printf(&md, "%.*s\n", (int)l, q);
                q = e ? e + 1 : q + l;
            }
            tg_buf_printf(&md, "```\n");
        }
    }
    if (g->built && !g->refused[0] && !failed)
        tg_buf_printf(&md, "- every test passed\n");
    if (g->printed) {
        tg_buf ev = {0};
        quote_evidence(&ev, g, "");
        tg_buf_printf(&md, "\n```\n%s```\n", ev.s);
        tg_buf_free(&ev);
    }
    tg_buf_printf(&md, "\n");
    snprintf(p, sizeof p, "%s/summary.part.md", g->odir);
    tg_write_atomic(p, md.s, md.len);
    if (R->check)
        tg_print_check(g, tr, nt, score, max);
    tg_buf_free(&md);
    tg_buf_free(&top);
}


/* ------------------------------------------------------------------ class outputs */

static void csv_field(tg_buf *b, const char *s)
{
    int q = strpbrk(s, ",\"\n\r") != NULL;
    if (!q) {
        tg_buf_printf(b, "%s", s);
        return;
    }
    tg_buf_add(b, "\"", 1);
    for (; *s; ++s) {
        if (*s == '"')
            tg_buf_add(b, "\"", 1);
        tg_buf_add(b, s, 1);
    }
    tg_buf_add(b, "\"", 1);
}


cJSON *tg_read_results(const char *path)
{
    size_t len = 0;
    char *text = tg_read_file(path, 1 << 24, &len);
    if (!text)
        return NULL;
    cJSON *js = cJSON_ParseWithLength(text, len);
    free(text);
    return js;
}

int tg_results_test(const cJSON *js, const char *name, double *score, double *max)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(js, "tests")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "score");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "max_score");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0 && cJSON_IsNumber(s) && cJSON_IsNumber(m)) {
            *score = s->valuedouble;
            if (max)
                *max = m->valuedouble;
            return 1;
        }
    }
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "not_graded")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return 0;
    }
    return -1;
}

void tg_write_class(grun *R, const gstudent *st, const srow *rows, int ns, double total_s)
{
    const tg_lab *L = R->lab;
    tg_buf csv = {0};
    csv_field(&csv, "student");
    tg_buf_printf(&csv, ",score,max");
    for (int i = 0; i < L->ntests; ++i) {
        if (R->public_only && !TG_KIND_PUBLIC(L->tests[i].kind))
            continue;
        tg_buf_add(&csv, ",", 1);
        csv_field(&csv, L->tests[i].name);
    }
    tg_buf_add(&csv, "\n", 1);
    tg_buf md = {0};
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    int graded = 0;
    double sum = 0, secs = 0;
    for (int i = 0; i < ns; ++i)
        if (rows[i].done) {
            ++graded;
            sum += rows[i].max > 0 ? 100.0 * rows[i].score / rows[i].max : 0;
            secs += rows[i].secs;
        }
    tg_buf_printf(&md, "# Lab %s (%s): grades\n\n", L->id, L->title);
    tg_buf_printf(&md, "- date: %s; %d submission(s), %d graded", date, ns, graded);
    if (graded)
        tg_buf_printf(&md, ", mean %.1f%%, %.1f s per submission (build and run; %.0f s for the run)",
                      sum / graded, secs / graded, total_s);
    tg_buf_printf(&md, "\n- cases: public sizes %s; %s\n", L->public_sizes ? L->public_sizes : "none (lab program's own checks)",
                  !L->public_sizes ? "no hidden sizes" :
                  R->public_only ? "hidden sizes not run (--public-only)" : "hidden sizes drawn from the secret seed");
    tg_buf_printf(&md, "- isolation: %s\n", R->iso.desc);
    if (R->iso.notes[0])
        tg_buf_printf(&md, "- isolation notes: %s\n", R->iso.notes);
    if (L->gpu)
        tg_buf_printf(&md, "- GPU: %s\n", R->gpu_why);
    tg_buf_printf(&md, "- rubric: grader/rubric.md (points per test); a correctness test worth P points scores P x (work of the cases passed / work of the cases run)\n\n");
    tg_buf_printf(&md, "| student | score | time | tests failed |\n|---|---|---|---|\n");
    tg_buf problems = {0};
    for (int i = 0; i < ns; ++i) {
        csv_field(&csv, st[i].name);
        if (!rows[i].done) {
            tg_buf_printf(&csv, ",not graded,,");
            tg_buf_printf(&md, "| %s | not graded | | grader-side problem (below) |\n", st[i].name);
            tg_buf_printf(&problems, "- %s: not graded: %s\n", st[i].name, rows[i].why);
            for (int t = 0; t < L->ntests; ++t)
                if (!R->public_only || TG_KIND_PUBLIC(L->tests[t].kind))
                    tg_buf_add(&csv, ",", 1);
            tg_buf_add(&csv, "\n", 1);
            continue;
        }
        tg_buf_printf(&csv, ",%.2f,%.2f", rows[i].score, rows[i].max);
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/%s/results.json", R->out, st[i].name);
        cJSON *js = tg_read_results(p);
        tg_buf failed = {0};
        int nfailed = 0;
        for (int t = 0; t < L->ntests; ++t) {
            if (R->public_only && !TG_KIND_PUBLIC(L->tests[t].kind))
                continue;
            char val[64] = "";
            double sc;
            int r = tg_results_test(js, L->tests[t].name, &sc, NULL);
            if (r == 1) {
                snprintf(val, sizeof val, "%.2f", sc);
                if (sc < L->tests[t].points && ++nfailed <= 3)
                    tg_buf_printf(&failed, "%s%s (%g/%g)", failed.len ? "; " : "", L->tests[t].name, sc,
                                  L->tests[t].points);
            } else if (r == 0) {
                snprintf(val, sizeof val, "not graded");
            }
            tg_buf_add(&csv, ",", 1);
            csv_field(&csv, val);
        }
        tg_buf_add(&csv, "\n", 1);
        if (nfailed > 3)
            tg_buf_printf(&failed, "; and %d more", nfailed - 3);
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "status");
        if (cJSON_IsString(status) && status->valuestring[0]) {
            tg_buf_free(&failed);
            tg_buf_printf(&failed, "all: %s", status->valuestring);
        }
        cJSON_Delete(js);
        tg_buf_printf(&md, "| %s | %g/%g | %.1f s | %s |\n", st[i].name, rows[i].score, rows[i].max, rows[i].secs,
                      failed.len ? failed.s : "none");
        tg_buf_free(&failed);
    }
    tg_buf_printf(&md, "\n");
    tg_write_glance(R, st, rows, ns, &md, date);    /* glance.c: distribution, pass rates, reasons, chart */
    tg_buf_printf(&md, "## Per student: what failed, where, the likely bug\n\n");
    for (int i = 0; i < ns; ++i) {
        if (!rows[i].done)
            continue;
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/%s/summary.part.md", R->out, st[i].name);
        char *part = tg_read_file(p, 1 << 22, NULL);
        if (part) {
            tg_buf_printf(&md, "%s", part);
            free(part);
        }
    }
    tg_buf_printf(&md, "## Grader-side problems\n\n%s\n", problems.len ? problems.s : "none\n");
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/gradebook.csv", R->out);
    tg_write_atomic(p, csv.s, csv.len);
    snprintf(p, sizeof p, "%s/summary.md", R->out);
    tg_write_atomic(p, md.s, md.len);
    tg_buf_free(&csv);
    tg_buf_free(&md);
    tg_buf_free(&problems);
}
