/* test_grader_term.c: an instructor's term with the grader (issue 23), lab 01, on real layouts:
 * a Gradescope "Export Submissions" zip (tests/term/submission_metadata.yml, Gradescope's own
 * keys), a Canvas "Download Submissions" folder of loose files named as canvas-lms's
 * content_zipper.rb names them, a Moodle "Download all submissions" folder (one student in a
 * folder, one loose), and the files students rename. Public cases only: intake is what is tested
 * here, the grading itself is the class suites'. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "grader_test_util.h"
#include "util.h"

#define TG    TL_BUILD_ROOT "/grader/tl-grade"
#define WORK  TL_BUILD_ROOT "/tests/term"
#define SOL   TL_SOURCE_ROOT "/solutions/01-cpu-baseline/gmm.c"
#define WRONG TL_SOURCE_ROOT "/tests/wrong/01/adds.c"
#define SHORT TL_SOURCE_ROOT "/tests/wrong/01/loop_short.c"
#define LIMIT 900

/* Runs tl-grade for lab 01 (public cases) into WORK/NAME/out with ARGS; its exit code. */
static int grade(const char *name, const char *args)
{
    return sh("cd '%s/%s' && '%s' --kit '%s' --lab 01 --public-only --jobs 2 --out out --secret '%s/secret' %s "
              "> run.log 2>&1", WORK, name, TG, TL_SOURCE_ROOT, WORK, args);
}

static void fresh(const char *name)
{
    cr_assert_eq(sh("mkdir -p '%s' && echo 4242 > '%s/secret' && rm -rf '%s/%s' && mkdir -p '%s/%s'", WORK, WORK,
                    WORK, name, WORK, name), 0);
}

static char *text_of(const char *name, const char *rel)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s/%s", WORK, name, rel);
    char *t = tg_read_file(p, 1 << 22, NULL);
    cr_assert(t, "no %s", p);
    return t;
}

/* The gradebook row of the student shown as who: "who,score,max,..." ("" none). */
static const char *row_of(const char *csv, const char *who)
{
    static char row[1024];
    char key[300];
    snprintf(key, sizeof key, "\n%s,", who);
    const char *p = strstr(csv, key);
    row[0] = '\0';
    if (p)
        snprintf(row, sizeof row, "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
    return row;
}

/* The student's row has no score and says "not graded: WHY" in its status column. */
static int not_graded_row(const char *csv, const char *who)
{
    char pre[300];
    const char *row = row_of(csv, who);
    snprintf(pre, sizeof pre, "%s,,", who);
    return strncmp(row, pre, strlen(pre)) == 0 && strstr(row, "not graded: ") != NULL;
}

/* results.json of the student whose folder starts with prefix. */
static cJSON *results_with(const char *name, const char *prefix)
{
    char cmd[1200], dir[1024] = "";
    snprintf(cmd, sizeof cmd, "ls -d '%s/%s/out/%s'*/ 2>/dev/null | head -1", WORK, name, prefix);
    FILE *p = popen(cmd, "r");
    cr_assert(p && fgets(dir, sizeof dir, p), "no folder %s* in %s/out", prefix, name);
    pclose(p);
    dir[strcspn(dir, "\n")] = '\0';
    char path[1100];
    snprintf(path, sizeof path, "%sresults.json", dir);
    return load_results(path, prefix);
}

Test(term, a_gradescope_export_zip_names_every_student_and_grades_the_latest_submission, .timeout = LIMIT)
{
    fresh("gs");
    const char *x = WORK "/gs/assignment_4242_export";
    cr_assert_eq(sh("mkdir -p '%s' && cp '%s/tests/term/submission_metadata.yml' '%s/' && cd '%s' && "
                    "mkdir submission_81001 submission_81002 submission_81003 submission_81004 submission_81005 "
                    "submission_99999 && cp '%s' submission_81001/gmm.c && cp '%s' submission_81002/gmm.c && "
                    "cp '%s' 'submission_81003/gmm (1).c' && cp '%s' submission_81004/gmm.c && "
                    "mkdir -p submission_81005/labs/01-cpu-baseline && cp '%s' submission_81005/labs/01-cpu-baseline/ && "
                    "cp '%s' submission_99999/ && cd .. && zip -qr export.zip assignment_4242_export && "
                    "rm -rf assignment_4242_export", x, TL_SOURCE_ROOT, x, x, SHORT, WRONG, SOL, SOL, SOL, SOL), 0);
    int rc = grade("gs", "--roster '" TL_SOURCE_ROOT "/tests/term/roster.csv' --from gradescope export.zip");
    char *log = text_of("gs", "run.log");
    cr_assert_eq(rc, 3, "one student is not graded (no folder): exit 3, not %d\n%s", rc, log);
    char *csv = text_of("gs", "out/gradebook.csv");
    /* Ada resubmitted: the later submission (the solution) is graded, the earlier (70%) said superseded */
    cr_assert(strncmp(row_of(csv, "Ada Lovelace"), "Ada Lovelace,60.00,60.00", 24) == 0, "%s", csv);
    cr_assert(strncmp(row_of(csv, "Lee Ann Smith"), "Lee Ann Smith,60.00,60.00", 25) == 0, "%s", csv);
    cr_assert(strncmp(row_of(csv, "Grace Hopper"), "Grace Hopper,60.00,60.00", 24) == 0, "%s", csv);
    cr_assert(strncmp(row_of(csv, "Alan Turing"), "Alan Turing,60.00,60.00", 23) == 0, "%s", csv);
    cr_assert(strncmp(row_of(csv, "Charles Babbage"), "Charles Babbage,40.00,60.00", 27) == 0, "%s", csv);
    cr_assert(not_graded_row(csv, "Kurt Gödel"), "%s", csv);
    cr_assert(!strstr(csv, "\nsubmission_"), "a student named after the export's folder:\n%s", csv);
    cr_assert(!strstr(csv, "\nsubmission_metadata"), "the metadata file graded as a student:\n%s", csv);
    char *intake = text_of("gs", "out/intake.md");
    cr_assert(strstr(intake, "'submission_99999' is in the export but not in submission_metadata.yml"), "%s", intake);
    cr_assert(strstr(intake, "submission_81001 (2026-11-20 21:14:03.482115000 -08:00) superseded by submission_81004"),
              "%s", intake);
    cJSON *js = results_with("gs", "Ada_Lovelace_1001");
    const cJSON *who = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "who");
    cr_assert_str_eq(string_at(who, "email"), "ada@uni.example.edu");
    cr_assert_str_eq(string_at(who, "sid"), "1001");
    cr_assert_str_eq(string_at(who, "submitted_at"), "2026-11-21 23:55:40.100000000 -08:00");
    cr_assert_str_eq(string_at(who, "from"), "gradescope");
    cJSON_Delete(js);
    js = results_with("gs", "Lee_Ann_Smith_1003");
    cr_assert(strstr(output_of(js), "took gmm (1).c as gmm.c: the only file named like it"), "%s", output_of(js));
    cr_assert(!strstr(output_of(js), "ignored"), "the taken file is listed as ignored: %s", output_of(js));
    cJSON_Delete(js);
    /* the roster join and the LMS files: a row per roster student, never words in a score */
    char *gsv = text_of("gs", "out/gradescope.csv");
    cr_assert(strstr(gsv, "Name,SID,Email,Total Score,Max Points,Status,Submission Time\n"), "%s", gsv);
    cr_assert(strstr(gsv, "\nAda Lovelace,1001,ada@uni.example.edu,60.00,60.00,Graded,2026-11-21 23:55:40.100000000 "
                          "-08:00\n"), "%s", gsv);
    cr_assert(strstr(gsv, "\nKurt Gödel,1007,kurt@uni.example.edu,,60.00,Ungraded,") &&
              strstr(gsv, "\nEmmy Noether,1008,emmy@uni.example.edu,,60.00,Missing,\n"), "%s", gsv);
    free(gsv);
    char *ro = text_of("gs", "out/roster.md");
    cr_assert(strstr(ro, "6 of 7 roster students matched") && strstr(ro, "- Emmy Noether (1008, emmy@uni.example.edu)"),
              "%s", ro);
    free(ro);
    char *ng = text_of("gs", "out/Kurt_G__del_1007-8b03b176/not-graded.txt");
    cr_assert(strstr(ng, "no folder 'submission_81007'"), "%s", ng);
    free(ng);
    free(intake);
    free(csv);
    free(log);
}

Test(term, a_canvas_download_maps_loose_files_to_students_and_lists_what_it_cannot, .timeout = LIMIT)
{
    fresh("canvas");
    const char *d = WORK "/canvas/dl";
    /* canvas-lms content_zipper.rb: sortable name lowercased without punctuation, LATE when late,
     * the user id, the attachment id, the file's display name (Canvas renames a repeat "gmm-1.c") */
    cr_assert_eq(sh("mkdir -p '%s' && cd '%s' && cp '%s' lovelaceada_1001_5551_gmm.c && "
                    "cp '%s' smithleeann_LATE_1003_5553_gmm-1.c && cp '%s' babbagecharles_1002_5552_gmm.c && "
                    "echo notes > babbagecharles_1002_5559_notes.txt && mkdir -p z/lab && cp '%s' z/lab/ && "
                    "(cd z && zip -qr ../hoppergrace_1005_5555_lab01.zip lab) && rm -rf z && "
                    "cp '%s' 'turingalan_1006_5556_gmm (1).c' && cp '%s' turingalan_1006_5557_GMM.c && "
                    "cp '%s' noetheremmy_1008_5561_occupancy.c && echo hi > readme.txt",
                    d, d, SOL, SOL, WRONG, SOL, SOL, SOL, SOL), 0);
    int rc = grade("canvas", "--roster '" TL_SOURCE_ROOT "/tests/term/roster.csv' --from canvas dl");
    char *log = text_of("canvas", "run.log");
    cr_assert_eq(rc, 3, "two students are not graded: exit 3, not %d\n%s", rc, log);
    char *csv = text_of("canvas", "out/gradebook.csv");
    cr_assert(strncmp(row_of(csv, "lovelaceada"), "lovelaceada,60.00,60.00", 23) == 0, "%s", csv);
    cr_assert(strncmp(row_of(csv, "smithleeann"), "smithleeann,60.00,60.00", 23) == 0, "the renamed gmm-1.c:\n%s", csv);
    cr_assert(strncmp(row_of(csv, "hoppergrace"), "hoppergrace,60.00,60.00", 23) == 0, "the zip:\n%s", csv);
    cr_assert(strncmp(row_of(csv, "babbagecharles"), "babbagecharles,40.00,60.00", 26) == 0, "%s", csv);
    cr_assert(not_graded_row(csv, "turingalan"), "%s", csv);
    cr_assert(not_graded_row(csv, "noetheremmy"), "%s", csv);
    cr_assert(strstr(log, "2 candidates for gmm.c (GMM.c, gmm (1).c)") || strstr(log, "2 candidates for gmm.c "
              "(gmm (1).c, GMM.c)"), "%s", log);
    cr_assert(strstr(log, "no gmm.c in the submission") && strstr(log, "files found: occupancy.c"), "%s", log);
    char *intake = text_of("canvas", "out/intake.md");
    cr_assert(strstr(intake, "not matched by the file-name pattern") && strstr(intake, "readme.txt"), "%s", intake);
    cr_assert(strstr(intake, "smithleeann, SID 1003") && strstr(intake, "marks this submission late"), "%s", intake);
    free(intake);
    /* Canvas's squashed sortable names join the roster's names; its user ids go in the ID column */
    char *cv = text_of("canvas", "out/canvas.csv");
    cr_assert(strstr(cv, "Student,ID,SIS User ID,SIS Login ID,Section,Lab 01 (tilelab)\nPoints Possible,,,,,60.00\n"),
              "%s", cv);
    cr_assert(strstr(cv, "\nLee Ann Smith,1003,1003,,,60.00\n") && strstr(cv, "\nAda Lovelace,1001,1001,,,60.00\n") &&
              strstr(cv, "\nAlan Turing,1006,1006,,,\n") && strstr(cv, "\nKurt Gödel,,1007,,,\n"), "%s", cv);
    cr_assert(!strstr(cv, "not graded"), "words in a numeric column:\n%s", cv);
    free(cv);
    char *ro = text_of("canvas", "out/roster.md");
    cr_assert(strstr(ro, "- Kurt Gödel (1007, kurt@uni.example.edu)") && strstr(ro, "6 of 7 roster students matched") &&
              strstr(ro, "Submissions not in the roster (0)"), "%s", ro);
    free(ro);
    free(csv);
    free(log);
}

Test(term, a_moodle_download_in_folders_or_loose_and_a_pattern_of_ones_own, .timeout = LIMIT)
{
    fresh("moodle");
    const char *d = WORK "/moodle/dl";
    /* moodle mod/assign: "Full Name_ID_assignsubmission_file_" then the file (or a folder of that name) */
    cr_assert_eq(sh("mkdir -p '%s/Ada Lovelace_1001_assignsubmission_file_' && cd '%s' && "
                    "cp '%s' 'Ada Lovelace_1001_assignsubmission_file_/' && "
                    "cp '%s' 'Lee Ann Smith_1003_assignsubmission_file_gmm (1).c' && "
                    "cp '%s' 'Charles Babbage_1002_assignsubmission_file_GMM.c'", d, d, SOL, SOL, WRONG), 0);
    int rc = grade("moodle", "--from moodle dl");
    char *log = text_of("moodle", "run.log");
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log);
    char *csv = text_of("moodle", "out/gradebook.csv");
    cr_assert(strncmp(row_of(csv, "Ada Lovelace"), "Ada Lovelace,60.00,60.00", 24) == 0, "%s", csv);
    cr_assert(strncmp(row_of(csv, "Lee Ann Smith"), "Lee Ann Smith,60.00,60.00", 25) == 0, "%s", csv);
    cr_assert(strncmp(row_of(csv, "Charles Babbage"), "Charles Babbage,40.00,60.00", 27) == 0, "%s", csv);
    free(csv);
    free(log);
    /* The same files renamed by a course's own convention, mapped by --name-pattern. */
    fresh("pattern");
    cr_assert_eq(sh("mkdir -p '%s/pattern/dl' && cd '%s/pattern/dl' && cp '%s' 'lab01-s1001-ada@uni.example.edu-gmm.c'",
                    WORK, WORK, SOL), 0);
    rc = grade("pattern", "--from canvas dl --name-pattern '^lab01-s(?<sid>[0-9]+)-(?<email>[^-]+)-(?<file>.+)$'");
    log = text_of("pattern", "run.log");
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log);
    csv = text_of("pattern", "out/gradebook.csv");
    cr_assert(strncmp(row_of(csv, "ada@uni.example.edu"), "ada@uni.example.edu,60.00,60.00", 31) == 0, "%s", csv);
    free(csv);
    free(log);
}

Test(term, a_loose_file_two_candidates_or_none_are_not_graded_with_the_files_listed, .timeout = LIMIT)
{
    fresh("loose");
    cr_assert_eq(sh("cd '%s/loose' && cp '%s' lee_ann_12345_67890_gmm.c && mkdir -p both/labs/01-cpu-baseline && "
                    "cp '%s' both/gmm.c && cp '%s' both/labs/01-cpu-baseline/gmm.c && mkdir empty && "
                    "echo x > empty/notes.txt && mkdir upper && cp '%s' upper/GMM.c", WORK, SOL, WRONG, SOL, SOL), 0);
    int rc = grade("loose", "lee_ann_12345_67890_gmm.c both empty upper");
    char *log = text_of("loose", "run.log");
    cr_assert_eq(rc, 3, "exit %d\n%s", rc, log);
    char *csv = text_of("loose", "out/gradebook.csv");
    cr_assert(not_graded_row(csv, "lee_ann_12345_67890_gmm.c"), "%s", csv);
    cr_assert(not_graded_row(csv, "both") && not_graded_row(csv, "empty"), "%s", csv);
    cr_assert(strstr(csv, "\nupper,60.00,60.00"), "GMM.c, the only candidate, is taken:\n%s", csv);
    cr_assert(strstr(log, "'lee_ann_12345_67890_gmm.c' is a loose file") && strstr(log, "--from canvas|moodle"), "%s",
              log);
    cr_assert(strstr(log, "2 candidates for gmm.c (gmm.c, labs/01-cpu-baseline/gmm.c)"), "%s", log);
    cr_assert(strstr(log, "no gmm.c in the submission") && strstr(log, "files found: notes.txt"), "%s", log);
    cr_assert(!strstr(log, "skeleton"), "the skeleton was built for someone:\n%s", log);
    free(csv);
    free(log);
}

Test(term, a_bad_export_or_pattern_is_a_usage_error_that_names_the_fix, .timeout = LIMIT)
{
    fresh("usage");
    cr_assert_eq(sh("cd '%s/usage' && mkdir -p badyaml empty && printf 'submission_1:\\n  :submitters: [\\n' > "
                    "badyaml/submission_metadata.yml", WORK), 0);
    cr_assert_eq(grade("usage", "--from gradescope badyaml"), 2);
    char *log = text_of("usage", "run.log");
    cr_assert(strstr(log, "is not valid YAML") && strstr(log, "line"), "%s", log);
    free(log);
    cr_assert_eq(grade("usage", "--from gradescope empty"), 2);
    log = text_of("usage", "run.log");
    cr_assert(strstr(log, "no submission_metadata.yml") && strstr(log, "Export Submissions"), "%s", log);
    free(log);
    cr_assert_eq(grade("usage", "--from canvas empty --name-pattern '^(?<file>.+)$'"), 2);
    log = text_of("usage", "run.log");
    cr_assert(strstr(log, "it names no student"), "%s", log);
    free(log);
    cr_assert_eq(grade("usage", "--from canvas empty --name-pattern '^(?<sid>[0-9+)$'"), 2);
    log = text_of("usage", "run.log");
    cr_assert(strstr(log, "--name-pattern") && strstr(log, "offset"), "%s", log);
    free(log);
    cr_assert_eq(grade("usage", "--from blackboard empty"), 2);
    cr_assert_eq(grade("usage", "--from canvas empty extra_submission"), 2);
}

Test(term, a_rerun_regrades_a_resubmission_refuses_a_new_rubric_and_keeps_the_whole_class, .timeout = LIMIT)
{
    fresh("rerun");
    cr_assert_eq(sh("cd '%s/rerun' && mkdir -p in/ada in/bob in/cy && cp '%s' in/ada/gmm.c && cp '%s' in/bob/gmm.c && "
                    "cp '%s' in/cy/gmm.c", WORK, SOL, WRONG, SHORT), 0);
    cr_assert_eq(grade("rerun", "in/ada in/bob"), 0);
    char *csv = text_of("rerun", "out/gradebook.csv");
    cr_assert(strstr(csv, "\nbob,40.00,60.00"), "%s", csv);
    free(csv);
    char *gf = text_of("rerun", "out/bob/graded-from.txt");
    cr_assert(strstr(gf, "rubric ") && strstr(gf, "cases ") && strstr(gf, "kit ") && strstr(gf, "file gmm.c sha256:"),
              "%s", gf);
    free(gf);
    /* bob resubmits the solution: his files changed, he is graded again; ada is kept */
    cr_assert_eq(sh("cp '%s' '%s/rerun/in/bob/gmm.c'", SOL, WORK), 0);
    cr_assert_eq(grade("rerun", "in/ada in/bob"), 0);
    char *log = text_of("rerun", "run.log");
    cr_assert(strstr(log, "bob: its files changed since it was graded (a resubmission): graded again"), "%s", log);
    cr_assert(strstr(log, "ada ... 60/60 (graded earlier from the same files"), "%s", log);
    free(log);
    csv = text_of("rerun", "out/gradebook.csv");
    cr_assert(strstr(csv, "\nbob,60.00,60.00"), "the resubmission kept its old grade:\n%s", csv);
    free(csv);
    /* a late student graded alone into the class's out dir: the class keeps everyone */
    cr_assert_eq(grade("rerun", "in/cy"), 0);
    csv = text_of("rerun", "out/gradebook.csv");
    cr_assert(strstr(csv, "\nada,60.00,60.00") && strstr(csv, "\nbob,60.00,60.00") && strstr(csv, "\ncy,40.00,60.00"),
              "the gradebook lost the class:\n%s", csv);
    free(csv);
    cr_assert_eq(sh("cd '%s/rerun' && '%s' --status out > status.txt 2>&1", WORK, TG), 0);
    char *status = text_of("rerun", "status.txt");
    cr_assert(strstr(status, "3 of 3 graded"), "%s", status);
    free(status);
    /* a new rubric (points and hidden sizes changed in a file, no rebuild) is refused without --regrade */
    cr_assert_eq(sh("cd '%s/rerun' && '%s' --print-rubric 01 | sed 's/^20\\tGMM_CPU (cpu_ijk), public sizes/30\\t"
                    "GMM_CPU (cpu_ijk), public sizes/; s/^hidden_count\\t4/hidden_count\\t6/' > r.tsv && "
                    "grep -q '^30' r.tsv", WORK, TG), 0);
    cr_assert_eq(grade("rerun", "--rubric r.tsv in/cy"), 2);
    log = text_of("rerun", "run.log");
    cr_assert(strstr(log, "graded with another rubric") && strstr(log, "pass --regrade"), "%s", log);
    free(log);
    cr_assert_eq(grade("rerun", "--rubric r.tsv --regrade in/cy"), 0);
    csv = text_of("rerun", "out/gradebook.csv");
    cr_assert(strstr(csv, "\nada,70.00,70.00") && strstr(csv, "\nbob,70.00,70.00") && strstr(csv, "\ncy,40.00,70.00"),
              "one rubric for the whole class after --regrade:\n%s", csv);
    free(csv);
    char *md = text_of("rerun", "out/summary.md");
    cr_assert(strstr(md, "from r.tsv") && strstr(md, "GMM_CPU (cpu_ijk), public sizes = 30") && strstr(md, "hidden 6"),
              "the summary does not show the rubric:\n%.1500s", md);
    free(md);
    /* --regrade=NAME: only that student; a rubric with an unknown test is refused with its line */
    cr_assert_eq(grade("rerun", "--rubric r.tsv --regrade=bob in/cy"), 0);
    log = text_of("rerun", "run.log");
    cr_assert(strstr(log, "bob: graded again (--regrade)") && !strstr(log, "ada: graded again"), "%s", log);
    free(log);
    cr_assert_eq(sh("cd '%s/rerun' && printf 'lab\\t01\\n5\\tno such test\\n' > bad.tsv", WORK), 0);
    cr_assert_eq(grade("rerun", "--rubric bad.tsv in/cy"), 2);
    log = text_of("rerun", "run.log");
    cr_assert(strstr(log, "bad.tsv' line 2: lab 01 has no test 'no such test'; its tests are:"), "%s", log);
    free(log);
}

Test(term, one_total_an_empty_file_or_the_skeleton_earns_nothing_and_a_failed_build_has_the_same_maximum,
     .timeout = LIMIT)
{
    fresh("total");
    cr_assert_eq(sh("cd '%s/total' && mkdir -p in/empty in/skeleton in/broken in/good && : > in/empty/gmm.c && "
                    "printf '\\n  \\n' >> in/empty/gmm.c && cp '%s/labs/01-cpu-baseline/gmm.c' in/skeleton/ && "
                    "cp '%s/tests/wrong/01/does_not_compile.c' in/broken/gmm.c && cp '%s' in/good/gmm.c", WORK,
                    TL_SOURCE_ROOT, TL_SOURCE_ROOT, SOL), 0);
    cr_assert_eq(grade("total", "in/*"), 0);
    char *csv = text_of("total", "out/gradebook.csv");
    cr_assert(strstr(csv, "\nempty,0.00,60.00,") && strstr(csv, "\nskeleton,0.00,60.00,"),
              "no work earns nothing:\n%s", csv);
    cr_assert(strstr(csv, "\nbroken,0.00,60.00,") && strstr(csv, "\ngood,60.00,60.00,"),
              "a failed build is out of the same maximum:\n%s", csv);
    cr_assert(strstr(csv, ",status,not_graded_here,email,sid,submitted_at\n"), "%s", csv);
    cJSON *js = results_with("total", "empty");   /* (an empty gmm.c does not link: the build fails) */
    cr_assert_float_eq(number_at(js, "score"), 0.0, 1e-9);
    cJSON_Delete(js);
    js = results_with("total", "skeleton");        /* it builds, and its policy test would pass */
    cr_assert_float_eq(number_at(js, "score"), 0.0, 1e-9);
    cr_assert(strstr(output_of(js), "no work handed in"), "%s", output_of(js));
    cJSON_Delete(js);
    /* the same score and maximum in results.json, the gradebook and the summary */
    js = results_with("total", "good");
    const cJSON *tl = cJSON_GetObjectItemCaseSensitive(js, "tilelab");
    cr_assert_float_eq(number_at(js, "score"), 60.0, 1e-9);
    cr_assert_float_eq(number_at(tl, "max"), 60.0, 1e-9);
    cJSON_Delete(js);
    char *md = text_of("total", "out/summary.md");
    cr_assert(strstr(md, "| good | 60/60 |") && strstr(md, "| broken | 0/60 |") && strstr(md, "| empty | 0/60 |"),
              "%.2000s", md);
    free(md);
    free(csv);
}

Test(term, due_dates_take_the_files_time_a_penalty_per_day_a_cap_and_extensions_and_keep_the_graded_files,
     .timeout = LIMIT)
{
    fresh("due");
    cr_assert_eq(sh("cd '%s/due' && for s in ontime late ext verylate; do mkdir -p in/$s && cp '%s' in/$s/gmm.c; done && "
                    "touch -d 2026-11-20T12:00:00Z in/ontime/gmm.c && touch -d 2026-11-23T12:00:00Z in/late/gmm.c "
                    "in/ext/gmm.c && touch -d 2026-12-30T12:00:00Z in/verylate/gmm.c && "
                    "printf 'name,days\\next,3\\n' > ext.csv", WORK, SOL), 0);
    int rc = grade("due", "--due 2026-11-21T04:00-08:00 --late-penalty 10 --late-cap 50 --grace 10 "
                   "--extensions ext.csv in/*");
    char *log = text_of("due", "run.log");
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log);
    free(log);
    char *csv = text_of("due", "out/gradebook.csv");
    cr_assert(strstr(csv, "\nontime,60.00,60.00,") && strstr(csv, "\next,60.00,60.00,"), "%s", csv);
    cr_assert(strstr(csv, "\nlate,48.00,60.00,"), "two days late at 10%% a day:\n%s", csv);
    cr_assert(strstr(csv, "\nverylate,30.00,60.00,"), "capped at 50%%:\n%s", csv);
    free(csv);
    cJSON *js = results_with("due", "late");
    const cJSON *late = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "late");
    cr_assert_float_eq(number_at(late, "days_late"), 2, 1e-9);
    cr_assert_float_eq(number_at(late, "penalty_percent"), 20, 1e-9);
    cr_assert_float_eq(number_at(late, "score_before"), 60, 1e-9);
    cr_assert_str_eq(string_at(late, "submitted_at"), "2026-11-23T12:00:00Z");
    cr_assert_str_eq(string_at(late, "time_from"), "file");
    cr_assert_float_eq(number_at(js, "score"), 48, 1e-9, "results.json's score is the gradebook's");
    cr_assert(strstr(output_of(js), "late: submitted 2026-11-23T12:00:00Z (the file's own time), 2 day(s) after"),
              "%s", output_of(js));
    cJSON_Delete(js);
    cr_assert_eq(sh("cmp -s '%s' '%s/due/out/late/graded-files/gmm.c'", SOL, WORK), 0,
                 "the graded file is not kept in DIR/<student>/graded-files/");
    /* a changed late policy is a changed grading: refused without --regrade */
    cr_assert_eq(grade("due", "--due 2026-11-21T04:00-08:00 --late-penalty 20 --late-cap 50 --grace 10 "
                       "--extensions ext.csv in/*"), 2);
    cr_assert_eq(sh("cd '%s/due' && printf 'sid,due\\n1,yesterday\\n' > bad.csv", WORK), 0);
    cr_assert_eq(grade("due", "--due 2026-11-21T04:00-08:00 --extensions bad.csv in/*"), 2);
    log = text_of("due", "run.log");
    cr_assert(strstr(log, "bad.csv' line 2: due 'yesterday' is not a date"), "%s", log);
    free(log);
}

Test(term, similar_pairs_are_listed_with_the_skeleton_left_out_and_never_scored, .timeout = LIMIT)
{
    fresh("similar");
    /* ana's file with every name changed (a copy sim_c still sees), and the skeleton handed in */
    cr_assert_eq(sh("cd '%s/similar' && mkdir -p in/ana in/ben in/cat && cp '%s' in/ana/gmm.c && "
                    "sed 's/\\bsum\\b/acc/g; s/\\bi\\b/row/g; s/\\bj\\b/col/g' '%s' > in/ben/gmm.c && "
                    "cp '%s/labs/01-cpu-baseline/gmm.c' in/cat/", WORK, SOL, SOL, TL_SOURCE_ROOT), 0);
    cr_assert_eq(grade("similar", "in/*"), 0);
    char *md = text_of("similar", "out/summary.md");
    cr_assert(strstr(md, "## Similarity (never part of a score)") && strstr(md, "| ana | ben | "), "%.3000s", md);
    cr_assert(!strstr(md, "| ana | cat |") && !strstr(md, "| ben | cat |"), "the skeleton's lines were compared:\n%.3000s",
              md);
    free(md);
    char *csv = text_of("similar", "out/gradebook.csv");
    cr_assert(strstr(csv, "\nana,60.00,60.00,") && strstr(csv, "\nben,60.00,60.00,"), "a similarity changed a score:\n%s",
              csv);
    free(csv);
    cr_assert_eq(sh("cd '%s/similar' && '%s' --kit '%s' --similar out --threshold 90 > sim.txt 2>&1", WORK, TG,
                    TL_SOURCE_ROOT), 0);
    char *txt = text_of("similar", "sim.txt"), *file = text_of("similar", "out/similarity.md");
    cr_assert(strstr(txt, "| ana | ben | ") && strstr(txt, "at least 90 %") && strcmp(txt, file) == 0, "%s", txt);
    free(txt);
    free(file);
}
