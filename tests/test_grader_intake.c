/* test_grader_intake.c: intake's rules without a class run (issue 23): which file names count as
 * the student file renamed, the LMS times, and the LMSs' own file-name patterns against names
 * written as Canvas and Moodle write them. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "grade.h"

Test(named_like, browser_and_lms_renames_of_the_student_file_count, .timeout = 10)
{
    const char *yes[] = {"gmm (1).c", "gmm(2).c", "gmm-1.c", "gmm_3.c", "GMM.c", "Gmm (12).C", NULL};
    for (int i = 0; yes[i]; ++i)
        cr_assert(tg_named_like("gmm.c", yes[i]), "'%s' should count as gmm.c renamed", yes[i]);
    const char *no[] = {"gmm.c.orig", "gmm.cu", "gmm2.c", "gmm-old.c", "gmm ().c", "gmm-.c", "my_gmm.c", "gmm (1.c",
                        "gmm", "tiled.cu", NULL};
    for (int i = 0; no[i]; ++i)
        cr_assert(!tg_named_like("gmm.c", no[i]), "'%s' should not count as gmm.c", no[i]);
    cr_assert(tg_named_like("tiled.cu", "tiled (1).cu"));
}

Test(times, gradescope_iso_and_canvas_times_are_read_with_their_offsets, .timeout = 10)
{
    long long a, b, c, d;
    cr_assert_eq(tg_parse_time("2026-11-20 21:14:03.482115000 -08:00", &a), 0);
    cr_assert_eq(tg_parse_time("2026-11-21T05:14:03Z", &b), 0);
    cr_assert_eq(tg_parse_time("2026-11-21T06:14:03.5+01:00", &c), 0);
    cr_assert_eq(tg_parse_time("2026-11-21 05:14:03 UTC", &d), 0);
    cr_assert_eq(a, b, "%lld != %lld", a, b);
    cr_assert_eq(b, c);
    cr_assert_eq(c, d);
    long long e;
    cr_assert_eq(tg_parse_time("2026-11-21", &e), 0, "a date alone is midnight UTC");
    cr_assert_neq(tg_parse_time("yesterday", &e), 0);
    cr_assert_neq(tg_parse_time("2026-13-01 00:00", &e), 0);
    cr_assert_neq(tg_parse_time("2026-11-21 05:14:03 -08:00 extra", &e), 0);
}

/* The named groups of pattern matched against s: "sid=..;name=..;file=..;late=.." ("" no match). */
static const char *groups(const char *pattern, const char *s)
{
    static char out[600];
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_DUPNAMES, &ec, &eo,
                                   NULL);
    cr_assert(re, "the default pattern does not compile");
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    out[0] = '\0';
    if (pcre2_match(re, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0) {
        const char *names[] = {"sid", "name", "file", "late"};
        for (int i = 0; i < 4; ++i) {
            PCRE2_UCHAR *v = NULL;
            PCRE2_SIZE vl = 0;
            size_t l = strlen(out);
            if (pcre2_substring_get_byname(md, (PCRE2_SPTR)names[i], &v, &vl) == 0) {
                snprintf(out + l, sizeof out - l, "%s=%.*s;", names[i], (int)vl, (const char *)v);
                pcre2_substring_free(v);
            } else {
                snprintf(out + l, sizeof out - l, "%s=;", names[i]);
            }
        }
    }
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return out;
}

Test(patterns, canvas_names_give_the_user_id_the_name_the_file_and_late, .timeout = 10)
{
    const char *c = tg_lms_default_pattern("canvas");
    cr_assert_str_eq(groups(c, "lovelaceada_1001_5551_gmm.c"), "sid=1001;name=lovelaceada;file=gmm.c;late=;");
    cr_assert_str_eq(groups(c, "leeann_LATE_1003_5553_gmm-1.c"), "sid=1003;name=leeann;file=gmm-1.c;late=LATE;");
    cr_assert_str_eq(groups(c, "LATE_anon_Xy12z_5560_gmm (1).c"), "sid=anon_Xy12z;name=;file=gmm (1).c;late=LATE;");
    cr_assert_str_eq(groups(c, "o_brien_pat_1009_5570_lab_01.zip"), "sid=1009;name=o_brien_pat;file=lab_01.zip;late=;");
    cr_assert_str_eq(groups(c, "readme.txt"), "");
}

Test(patterns, moodle_names_give_the_id_the_full_name_and_the_file, .timeout = 10)
{
    const char *m = tg_lms_default_pattern("moodle");
    cr_assert_str_eq(groups(m, "Lee Ann Smith_1003_assignsubmission_file_gmm (1).c"),
                     "sid=1003;name=Lee Ann Smith;file=gmm (1).c;late=;");
    cr_assert_str_eq(groups(m, "Ada Lovelace_1001_assignsubmission_file_"), "sid=1001;name=Ada Lovelace;file=;late=;");
    cr_assert_str_eq(groups(m, "Ada Lovelace_1001_assignsubmission_onlinetext_onlinetext.html"), "");
    cr_assert(tg_lms_default_pattern("gradescope") == NULL);
}
