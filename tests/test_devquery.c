/* test_devquery.c: lab 02's device query as a judged test (issue 16 item 5).
 *
 * 1. The format (common/devfacts.c): what the kit prints parses back whole; other lines are
 *    ignored; each classic mistake is named with its cause (the factor 2 of double data rate,
 *    per block printed as per SM, a clock in MHz labelled kHz, GiB for GB, bits for bytes); the
 *    bandwidth alone has a tolerance; a missing fact and a wrong unit are named.
 * 2. The README shows every key of the format.
 * 3. The grader's judge (grader/devquery.c) through `tl-grade --check --emulate`, the path of
 *    `./kit check 02` without a GPU: the reference scores 10/10, the skeleton's stub 0, and each
 *    known-wrong device query of tests/wrong/manifest.tsv (02/devq-*) fails with its reason named
 *    by the grader's own comparison (the kit's `tl-device-emu --facts` in another process); the
 *    kernel bugs of lab 02 keep their device-query points.
 * Run:  meson test -C build 'device query' -v */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_capture.h"
#include "tilelab.h"
#include "wrong_manifest.h"

/* An H100 SXM as the emulator models it (common/emu/src/api.cpp). */
static void h100(tl_facts *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "H100 SXM (emulated)");
    f->cc_major = 9;
    f->cc_minor = 0;
    double v[TL_FACT_COUNT] = {0, 9.0, 132, 1024, 2048, 32, 49152, 233472, 65536, 65536, 1980000, 2619000, 5120, 0};
    for (int i = 0; i < TL_FACT_COUNT; ++i) {
        f->have[i] = 1;
        f->num[i] = v[i];
        if (tl_fact_defs[i].unit)
            snprintf(f->unit[i], sizeof f->unit[i], "%s", tl_fact_defs[i].unit);
    }
    f->smem_optin = 232448;
    tl_facts_derive(f);
}

/* The kit's lines for f, with the line of key replaced by repl (NULL: dropped). */
static char *lines_with(const tl_facts *f, const char *key, const char *repl)
{
    char *text = NULL, *out = NULL;
    size_t n = 0, m = 0;
    FILE *mf = open_memstream(&text, &n);
    tl_facts_print(f, mf);
    fclose(mf);
    FILE *of = open_memstream(&out, &m);
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (key && strncmp(l, key, strlen(key)) == 0 && l[strlen(key)] == ':') {
            if (repl)
                fprintf(of, "%s\n", repl);
        } else {
            fprintf(of, "%s\n", l);
        }
    }
    fclose(of);
    free(text);
    return out;
}

/* The verdict on the kit's lines with one line replaced; the headline in head. */
static tl_facts_verdict judge(const char *key, const char *repl, char *head, size_t hl)
{
    tl_facts want, got;
    h100(&want);
    char *text = lines_with(&want, key, repl);
    tl_facts_parse(text, strlen(text), &got);
    free(text);
    tl_facts_verdict v;
    tl_facts_compare(&want, &got, &v);
    tl_facts_headline(&v, head, hl);
    return v;
}

Test(device_facts, the_kits_lines_parse_back_whole_and_right)
{
    char head[2048];
    tl_facts_verdict v = judge(NULL, NULL, head, sizeof head);
    cr_assert_eq(v.asked, TL_FACT_COUNT, "%d facts asked", v.asked);
    cr_assert_eq(v.right, TL_FACT_COUNT, "%s", head);
    cr_assert_str_eq(head, "14 of 14 device facts right");
}

Test(device_facts, other_lines_are_ignored_and_the_first_line_of_a_key_counts)
{
    tl_facts want, got;
    h100(&want);
    char *kit = lines_with(&want, NULL, NULL);
    char text[4096];
    snprintf(text, sizeof text, "GPU 0 of 1\r\nnaive bound: 838 GFLOP/s\n%sSMs: 7\n", kit);
    free(kit);
    cr_assert_eq(tl_facts_parse(text, strlen(text), &got), TL_FACT_COUNT);
    tl_facts_verdict v;
    tl_facts_compare(&want, &got, &v);
    cr_assert_eq(v.right, TL_FACT_COUNT, "a later 'SMs: 7' or an unknown line changed the verdict");
}

Test(device_facts, keys_are_matched_without_regard_to_case)
{
    char head[2048];
    tl_facts_verdict v = judge("sms", "SMs: 132", head, sizeof head);
    cr_assert_eq(v.right, TL_FACT_COUNT, "%s", head);
}

typedef struct mistake {
    char key[40];
    char line[80];
    char named[120];     /* the headline must contain this */
} mistake;

ParameterizedTestParameters(device_facts, each_classic_mistake_is_named_with_its_cause)
{
    static mistake m[] = {
        {"peak bandwidth", "peak bandwidth: 1676.2 GB/s",
         "peak bandwidth 1676.2 GB/s, expected 3352.3 GB/s: the factor 2 for double data rate?"},
        {"peak bandwidth", "peak bandwidth: 3122.0 GB/s", "GiB/s (2^30 bytes) printed as GB/s"},
        {"peak bandwidth", "peak bandwidth: 26818.6 GB/s", "the bus width is in bits: divide it by 8"},
        {"peak bandwidth", "peak bandwidth: 3.35 GB/s", "a factor 1000"},
        {"shared memory per sm", "shared memory per sm: 49152 B",
         "shared memory per sm 49152 B, expected 233472 B: shared memory per block printed as per SM?"},
        {"shared memory per block", "shared memory per block: 232448 B", "the opt-in maximum"},
        {"shared memory per block", "shared memory per block: 48 B", "KiB labelled B?"},
        {"sm clock", "sm clock: 1980 kHz", "sm clock 1980 kHz, expected 1980000 kHz: a clock in MHz labelled kHz?"},
        {"memory clock", "memory clock: 2619 kHz", "memory clock 2619 kHz, expected 2619000 kHz: a clock in MHz labelled kHz?"},
        {"memory clock", "memory clock: 1980000 kHz", "the SM clock instead of the memory clock"},
        {"max threads per sm", "max threads per sm: 1024", "the per-block limit printed as per SM?"},
        {"memory bus width", "memory bus width: 640 bits", "bytes labelled bits?"},
        {"sms", "sms: 114", "sms 114, expected 132"},
        {"compute capability", "compute capability: 90", "compute capability"},
        {"device", "device: NVIDIA H100", "device 'NVIDIA H100', expected 'H100 SXM (emulated)'"},
        {"sm clock", "sm clock: 1980000 MHz", "sm clock 1980000 MHz: the unit is 'MHz', the format says '1980000 kHz'"},
        {"memory bus width", "memory bus width: 5120", "memory bus width 5120: no unit, the format says '5120 bits'"},
        {"registers per sm", "", "registers per sm missing: no 'registers per sm: ' line"},
        {"max blocks per sm", "max blocks per sm: many", "max blocks per sm (no number)"},
    };
    return cr_make_param_array(mistake, m, sizeof m / sizeof m[0]);
}

ParameterizedTest(mistake *m, device_facts, each_classic_mistake_is_named_with_its_cause)
{
    char head[2048];
    tl_facts_verdict v = judge(m->key, m->line[0] ? m->line : NULL, head, sizeof head);
    cr_assert_eq(v.right, TL_FACT_COUNT - 1, "'%s': %d right: %s", m->line, v.right, head);
    cr_assert(strstr(head, m->named), "'%s': the headline does not say '%s':\n%s", m->line, m->named, head);
}

Test(device_facts, the_bandwidth_alone_has_a_tolerance)
{
    char head[2048];
    tl_facts_verdict v = judge("peak bandwidth", "peak bandwidth: 3352 GB/s", head, sizeof head);
    cr_assert_eq(v.right, TL_FACT_COUNT, "3352 for 3352.3 (rounding): %s", head);
    v = judge("peak bandwidth", "peak bandwidth: 3400 GB/s", head, sizeof head);
    cr_assert_eq(v.right, TL_FACT_COUNT - 1, "3400 for 3352.3 (1.4%% off) passed: %s", head);
    v = judge("sms", "sms: 132.4", head, sizeof head);
    cr_assert_eq(v.right, TL_FACT_COUNT - 1, "an integer fact with a tolerance: %s", head);
}

Test(device_facts, nothing_in_the_format_scores_nothing_and_says_where_to_print)
{
    tl_facts want, got;
    h100(&want);
    const char *stub = "print_device_facts: not written yet (task 3 in naive.cu)\n";
    cr_assert_eq(tl_facts_parse(stub, strlen(stub), &got), 0);
    tl_facts_verdict v;
    tl_facts_compare(&want, &got, &v);
    char head[2048];
    tl_facts_headline(&v, head, sizeof head);
    cr_assert_eq(v.right, 0);
    cr_assert(strstr(head, "0 of 14 device facts right: none printed in the format"), "%s", head);
    cr_assert(strstr(head, "FILE*"), "the headline does not say where to print: %s", head);
}

Test(device_facts, the_readme_shows_every_key_of_the_format)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/labs/02-naive-kernel/README.md", TL_SOURCE_ROOT);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot read %s", path);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    tl_facts got;
    cr_assert_eq(tl_facts_parse(text, n, &got), TL_FACT_COUNT, "the README's example does not show all %d keys",
                 TL_FACT_COUNT);
    cr_assert(strstr(text, "not scored") == NULL, "the README still says the device query is not scored");
}

/* ------------------------------------------------------------------ the grader's judge */

/* tl-grade --check --emulate on an emulated program; the output in *out, the exit code returned. */
static int grade(const char *rel, char **out)
{
    char prog[1024], dir[] = "/tmp/tl-devq-XXXXXX";
    snprintf(prog, sizeof prog, "%s/%s", TL_BUILD_ROOT, rel);
    if (access(prog, X_OK) != 0)
        cr_assert_fail("%s is not built", prog);
    cr_assert_not_null(mkdtemp(dir));
    /* A device query is judged on what it prints, once per run: the kernel beside it (the
     * solution's in the known-wrong rows and the reference) is checked up to 512^3
     * (TL_GRADE_EMU_MAX_SIZE), not at 1000 and 1024 too, which were nine tenths of each run's CPU
     * (the reference: 7.8 CPU-s of 20 for the suite). Lab 02's solution at every public size, on
     * kit check's unbounded path, is the demo's (tests/demo/demo.sh: kit check 02 on the reference)
     * and the load suite's (eight copies graded at every size). */
    setenv("TL_GRADE_EMU_MAX_SIZE", "512", 1);
    char *argv[] = {TL_BUILD_ROOT "/grader/tl-grade", "--check", "--kit", TL_SOURCE_ROOT, "--lab", "02", "--out", dir,
                    "--prebuilt", prog, "--emulate", NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    char cmd[64 + sizeof dir];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
    unsetenv("TL_GRADE_EMU_MAX_SIZE");
    *out = r.out;
    return r.signal ? 128 + r.signal : r.exit_code;
}

/* The device query test's block of a kit check printout (from its PASS/FAIL line to the next test). */
static const char *facts_block(const char *out, char *buf, size_t len)
{
    const char *p = strstr(out, "  device query (print_device_facts)");
    if (!p)
        return NULL;
    while (p > out && p[-1] != '\n')
        --p;
    const char *e = strstr(p + 1, "\nPASS  ");
    const char *f = strstr(p + 1, "\nFAIL  ");
    const char *s = strstr(p + 1, "\nScore:");
    if (!e || (f && f < e)) e = f;
    if (!e || (s && s < e)) e = s;
    size_t l = e ? (size_t)(e - p) : strlen(p);
    snprintf(buf, len, "%.*s", (int)(l < len ? l : len - 1), p);
    return buf;
}

Test(grader_device_query, the_reference_scores_every_point, .timeout = 120)
{
    char *out, block[4096];
    int rc = grade("labs/emulated/lab02-ref-emu", &out);
    cr_assert_eq(rc, 0, "tl-grade --check on lab02-ref-emu: exit %d:\n%s", rc, out);
    cr_assert_not_null(facts_block(out, block, sizeof block), "no device query test in:\n%s", out);
    cr_assert(strncmp(block, "PASS  device query (print_device_facts)  (10/10)", 48) == 0, "%s", block);
    free(out);
}

Test(grader_device_query, the_skeletons_stub_scores_nothing, .timeout = 120)
{
    char *out, block[4096];
    int rc = grade("labs/emulated/lab02-emu", &out);
    cr_assert_eq(rc, 1, "tl-grade --check on the skeleton: exit %d:\n%s", rc, out);
    cr_assert_not_null(facts_block(out, block, sizeof block), "no device query test in:\n%s", out);
    cr_assert(strstr(block, "FAIL  device query (print_device_facts)  (0/10)"), "%s", block);
    cr_assert(strstr(block, "none printed in the format"), "%s", block);
    cr_assert(strstr(block, "| print_device_facts: not written yet"), "what the stub wrote is not quoted:\n%s", block);
    free(out);
}

ParameterizedTestParameters(grader_device_query, each_wrong_device_query_is_named_by_the_grader)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    static wrong_row devq[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "02", rows, why, sizeof why), k = 0;
    if (n < 0)
        fprintf(stderr, "test_devquery: %s\n", why);
    for (int i = 0; i < n; ++i)
        if (strncmp(rows[i].file, "02/devq-", 8) == 0)
            devq[k++] = rows[i];
    return cr_make_param_array(wrong_row, devq, (size_t)k);
}

ParameterizedTest(wrong_row *c, grader_device_query, each_wrong_device_query_is_named_by_the_grader, .timeout = 120)
{
    char *out, block[4096];
    int rc = grade(c->emu_program, &out);
    cr_assert_eq(rc, 1, "tl-grade --check on %s: exit %d, expected 1:\n%s", c->emu_program, rc, out);
    cr_assert_not_null(facts_block(out, block, sizeof block), "no device query test in:\n%s", out);
    cr_assert(strstr(block, "FAIL  device query (print_device_facts)"), "%s: not failed:\n%s", c->file, block);
    /* the headline (the test's first line of output) names the reason */
    const char *head = strchr(block, '\n');
    cr_assert_not_null(head);
    char first[1024];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(head + 1, "\n"), head + 1);
    int named = 0;
    for (int i = 0; i < c->nexpect && !named; ++i)
        named = strstr(first, c->expect[i]) != NULL;
    cr_assert(named, "%s: the headline does not name '%s':\n%s", c->file, c->expect[0], block);
    /* the kernel is the reference's: its public sizes pass */
    cr_assert(strstr(out, "PASS  MatrixMulKernel (naive), public sizes"), "%s: the kernel failed:\n%s", c->file, out);
    free(out);
}

Test(grader_device_query, the_manifest_lists_the_wrong_device_queries)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "02", rows, why, sizeof why), k = 0;
    cr_assert_geq(n, 0, "%s", why);
    for (int i = 0; i < n; ++i)
        k += strncmp(rows[i].file, "02/devq-", 8) == 0;
    cr_assert_geq(k, 5, "tests/wrong/manifest.tsv lists %d wrong device queries (02/devq-*), expected 5", k);
}

Test(grader_device_query, a_kernel_bug_keeps_its_device_query_points, .timeout = 120)
{
    char *out, block[4096];
    int rc = grade("labs/emulated/lab02-wrong-swapped-emu", &out);
    cr_assert_eq(rc, 1, "tl-grade --check on lab02-wrong-swapped-emu: exit %d:\n%s", rc, out);
    cr_assert_not_null(facts_block(out, block, sizeof block), "no device query test in:\n%s", out);
    cr_assert(strstr(block, "PASS  device query (print_device_facts)  (10/10)"), "%s", block);
    free(out);
}

Test(grader_device_query, a_build_failure_scores_the_device_query_0, .timeout = 60)
{
    char dir[] = "/tmp/tl-devq-XXXXXX", log[64 + sizeof dir];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/build.log", dir);
    FILE *f = fopen(log, "w");
    cr_assert_not_null(f);
    fprintf(f, "FAILED: labs/02-naive-kernel/lab02.p/naive.cu.o\n"
               "../labs/02-naive-kernel/naive.cu(64): error: identifier \"sms\" is undefined\n");
    fclose(f);
    char out[64 + sizeof dir];
    snprintf(out, sizeof out, "%s/out", dir);
    char *argv[] = {TL_BUILD_ROOT "/grader/tl-grade", "--check", "--kit", TL_SOURCE_ROOT, "--lab", "02", "--out", out,
                    "--build-failed", log, NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    /* results.json: the device query graded, 0, "not run: the build failed" */
    char js[128 + sizeof dir], cmd[128 + sizeof dir];
    snprintf(js, sizeof js, "%s/working-tree/results.json", out);
    static char text[1 << 16];
    FILE *jf = fopen(js, "r");
    size_t n = jf ? fread(text, 1, sizeof text - 1, jf) : 0;
    if (jf)
        fclose(jf);
    text[n] = '\0';
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
    const char *t = strstr(text, "\"device query (print_device_facts)\"");
    cr_assert_not_null(t, "results.json lists no device query test:\n%s", text);
    const char *end = strchr(t, '}');
    cr_assert(end && strstr(t, "\"score\":\t0,") && strstr(t, "\"score\":\t0,") < end &&
              strstr(t, "the build failed") && strstr(t, "the build failed") < end,
              "the device query is not graded 0 for the failed build:\n%.600s", t);
    cr_assert_eq(r.exit_code, 1, "a failed build: exit %d, expected 1:\n%s", r.exit_code, r.out);
    cr_assert(strstr(r.out, "BUILD FAILED"), "%s", r.out);
    cr_assert(strstr(r.out, "Score: 0/"), "a failed build scores 0:\n%s", r.out);
    run_free(&r);
}

/* Issue 24 item 5: emulated, the query is asked on two GPU models drawn per run (the emulator's
 * h100, h200, a100, l40s, t4), so facts typed in as text fail; the solution, which asks the device,
 * is right on both (the_reference_scores_every_point). Graded from a submission folder (the kit is
 * built for it: minutes). */
Test(grader_device_query, facts_typed_in_as_text_fail_on_the_models_drawn_for_the_run, .timeout = 900)
{
    char dir[] = "/tmp/tl-devq-text-XXXXXX", cmd[4096];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/sub' && cp '%s/tests/hostile/02/devq_constant_text.cu' '%s/sub/naive.cu'",
             dir, TL_SOURCE_ROOT, dir);
    cr_assert_eq(system(cmd), 0);
    char out[1200], sub[1200];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    char *argv[] = {TL_BUILD_ROOT "/grader/tl-grade", "--check", "--kit", TL_SOURCE_ROOT, "--lab", "02", "--out", out,
                    "--emulate", sub, NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
    char block[4096];
    cr_assert_not_null(facts_block(r.out, block, sizeof block), "no device query test in:\n%s", r.out);
    cr_assert(strstr(block, "FAIL  device query (print_device_facts)"), "constant text passed:\n%s", block);
    cr_assert(strstr(block, "asked on two emulated GPUs drawn for this run"), "%s", block);
    cr_assert(strstr(r.out, "PASS  MatrixMulKernel (naive), public sizes"), "the kernel failed:\n%s", r.out);
    free(r.out);
}

/* Issue 24 item 5 (session 9's red team, tests/hostile/02/devq_name_table.cu): a table of the
 * emulator's models keyed on the device's name matched them; with TL_EMU_MODEL=KEY:N (the grader's
 * draw) the board's clocks differ from the model's, and the same draw gives the same facts in the
 * student's program and in the kit's query (both read the variable). */
static char *emu_facts(const char *model)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "TL_EMU_MODEL='%s' '%s/common/tl-device-emu' --facts 2>/dev/null", model, TL_BUILD_ROOT);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    static char buf[4][4096];
    static int slot;
    char *b = buf[slot++ % 4];
    size_t n = fread(b, 1, 4095, p);
    b[n] = '\0';
    pclose(p);
    cr_assert(strstr(b, "sm clock:"), "no facts for %s: %s", model, b);
    return b;
}

Test(device_facts, a_drawn_board_of_a_model_has_other_clocks_and_one_draw_gives_one_answer, .timeout = 60)
{
    const char *plain = emu_facts("h100"), *drawn = emu_facts("h100:5"), *again = emu_facts("h100:5");
    const char *other = emu_facts("h100:9");
    cr_assert(strstr(plain, "device: H100 SXM (emulated)") && strstr(drawn, "device: H100 SXM (emulated)"),
              "the name changed:\n%s\n%s", plain, drawn);
    cr_assert(strstr(plain, "sm clock: 1980000 kHz") && strstr(drawn, "sm clock: 1905000 kHz"),
              "draw 5 is the boost clock less 5 x 15 MHz:\n%s\n%s", plain, drawn);
    cr_assert(strstr(other, "sm clock: 1980000 kHz") && strstr(other, "memory clock: 2618000 kHz"),
              "draw 9 keeps the SM clock and moves the memory clock by 1 MHz:\n%s", other);
    cr_assert_str_eq(drawn, again, "one draw, two answers");
}
