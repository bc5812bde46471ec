/* test_reword.c: a reworded message changes no ranking, class summary or headline (issue 22, Done
 * when). The kit's words are for people; its consumers (headline.c's ranking and words, the class
 * summary in glance.c, the "not supported" outcome, the verdict wire) read kinds and patterns.
 *
 * How: the checker's own report of a real wrong product (tl_check on a product with swapped
 * indices, and one missing its last tile row) is made twice, once as the checker words it and once
 * with its diagnosis reworded into a sentence that carries the phrases consumers once matched
 * ("not supported under emulation", "likely: ", "wrong result: ", "no answer within", "the program
 * ended", "out of memory", "the grader's reference ran on this device", "late"). The emulator's and
 * the session's verdicts (a race, a wall-clock stop, a reported error) are reworded the same way.
 * Each pair crosses the wire (the JSON the kit writes, read back as the grader reads it) and is
 * then ranked, grouped, and made into a headline; and two out dirs whose results.json differ only
 * in those words get the class summary (tg_write_glance). Every consumer that matched the words
 * would rank, group or head them differently, and the test fails. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "grade.h"
#include "headline.h"
#include "tilelab.h"
#include "verdict.h"
#include "verdict_read.h"

/* Every phrase a consumer of the kit's words once looked for, in one sentence. */
static const char REWORDED[] = "likely: not supported under emulation: x (valid CUDA); wrong result: no answer within; "
                               "the program ended; out of memory; the grader's reference ran on this device; late";

/* The checker's verdict on P = (M N)^T (swapped indices) or on P with its last row band unwritten
 * (a grid too small), as the checker makes it; reworded: its diagnosis in other words. */
static void checker_verdict(int which, int reworded, tl_verdict *v)
{
    enum { n = 48, k = 48, tile = 16 };
    static float M[n * k], N[k * n], P[n * n];
    static double ref[n * n], absref[n * n];
    for (int i = 0; i < n * k; ++i) {
        M[i] = (float)((i * 37 % 17) - 8) / 8.0f;
        N[i] = (float)((i * 53 % 19) - 9) / 8.0f;
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            double s = 0, a = 0;
            for (int t = 0; t < k; ++t) {
                s += (double)M[r * k + t] * N[t * n + c];
                a += fabs((double)M[r * k + t] * N[t * n + c]);
            }
            ref[r * n + c] = s;
            absref[r * n + c] = a;
        }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            P[r * n + c] = which == 0 ? (float)ref[c * n + r] : r >= n - tile ? NAN : (float)ref[r * n + c];
    tl_check_report rep;
    cr_assert_eq(tl_check(P, ref, absref, n, n, k, tile, M, N, &rep), 1);
    if (reworded)
        snprintf(rep.detail, sizeof rep.detail, "%s", REWORDED);
    tl_check_verdict(&rep, v);
    v->m = v->n = n;
    v->k = k;
}

/* The other producers' verdicts, with their words (detail) given. */
static void other_verdict(int which, const char *words, tl_verdict *v)
{
    static const struct { tl_verdict_kind kind; const char *pattern; } o[] = {
        {TL_V_EMULATOR, "race"}, {TL_V_TIMEOUT, "wall-clock"}, {TL_V_ERROR, "reported"}, {TL_V_CRASH, "ended-without-answer"}};
    tl_verdict_init(v, o[which].kind, o[which].pattern);
    tl_verdict_set(v->detail, sizeof v->detail, words);
    v->m = v->k = v->n = 48;
    if (o[which].kind == TL_V_TIMEOUT)
        v->limit_s = 5;
}
#define NOTHER 4

/* Across the wire: written as the kit writes it, read as the grader reads it. */
static tl_verdict wire(const tl_verdict *v)
{
    char line[4096];
    size_t l = tl_verdict_json(v, line, sizeof line);
    cr_assert_lt(l, sizeof line);
    tl_verdict back;
    cr_assert_eq(tg_verdict_parse(line, l, &back), 0, "%s", line);
    return back;
}

/* h with every copy of from replaced by to. */
static void replace_all(const char *h, const char *from, const char *to, char *out, size_t len)
{
    size_t o = 0, fl = strlen(from);
    for (const char *p = h; *p && o + 1 < len;) {
        if (fl && strncmp(p, from, fl) == 0) {
            o += (size_t)snprintf(out + o, len - o, "%s", to);
            p += fl;
        } else {
            out[o++] = *p++;
        }
    }
    out[o < len ? o : len - 1] = '\0';
}

/* Ranking, grouping, "names the cause", "not supported" and the headline of a and its reworded b. */
static void assert_same_reading(const tl_verdict *a0, const tl_verdict *b0)
{
    tl_verdict a = wire(a0), b = wire(b0);
    cr_assert_eq(a.kind, b.kind);
    cr_assert_str_eq(a.pattern, b.pattern);
    cr_assert_str_neq(a.detail, b.detail, "the rewording did not reach the verdict");
    cr_assert_eq(tg_headline_rank(&a), tg_headline_rank(&b), "%s: ranked %d, reworded %d", a.pattern,
                 tg_headline_rank(&a), tg_headline_rank(&b));
    cr_assert_eq(tg_headline_names_cause(&a), tg_headline_names_cause(&b), "%s", a.pattern);
    char ga[200], gb[200];
    tg_verdict_group(&a, ga, sizeof ga);
    tg_verdict_group(&b, gb, sizeof gb);
    cr_assert_str_eq(ga, gb, "the class summary's group moved with the words");
    char wa[400], wb[400];
    cr_assert_eq(tg_unsupported_words(&a, wa, sizeof wa), 0);
    cr_assert_eq(tg_unsupported_words(&b, wb, sizeof wb), 0, "words made a %s verdict 'not supported'", a.pattern);
    /* the headline: the same sentence around the producer's words, whatever they are */
    char ha[1200], hb[1200], hb_back[1200];
    tg_headline_make(&a, "48", ha, sizeof ha);
    tg_headline_make(&b, "48", hb, sizeof hb);
    replace_all(hb, b.detail, a.detail, hb_back, sizeof hb_back);
    cr_assert_str_eq(hb_back, ha, "the headline changed beyond the reworded words:\n  %s\n  %s", ha, hb);
    tg_verdict_words(&a, ha, sizeof ha);
    tg_verdict_words(&b, hb, sizeof hb);
    replace_all(hb, b.detail, a.detail, hb_back, sizeof hb_back);
    cr_assert_str_eq(hb_back, ha, "the reason line changed beyond the reworded words:\n  %s\n  %s", ha, hb);
}

Test(reword, a_reworded_checker_diagnosis_keeps_its_rank_group_and_headline, .timeout = 30)
{
    for (int which = 0; which < 2; ++which) {
        tl_verdict a, b;
        checker_verdict(which, 0, &a);
        checker_verdict(which, 1, &b);
        cr_assert_eq(a.kind, TL_V_CHECKER);
        cr_assert(a.detail[0], "the checker gave no diagnosis to reword");
        assert_same_reading(&a, &b);
    }
}

Test(reword, reworded_emulator_session_and_error_words_keep_their_rank_group_and_headline, .timeout = 30)
{
    for (int which = 0; which < NOTHER; ++which) {
        tl_verdict a, b;
        other_verdict(which, "thread (1,0,0) and thread (2,0,0) of block (0,0,0) wrote Mds[0][1]", &a);
        other_verdict(which, REWORDED, &b);
        assert_same_reading(&a, &b);
    }
}

/* The ranking between verdicts: which of a test's cases heads it (judges.c keeps the highest rank).
 * The order of every pair is the same when each is reworded. */
Test(reword, the_order_between_verdicts_does_not_move_with_their_words, .timeout = 30)
{
    tl_verdict v[2][2 + NOTHER];
    for (int r = 0; r < 2; ++r) {
        checker_verdict(0, r, &v[r][0]);
        checker_verdict(1, r, &v[r][1]);
        for (int i = 0; i < NOTHER; ++i)
            other_verdict(i, r ? REWORDED : "as the kit words it", &v[r][2 + i]);
    }
    for (int i = 0; i < 2 + NOTHER; ++i)
        for (int j = 0; j < 2 + NOTHER; ++j) {
            tl_verdict a = wire(&v[0][i]), b = wire(&v[0][j]), ra = wire(&v[1][i]), rb = wire(&v[1][j]);
            int before = (tg_headline_rank(&a) > tg_headline_rank(&b)) - (tg_headline_rank(&a) < tg_headline_rank(&b));
            int after = (tg_headline_rank(&ra) > tg_headline_rank(&rb)) - (tg_headline_rank(&ra) < tg_headline_rank(&rb));
            cr_assert_eq(before, after, "%s vs %s: order %d, reworded %d", a.pattern, b.pattern, before, after);
        }
}

/* One student's results.json: every failing test headed by verdict i (reworded or not). */
static void write_results(const char *dir, const tl_lab_info *L, int reworded, int which)
{
    cJSON *js = cJSON_CreateObject(), *tests = cJSON_AddArrayToObject(js, "tests");
    cJSON *cases = cJSON_AddArrayToObject(cJSON_AddObjectToObject(js, "extra_data"), "tilelab_cases");
    for (int t = 0; t < L->ntests; ++t) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", L->tests[t].name);
        cJSON_AddNumberToObject(o, "score", 0);
        cJSON_AddNumberToObject(o, "max_score", L->tests[t].points);
        tl_verdict v;
        if (which < 2)
            checker_verdict(which, reworded, &v);
        else
            other_verdict(which - 2, reworded ? REWORDED : "as the kit words it", &v);
        char words[1200], line[4096];
        tg_headline_make(&v, "48", words, sizeof words);
        cJSON_AddStringToObject(o, "output", words);      /* the words people read: they differ */
        cJSON_AddItemToArray(tests, o);
        size_t l = tl_verdict_json(&v, line, sizeof line);
        cr_assert_lt(l, sizeof line);
        cJSON *c = cJSON_CreateObject(), *h = cJSON_AddObjectToObject(c, "headline");
        cJSON_AddStringToObject(c, "test", L->tests[t].name);
        cJSON_AddStringToObject(h, "size", "48");
        cJSON_AddItemToObject(h, "verdict", cJSON_Parse(line));
        cJSON_AddItemToArray(cases, c);
    }
    char p[PATH_MAX + 400], *text = cJSON_Print(js);
    snprintf(p, sizeof p, "%.3500s/results.json", dir);
    FILE *f = fopen(p, "w");
    cr_assert(f && text);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(js);
}

/* The class summary of a class of 2 + NOTHER students (one per verdict), its words reworded or not:
 * summary.md's section from "Most common failure reasons" on. */
static char *class_summary(const char *top, int reworded)
{
    static grun R;
    static tg_opts O;   /* the options (const to the grader's parts: filled here) */
    memset(&R, 0, sizeof R);
    R.opt = &O;
    R.lab = tl_lab_find("03");
    cr_assert(R.lab);
    snprintf(O.root, sizeof O.root, "%s", TL_SOURCE_ROOT);
    snprintf(R.run.out, sizeof R.run.out, "%s/class", top);   /* one place for both: the pages name it */
    tg_rmtree(R.run.out);
    snprintf(R.run.state, sizeof R.run.state, "%.3000s/.state", R.run.out);
    enum { NS = 2 + NOTHER };
    static gstudent st[NS];
    srow rows[NS];
    memset(st, 0, sizeof st);
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < NS; ++i) {
        snprintf(st[i].name, sizeof st[i].name, "student%d", i);
        char d[PATH_MAX + 200];
        snprintf(d, sizeof d, "%.3000s/%.127s", R.run.out, st[i].name);
        cr_assert_eq(tg_mkdirs(d, 0700), 0);
        write_results(d, R.lab, reworded, i);
        rows[i].done = 1;
        rows[i].max = 100;
    }
    cr_assert_eq(tg_mkdirs(R.run.state, 0700), 0);
    tg_buf md = {0};
    tg_write_glance(&R, st, rows, NS, &md, "2026-01-01");
    cr_assert(md.s);
    const char *sec = strstr(md.s, "Most common failure reasons");
    cr_assert(sec, "%s", md.s);
    char *out = strdup(sec);
    tg_buf_free(&md);
    return out;
}

Test(reword, the_class_summary_groups_the_same_whatever_the_words, .timeout = 60)
{
    char top[] = "/tmp/tl-reword-XXXXXX";
    cr_assert(mkdtemp(top));
    char *a = class_summary(top, 0), *b = class_summary(top, 1);
    cr_assert_str_eq(a, b, "the class summary moved with the words:\n--- as the kit words it\n%s\n--- reworded\n%s", a, b);
    /* and it is a summary: each kind has its group */
    cr_assert(strstr(a, "wrong result: swapped indices") && strstr(a, "the emulator: race"), "%s", a);
    free(a);
    free(b);
    tg_rmtree(top);
}

/* ------------------------------------------------------------ no phrase-matching left behind
 * Issue 22, Done when: "outside the compiler, sanitizer and policy adapters, the grader holds at most
 * a dozen strstr/strncmp calls, none on a message the kit itself wrote". The adapters read other
 * programs' text and are left out: build.c (g++'s and nvcc's diagnostics), oob.c (compute-sanitizer's
 * report), policy.c (the student's source, through the lexer). Every other call in a .c file of grader/ is
 * listed here with why its text is not the kit's own words; a new call (or one gone) fails the test
 * until this list says why, and more than 12 strstr/strncmp fail it whatever the list says. The
 * case-insensitive forms (strcasestr, strncasecmp) are held to the list the same way. */
typedef struct text_search {
    const char *file, *fn;
    int         calls;
    const char *why;
} text_search;

static const text_search allowed[] = {
    {"gpushare.c", "strstr", 1, "the CUDA runtime's and driver's error names (cudaErrorMemoryAllocation, "
                                "CUDA_ERROR_OUT_OF_MEMORY) in a test's output: CUDA's words, not the kit's"},
    {"ncu.c", "strstr", 3, "ncu's own output (ERR_NVGPUCTRPERM, ==ERROR==) and a kernel's name already in the "
                           "list of names read from ncu's CSV"},
    {"report.c", "strstr", 1, "kit check's printout says each fact once: a line is compared with the earlier "
                              "lines of the same report, whatever their words (no phrase is looked for)"},
    {"pristine.c", "strncmp", 3, "paths of the kit's tree (build/, grader/secret, grader/hidden)"},
    {"pristine.c", "strstr", 1, "a path holding .secret"},
    {"util.c", "strncmp", 2, "a path under a folder (its prefix); a time's zone (\"UTC\") in an LMS's export or "
                             "--due"},
    {"sandbox.c", "strncmp", 1, "a key of a kernel file (cgroup's memory.events, cpu.stat)"},
    {"intake.c", "strncasecmp", 1, "a student's file name against the lab's, in any case"},
    {"late.c", "strncasecmp", 1, "a student's sid, email or name in the extensions file, in any case"},
};

/* The calls of fn in C source s, comments and string and character literals left out. */
static int count_calls(const char *s, const char *fn)
{
    int n = 0;
    size_t fl = strlen(fn);
    for (const char *p = s; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (p[0] == '/' && p[1] == '/') {
            p += strcspn(p, "\n");
        } else if (*p == '"' || *p == '\'') {
            char q = *p++;
            while (*p && *p != q)
                p += p[0] == '\\' && p[1] ? 2 : 1;
            p += *p != 0;
        } else if ((p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                (p[-1] >= '0' && p[-1] <= '9'))) && strncmp(p, fn, fl) == 0) {
            const char *a = p + fl;
            while (*a == ' ' || *a == '\t')
                ++a;
            n += *a == '(';
            p += fl;
        } else {
            ++p;
        }
    }
    return n;
}

Test(reword, outside_the_adapters_the_grader_holds_at_most_a_dozen_text_searches_each_listed_with_why,
     .timeout = 30)
{
    static const char *const fns[] = {"strstr", "strncmp", "strcasestr", "strncasecmp"};
    static const char *const adapters[] = {"build.c", "oob.c", "policy.c"};
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cd '%s/grader' && ls *.c", TL_SOURCE_ROOT);
    FILE *ls = popen(cmd, "r");
    cr_assert_not_null(ls);
    char name[256];
    int total = 0, files = 0;
    int seen[sizeof allowed / sizeof allowed[0]] = {0};
    while (fgets(name, sizeof name, ls)) {
        name[strcspn(name, "\n")] = 0;
        int adapter = 0;
        for (size_t i = 0; i < sizeof adapters / sizeof adapters[0]; ++i)
            adapter |= strcmp(name, adapters[i]) == 0;
        if (adapter)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/grader/%s", TL_SOURCE_ROOT, name);
        FILE *f = fopen(path, "rb");
        cr_assert_not_null(f, "cannot read %s", path);
        char *src = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&src, &len);
        char buf[65536];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, f)) > 0)
            fwrite(buf, 1, got, m);
        fclose(f);
        fclose(m);
        ++files;
        for (size_t k = 0; k < sizeof fns / sizeof fns[0]; ++k) {
            int n = count_calls(src, fns[k]), listed = 0;
            for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; ++i)
                if (strcmp(allowed[i].file, name) == 0 && strcmp(allowed[i].fn, fns[k]) == 0) {
                    listed = allowed[i].calls;
                    seen[i] = 1;
                }
            cr_expect_eq(n, listed, "grader/%s holds %d %s call%s, this test lists %d: a text search outside the "
                         "adapters must not look for the kit's own words (read the verdict's fields, common/verdict.h); "
                         "one on another program's text or a path goes in this test's list with why",
                         name, n, fns[k], n == 1 ? "" : "s", listed);
            if (k < 2)
                total += n;
        }
        free(src);
    }
    pclose(ls);
    cr_assert_gt(files, 20, "only %d files read in %s/grader", files, TL_SOURCE_ROOT);
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; ++i)
        cr_expect(seen[i], "the list names grader/%s, which is gone or an adapter: take it off the list", allowed[i].file);
    cr_expect_leq(total, 12, "%d strstr/strncmp calls in grader/*.c outside build.c, oob.c and policy.c; "
                  "issue 22 allows a dozen", total);
}
