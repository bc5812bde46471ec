/* test_emulated.c: emulation mode on every GPU lab: the reference solutions pass, the skeletons
 * fail, and each known-wrong submission is caught with the diagnostic that names its bug (the
 * emulator's own where it has one: a race naming the shared array and the line, a divergent
 * barrier, an access past the end of a named buffer, an invalid launch). Runs without a GPU. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab_list.h"
#include "param.h"
#include "run_capture.h"
#include "wrong_manifest.h"

typedef struct emu_case {
    char bin[64];          /* under build/labs/emulated/                      */
    int  exit_code;
    char want[3][96];      /* every one of these must appear in the output    */
    char vpattern[48];     /* an emulator verdict of this pattern on TL_EMU_VERDICTS ("" none) */
    char sizes[400];       /* --sizes for the run ("" the program's defaults)                */
} emu_case;

static void run_emulated(const emu_case *c);
static void fully_checked_sizes(const char *lab, char *out, size_t len);
static void row_sizes(const char *lab, char *out, size_t len);

/* From the lab table (tl-lab): every lab with an emulated build, its reference and its skeleton, at
 * the sizes the known-wrong rows run (row_sizes: the public sizes the emulator checks fully, up to
 * 512^3, with at most 1024 x 1024 elements of P): the reference is the rows' control, the same
 * counting build at the same sizes. The larger ones (1000, 1023, 1024: most of this test's CPU) and
 * 2000x3x2000 (labs 04, 06, 07: 4 million threads over whole tiles, in three thread orders; 3.6, 1.4
 * and 1.5 of these references' 4.8, 5.3 and 3.6 CPU-s, session 13) are run on the reference by kit
 * check in the demo suite, every lab, as a student runs it, on the program that judges correctness
 * there (the plain emulated build; the counting twin runs the one case whose work is judged)
 * (tests/demo/demo.sh fails on a reference that does not pass), and by the load, gradescope and
 * grader runs suites (labs 02, 03); a skeleton fails at its first size. */
ParameterizedTestParameters(emulated, program_gets_its_verdict)
{
    static lab_row labs[LAB_LIST_MAX];
    static emu_case cases[2 * LAB_LIST_MAX];
    int n = lab_list_load(TL_LAB, labs, LAB_LIST_MAX), k = 0;
    if (n < 0)
        fprintf(stderr, "test_emulated: %s list failed\n", TL_LAB);
    for (int i = 0; i < n; ++i) {
        if (!labs[i].emulated)
            continue;
        snprintf(cases[k].bin, sizeof cases[k].bin, "%s", strrchr(labs[i].emu_ref_binary, '/') + 1);
        cases[k].exit_code = 0;
        row_sizes(labs[i].id, cases[k].sizes, sizeof cases[k].sizes);
        snprintf(cases[k++].want[0], sizeof cases[0].want[0], " 0 failed");
        snprintf(cases[k].bin, sizeof cases[k].bin, "%s", strrchr(labs[i].emu_binary, '/') + 1);
        cases[k].exit_code = 1;
        fully_checked_sizes(labs[i].id, cases[k].sizes, sizeof cases[k].sizes);
        /* the skeleton fails: most leave P unwritten, lab 07's stores zeros (all wrong) */
        snprintf(cases[k++].want[0], sizeof cases[0].want[0], "FAIL: ");
    }
    return cr_make_param_array(emu_case, cases, (size_t)k);
}

Test(emulated, the_lab_table_lists_emulated_labs, .timeout = 30)
{
    static lab_row labs[LAB_LIST_MAX];
    int n = lab_list_load(TL_LAB, labs, LAB_LIST_MAX), e = 0;
    cr_assert_gt(n, 0, "%s list failed", TL_LAB);
    for (int i = 0; i < n; ++i)
        e += labs[i].emulated;
    cr_assert_gt(e, 0, "the lab table marks no lab emulated");
}

/* The lab's public sizes that the emulator race-checks (m*k*n up to TL_EMU_MAX_CHECKED_WORK; up to
 * TL_EMU_MAX_REORDER_WORK also in every thread order), as --sizes takes them, into out ("" when
 * tl-lab has none). */
static void checked_sizes_upto(const char *lab, double max_p, char *out, size_t len);
static void fully_checked_sizes(const char *lab, char *out, size_t len)
{
    checked_sizes_upto(lab, 0, out, len);
}

/* A known-wrong row's sizes: the fully checked ones with at most 1024 x 1024 elements of P. The
 * emulator's cost follows the threads (one per element of P) and the tiles' padded inner
 * dimension, not m*k*n: 2000x3x2000 (labs 04, 06, 07; 12 million multiply-adds) runs 4 million
 * threads a variant, each over a whole tile, three times (thread orders): 4.6 CPU-s of a lab 04
 * row's 5.1 in the counting build, where every other size of the row together takes 0.5. No row's
 * diagnostic needs it (each shows at the smaller sizes; the references still run it above, and kit
 * check in the headline suite runs every row with a headline at all its fully checked sizes). */
static void row_sizes(const char *lab, char *out, size_t len)
{
    checked_sizes_upto(lab, 1024.0 * 1024.0, out, len);
}

/* The public sizes with m*k*n up to TL_EMU_MAX_CHECKED_WORK and, unless max_p is 0, m*n up to max_p. */
static void checked_sizes_upto(const char *lab, double max_p, char *out, size_t len)
{
    char args[32], all[400];
    out[0] = '\0';
    snprintf(args, sizeof args, "get %s public_sizes", lab);
    if (lab_list_ask(TL_LAB, args, all, sizeof all) != 0)
        return;
    size_t o = 0;
    for (char *save = NULL, *t = strtok_r(all, ",\n", &save); t; t = strtok_r(NULL, ",\n", &save)) {
        double m = 0, k = 0, n = 0;
        int got = sscanf(t, "%lfx%lfx%lf", &m, &k, &n);
        if (got == 1)
            k = n = m;
        else if (got != 3)
            continue;
        if (m * k * n <= TL_EMU_MAX_CHECKED_WORK && (max_p == 0 || m * n <= max_p) && o + strlen(t) + 2 < len)
            o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "," : "", t);
    }
}

/* The known-wrong submissions' emulated twins (tests/wrong/manifest.tsv, its emulated column).
 * Every row runs at the sizes the emulator checks fully, where its diagnostic shows (row_sizes): its
 * larger public sizes (above 512^3, checked for the result only) cost over 90% of this suite's CPU
 * (lab 04's read-then-guard: 21.1 s at the defaults, 0.8 s at the fully checked sizes); the headline
 * suite's kit check runs them once, on read-then-guard (tests/test_headline.c). The rows without a
 * headline (lab 08's wmma files, lab 02's host-computes) ran at the program's defaults until session
 * 10: 12.7 CPU-s for wmma-layout, whose "all wrong" shows at size 1 (no race is looked for above
 * 512^3, and the work judge counts one case).
 * A row with a headline is judged by the headline suite's kit check on the same program at the same
 * sizes (test_headline.c), which also asserts this column's words in the run's results.json (the
 * graded run keeps the emulated program's output there) and the verdict's kind and pattern: a
 * second, standalone run of it here is left out (session 12: about 60 of this test's 93 CPU-s,
 * tests/bench/README.md), but for the first row of each emulator verdict pattern, which keeps the
 * standalone program's own verdict channel (TL_EMU_VERDICTS) and exit code tested for every
 * pattern. The rows without a headline, and those whose emulated column holds the standalone
 * program's own words (wrong_emu_words_standalone, tests/wrong_manifest.h), run here only. */
ParameterizedTestParameters(emulated, known_wrong_submission_is_caught)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    static emu_case cases[WRONG_MAX_ROWS];
    static char patterns[WRONG_MAX_ROWS][48];
    int npatterns = 0;
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, NULL, rows, why, sizeof why), k = 0;
    if (n < 0)
        fprintf(stderr, "test_emulated: %s\n", why);
    for (int i = 0; i < n; ++i) {
        if (rows[i].nemu_expect == 0)
            continue;                 /* a CPU lab: no emulated build */
        if (rows[i].nheadline > 0 && !wrong_emu_words_standalone(&rows[i])) {
            /* judged in the headline suite; here once per emulator verdict pattern */
            int first = strcmp(rows[i].verdict_kind, "emulator") == 0;
            for (int p = 0; first && p < npatterns; ++p)
                first = strcmp(patterns[p], rows[i].verdict_pattern) != 0;
            if (!first)
                continue;
            snprintf(patterns[npatterns++], sizeof patterns[0], "%s", rows[i].verdict_pattern);
        }
        snprintf(cases[k].bin, sizeof cases[k].bin, "%s", strrchr(rows[i].emu_program, '/') + 1);
        cases[k].exit_code = 1;
        for (int j = 0; j < rows[i].nemu_expect && j < 3; ++j)
            snprintf(cases[k].want[j], sizeof cases[k].want[j], "%s", rows[i].emu_expect[j]);
        if (strcmp(rows[i].verdict_kind, "emulator") == 0)   /* the manifest's verdict column */
            snprintf(cases[k].vpattern, sizeof cases[k].vpattern, "%s", rows[i].verdict_pattern);
        row_sizes(rows[i].lab, cases[k].sizes, sizeof cases[k].sizes);
        ++k;
    }
    return cr_make_param_array(emu_case, cases, (size_t)k);
}

ParameterizedTest(emu_case *c, emulated, known_wrong_submission_is_caught, .timeout = 300)
{
    run_emulated(c);
}

ParameterizedTest(emu_case *c, emulated, program_gets_its_verdict, .timeout = 300)
{
    run_emulated(c);
}

static void run_emulated(const emu_case *c)
{
    char path[512];
    snprintf(path, sizeof path, "%s/labs/emulated/%s", TL_BUILD_ROOT, c->bin);
    char *argv[] = {path, "--no-time", c->sizes[0] ? "--sizes" : NULL, (char *)c->sizes, NULL};
    /* the verdict channel (CONTRACTS.md section 10): a file named in the environment */
    char vfile[] = "/tmp/tl-emu-verdicts-XXXXXX";
    int vfd = mkstemp(vfile);
    cr_assert_geq(vfd, 0);
    close(vfd);
    setenv("TL_EMU_VERDICTS", vfile, 1);
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s", path);
    unsetenv("TL_EMU_VERDICTS");
    FILE *vf = fopen(vfile, "r");
    char line[8192];
    int found = 0, lines = 0;
    char want_kind[] = "{\"kind\":\"emulator\",", want_pat[80];
    snprintf(want_pat, sizeof want_pat, "\"pattern\":\"%s\"", c->vpattern);
    while (vf && fgets(line, sizeof line, vf)) {
        ++lines;
        cr_assert(strchr(line, '\n') && line[0] == '{', "%s: a verdict line that is not one JSON object: %s", c->bin, line);
        found |= strncmp(line, want_kind, strlen(want_kind)) == 0 && strstr(line, want_pat) != NULL;
    }
    if (vf)
        fclose(vf);
    unlink(vfile);
    if (c->vpattern[0])
        cr_assert(found, "%s: no emulator verdict of pattern '%s' on TL_EMU_VERDICTS (%d lines):\n%s", c->bin,
                  c->vpattern, lines, r.out);
    else if (c->exit_code == 0)
        cr_assert_eq(lines, 0, "%s: a correct program wrote %d verdicts", c->bin, lines);
    cr_assert_eq(r.exit_code, c->exit_code, "%s exited %d (signal %d), expected %d%s%s:\n%s", c->bin,
                 r.exit_code, r.signal, c->exit_code, c->sizes[0] ? " at --sizes " : "", c->sizes, r.out);
    for (int i = 0; i < 3 && c->want[i][0]; ++i)
        cr_assert(strstr(r.out, c->want[i]) != NULL, "%s did not say '%s'%s%s:\n%s", c->bin, c->want[i],
                  c->sizes[0] ? " at --sizes " : "", c->sizes, r.out);
    cr_assert(strstr(r.out, "GFLOP/s") == NULL || strstr(r.out, "emulated") != NULL,
              "an emulated run must say it is emulated:\n%s", r.out);
    run_free(&r);
}

Test(emulated, refuses_to_report_times, .timeout = 120)
{
    char path[512];
    snprintf(path, sizeof path, "%s/labs/emulated/lab03-ref-emu", TL_BUILD_ROOT);
    char *argv[] = {path, "--sizes", "64", "--variants", "tiled16", NULL};   /* timing not disabled */
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    cr_assert(strstr(r.out, "no timings") != NULL, "%s", r.out);
    /* The PASS row carries '-' where a GPU run would print GFLOP/s. */
    cr_assert(strstr(r.out, "PASS") != NULL, "%s", r.out);
    const char *row = strstr(r.out, "tiled16");
    cr_assert(row && strstr(row, " -") != NULL, "%s", r.out);
    run_free(&r);
}

Test(emulated, the_manifest_reads_and_lists_emulated_diagnostics, .timeout = 10)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "!01", rows, why, sizeof why);
    cr_assert_geq(n, 0, "%s", why);
    cr_assert_gt(n, 0, "tests/wrong/manifest.tsv lists no GPU lab's known-wrong submission");
    for (int i = 0; i < n; ++i) {
        size_t l = strlen(rows[i].file);
        if (l > 2 && strcmp(rows[i].file + l - 2, ".c") == 0)
            continue;                 /* lab 05's calculators are C: no emulated build */
        char twin[400];
        snprintf(twin, sizeof twin, "%s/%s", TL_BUILD_ROOT, rows[i].emu_program);
        if (rows[i].nemu_expect == 0 && !rows[i].emu_gpu_only && access(twin, F_OK) != 0)
            continue;                 /* a GPU-only file ('-': lab 08's mma/wgmma bugs): no emulated twin */
        cr_assert(rows[i].nemu_expect > 0 || rows[i].emu_gpu_only,
                  "%s: a GPU lab's row needs the emulator's diagnostics (or 'gpu-only': the bug is in a variant the "
                  "lab table marks gpu_only)", rows[i].file);
    }
}

/* Lab 04's rows with sizes of their own (the checker's hints for rectangular bugs: a swapped grid,
 * a wrong row stride, a wrong row length): emulated at those sizes, each must exit 1 naming one of
 * its expected classes, as on a GPU. */
ParameterizedTestParameters(emulated, hint_is_named_at_the_rows_own_sizes)
{
    static wrong_row rows[WRONG_MAX_ROWS], keep[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "04", rows, why, sizeof why), k = 0;
    for (int i = 0; i < n; ++i)   /* "kit check: ..." rows leave P right: no checker hint to name */
        if (strstr(rows[i].args, "--sizes") && strncmp(rows[i].expect[0], "kit check: ", 11) != 0)
            keep[k++] = rows[i];
    return cr_make_param_array(wrong_row, keep, (size_t)k);
}

ParameterizedTest(wrong_row *c, emulated, hint_is_named_at_the_rows_own_sizes, .timeout = 300)
{
    char path[512], args[256];
    snprintf(path, sizeof path, "%s/%s", TL_BUILD_ROOT, c->emu_program);
    snprintf(args, sizeof args, "%s", c->args);
    char *argv[40];
    int argc = 0;
    argv[argc++] = path;
    for (char *save = NULL, *a = strtok_r(args, " ", &save); a && argc < 38; a = strtok_r(NULL, " ", &save))
        argv[argc++] = a;
    argv[argc] = NULL;
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s", path);
    cr_assert_eq(r.exit_code, 1, "%s %s exited %d:\n%s", c->emu_program, c->args, r.exit_code, r.out);
    int named = 0;
    for (int i = 0; i < c->nexpect && !named; ++i)
        named = strstr(r.out, c->expect[i]) != NULL;
    cr_assert(named, "%s %s names none of '%s':\n%s", c->emu_program, c->args, c->expect[0], r.out);
    run_free(&r);
}
