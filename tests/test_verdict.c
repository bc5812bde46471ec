/* test_verdict.c: the verdict as data (CONTRACTS.md section 10): the one writer (common/verdict.c)
 * and the grader's reader (grader/verdict_read.c) agree in both directions, hostile text stays
 * inside its string, and a wrong object is refused whole. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "verdict.h"
#include "verdict_read.h"

static tl_verdict full(void)
{
    tl_verdict v;
    tl_verdict_init(&v, TL_V_EMULATOR, "global-out-of-bounds");
    tl_verdict_set(v.matrix, sizeof v.matrix, "c->d_M");
    tl_verdict_set(v.access, sizeof v.access, "read");
    v.row = 3;
    v.column = 17;
    v.index = -2;
    tl_verdict_set(v.file, sizeof v.file, "tiled.cu");
    v.line = 41;
    v.have_thread = 1;
    v.thread[0] = 1, v.thread[1] = 2, v.thread[2] = 0;
    v.block[0] = 4, v.block[1] = 0, v.block[2] = 9;
    v.count = 15720;
    v.total = 16384;
    v.nonfinite = 7;
    v.unwritten = 5;
    v.m = 17, v.k = 33, v.n = 9;
    v.limit_s = 2.5;
    tl_verdict_set(v.detail, sizeof v.detail, "read of 'c->d_M'[-2]\n  at tiled.cu:41");
    return v;
}

static void assert_same(const tl_verdict *a, const tl_verdict *b)
{
    cr_assert_eq(a->kind, b->kind);
    cr_assert_str_eq(a->pattern, b->pattern);
    cr_assert_str_eq(a->matrix, b->matrix);
    cr_assert_str_eq(a->access, b->access);
    cr_assert_eq(a->row, b->row);
    cr_assert_eq(a->column, b->column);
    cr_assert_eq(a->index, b->index);
    cr_assert_str_eq(a->file, b->file);
    cr_assert_eq(a->line, b->line);
    cr_assert_eq(a->have_thread, b->have_thread);
    cr_assert_arr_eq(a->thread, b->thread, sizeof a->thread);
    cr_assert_arr_eq(a->block, b->block, sizeof a->block);
    cr_assert_eq(a->count, b->count);
    cr_assert_eq(a->total, b->total);
    cr_assert_eq(a->nonfinite, b->nonfinite);
    cr_assert_eq(a->unwritten, b->unwritten);
    cr_assert_eq(a->m, b->m);
    cr_assert_eq(a->k, b->k);
    cr_assert_eq(a->n, b->n);
    cr_assert_float_eq(a->limit_s, b->limit_s, 1e-12);
    cr_assert_str_eq(a->detail, b->detail);
}

Test(verdict, what_the_writer_writes_the_reader_reads_field_for_field, .timeout = 10)
{
    tl_verdict v = full(), back;
    char line[4096];
    size_t l = tl_verdict_json(&v, line, sizeof line);
    cr_assert_lt(l, sizeof line);
    cr_assert_eq(strlen(line), l);
    cr_assert_null(strchr(line, '\n'), "one line: %s", line);
    cr_assert_eq(tg_verdict_parse(line, l, &back), 0, "not read back: %s", line);
    assert_same(&v, &back);
    /* unset fields are absent, and stay unset */
    tl_verdict e, eb;
    tl_verdict_init(&e, TL_V_TIMEOUT, "wall-clock");
    l = tl_verdict_json(&e, line, sizeof line);
    cr_assert_str_eq(line, "{\"kind\":\"timeout\",\"pattern\":\"wall-clock\"}");
    cr_assert_eq(tg_verdict_parse(line, l, &eb), 0);
    assert_same(&e, &eb);
}

Test(verdict, what_cjson_writes_in_any_key_order_the_reader_reads, .timeout = 10)
{
    tl_verdict v = full(), back;
    cJSON *o = tg_verdict_to_cjson(&v);
    cr_assert_not_null(o);
    /* the same object built by hand, keys reversed, an unknown key added */
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "future_key", "ignored");
    int n = cJSON_GetArraySize(o);
    for (int i = n - 1; i >= 0; --i) {
        cJSON *it = cJSON_GetArrayItem(o, i);
        cJSON_AddItemToObject(r, it->string, cJSON_Duplicate(it, 1));
    }
    char *text = cJSON_Print(r);          /* formatted: new lines and indentation between keys */
    cr_assert_eq(tg_verdict_parse(text, strlen(text), &back), 0, "%s", text);
    assert_same(&v, &back);
    free(text);
    cJSON_Delete(r);
    cJSON_Delete(o);
}

Test(verdict, a_students_text_stays_inside_its_string, .timeout = 10)
{
    tl_verdict v, back;
    tl_verdict_init(&v, TL_V_ERROR, "reported");
    const char evil[] = "\x1b[2J\"}\n{\"kind\":\"correct\"}\r\t\\ \x7f \xe2\x80\xae" "evil";
    tl_verdict_set(v.detail, sizeof v.detail, evil);
    tl_verdict_set(v.pattern, sizeof v.pattern, "\x1b[31mred");
    char line[2048];
    size_t l = tl_verdict_json(&v, line, sizeof line);
    for (size_t i = 0; i < l; ++i)
        cr_assert((unsigned char)line[i] >= 0x20 && line[i] != 0x7f, "raw control byte 0x%02x at %zu: %s",
                  (unsigned char)line[i], i, line);
    cr_assert_eq(tg_verdict_parse(line, l, &back), 0, "%s", line);
    cr_assert_eq(back.kind, TL_V_ERROR);
    cr_assert_str_eq(back.detail, evil);
    cr_assert_str_eq(back.pattern, "\x1b[31mred");
}

Test(verdict, a_wrong_object_is_no_verdict, .timeout = 10)
{
    static const char *bad[] = {
        "", "[]", "{}", "{\"kind\":\"nonsense\",\"pattern\":\"x\"}", "{\"kind\":7}",
        "{\"kind\":\"checker\",\"row\":\"3\"}", "{\"kind\":\"checker\",\"thread\":[1,2]}",
        "{\"kind\":\"checker\",\"line\":1e300}", "{\"kind\":\"checker\",\"pattern\":[]}",
        "{\"kind\":\"checker\",\"pattern\":\"x\"", "not json",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        tl_verdict v;
        cr_expect_eq(tg_verdict_parse(bad[i], strlen(bad[i]), &v), -1, "read as a verdict: %s", bad[i]);
        cr_expect_eq(v.kind, TL_V_NONE, "a refused object leaves no kind: %s", bad[i]);
    }
}

Test(verdict, a_short_buffer_gets_a_cut_string_and_the_length_needed, .timeout = 10)
{
    tl_verdict v = full();
    char whole[4096], part[40];
    size_t need = tl_verdict_json(&v, whole, sizeof whole);
    cr_assert_eq(tl_verdict_json(&v, part, sizeof part), need);
    cr_assert_eq(strlen(part), sizeof part - 1);
    cr_assert_eq(strncmp(part, whole, sizeof part - 1), 0);
    cr_assert_eq(tl_verdict_json(&v, NULL, 0), need);
    /* a field cut at a UTF-8 boundary, never inside a character */
    char f[4];
    tl_verdict_set(f, sizeof f, "a\xc3\xa9\xc3\xa9");
    cr_assert_str_eq(f, "a\xc3\xa9");
    tl_verdict_set(f, sizeof f, "ab\xc3\xa9");
    cr_assert_str_eq(f, "ab");
}

Test(verdict, every_kind_has_a_name_that_reads_back, .timeout = 10)
{
    for (int k = 0; k < TL_V_KINDS; ++k) {
        const char *n = tl_verdict_kind_name((tl_verdict_kind)k);
        cr_assert_not_null(n, "kind %d has no name", k);
        cr_assert_eq(tl_verdict_kind_from_name(n), k, "%s", n);
    }
    cr_assert_null(tl_verdict_kind_name(TL_V_KINDS));
    cr_assert_eq(tl_verdict_kind_from_name("Checker"), -1);
}

/* ------------------------------------------------ consumers read fields, never the checker's words */

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "headline.h"
#include "labtable.h"

/* What a consumer makes of one case: its rank, headline and class-summary group. */
typedef struct seen {
    int  rank;
    char head[800], group[160], reason[600];
    int  explain_reworded;
} seen;

static seen judge(const gsize *s, const tl_lab_variant *v, const float *P)
{
    cres r;
    memset(&r, 0, sizeof r);
    tg_judge_product(s, v, P, &r);
    seen out;
    out.rank = tg_headline_rank(&r.v);
    tg_headline_make(&r.v, "64", out.head, sizeof out.head);
    tg_verdict_group(&r.v, out.group, sizeof out.group);
    snprintf(out.reason, sizeof out.reason, "%s", r.reason);
    out.explain_reworded = r.explain.s && strstr(r.explain.s, "REWORDED") != NULL;
    tg_buf_free(&r.explain);
    return out;
}

Test(verdict, a_reworded_checker_message_changes_no_ranking_summary_or_headline, .timeout = 60)
{
    const tl_lab_info *L = tl_lab_find("03");
    cr_assert_not_null(L);
    const tl_lab_variant *v = tl_lab_variant_find(L, "tiled16");
    cr_assert_not_null(v);
    gsize s = {.m = 64, .k = 64, .n = 64, .seed = 7};
    char err[300];
    cr_assert_eq(tg_prepare_size(&s, err, sizeof err), 0, "%s", err);
    size_t cnt = 64 * 64;
    float *P = malloc(cnt * sizeof *P);
    cr_assert_not_null(P);
    /* the kinds of wrong the checker names: transposed, unwritten, edge tiles, scattered, right */
    for (int pat = 0; pat < 5; ++pat) {
        for (int i = 0; i < 64; ++i)
            for (int j = 0; j < 64; ++j)
                P[i * 64 + j] = (float)(pat == 0 ? s.ref[j * 64 + i] : s.ref[i * 64 + j]);
        if (pat == 1)
            for (size_t e = 0; e < cnt; ++e)
                P[e] = e % 64 >= 48 ? NAN : P[e];
        if (pat == 2)
            for (int i = 0; i < 64; ++i)
                P[i * 64 + 63] += 1.0f;
        if (pat == 3)
            for (size_t e = 5; e < cnt; e += 611)
                P[e] += 0.5f;
        tl_check_reword_for_tests(0);
        seen a = judge(&s, v, P);
        tl_check_reword_for_tests(1);
        seen b = judge(&s, v, P);
        tl_check_reword_for_tests(0);
        if (pat < 4)
            cr_assert(b.explain_reworded, "case %d: the test hook did not reword the checker's report", pat);
        cr_assert_eq(a.rank, b.rank, "case %d: rank %d, reworded %d", pat, a.rank, b.rank);
        cr_assert_str_eq(a.head, b.head, "case %d: the headline changed with the checker's words", pat);
        cr_assert_str_eq(a.group, b.group, "case %d: the summary's group changed with the checker's words", pat);
        cr_assert_str_eq(a.reason, b.reason, "case %d: the reason line changed with the checker's words", pat);
    }
    free(P);
}

static int has_raw_controls(const char *s, const char *what)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == 0x1b || (*p < 0x20 && *p != '\n' && *p != '\t')) {
            fprintf(stderr, "%s: raw 0x%02x at %ld\n", what, *p, (long)(p - (const unsigned char *)s));
            return 1;
        }
        if (p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) {   /* U+202A..U+202E */
            fprintf(stderr, "%s: a bidi override at %ld\n", what, (long)(p - (const unsigned char *)s));
            return 1;
        }
        if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0) {                    /* C1 controls */
            fprintf(stderr, "%s: a C1 control at %ld\n", what, (long)(p - (const unsigned char *)s));
            return 1;
        }
    }
    return 0;
}

Test(verdict, a_hostile_verdict_leaves_no_raw_escape_in_summary_md_or_html, .timeout = 60)
{
    char dir[] = "/tmp/tl-verdict-glance-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    grun *R = calloc(1, sizeof *R);
    tg_opts *O = calloc(1, sizeof *O);   /* the options (const to the grader's parts: filled here) */
    R->opt = O;
    cr_assert_not_null(R);
    R->lab = tl_lab_find("03");
    snprintf(O->root, sizeof O->root, "%s", TL_SOURCE_ROOT);
    snprintf(R->run.out, sizeof R->run.out, "%s", dir);
    snprintf(R->run.state, sizeof R->run.state, "%s", dir);
    snprintf(R->env.iso.desc, sizeof R->env.iso.desc, "test");
    gstudent st[2] = {{.name = "evil"}, {.name = "plain"}};
    srow rows[2] = {{.done = 1, .score = 10, .max = 100}, {.done = 1, .score = 50, .max = 100}};
    /* a program that answered its own 'verdict' line: ANSI, C1, bidi and a newline in the pattern
     * and the detail (the only way a student's text reaches a verdict) */
    const char *tests = R->lab->tests[0].name;
    for (int i = 0; i < 2; ++i) {
        char p[10240];
        snprintf(p, sizeof p, "%s/%s", dir, st[i].name);
        cr_assert_eq(mkdir(p, 0700), 0);
        tl_verdict v;
        tl_verdict_init(&v, i ? TL_V_CHECKER : TL_V_EMULATOR, i ? "swapped-indices" : "\x1b[2J\xc2\x9b\xe2\x80\xaepwn\n|x");
        tl_verdict_set(v.detail, sizeof v.detail, "\x1b]0;title\x07 \xe2\x80\xae evil");
        cJSON *js = cJSON_CreateObject();
        cJSON *t = cJSON_AddArrayToObject(js, "tests"), *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", tests);
        cJSON_AddNumberToObject(o, "score", 0);
        cJSON_AddNumberToObject(o, "max_score", 10);
        cJSON_AddStringToObject(o, "output", "\x1b[31mwhatever the program printed\n");
        cJSON_AddItemToArray(t, o);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "test", tests);
        cJSON *h = cJSON_AddObjectToObject(c, "headline");
        cJSON_AddStringToObject(h, "size", "17");
        cJSON_AddItemToObject(h, "verdict", tg_verdict_to_cjson(&v));
        cJSON_AddItemToArray(cJSON_AddArrayToObject(cJSON_AddObjectToObject(js, "extra_data"), "tilelab_cases"), c);
        char *text = cJSON_Print(js);
        snprintf(p, sizeof p, "%s/%s/results.json", dir, st[i].name);
        cr_assert_eq(tg_write_atomic(p, text, strlen(text)), 0);
        free(text);
        cJSON_Delete(js);
    }
    tg_buf md = {0};
    tg_write_glance(R, st, rows, 2, &md, "2026-11-26");
    cr_assert_not_null(md.s);
    cr_assert_not(has_raw_controls(md.s, "summary.md"), "%s", md.s);
    cr_assert_not_null(strstr(md.s, "wrong result: swapped indices"), "the checker's group is named:\n%s", md.s);
    cr_assert_not_null(strstr(md.s, "\\x1B"), "the escape is shown, made inert:\n%s", md.s);
    char p[10240];
    snprintf(p, sizeof p, "%s/summary.html", dir);
    size_t len;
    char *html = tg_read_file(p, 1 << 20, &len);
    cr_assert_not_null(html);
    cr_assert_not(has_raw_controls(html, "summary.html"), "%s", html);
    free(html);
    tg_buf_free(&md);
    free(R);
    free(O);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

/* The work judge's verdict patterns (kind work): what the manifest's 'work' rows name. */
Test(verdict, the_work_judge_names_its_pattern, .timeout = 10)
{
    const tl_lab_info *l3 = tl_lab_find("03");
    cr_assert_not_null(l3);
    char head[400];
    const char *p = NULL;
    int w = 64;
    tl_work_counts none = {0};
    tl_work_counts naive = {1, 2ULL * w * w * w, (unsigned long long)w * w, 0, 0, 0};
    tl_work_counts unchecked = {1, 2ULL * w * w * w, (unsigned long long)w * w, 0, 0, 1};
    cr_assert_eq(tl_work_judge_why(l3, 16, w, w, w, &none, head, sizeof head, NULL, 0, &p), 1);
    cr_assert_str_eq(p, "host-side-computation");
    cr_assert_eq(tl_work_judge_why(l3, 16, w, w, w, &naive, head, sizeof head, NULL, 0, &p), 1);
    cr_assert_str_eq(p, "not-tiled");
    cr_assert_eq(tl_work_judge_why(l3, 16, w, w, w, &unchecked, head, sizeof head, NULL, 0, &p), 1);
    cr_assert_str_eq(p, "unchecked-launches");
    tl_verdict v;
    char g[160];
    tl_verdict_init(&v, TL_V_WORK, "not-tiled");
    tg_verdict_group(&v, g, sizeof g);
    cr_assert_str_eq(g, "no credit: not tiled");
}

/* Issue 24 item 4: the kit's GPU timer refuses a time whose repetitions skipped work; the verdict
 * it sends (driverserve.c) reads back with its words as the headline, never "the program reported
 * an error", and groups under its own name in the class summary. */
Test(verdict, a_timed_run_that_skipped_work_has_its_own_headline_and_group, .timeout = 10)
{
    tl_verdict v, got;
    tl_verdict_init(&v, TL_V_ERROR, "timed-run-skipped-work");
    tl_verdict_set(v.matrix, sizeof v.matrix, "P");
    tl_verdict_set(v.detail, sizeof v.detail, "the timed runs did not all do the whole work: repetition 3 "
                   "left P unwritten (4096 of 4096 elements, the first at row 0, column 0, still held "
                   "the poison written before it): a launch was skipped");
    v.m = v.k = v.n = 64;
    char js[2048], head[800], g[160];
    cr_assert_lt(tl_verdict_json(&v, js, sizeof js), sizeof js);
    cr_assert_eq(tg_verdict_parse(js, strlen(js), &got), 0, "%s", js);
    cr_assert(tl_verdict_pattern_is(&got, "timed-run-skipped-work"));
    tg_headline_make(&got, "64", head, sizeof head);
    cr_assert(strstr(head, "repetition 3 left P unwritten"), "%s", head);
    cr_assert_null(strstr(head, "the program reported an error"), "%s", head);
    tg_verdict_group(&got, g, sizeof g);
    cr_assert(strstr(g, "the timed runs did not all do the whole work"), "%s", g);
}

/* Issue 24 (the guarded device, driver.c and common/emu/src/mem.cpp): the emulated harness's two
 * findings about where P came from read back with their own words, never the bare pattern: an
 * answer kept from an earlier call (the re-run with M doubled returned the first run's P), and host
 * code dereferencing device memory (with the student's line). */
Test(verdict, an_answer_kept_and_a_host_dereference_have_their_own_words, .timeout = 10)
{
    struct { const char *pattern, *detail, *file; int line; const char *words, *place; } cases[] = {
        {"answer-kept", "with M doubled the launcher returned exactly the first run's P", "", 0,
         "P not computed from this call's inputs: with M doubled", NULL},
        {"host-access-device-memory", "host code read device memory: 'c->d_M'[1], a buffer from cudaMalloc",
         "naive.cu", 42, "host code dereferenced device memory (a segmentation fault on a GPU): host code read",
         " in naive.cu:42"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tl_verdict v, got;
        tl_verdict_init(&v, TL_V_EMULATOR, cases[i].pattern);
        tl_verdict_set(v.detail, sizeof v.detail, cases[i].detail);
        if (cases[i].line) {
            tl_verdict_set(v.file, sizeof v.file, cases[i].file);
            v.line = cases[i].line;
        }
        char js[2048], head[800];
        cr_assert_lt(tl_verdict_json(&v, js, sizeof js), sizeof js);
        cr_assert_eq(tg_verdict_parse(js, strlen(js), &got), 0, "%s", js);
        tg_headline_make(&got, "64", head, sizeof head);
        cr_assert(strncmp(head, cases[i].words, strlen(cases[i].words)) == 0, "%s", head);
        if (cases[i].place)
            cr_assert(strstr(head, cases[i].place), "%s", head);
    }
}
