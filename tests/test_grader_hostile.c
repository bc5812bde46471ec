/* test_grader_hostile.c: issue 11's attack classes, each a submission graded in one lab 01 class
 * with the solution beside it: the evasions of the old token scan (caught from the object's
 * symbols), an "error no usable CUDA device" answer in a CPU lab, kill -1, escape codes, a
 * macro bomb, a labs/ link to the solutions, and students named like class files, options and in
 * any Unicode. The class is graded once (a stamp per tl-grade binary); each test reads it. The
 * grade each hostile file gets is in tests/hostile/expected.txt. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "grade.h"
#include "hostile_expected.h"
#include "sandbox.h"
#include "util.h"

#define TG    TL_BUILD_ROOT "/grader/tl-grade"
#define CLASS TL_BUILD_ROOT "/tests/hostile11"
#define IN    CLASS "/in"
#define OUT   CLASS "/out"
#define LIMIT 900

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static const char *const evasions[] = {"evade_macro_alias", "evade_function_pointer", "evade_parenthesized",
                                       "evade_redefine_extname", "evade_io_fopen", "evade_pasted_asm", NULL};
static const char *const others[] = {"kill_everyone", "error_no_device", "escape_codes", "macro_bomb", "helper_names",
                                     "include_terminal", "libc_resolver", "init_array_entry", "include_own_pipe",
                                     "build_reads_outside", NULL};
/* The idle time of this class's builds (the instructor's TL_GRADE_BUILD_IDLE_S; 30 s by default):
 * include_own_pipe's idle build costs IDLE_S seconds of one job's wall clock, not 30. */
#define IDLE_S 6
/* Issue 24 item 1: each refused before any test runs; what the refusal must name. */
static const struct { const char *file, *names; } refused[] = {
    {"interpose_fprintf", "defines fprintf ("}, {"interpose_kit_timer", "defines weak tl_now_ms ("},
    {"kit_reference", "links tl_reference_gemm ("}, {"host_asm_rdtsc", "gmm.c:9: host inline assembly"},
    /* session 9's red team: a weak alias, a symbol version, a TLS variable, a whole kit archive member */
    {"interpose_weak_alias", "defines weak puts ("}, {"interpose_symver", "defines memcpy@GLIBC_2.2.5 ("},
    {"interpose_tls_errno", "defines errno ("}, {"interpose_kit_verdict", "defines tl_verdict_json ("}, {NULL, NULL}};

/* Unicode names: two that the old grader collapsed to ______ and ______-2. */
#define UNI1 "\xe6\x9d\x8e\xe5\x9b\x9b"              /* 李四 */
#define UNI2 "\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd"      /* Иван */
#define NFC  "Ren\xc3\xa9"                              /* René, composed   */
#define NFD  "Rene\xcc\x81"                             /* René, decomposed */

static void grade_class(void)
{
    struct stat st;
    cr_assert_eq(stat(TG, &st), 0, "tl-grade is not built");
    char stamp[256];
    snprintf(stamp, sizeof stamp, "%s/.stamp-%lld-%lld", CLASS, (long long)st.st_mtime, (long long)st.st_size);
    if (access(stamp, F_OK) == 0)
        return;
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s'", CLASS, IN), 0);
    const char *sol = TL_SOURCE_ROOT "/solutions/01-cpu-baseline/gmm.c";
    cr_assert_eq(sh("mkdir -p '%s/solution' && cp '%s' '%s/solution/'", IN, sol, IN), 0);
    for (int i = 0; evasions[i]; ++i)
        cr_assert_eq(sh("mkdir -p '%s/%s' && cp '%s/tests/hostile/01/%s.c' '%s/%s/gmm.c'", IN, evasions[i],
                        TL_SOURCE_ROOT, evasions[i], IN, evasions[i]), 0);
    for (int i = 0; others[i]; ++i)
        cr_assert_eq(sh("mkdir -p '%s/%s' && cp '%s/tests/hostile/01/%s.c' '%s/%s/gmm.c'", IN, others[i],
                        TL_SOURCE_ROOT, others[i], IN, others[i]), 0);
    for (int i = 0; refused[i].file; ++i)
        cr_assert_eq(sh("mkdir -p '%s/%s' && cp '%s/tests/hostile/01/%s.c' '%s/%s/gmm.c'", IN, refused[i].file,
                        TL_SOURCE_ROOT, refused[i].file, IN, refused[i].file), 0);
    /* A folder whose labs/ is a link to the kit's solutions (and one whose labs/01-* is). */
    cr_assert_eq(sh("mkdir -p '%s/labs_link' && ln -s '%s/solutions' '%s/labs_link/labs'", IN, TL_SOURCE_ROOT, IN), 0);
    cr_assert_eq(sh("mkdir -p '%s/lab_dir_link/labs' && ln -s '%s/solutions/01-cpu-baseline' "
                    "'%s/lab_dir_link/labs/01-cpu-baseline'", IN, TL_SOURCE_ROOT, IN), 0);
    /* Students named like the class files, like an option, and in other scripts: the solution. */
    const char *named[] = {"gradebook.csv", "summary.md", "--public-only", UNI1, UNI2, NULL};
    for (int i = 0; named[i]; ++i)
        cr_assert_eq(sh("mkdir -p '%s/%s' && cp '%s' '%s/%s/gmm.c'", IN, named[i], sol, IN, named[i]), 0);
    /* Issue 24 item 7: a name with a newline in it, and a folder and an archive of one name. */
    cr_assert_eq(sh("mkdir -p '%s/new\nline' && cp '%s' '%s/new\nline/gmm.c'", IN, sol, IN), 0);
    cr_assert_eq(sh("mkdir -p '%s/twin' '%s/.tw/twin' && cp '%s' '%s/twin/' && cp '%s' '%s/.tw/twin/' && "
                    "tar -czf '%s/twin.tar.gz' -C '%s/.tw' twin && rm -rf '%s/.tw'", IN, IN, sol, IN, sol, IN, IN, IN,
                    IN), 0);
    /* Session 9's red team (issue 24 item 7): a name with a single leading dash, one name in Unicode's
     * composed and decomposed forms (they look alike, their bytes differ), and two archives of two
     * kinds that unpack to one folder name. */
    cr_assert_eq(sh("mkdir -p '%s/-rf' '%s/" NFC "' '%s/" NFD "' && cp '%s' '%s/-rf/gmm.c' && cp '%s' '%s/" NFC "/' && "
                    "cp '%s' '%s/" NFD "/'", IN, IN, IN, sol, IN, sol, IN, sol, IN), 0);
    cr_assert_eq(sh("mkdir -p '%s/.pr/pair' && cp '%s' '%s/.pr/pair/' && tar -czf '%s/pair.tar.gz' -C '%s/.pr' pair && "
                    "cd '%s/.pr' && python3 -m zipfile -c '%s/pair.zip' pair && rm -rf '%s/.pr'", IN, sol, IN, IN, IN, IN,
                    IN, IN), 0);
    /* From inside the class folder, as an instructor types it: the shell's * puts the folder named
     * --public-only first, where it is still a student (it exists), never the option. */
    sh("rm -f /var/tmp/tl-hostile-escape /tmp/tl-hostile-escape-host");   /* libc_resolver's targets */
    sh("cd '%s' && TL_GRADE_BUILD_IDLE_S=%d '%s' --kit '%s' --lab 01 --out '%s' --jobs 2 * > '%s/log' 2>&1", IN, IDLE_S,
       TG, TL_SOURCE_ROOT, OUT, CLASS);
    cr_assert_eq(sh("touch '%s'", stamp), 0);
}

/* results.json of the student whose display name is `who` (folder names are the grader's). */
static cJSON *results_of(const char *who)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls -d '%s'/*/ 2>/dev/null", OUT);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    char dir[1024];
    cJSON *found = NULL;
    while (!found && fgets(dir, sizeof dir, p)) {
        dir[strcspn(dir, "\n")] = '\0';
        char f[1200];
        snprintf(f, sizeof f, "%sresults.json", dir);
        char *text = tg_read_file(f, 1 << 24, NULL);
        cJSON *js = text ? cJSON_Parse(text) : NULL;
        free(text);
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "student");
        if (cJSON_IsString(s) && strcmp(s->valuestring, who) == 0)
            found = js;
        else
            cJSON_Delete(js);
    }
    pclose(p);
    cr_assert(found, "no results.json for student '%s' in %s", who, OUT);
    return found;
}

static double score_of(const cJSON *js)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(js, "score");
    cr_assert(cJSON_IsNumber(s));
    return s->valuedouble;
}

/* The output of the test named name (or of the whole report with name NULL). */
static const char *output_of(const cJSON *js, const char *name)
{
    if (!name) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(js, "output");
        return cJSON_IsString(o) ? o->valuestring : "";
    }
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(js, "tests")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "name");
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(t, "output");
        if (cJSON_IsString(n) && strstr(n->valuestring, name) && cJSON_IsString(o))
            return o->valuestring;
    }
    cr_assert_fail("no test named like '%s'", name);
    return "";
}

static double test_score(const cJSON *js, const char *name)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(js, "tests")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "name");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(t, "score");
        if (cJSON_IsString(n) && strstr(n->valuestring, name) && cJSON_IsNumber(s))
            return s->valuedouble;
    }
    cr_assert_fail("no test named like '%s'", name);
    return -1;
}

Test(hostile11, the_solution_and_the_oddly_named_copies_of_it_get_full_marks, .timeout = LIMIT)
{
    grade_class();
    const char *full[] = {"solution", "gradebook.csv", "summary.md", "--public-only", UNI1, UNI2, "escape_codes",
                          "helper_names", "build_reads_outside", NULL};
    for (int i = 0; full[i]; ++i) {
        cJSON *js = results_of(full[i]);
        cr_assert_eq(score_of(js), 100.0, "%s scored %g, not 100: %s", full[i], score_of(js), output_of(js, NULL));
        cJSON_Delete(js);
    }
}

Test(hostile11, every_evasion_of_the_token_scan_loses_the_policy_points_naming_the_symbol, .timeout = LIMIT)
{
    grade_class();
    for (int i = 0; evasions[i]; ++i) {
        cJSON *js = results_of(evasions[i]);
        const char *out = output_of(js, "policy");
        cr_assert_eq(test_score(js, "policy"), 0.0, "%s kept the policy points: %s", evasions[i], out);
        int named = strstr(evasions[i], "asm") ? strstr(out, "system call instruction") != NULL
                    : strstr(evasions[i], "io_fopen") ? strstr(out, "_IO_fopen") != NULL
                                                       : strstr(out, "links fopen") != NULL;
        cr_assert(named && strstr(out, "gmm.c:"), "%s: the finding names no symbol and line: %s", evasions[i], out);
        cr_assert_lt(score_of(js), 100.0);
        cJSON_Delete(js);
    }
}

/* Issue 24 item 1: an object that defines a runtime or kit name, links a kit function the lab does
 * not list, or holds host asm runs no test: every test 0, the refusal naming the symbol and line. */
Test(hostile24, interposition_unlisted_kit_calls_and_host_asm_run_nothing_and_name_the_symbol, .timeout = LIMIT)
{
    grade_class();
    for (int i = 0; refused[i].file; ++i) {
        cJSON *js = results_of(refused[i].file);
        cr_assert_eq(score_of(js), 0.0, "%s scored %g: %s", refused[i].file, score_of(js), output_of(js, NULL));
        const char *pub = output_of(js, "cpu_ijk), public");
        cr_assert(strstr(pub, "not run: the program's answers could not be trusted") && strstr(pub, refused[i].names) &&
                  strstr(pub, "gmm.c:"), "%s: the refusal does not name '%s' with its line: %s", refused[i].file,
                  refused[i].names, pub);
        cr_assert(strstr(output_of(js, "policy"), refused[i].names), "%s: %s", refused[i].file, output_of(js, "policy"));
        cJSON_Delete(js);
    }
}

/* Issue 24 item 6: no terminal device in the build sandbox, so an #include of one fails at once
 * instead of blocking the compiler until the build's wall-clock limit. */
Test(hostile24, an_include_of_a_terminal_device_fails_the_build_at_once, .timeout = LIMIT)
{
    grade_class();
    cJSON *js = results_of("include_terminal");
    const char *out = output_of(js, NULL);
    cr_assert_eq(score_of(js), 0.0, "%s", out);
    cr_assert(strstr(out, "/dev/ptmx") && strstr(out, "No such file"), "the compiler's error is not quoted: %s", out);
    cr_assert(!strstr(out, "the build was killed") && !strstr(out, "no CPU used"), "the build was stopped by a "
              "limit, not failed by the compiler: %s", out);
    cJSON_Delete(js);
}

/* Issue 24 item 6, end to end: a build whose processes wait forever using no CPU (the compiler
 * reading its own output pipe through /dev/stdout) is stopped after the idle time with that reason
 * and scores 0; without the idle watch it would hold its worker until the build's wall-clock limit
 * (300 s), and this test fails on the reason and on the seconds. */
Test(hostile24, a_build_that_sits_idle_is_stopped_after_the_idle_time_with_the_reason, .timeout = LIMIT)
{
    grade_class();
    cJSON *js = results_of("include_own_pipe");
    char why[64];
    snprintf(why, sizeof why, "no CPU used for %d s", IDLE_S);
    const char *out = output_of(js, NULL);
    cr_assert_eq(score_of(js), 0.0, "scored %g: %s", score_of(js), out);
    cr_assert(strstr(out, why), "the build was not stopped as idle (no '%s'): %s", why, out);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "build");
    const cJSON *secs = cJSON_GetObjectItemCaseSensitive(b, "seconds");
    cr_assert(cJSON_IsNumber(secs) && secs->valuedouble >= IDLE_S && secs->valuedouble < 120,
              "the idle build held its worker %g s (idle time %d s)", cJSON_IsNumber(secs) ? secs->valuedouble : -1,
              IDLE_S);
    cJSON_Delete(js);
}

/* Issue 24 item 7: a folder named like an option, given first by the shell's *, is a student and
 * the run says so in one line; a newline in a name does not refuse the class; a folder and an
 * archive of one name are told apart in every report. */
Test(hostile24, option_lookalikes_newlines_and_twins_are_students_told_apart, .timeout = LIMIT)
{
    grade_class();
    char *log = tg_read_file(CLASS "/log", 1 << 20, NULL);
    cr_assert(log && strstr(log, "'--public-only' is graded as a submission"), "no line says so: %s", log);
    free(log);
    cJSON *js = results_of("solution");
    cr_assert(strstr(output_of(js, "cpu_ijk), hidden"), "hidden") && test_score(js, "cpu_ijk), hidden") > 0,
              "the run turned public-only: %s", output_of(js, NULL));
    cJSON_Delete(js);
    js = results_of("new\nline");
    cr_assert_eq(score_of(js), 100.0, "the name with a newline scored %g: %s", score_of(js), output_of(js, NULL));
    cJSON_Delete(js);
    char *csv = tg_read_file(OUT "/gradebook.csv", 1 << 20, NULL);
    char *md = tg_read_file(OUT "/summary.md", 1 << 24, NULL);
    cr_assert(csv && md);
    for (int i = 0; i < 2; ++i) {
        const char *r = i ? md : csv, *what = i ? "summary.md" : "gradebook.csv";
        const char *a = strstr(r, "twin (twin/"), *b = strstr(r, "twin (twin.tar.gz");
        cr_assert(a && b, "%s does not tell the twins apart:\n%s", what, r);
    }
    free(csv);
    free(md);
}

Test(hostile11, an_error_no_device_answer_in_a_cpu_lab_is_wrong_not_ungraded, .timeout = LIMIT)
{
    grade_class();
    cJSON *js = results_of("error_no_device");
    const char *out = output_of(js, "cpu_ijk), public");
    cr_assert_eq(test_score(js, "cpu_ijk), public"), 0.0, "%s", out);
    /* Its forged answer goes out through write(2) on fd 4: since issue 24 the object's link of write
     * refuses it before any case runs (the answer channel is the kit's alone). */
    cr_assert(strstr(out, "not run: the program's answers could not be trusted") && strstr(out, "links write") &&
              !strstr(out, "not graded"), "the forged answer was not refused: %s", out);
    const cJSON *ng = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "not_graded");
    cr_assert_eq(cJSON_GetArraySize(ng), 0, "tests left not graded on the student's word");
    cr_assert_lt(score_of(js), 100.0);
    cJSON_Delete(js);
}

Test(hostile11, kill_minus_one_reaches_no_one_and_the_gradebook_is_complete, .timeout = LIMIT)
{
    grade_class();
    cJSON *js = results_of("kill_everyone");
    cr_assert_eq(test_score(js, "policy"), 0.0, "kill was not named: %s", output_of(js, "policy"));
    cr_assert(strstr(output_of(js, "policy"), "links kill"));
    cJSON_Delete(js);
    char *csv = tg_read_file(OUT "/gradebook.csv", 1 << 20, NULL);
    cr_assert(csv && strncmp(csv, "student,score,max", 17) == 0, "gradebook.csv is not the class's: %.200s", csv);
    int rows = 0, quoted = 0;          /* CSV rows: a newline inside a quoted name is part of it */
    for (char *p = csv; *p; ++p) {
        quoted ^= *p == '"';
        rows += *p == '\n' && !quoted;
    }
    cr_assert_eq(rows, 1 + 1 + 6 + 10 + 8 + 2 + 5 + 3 + 5, "gradebook.csv has %d lines: %s", rows, csv);
    /* every row graded, except the submissions whose student file is behind a link: those are "not
     * graded" with the files found named (issue 23: never a 0, never the skeleton built instead) */
    for (char *line = csv, *nl; line && *line; line = nl) {
        nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char row[4096];
        snprintf(row, sizeof row, "%.*s", (int)(len < sizeof row - 1 ? len : sizeof row - 1), line);
        if (strstr(row, "not graded"))
            cr_assert(strncmp(row, "lab_dir_link,", 13) == 0 || strncmp(row, "labs_link,", 10) == 0,
                      "a row is not graded: %s", row);
        nl = nl ? nl + 1 : NULL;
    }
    free(csv);
}

Test(hostile11, escape_codes_and_html_never_reach_summary_md_raw, .timeout = LIMIT)
{
    grade_class();
    size_t len = 0;
    char *md = tg_read_file(OUT "/summary.md", 1 << 24, &len);
    cr_assert(md && strncmp(md, "# Lab 01", 8) == 0, "summary.md is not the class summary: %.100s", md);
    cr_assert_eq(memchr(md, 0x1b, len), NULL, "an ESC byte reached summary.md");
    cr_assert_eq(memchr(md, 0x07, len), NULL, "a BEL byte reached summary.md");
    cr_assert(strstr(md, "\\x1B[2J"), "the escape is not shown escaped");
    for (const char *p = md; (p = strstr(p, "<script>")); ++p) {   /* only inside a ``` block */
        int fences = 0;
        for (const char *q = md; q < p; ++q)
            fences += strncmp(q, "```", 3) == 0 ? (q += 2, 1) : 0;
        cr_assert(fences % 2 == 1, "<script> outside a code block in summary.md");
    }
    char *clean = tg_utf8_clean(md, len);
    cr_assert_str_eq(clean, md, "summary.md is not valid UTF-8");
    free(clean);
    free(md);
}

Test(hostile11, a_macro_bomb_dies_within_seconds_and_scores_0, .timeout = LIMIT)
{
    grade_class();
    cJSON *js = results_of("macro_bomb");
    cr_assert_eq(score_of(js), 0.0);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "tilelab"), "build");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(b, "seconds");
    cr_assert(cJSON_IsNumber(s) && s->valuedouble < 60, "the bomb held the build for %g s",
              cJSON_IsNumber(s) ? s->valuedouble : -1);
    cJSON_Delete(js);
}

Test(hostile11, a_labs_link_to_the_solutions_is_not_followed, .timeout = LIMIT)
{
    grade_class();
    const char *links[] = {"labs_link", "lab_dir_link", NULL};
    for (int i = 0; links[i]; ++i) {   /* no gmm.c reached without a link: not graded, what was found listed */
        char p[1024];
        snprintf(p, sizeof p, "%s/%s/not-graded.txt", OUT, links[i]);
        char *why = tg_read_file(p, 4096, NULL);
        cr_assert(why && strstr(why, "no gmm.c") && strstr(why, "a link"), "%s: %s", links[i],
                  why ? why : "graded: was the link followed?");
        free(why);
        snprintf(p, sizeof p, "%s/%s/results.json", OUT, links[i]);
        cr_assert(!tg_is_file(p), "%s has a score", links[i]);
    }
}

Test(hostile11, names_keep_their_unicode_and_get_distinct_safe_folders, .timeout = LIMIT)
{
    grade_class();
    cJSON *a = results_of(UNI1), *b = results_of(UNI2);
    const char *fa = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "tilelab"), "folder")->valuestring;
    const char *fb = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(b, "tilelab"), "folder")->valuestring;
    cr_assert_str_neq(fa, fb);
    cr_assert(!strchr(fa, '.') && fa[0] != '-', "unsafe folder %s", fa);
    char *md = tg_read_file(OUT "/summary.md", 1 << 24, NULL);
    cr_assert(md && strstr(md, "| " UNI1 " |") && strstr(md, "| " UNI2 " |") && strstr(md, "| --public-only |"),
              "summary.md lost an original name");
    free(md);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* ------------------------------------------------------------ no sandbox: refused, or UNSAFE */

static int run_sh(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run %s", cmd);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

Test(sandbox, grading_without_a_sandbox_is_refused_unless_the_instructor_says_unsafe, .timeout = 300)
{
    char top[] = "/tmp/tl-unsafe-XXXXXX", cmd[2048], out[16384];
    cr_assert(mkdtemp(top));
    snprintf(cmd, sizeof cmd, "mkdir -p %s/alice && cp %s/labs/01-cpu-baseline/gmm.c %s/alice/ && "
             "TL_GRADE_NO_BWRAP=1 %s/grader/tl-grade --kit %s --lab 01 --out %s/out --public-only %s/alice 2>&1",
             top, TL_SOURCE_ROOT, top, TL_BUILD_ROOT, TL_SOURCE_ROOT, top, top);
    int rc = run_sh(cmd, out, sizeof out);
    cr_assert_eq(rc, 2, "graded without a sandbox (exit %d): %s", rc, out);
    cr_assert(strstr(out, "refusing to grade without a sandbox") && strstr(out, "--unsafe-no-sandbox"), "%s", out);
    snprintf(cmd, sizeof cmd, "TL_GRADE_NO_BWRAP=1 %s/grader/tl-grade --kit %s --lab 01 --out %s/out --public-only "
             "--unsafe-no-sandbox %s/alice >/dev/null 2>&1; cat %s/out/summary.md %s/out/alice/results.json",
             TL_BUILD_ROOT, TL_SOURCE_ROOT, top, top, top, top);
    run_sh(cmd, out, sizeof out);
    cr_assert(strstr(out, "- isolation: UNSAFE (--unsafe-no-sandbox)"), "summary.md does not say UNSAFE: %s", out);
    cr_assert(strstr(out, "\"isolation\":\t\"UNSAFE (--unsafe-no-sandbox)"), "results.json does not say UNSAFE: %s", out);
    tg_rmtree(top);
}

Test(limits, memory_limits_come_from_this_machines_memory, .timeout = 10)
{
    tg_iso iso;
    memset(&iso, 0, sizeof iso);
    iso.mem_total = 24LL << 30;
    cr_assert_lt(tg_mem_limit(&iso, 32LL << 30, 1), 24LL << 30, "a 32 GiB limit on a 24 GiB machine");
    cr_assert_eq(tg_mem_limit(&iso, 1LL << 30, 2), 1LL << 30);
    cr_assert_eq(tg_mem_limit(&iso, 8LL << 30, 4), (24LL << 30) / 4 * 3 / 4);
    iso.mem_total = 512LL << 20;
    cr_assert_eq(tg_mem_limit(&iso, 1LL << 30, 8), 256LL << 20, "the floor of 256 MiB");
}

Test(reports, gradescope_score_is_out_of_the_labs_points_and_names_what_was_not_graded, .timeout = 30)
{
    /* Lab 01's tests, all passed but one that could not be graded here (as speed on an
     * emulated GPU lab): results.json's score is out of the lab's points, never scaled up from
     * the graded part (issue 24: "not graded" earns nothing until graded), and says so. */
    static grun R;
    static tg_opts O;   /* the options (const to the grader's parts: filled here) */
    memset(&R, 0, sizeof R);
    R.opt = &O;
    R.lab = tl_lab_find("01");
    cr_assert(R.lab);
    gstudent st = {.name = "alice", .path = "/nowhere", .display = "alice"};
    static gsub g;
    memset(&g, 0, sizeof g);
    g.s = &st;
    g.built = 1;
    char top[] = "/tmp/tl-points-XXXXXX";
    cr_assert(mkdtemp(top));
    snprintf(g.odir, sizeof g.odir, "%s", top);
    tres tr[32];
    memset(tr, 0, sizeof tr);
    int nt = R.lab->ntests;
    double total = 0, skipped = 0;
    for (int i = 0; i < nt; ++i) {
        tr[i].t = &R.lab->tests[i];
        total += tr[i].t->points;
        tr[i].graded = i != 0;
        tr[i].passed = tr[i].graded;
        tr[i].score = tr[i].graded ? tr[i].t->points : 0;
        if (!tr[i].graded) {
            skipped = tr[i].t->points;
            tg_buf_printf(&tr[i].out, "not graded: no GPU here\n");
        }
    }
    double sc, mx;
    tg_write_reports(&R, &g, tr, nt, 1.0, &sc, &mx);
    cr_assert_eq(mx, total, "one maximum: every test's points");
    cr_assert_eq(sc, total - skipped, "the test not graded here counts 0, never rescaled unasked");
    char p[256];
    snprintf(p, sizeof p, "%s/results.json", top);
    char *text = tg_read_file(p, 1 << 22, NULL);
    cJSON *js = cJSON_Parse(text);
    cr_assert(js, "no results.json");
    const cJSON *tl = cJSON_GetObjectItemCaseSensitive(js, "tilelab");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(js, "score")->valuedouble, total - skipped,
                 "the same score as the gradebook's");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(tl, "max")->valuedouble, total);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(tl, "graded_score")->valuedouble, total - skipped);
    const char *out = cJSON_GetObjectItemCaseSensitive(js, "output")->valuestring;
    cr_assert(strstr(out, "not graded here: ") && strstr(out, R.lab->tests[0].name) && strstr(out, "counted as 0"),
              "%s", out);
    cJSON_Delete(js);
    free(text);
    O.rescale = 1;                 /* asked: rescaled, and then everywhere */
    tg_write_reports(&R, &g, tr, nt, 1.0, &sc, &mx);
    cr_assert_eq(mx, total);
    cr_assert_eq(sc, total, "every graded point, rescaled to the lab's %g", total);
    text = tg_read_file(p, 1 << 22, NULL);
    js = cJSON_Parse(text);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(js, "score")->valuedouble, total);
    cr_assert(strstr(cJSON_GetObjectItemCaseSensitive(js, "output")->valuestring, "rescaled (--rescale)"));
    cJSON_Delete(js);
    free(text);
    for (int i = 0; i < nt; ++i)
        tg_buf_free(&tr[i].out);
    tg_rmtree(top);
}

/* The object gate refuses what a file names; a file that names nothing (it finds open and socket
 * in the loader's tables and calls them through pointers) passes it, and the sandbox must hold:
 * nothing created on the host, the inet socket killed by the seccomp filter and named. */
Test(hostile24, a_file_that_passes_the_gate_by_resolving_libc_itself_is_held_by_the_sandbox, .timeout = LIMIT)
{
    grade_class();
    cJSON *js = results_of("libc_resolver");
    const char *pol = output_of(js, "policy");
    cr_assert_null(strstr(pol, "define or link what no lab file may"), "the gate refused it (no sandbox test): %s", pol);
    cr_assert_eq(test_score(js, "policy"), 0.0, "the socket went unnoticed: %s", pol);
    cr_assert(strstr(pol, "network socket"), "the run-time filter did not name the socket: %s", pol);
    cr_assert_lt(score_of(js), 100.0, "the resolver scored full marks");
    cJSON_Delete(js);
    cr_assert_neq(access("/var/tmp/tl-hostile-escape", F_OK), 0, "the sandbox let a file be created in /var/tmp");
    cr_assert_neq(access("/tmp/tl-hostile-escape-host", F_OK), 0, "the sandbox let a file be created in the host's /tmp");
}

/* ------------------------------------------- issue 24: a twin that does not build, judged without a GPU */

/* The judge's decision from recorded build outcomes (tg_twin_outcome, tg_work_twin_failed): the
 * GPU path (a GPU run whose emulated twins only count the work) needs no GPU to be decided, so it is
 * decided here from the outcomes a GPU run records. A failed twin is "not supported" only when the
 * rewrite recorded it; the compiler's words, however they read, are the student's build failing. */
Test(hostile24, a_twin_that_fails_to_build_fails_the_work_rule_unless_the_rewrite_refused_it, .timeout = 30)
{
    static grun R;
    static tg_opts O;   /* the options (const to the grader's parts: filled here) */
    memset(&R, 0, sizeof R);
    R.opt = &O;
    R.lab = tl_lab_find("03");
    cr_assert(R.lab && R.lab->work.kernel && R.lab->gpu);
    const char *spoof = "../tiled.cu:7:2: error: #error \"not supported under emulation: cuda_fp16.h; check this "
                        "file on a GPU\"\n/kit/common/emu/include/cuda_fp16.h:2:2: error: #error \"not supported "
                        "under emulation: cuda_fp16.h\"\n";
    tg_buf log = {0};
    tg_buf_add(&log, spoof, strlen(spoof));
    for (int on_gpu = 1; on_gpu >= 0; --on_gpu)
        for (int count = 0; count <= 1; ++count) {
            R.env.gpu_ok = on_gpu;
            O.emulate = !on_gpu;
            static gsub g;
            memset(&g, 0, sizeof g);
            int o = tg_twin_outcome(&R, &g, count, 1, NULL, &log);
            cr_assert_eq(g.emu_unsupported[0], '\0', "compiler text made 'not supported' (gpu %d, count %d)", on_gpu,
                         count);
            if (!on_gpu && !count) {   /* the emulated program is the build this run grades with */
                cr_assert_eq(o, TG_TWIN_BUILD_FAILED);
                continue;
            }
            cr_assert_eq(o, TG_TWIN_WORK_FAILED, "gpu %d, count %d: outcome %d", on_gpu, count, o);
            cr_assert(strstr(g.twin_failed, count ? "counting build" : "emulated build") &&
                      strstr(g.twin_failed, "#error"), "%s", g.twin_failed);
            tg_work_note wn;
            memset(&wn, 0, sizeof wn);
            cr_assert_eq(tg_work_twin_failed(&R, &g, &wn), 1);
            cr_assert(wn.bad && strstr(wn.headline, "the work rule could not be checked") &&
                      strcmp(wn.pattern, "twin-build-failed") == 0, "%s", wn.headline);
            tg_buf_free(&g.notes);
        }
    /* the rewrite's record, and only it, is "not supported": nothing fails, and it is named */
    static gsub g;
    memset(&g, 0, sizeof g);
    R.env.gpu_ok = 1;
    O.emulate = 0;
    int o = tg_twin_outcome(&R, &g, 0, 1,
                            "{\"kind\":\"emulator\",\"pattern\":\"not-supported\",\"file\":\"tiled.cu\",\"line\":1,"
                            "\"detail\":\"not supported under emulation: cuda_fp16.h (valid CUDA; emulation lacks it)\"}\n",
                            &log);
    cr_assert_eq(o, TG_TWIN_UNSUPPORTED);
    cr_assert(strstr(g.emu_unsupported, "not supported under emulation: cuda_fp16.h"), "%s", g.emu_unsupported);
    cr_assert_eq(g.twin_failed[0], '\0');
    tg_work_note wn;
    memset(&wn, 0, sizeof wn);
    cr_assert_eq(tg_work_twin_failed(&R, &g, &wn), 0, "an unsupported construct cost the work rule");
    /* a grader-side failure (erc < 0) is never the student's */
    memset(&g, 0, sizeof g);
    cr_assert_eq(tg_twin_outcome(&R, &g, 1, -1, NULL, &log), TG_TWIN_GRADER);
    cr_assert_eq(g.twin_failed[0], '\0');
    tg_buf_free(&g.notes);
    tg_buf_free(&log);
}

/* The record itself: the kit's rewrite writes it for valid CUDA that emulation lacks, and a file
 * that only prints the words (an #error, a #line naming a kit header) gets none. */
Test(hostile24, only_the_rewrite_records_not_supported_and_an_error_directive_cannot, .timeout = 60)
{
    char dir[] = "/tmp/tl-refused-XXXXXX";
    cr_assert(mkdtemp(dir));
    const char *rw = TL_BUILD_ROOT "/common/emu/tl-emu-rewrite";
    cr_assert_eq(sh("printf '#include <cuda_fp16.h>\\n__global__ void k(float *p) { p[0] = 1; }\\n' > '%s/honest.cu'",
                    dir), 0);
    cr_assert_eq(sh("TL_EMU_UNSUPPORTED='%s/rec1' '%s' '%s/honest.cu' '%s/h.cpp' 2>/dev/null", dir, rw, dir, dir), 1);
    char p[256];
    snprintf(p, sizeof p, "%s/rec1", dir);
    char *rec = tg_read_file(p, 8192, NULL);
    cr_assert(rec && strstr(rec, "\"kind\":\"emulator\",\"pattern\":\"not-supported\"") &&
              strstr(rec, "\"file\":\"honest.cu\",\"line\":1") &&
              strstr(rec, "\"detail\":\"not supported under emulation: cuda_fp16.h"), "%s", rec ? rec : "(none)");
    free(rec);
    /* the hostile file: the rewrite takes it (the compiler then fails on its #error), no record */
    cr_assert_eq(sh("TL_EMU_UNSUPPORTED='%s/rec2' '%s' '%s/tests/hostile/03/spoof_unsupported.cu' '%s/s.cpp'", dir, rw,
                    TL_SOURCE_ROOT, dir), 0);
    snprintf(p, sizeof p, "%s/rec2", dir);
    cr_assert(!tg_is_file(p), "the spoof left a record");
    /* comments and strings that name what emulation lacks are not a use */
    cr_assert_eq(sh("printf '/* #include <curand.h> cublasSgemm( */\\nstatic const char *s = \"this_cluster()\";\\n' "
                    "> '%s/words.cu' && TL_EMU_UNSUPPORTED='%s/rec3' '%s' '%s/words.cu' '%s/w.cpp'", dir, dir, rw, dir,
                    dir), 0);
    snprintf(p, sizeof p, "%s/rec3", dir);
    cr_assert(!tg_is_file(p), "a comment or a string made a record");
    sh("rm -rf '%s'", dir);
}

/* ------------------------------------------- tests/hostile/expected.txt, read as every reader reads it */

/* The file itself: every row a known lab, a grade of full/less words at known places, a file that
 * exists; and the grade per place of the rows that differ (the lead's decision, session 9: a file
 * that breaks only a build the emulated run needs was the student's failure emulated and full on a
 * GPU whose counters were read; since issue 29 its test of what tells the builds apart is refused
 * everywhere: less at every place). */
Test(hostile24, expected_txt_is_well_formed_and_says_the_grade_per_place, .timeout = 10)
{
    char why[700];
    cr_assert_eq(hostile_expected_check(TL_SOURCE_ROOT, why, sizeof why), 0, "%s", why);
    const char *file = TL_SOURCE_ROOT "/tests/hostile/expected.txt";
    const char *split[] = {"sabotage_emulated", "sabotage_count", "spoof_unsupported", "interpose_count_only",
                           "gpu_emulated_twin_differs", NULL};
    char w[700];
    for (int i = 0; split[i]; ++i) {   /* a test of what tells the builds apart: refused at every place (issue 29) */
        const char *places[] = {"emulated", "gpu", "gpu-no-counters", NULL};
        for (int k = 0; places[k]; ++k) {
            cr_assert_eq(hostile_expected(file, "03", split[i], places[k], w, sizeof w), 1, "%s: %s", split[i], w);
            cr_assert_str_eq(w, "less", "%s at %s", split[i], places[k]);
        }
    }
    /* a grade per place is still read as written */
    char tmpp[] = "/tmp/tl-expected-place-XXXXXX";
    int fdp = mkstemp(tmpp);
    cr_assert_geq(fdp, 0);
    const char *rows = "03 a less,gpu:full why\n";
    cr_assert_eq(write(fdp, rows, strlen(rows)), (ssize_t)strlen(rows));
    close(fdp);
    cr_assert_eq(hostile_expected(tmpp, "03", "a", "gpu", w, sizeof w), 1);
    cr_assert_str_eq(w, "full");
    cr_assert_eq(hostile_expected(tmpp, "03", "a", "gpu-no-counters", w, sizeof w), 1);
    cr_assert_str_eq(w, "less");
    unlink(tmpp);
    cr_assert_eq(hostile_expected(file, "01", "helper_names", "gpu", w, sizeof w), 1);
    cr_assert_str_eq(w, "full");
    cr_assert_eq(hostile_expected(file, "01", "no_such_attack", "emulated", w, sizeof w), 0, "an unlisted file is listed");
    /* the reader refuses what it cannot read (a malformed grade is never taken as less or full) */
    char tmp[] = "/tmp/tl-expected-XXXXXX";
    int fd = mkstemp(tmp);
    cr_assert_geq(fd, 0);
    const char *bad = "01 a less,cpu:full why\n01 b full,gpu:more why\n01 c gpu:full why\n";
    cr_assert_eq(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
    close(fd);
    const char *names[] = {"a", "b", "c"};
    for (int i = 0; i < 3; ++i)
        cr_assert_eq(hostile_expected(tmp, "01", names[i], "gpu", w, sizeof w), -1, "row %s read as '%s'", names[i], w);
    unlink(tmp);
}

/* Every tests/hostile/01 file graded in this class gets the grade expected.txt gives it (a CPU lab:
 * the same at every place): full is the solution's 100, anything else less with a failed test. */
Test(hostile24, every_lab_01_file_in_the_class_gets_the_grade_expected_txt_gives_it, .timeout = LIMIT)
{
    grade_class();
    const char *const *lists[] = {evasions, others};
    int checked = 0;
    for (int l = 0; l < 3; ++l)
        for (int i = 0;; ++i) {
            const char *name = l < 2 ? lists[l][i] : refused[i].file;
            if (!name)
                break;
            char w[700];
            int listed = hostile_expected(TL_SOURCE_ROOT "/tests/hostile/expected.txt", "01", name, "emulated", w,
                                          sizeof w);
            cr_assert_geq(listed, 0, "%s", w);
            cJSON *js = results_of(name);
            if (listed == 1 && strcmp(w, "full") == 0)
                cr_assert_eq(score_of(js), 100.0, "%s: expected.txt says full, scored %g: %s", name, score_of(js),
                             output_of(js, NULL));
            else
                cr_assert_lt(score_of(js), 100.0, "%s: expected.txt says less, scored %g", name, score_of(js));
            cJSON_Delete(js);
            ++checked;
        }
    cr_assert_geq(checked, 20);
    /* build_reads_outside: nothing of the grader's reached its report (the out dir's and the kit's
     * host paths, the secret's name) */
    cJSON *js = results_of("build_reads_outside");
    char *all = cJSON_Print(js);
    cr_assert(all && !strstr(all, TL_BUILD_ROOT) && !strstr(all, "hostile11/out"), "a host path reached the report: %s",
              all);
    free(all);
    cJSON_Delete(js);
}

/* Session 9's red team, issue 24 item 7: a name with one leading dash is a student, never an option;
 * one name in composed and decomposed Unicode (alike on screen) and two archives that unpack to one
 * folder name are each graded, and every report tells them apart. */
Test(hostile24, a_dash_name_look_alike_unicode_and_two_archives_of_one_folder_are_graded_and_told_apart,
     .timeout = LIMIT)
{
    grade_class();
    cJSON *js = results_of("-rf");
    cr_assert_eq(score_of(js), 100.0, "-rf scored %g: %s", score_of(js), output_of(js, NULL));
    cJSON_Delete(js);
    char *csv = tg_read_file(OUT "/gradebook.csv", 1 << 20, NULL);
    char *md = tg_read_file(OUT "/summary.md", 1 << 24, NULL);
    cr_assert(csv && md);
    for (int i = 0; i < 2; ++i) {
        const char *r = i ? md : csv, *what = i ? "summary.md" : "gradebook.csv";
        cr_assert(strstr(r, NFC " (" NFC "/") && strstr(r, NFD " (" NFD "/"),
                  "%s shows the composed and decomposed names alike:\n%s", what, r);
        cr_assert(strstr(r, "pair (pair.tar.gz") && strstr(r, "pair (pair.zip"), "%s does not tell the two archives "
                  "of one folder apart:\n%s", what, r);
    }
    /* every one of them graded in full (the gradebook's score column) */
    /* (a display with a comma is quoted in the CSV: "René (René/, Rene-1a2b3c4d)",100.00,...) */
    const char *rows[] = {"\n\"" NFC " (", "\n\"" NFD " (", "\n\"pair (pair.tar.gz", "\n\"pair (pair.zip", NULL};
    for (int i = 0; rows[i]; ++i) {
        const char *r = strstr(csv, rows[i]);
        cr_assert(r, "no row %s in:\n%s", rows[i] + 1, csv);
        const char *end = strstr(r, ")\",");
        cr_assert(end && strncmp(end + 2, ",100.00,", 8) == 0, "%s did not score 100: %.120s", rows[i] + 1, r + 1);
    }
    free(csv);
    free(md);
}
