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
