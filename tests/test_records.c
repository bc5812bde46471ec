/* test_records.c: the grader's small readers that replaced strstr/strncmp on its own text (issue 22):
 * the kit's records read by key (ident.c), --regrade's list by item and paths by component (util.c). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <string.h>

#include "grade.h"

Test(records, a_value_is_found_by_its_key_on_any_line_and_never_by_a_prefix_or_inside_a_value, .timeout = 10)
{
    const char *rec = "lab 03 secret 00ff\nrubric abc123 lab 03; hidden 4\ncases 77aa\nkit git 1234+changes\n"
                      "file tiled.cu sha256:ee\nfile notes.txt none\nrubricx zz\n";
    size_t l;
    const char *v = tg_record_value(rec, "rubric", &l);
    cr_assert(v && l == strlen("abc123 lab 03; hidden 4") && strncmp(v, "abc123 lab 03; hidden 4", l) == 0);
    cr_assert(tg_record_is(rec, "rubric", "abc123", 1), "the first word of the value");
    cr_assert(!tg_record_is(rec, "rubric", "abc123", 0), "the whole value");
    cr_assert(tg_record_is(rec, "cases", "77aa", 0));
    cr_assert(!tg_record_is(rec, "cases", "77a", 0), "a prefix of the value is not the value");
    cr_assert(tg_record_is(rec, "kit", "git 1234+changes", 0));
    cr_assert(!tg_record_is(rec, "kit", "git 1234", 0));
    cr_assert_null(tg_record_value(rec, "secret", &l), "a word inside a line is not a key");
    cr_assert_null(tg_record_value(rec, "rub", &l), "a prefix of a key is not a key");
    cr_assert(tg_record_is(rec, "rubricx", "zz", 0));
    cr_assert_null(tg_record_value("", "kit", &l));
    /* the files part: the same files in the same order, whatever the other lines say */
    cr_assert(tg_record_same_files(rec, "rubric other\nfile tiled.cu sha256:ee\nkit x\nfile notes.txt none\n"));
    cr_assert(!tg_record_same_files(rec, "file tiled.cu sha256:ef\nfile notes.txt none\n"));
    cr_assert(!tg_record_same_files(rec, "file tiled.cu sha256:ee\n"));
}

Test(records, a_list_item_and_a_path_match_whole, .timeout = 10)
{
    cr_assert(tg_list_has(",ada,bob,", "bob"));
    cr_assert(tg_list_has("ada,bob", "ada"));
    cr_assert(!tg_list_has(",ada,bob,", "bo"));
    cr_assert(!tg_list_has(",ada,bobby,", "bob"));
    cr_assert(!tg_list_has(",ada,bob,", ""));
    cr_assert(!tg_list_has(",ada,,", ""));
    cr_assert(tg_path_under("/usr/lib/x", "/usr"));
    cr_assert(tg_path_under("/usr", "/usr"));
    cr_assert(!tg_path_under("/usrx/lib", "/usr"));
    cr_assert(!tg_path_under("/us", "/usr"));
    cr_assert(tg_path_under("tests/wrong", "tests"));
    cr_assert(!tg_path_under("testsuite/x", "tests"));
    tg_buf b = {0};
    tg_buf_printf(&b, "one line\nanother line\n");
    cr_assert(tg_buf_has_line(&b, "one line", 8));
    cr_assert(!tg_buf_has_line(&b, "one", 3), "a part of a line is not the line");
    cr_assert(!tg_buf_has_line(&b, "line", 4));
    tg_buf_free(&b);
}
