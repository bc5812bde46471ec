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
#include "verdict_read.h"
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

/* ------------------------------------------------------------------ escaping
 * Whatever a student printed or named reaches summary.md (and any HTML) only through these:
 * valid UTF-8 first, then no terminal control (C0 and C1 controls, so no ANSI escape sequence;
 * bidirectional overrides) and nothing Markdown or HTML would act on. */

/* Decodes one UTF-8 character of clean text (tg_utf8_clean made it valid). */
static unsigned next_cp(const unsigned char **p)
{
    const unsigned char *s = *p;
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    unsigned cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    for (int i = 1; i < n; ++i)
        cp = (cp << 6) | (s[i] & 0x3f);
    *p = s + n;
    return cp;
}

static int is_control(unsigned cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* mode 0: inline Markdown (a heading, a table cell, a list item); 1: inside a ``` block;
 * 2: HTML text or attribute. The result is malloc'd. */
static char *escape_for(const char *s, int mode)
{
    char *clean = tg_utf8_clean(s ? s : "", s ? strlen(s) : 0);
    tg_buf b = {0};
    tg_buf_add(&b, "", 0);
    for (const unsigned char *p = (const unsigned char *)(clean ? clean : ""); *p;) {
        const unsigned char *start = p;
        unsigned cp = next_cp(&p);
        if (cp == '\n' && mode != 0) {
            tg_buf_add(&b, "\n", 1);
        } else if (cp == '\t') {
            tg_buf_add(&b, mode == 0 ? " " : "\t", 1);
        } else if (is_control(cp)) {
            char hex[16];
            snprintf(hex, sizeof hex, mode == 0 && cp == '\n' ? " " : "\\x%02X", cp < 0x100 ? cp : 0x3f);
            tg_buf_add(&b, hex, strlen(hex));
        } else if (mode == 2 && strchr("<>&\"'", (int)cp) && cp < 0x80) {
            const char *ent = cp == '<' ? "&lt;" : cp == '>' ? "&gt;" : cp == '&' ? "&amp;" : cp == '"' ? "&quot;" : "&#39;";
            tg_buf_add(&b, ent, strlen(ent));
        } else if (mode == 1 && cp == '`') {
            tg_buf_add(&b, "\xcb\x8b", 2);   /* U+02CB: looks like a backquote, never closes the block */
        } else if (mode == 0 && cp < 0x80 && strchr("<>&", (int)cp)) {
            const char *ent = cp == '<' ? "&lt;" : cp == '>' ? "&gt;" : "&amp;";
            tg_buf_add(&b, ent, strlen(ent));
        } else if (mode == 0 && cp < 0x80 && strchr("\\`[]|!", (int)cp)) {
            tg_buf_add(&b, "\\", 1);
            tg_buf_add(&b, (const char *)start, 1);
        } else {
            tg_buf_add(&b, (const char *)start, (size_t)(p - start));
        }
    }
    free(clean);
    return b.s;
}

char *tg_md_inline(const char *s) { return escape_for(s, 0); }
char *tg_md_code(const char *s) { return escape_for(s, 1); }
char *tg_html_text(const char *s) { return escape_for(s, 2); }

/* {"size": "17", "verdict": {...}}: the verdict through its one writer (verdict_read.c). */
static cJSON *case_json(const tg_case_verdict *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "size", jtext(c->size, strlen(c->size)));
    cJSON *v = tg_verdict_to_cjson(&c->v);
    if (v)
        cJSON_AddItemToObject(o, "verdict", v);
    return o;
}

static const char *kind_word(tl_test_kind k)
{
    switch (k) {
    case TL_TEST_PUBLIC: return "correctness";
    case TL_TEST_HIDDEN: return "correctness";
    case TL_TEST_RACECHECK: return "safety";
    case TL_TEST_MEMCHECK: return "safety";
    case TL_TEST_SPEED: return "speed";
    case TL_TEST_CALC: return "calculator";
    case TL_TEST_CALC_API: return "calculator";
    case TL_TEST_POLICY: return "policy";
    case TL_TEST_DEVFACTS: return "device query";
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

/* kit check's width: the terminal's (COLUMNS), else 100; never below 60. */
static int check_width(void)
{
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w >= 60 && w <= 400 ? w : 100;
}

/* One line of a failing test's report, wrapped at word boundaries to the width; the lines after
 * the first keep the line's own indent plus two spaces. */
static void print_wrapped(const char *indent, const char *q, size_t l, int width)
{
    size_t lead = 0;
    while (lead < l && q[lead] == ' ')
        ++lead;
    int avail = width - (int)strlen(indent) - (int)lead;
    if (avail < 30)
        avail = 30;
    size_t pos = lead;
    int first = 1;
    while (pos < l) {
        int room = first ? avail : avail - 2;
        size_t end = l;
        if (l - pos > (size_t)room) {
            end = pos + (size_t)room;
            while (end > pos && q[end] != ' ')
                --end;
            if (end == pos)                       /* one word longer than the line: keep it whole */
                for (end = pos + (size_t)room; end < l && q[end] != ' '; ++end)
                    ;
        }
        printf("%s%*s%s%.*s\n", indent, (int)lead, "", first ? "" : "  ", (int)(end - pos), q + pos);
        pos = end;
        while (pos < l && q[pos] == ' ')
            ++pos;
        first = 0;
    }
}

/* A failing test's report, each fact once: a line that only restates what an earlier line said
 * (the checker's diagnosis, under its one-word label, after the headline that already says it) is
 * left out, whatever the words: a line's leading label ("word: ") is not part of the fact. The
 * first line, the reason, stays whole on one line; the rest is wrapped. */
static void print_facts_once(const char *out)
{
    int width = check_width();
    for (const char *q = out; q && *q;) {
        const char *e = strchr(q, '\n');
        size_t l = e ? (size_t)(e - q) : strlen(q);
        const char *t = q;
        while (t < q + l && *t == ' ')
            ++t;
        const char *w = t;                 /* a label: one lower-case word and ": " */
        while (w < q + l && *w >= 'a' && *w <= 'z')
            ++w;
        if (w > t && w + 2 < q + l && w[0] == ':' && w[1] == ' ')
            t = w + 2;
        size_t tl = (size_t)(q + l - t);
        int said = 0;
        if (tl >= 40) {
            char *fact = strndup(t, tl);
            if (fact) {
                /* an earlier line of the report holds the same words */
                const char *hit = strstr(out, fact);
                said = hit && hit < t && (hit < q);
                free(fact);
            }
        }
        if (!said && q == out)             /* the headline: whole, one line (scripts read it) */
            printf("      %.*s\n", (int)l, q);
        else if (!said)
            print_wrapped("      ", q, l, width);
        q = e ? e + 1 : q + l;
    }
}

/* kit check: the teaching output for one student at a terminal. */
void tg_print_check(const gsub *g, const tres *tr, int nt, double score, double max)
{
    if (g->notes.len)
        printf("%s", g->notes.s);
    if (!g->built && g->emu_unsupported[0]) {
        printf("\nNOT CHECKED HERE: %s\n", g->emu_unsupported);
        printf("the emulator's rewrite could not take this file; it is no build error of yours: check it on a "
               "GPU (the whole build log: %s)\n", g->log_path[0] ? g->log_path : "(none)");
        return;
    }
    if (!g->built) {
        int warned = g->fatal_warnings > 0;
        char head[700];
        tg_build_headline(g->build_errors.s, head, sizeof head);
        printf("\nBUILD FAILED: %s\n%s\n%s\n", head[0] ? head : "(no error line in the log)",
               warned ? "a compiler warning in your files is the bug (it counts as a failure):"
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
            /* what the judges marked to show anyway: sizes not emulated, the work, memcheck's pass */
            for (const char *q = tr[i].shown.s; q && *q;) {
                size_t l = strcspn(q, "\n");
                printf("      %.*s\n", (int)l, q);
                q += l + (q[l] == '\n');
            }
            continue;
        }
        print_facts_once(tr[i].out.s);
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
    const tl_lab_info *L = R->lab;
    /* One total (issue 23): the score is out of every test of this run, graded or not, in
     * results.json, the .done marker (gradebook, summary) and Gradescope alike. A test that could
     * not be graded here is a named part worth its points, counted as none; a failed build counts
     * against the same maximum. Rescaled only when asked (--rescale), and then everywhere. */
    double graded_score = 0, graded_max = 0, total = 0;
    for (int i = 0; i < nt; ++i) {
        total += tr[i].t->points;
        if (tr[i].graded) {
            graded_score += tr[i].score;
            graded_max += tr[i].t->points;
        }
    }
    graded_score = tg_round2(graded_score);
    int rescaled = R->opt->rescale && graded_max > 0 && graded_max < total;
    double score = rescaled ? tg_round2(graded_score * total / graded_max) : graded_score, max = total;
    /* A late submission loses its penalty from that one total (late.c), said with the score before. */
    tg_buf late_why = {0};
    tg_late late;
    double before = score, pen = R->opt->check ? 0 : tg_late_penalty(R, g->s, &late_why, &late);
    if (R->opt->check)
        memset(&late, 0, sizeof late);
    if (pen > 0)
        score = tg_round2(score * (1.0 - pen));
    *score_out = score;
    *max_out = max;

    /* results.json (Gradescope's fields, and ours under "tilelab"): written with cJSON. */
    tg_buf top = {0};
    tg_buf_printf(&top, "tilelab lab %s (%s): %s\n", L->id, L->dir, L->title);
    if (g->refused[0])
        tg_buf_printf(&top, "%s: no test could run\n", g->refused);
    else if (!g->built) {
        char head[700];
        tg_build_headline(g->build_errors.s, head, sizeof head);
        tg_buf_printf(&top, "the build failed: %s\nno test could run. The compiler's first errors:\n%s",
                      head[0] ? head : "(no error line in the log)", g->build_errors.s ? g->build_errors.s : "");
    }
    else if (g->warnings)
        tg_buf_printf(&top, "built with %d compiler warning(s); see the build log%s\n%s", g->warnings,
                      g->warn_lines.len ? "; in the student's files:" : "", g->warn_lines.s ? g->warn_lines.s : "");
    if (g->notes.len)
        tg_buf_add(&top, g->notes.s, g->notes.len);
    quote_evidence(&top, g, "");
    tg_buf_printf(&top, "isolation: %s\n", R->env.iso.desc);
    tg_buf ungraded = {0};
    for (int i = 0; i < nt; ++i)
        if (!tr[i].graded)
            tg_buf_printf(&ungraded, "%s%s (%g)", ungraded.len ? ", " : "", tr[i].t->name, tr[i].t->points);
    if (late_why.len)
        tg_buf_add(&top, late_why.s, late_why.len);
    if (pen > 0)
        tg_buf_printf(&top, "Score before the late penalty: %g/%g\n", before, max);
    if (rescaled)
        tg_buf_printf(&top, "Score: %g/%g, rescaled (--rescale) from %g/%g of the tests graded here; not graded "
                      "here: %s\n", score, max, graded_score, graded_max, ungraded.s);
    else if (ungraded.len)
        tg_buf_printf(&top, "Score: %g/%g; not graded here: %s, counted as 0 of their points (grade them where "
                      "they can be graded, or rescale with --rescale)\n", score, max, ungraded.s);
    else
        tg_buf_printf(&top, "Score: %g/%g\n", score, max);
    tg_buf_free(&ungraded);
    const char *status = g->refused[0] ? g->refused : !g->built ? "build failed" : "";
    cJSON *js = cJSON_CreateObject();
    cJSON_AddNumberToObject(js, "score", score);
    cJSON_AddNumberToObject(js, "execution_time", tg_round2(secs));
    cJSON_AddItemToObject(js, "output", jtext(top.s, top.len));
    cJSON *tests = cJSON_AddArrayToObject(js, "tests");
    cJSON *tl = cJSON_CreateObject();
    const char *dn = g->s->display[0] ? g->s->display : g->s->name;
    cJSON_AddItemToObject(tl, "student", jtext(dn, strlen(dn)));
    cJSON_AddItemToObject(tl, "folder", jtext(g->s->name, strlen(g->s->name)));
    if (g->s->from[0]) {                                 /* who, as the course's export names them (lms.c) */
        cJSON *who = cJSON_AddObjectToObject(tl, "who");
        cJSON_AddStringToObject(who, "from", g->s->from);
        cJSON_AddItemToObject(who, "email", jtext(g->s->email, strlen(g->s->email)));
        cJSON_AddItemToObject(who, "sid", jtext(g->s->sid, strlen(g->s->sid)));
        cJSON_AddItemToObject(who, "submitted_at", jtext(g->s->submitted_at, strlen(g->s->submitted_at)));
    }
    cJSON_AddStringToObject(tl, "lab", L->id);
    if (g->record.len) {                                 /* what this grade is computed from (ident.c) */
        cJSON *gf = cJSON_AddObjectToObject(tl, "graded_from"), *files = NULL;
        for (const char *q = g->record.s; *q;) {
            size_t n = strcspn(q, "\n");
            char ln[400];
            snprintf(ln, sizeof ln, "%.*s", (int)(n < sizeof ln ? n : sizeof ln - 1), q);
            char *sp = strchr(ln, ' '), *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
            if (sp)
                *sp = '\0';                              /* ln: the record line's key */
            if (sp && sp2 && strcmp(ln, "file") == 0) {
                *sp2 = '\0';
                if (!files)
                    files = cJSON_AddObjectToObject(gf, "files");
                cJSON_AddItemToObject(files, sp + 1, jtext(sp2 + 1, strlen(sp2 + 1)));
            } else if (sp) {
                cJSON_AddItemToObject(gf, ln, jtext(sp + 1, strlen(sp + 1)));
            }
            q += n + (q[n] == '\n');
        }
    }
    cJSON_AddNumberToObject(tl, "max", max);               /* the score's maximum: every test's points */
    cJSON_AddNumberToObject(tl, "graded_score", graded_score);   /* the tests graded here: their score */
    cJSON_AddNumberToObject(tl, "graded_max", graded_max); /* and their points                      */
    cJSON_AddNumberToObject(tl, "points", total);          /* every test of the run: Gradescope's  */
    cJSON_AddBoolToObject(tl, "rescaled", rescaled);       /* --rescale: score = graded_score x points / graded_max */
    if (R->opt->due_epoch && !R->opt->check) {                      /* late.c: the penalty taken from the score */
        cJSON *lo = cJSON_AddObjectToObject(tl, "late");
        cJSON_AddItemToObject(lo, "submitted_at", jtext(g->s->submitted_at, strlen(g->s->submitted_at)));
        cJSON_AddStringToObject(lo, "time_from", g->s->time_from[0] ? "file" : g->s->submitted_at[0] ? "lms" : "unknown");
        cJSON_AddNumberToObject(lo, "days_late", late.days);
        cJSON_AddNumberToObject(lo, "penalty_percent", late.percent);
        cJSON_AddBoolToObject(lo, "extension", late.extended);
        cJSON_AddNumberToObject(lo, "score_before", before);
    }
    tg_buf_free(&late_why);
    cJSON_AddBoolToObject(tl, "built", g->built);
    cJSON_AddItemToObject(tl, "status", jtext(status, strlen(status)));   /* "" or why every test is 0 */
    cJSON_AddItemToObject(tl, "isolation", jtext(R->env.iso.desc, strlen(R->env.iso.desc)));
    cJSON *b = cJSON_AddObjectToObject(tl, "build");   /* what building this submission cost */
    cJSON_AddStringToObject(b, "how", R->opt->prebuilt[0] || R->opt->build_log[0] ? "kit check (ninja in the student's build)"
                                      : R->run.kit_build[0] ? "over the kit built once" : "from clean");
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
            cJSON_AddStringToObject(o, "visibility", tr[i].t->kind == TL_TEST_HIDDEN ? "after_published" : "visible");
            cJSON_AddItemToArray(tests, o);
        } else {
            cJSON_AddNumberToObject(o, "max_score", tr[i].t->points);
            cJSON_AddItemToObject(o, "why", jtext(tr[i].out.s ? tr[i].out.s : "", tr[i].out.len));
            cJSON_AddItemToArray(ng, o);
        }
    }
    cJSON_AddItemToObject(js, "tilelab", tl);
    /* The failing cases as verdicts (CONTRACTS.md section 10), under Gradescope's extra_data: what
     * the class summary groups by, and what a script reads instead of the words. */
    cJSON *tc = cJSON_AddArrayToObject(cJSON_AddObjectToObject(js, "extra_data"), "tilelab_cases");
    for (int i = 0; i < nt; ++i) {
        if (!tr[i].ncases && !(tr[i].have_head && !tr[i].passed))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "test", tr[i].t->name);
        if (tr[i].have_head && !tr[i].passed)
            cJSON_AddItemToObject(o, "headline", case_json(&tr[i].head));
        cJSON *cs = cJSON_AddArrayToObject(o, "cases");
        for (int c = 0; c < tr[i].ncases; ++c)
            cJSON_AddItemToArray(cs, case_json(&tr[i].cases[c]));
        cJSON_AddItemToArray(tc, o);
    }
    char *text = cJSON_Print(js);
    cJSON_Delete(js);
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/results.json", g->odir);
    if (!text || tg_write_atomic(p, text, strlen(text)) != 0)
        fprintf(stderr, "tl-grade: cannot write %s (%s)\n", p, text ? strerror(errno) : "out of memory");
    free(text);

    /* summary.part.md: this student's section of summary.md */
    tg_buf md = {0};
    char *who = tg_md_inline(g->s->display[0] ? g->s->display : g->s->name);
    tg_buf_printf(&md, "### %s: %g/%g (%.1f s)\n\n", who, score, max, secs);
    free(who);
    if (g->refused[0]) {
        char *r = tg_md_inline(g->refused);
        tg_buf_printf(&md, "- **%s**: every test scores 0\n", r);
        free(r);
    } else if (!g->built) {
        char *e = tg_md_code(g->build_errors.s ? g->build_errors.s : "");
        tg_buf_printf(&md, "- **build failed**: every test scores 0. First errors:\n\n```\n%s```\n", e);
        free(e);
    }
    if (g->notes.len) {
        for (const char *q = g->notes.s; *q;) {
            const char *e = strchr(q, '\n');
            size_t l = e ? (size_t)(e - q) : strlen(q);
            char *line = strndup(q, l), *safe = tg_md_inline(line);
            tg_buf_printf(&md, "- note: %s\n", safe);
            free(line);
            free(safe);
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
        if (!tr[i].graded) {
            char *o = tg_md_inline(tr[i].out.s ? tr[i].out.s : "");
            tg_buf_printf(&md, "- %s (%g points): %s\n", tr[i].t->name, tr[i].t->points, o);
            free(o);
        } else {
            tg_buf_printf(&md, "- **failed: %s** (%s) %g/%g\n\n```\n", tr[i].t->name, kind_word(tr[i].t->kind),
                          tr[i].score, tr[i].t->points);
            int lines = 0, max_lines = SUMMARY_LINES;
            for (int j = 0; j < i; ++j)
                if (tr[i].t->kind == TL_TEST_HIDDEN && tr[j].t->kind == TL_TEST_PUBLIC && tr[j].graded &&
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
                char *line = strndup(q, l), *safe = tg_md_code(line);
                tg_buf_printf(&md, "%s\n", safe);
                free(line);
                free(safe);
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
        char *safe = tg_md_code(ev.s ? ev.s : "");
        tg_buf_printf(&md, "\n```\n%s```\n", safe);
        free(safe);
        tg_buf_free(&ev);
    }
    tg_buf_printf(&md, "\n");
    snprintf(p, sizeof p, "%s/summary.part.md", g->odir);
    tg_write_atomic(p, md.s, md.len);
    if (R->opt->check)
        tg_print_check(g, tr, nt, score, max);
    tg_buf_free(&md);
    tg_buf_free(&top);
}


/* ------------------------------------------------------------------ class outputs */

static void csv_field_raw(tg_buf *b, const char *s);

static void csv_field(tg_buf *b, const char *s)
{
    char *clean = tg_utf8_clean(s, strlen(s));
    if (clean && strchr("=+-@\t\r", clean[0]) && clean[0]) {   /* a spreadsheet would run it as a formula */
        char *q2 = malloc(strlen(clean) + 2);
        if (q2) {
            q2[0] = '\'';
            strcpy(q2 + 1, clean);
            free(clean);
            clean = q2;
        }
    }
    if (clean)
        s = clean;
    csv_field_raw(b, s);
    free(clean);
}

static void csv_field_raw(tg_buf *b, const char *s)
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

/* email,sid,submitted_at of a student, then the line's end. */
static void csv_who(tg_buf *csv, const gstudent *s)
{
    csv_field(csv, s->email);
    tg_buf_add(csv, ",", 1);
    csv_field(csv, s->sid);
    tg_buf_add(csv, ",", 1);
    csv_field(csv, s->submitted_at);
    tg_buf_add(csv, "\n", 1);
}

void tg_write_class(grun *R, const gstudent *st, const srow *rows, int ns, double total_s)
{
    const tl_lab_info *L = R->lab;
    tg_buf csv = {0};
    csv_field(&csv, "student");
    tg_buf_printf(&csv, ",score,max");
    for (int i = 0; i < L->ntests; ++i) {
        if (R->opt->public_only && !TL_TEST_IS_PUBLIC(L->tests[i].kind))
            continue;
        tg_buf_add(&csv, ",", 1);
        csv_field(&csv, L->tests[i].name);
    }
    /* After the numbers (never "not graded" in a numeric column): the status, the tests not
     * graded here with their points, and who the LMS says the student is. */
    tg_buf_printf(&csv, ",status,not_graded_here,email,sid,submitted_at\n");
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
                  R->opt->public_only ? "hidden sizes not run (--public-only)" : "hidden sizes drawn from the secret seed");
    if (R->run.ident.rubric[0]) {                             /* the class's identity (ident.c) */
        tg_buf rt = {0};
        tg_identity_rubric_text(R, &rt);
        tg_buf_printf(&md, "- rubric %s%s%s: %s\n- cases %s; kit %s\n", R->run.ident.rubric,
                      R->opt->rubric_file[0] ? " from " : " (the lab table's)", R->opt->rubric_file, rt.s, R->run.ident.cases,
                      R->run.ident.kit);
        tg_buf_free(&rt);
    }
    tg_buf_printf(&md, "- isolation: %s\n", R->env.iso.desc);
    if (R->env.iso.notes[0])
        tg_buf_printf(&md, "- isolation notes: %s\n", R->env.iso.notes);
    if (L->gpu)
        tg_buf_printf(&md, "- GPU: %s\n", R->env.gpu_why);
    tg_buf_printf(&md, "- rubric: grader/rubric.md (points per test); a correctness test worth P points scores P x (work of the cases passed / work of the cases run)\n\n");
    tg_buf_printf(&md, "| student | score | time | tests failed |\n|---|---|---|---|\n");
    tg_buf problems = {0};
    for (int i = 0; i < ns; ++i) {
        csv_field(&csv, st[i].display[0] ? st[i].display : st[i].name);
        char *who = tg_md_inline(st[i].display[0] ? st[i].display : st[i].name);
        if (!rows[i].done) {
            char *why = tg_md_inline(rows[i].why);
            tg_buf_printf(&csv, ",,");
            tg_buf_printf(&md, "| %s | not graded | | grader-side problem (below) |\n", who);
            tg_buf_printf(&problems, "- %s: not graded: %s\n", who, why);
            free(why);
            free(who);
            for (int t = 0; t < L->ntests; ++t)
                if (!R->opt->public_only || TL_TEST_IS_PUBLIC(L->tests[t].kind))
                    tg_buf_add(&csv, ",", 1);
            char stt[700];
            snprintf(stt, sizeof stt, "not graded: %s", rows[i].why);
            tg_buf_add(&csv, ",", 1);
            csv_field(&csv, stt);
            tg_buf_add(&csv, ",", 1);
            csv_who(&csv, &st[i]);
            continue;
        }
        tg_buf_printf(&csv, ",%.2f,%.2f", rows[i].score, rows[i].max);
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/%s/results.json", R->run.out, st[i].name);
        cJSON *js = tg_read_results(p);
        tg_buf failed = {0}, ungraded = {0};
        int nfailed = 0;
        for (int t = 0; t < L->ntests; ++t) {
            if (R->opt->public_only && !TL_TEST_IS_PUBLIC(L->tests[t].kind))
                continue;
            char val[64] = "";
            double sc;
            int r = tg_results_test(js, L->tests[t].name, &sc, NULL);
            if (r == 1) {
                snprintf(val, sizeof val, "%.2f", sc);
                if (sc < L->tests[t].points && ++nfailed <= 3)
                    tg_buf_printf(&failed, "%s%s (%g/%g)", failed.len ? "; " : "", L->tests[t].name, sc,
                                  L->tests[t].points);
            } else if (r == 0) {               /* a named part, empty in its numeric column */
                tg_buf_printf(&ungraded, "%s%s (%g)", ungraded.len ? "; " : "", L->tests[t].name, L->tests[t].points);
            }
            tg_buf_add(&csv, ",", 1);
            csv_field(&csv, val);
        }
        tg_buf_add(&csv, ",graded,", 8);
        csv_field(&csv, ungraded.s ? ungraded.s : "");
        tg_buf_add(&csv, ",", 1);
        csv_who(&csv, &st[i]);
        tg_buf_free(&ungraded);
        if (nfailed > 3)
            tg_buf_printf(&failed, "; and %d more", nfailed - 3);
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "status");
        if (cJSON_IsString(status) && status->valuestring[0]) {
            tg_buf_free(&failed);
            tg_buf_printf(&failed, "all: %s", status->valuestring);
        }
        cJSON_Delete(js);
        char *fs = tg_md_inline(failed.len ? failed.s : "none");
        tg_buf_printf(&md, "| %s | %g/%g | %.1f s | %s |\n", who, rows[i].score, rows[i].max, rows[i].secs, fs);
        free(fs);
        free(who);
        tg_buf_free(&failed);
    }
    tg_buf_printf(&md, "\n");
    if (R->run.prof.have)
        tg_profile_md(&R->run.prof, &md);                 /* profile.c: where the time went */
    tg_write_glance(R, st, rows, ns, &md, date);    /* glance.c: distribution, pass rates, reasons, chart */
    if (!R->opt->check) {                                       /* similar.c: for the instructor, never a score */
        char kl[PATH_MAX + 300];
        snprintf(kl, sizeof kl, "%s/labs/%s", R->run.pristine[0] ? R->run.pristine : R->opt->root, R->lab->dir);
        tg_similarity(R->run.out, R->lab, kl, R->opt->sim_threshold > 0 ? R->opt->sim_threshold : 60, &md);
    }
    tg_buf_printf(&md, "## Per student: what failed, where, the likely bug\n\n");
    for (int i = 0; i < ns; ++i) {
        if (!rows[i].done)
            continue;
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/%s/summary.part.md", R->run.out, st[i].name);
        char *part = tg_read_file(p, 1 << 22, NULL);
        if (part) {
            tg_buf_printf(&md, "%s", part);
            free(part);
        }
    }
    tg_buf_printf(&md, "## Grader-side problems\n\n%s\n", problems.len ? problems.s : "none\n");
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/gradebook.csv", R->run.out);
    tg_write_atomic(p, csv.s, csv.len);
    snprintf(p, sizeof p, "%s/summary.md", R->run.out);
    tg_write_atomic(p, md.s, md.len);
    if (!R->opt->check)
        tg_write_exports(R, st, rows, ns);                /* exports.c: roster, canvas.csv, gradescope.csv */
    tg_buf_free(&csv);
    tg_buf_free(&md);
    tg_buf_free(&problems);
}
