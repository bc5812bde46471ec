/* test_plotprep.c: tl-plotprep as a program: what it writes for the synthetic dataset, and how it
 * refuses each kind of malformed records file (exit 2, a message naming file, line and problem). */
#include "plots_test.h"

#include <criterion/parameterized.h>

static run_result result;   /* large: kept out of the stack; each test runs in its own process */
static char workdir[256];

static void fresh_workdir(void) { make_temp_dir(workdir, sizeof workdir); }
static void drop_workdir(void) { remove_tree(workdir); }

/* Run tl-plotprep --out WORKDIR on up to two records files. */
static void plotprep(const char *a, const char *b)
{
    char out[300];
    snprintf(out, sizeof out, "%s/work", workdir);
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--out", out, (char *)a, (char *)b, NULL};
    run(&result, argv, NULL);
}

/* The text of WORKDIR/work/NAME (caller frees). */
static char *work_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/work/%s", workdir, name);
    char *text = slurp_file(path, NULL);
    cr_assert_not_null(text, "tl-plotprep did not write %s", path);
    return text;
}

static void assert_file_has(const char *name, const char *line)
{
    char *text = work_file(name);
    assert_contains(text, line, name);
    free(text);
}

/* ---- the synthetic dataset ---------------------------------------------------------------------- */

TestSuite(plotprep_synthetic, .init = fresh_workdir, .fini = drop_workdir, .timeout = 20);

Test(plotprep_synthetic, meta_holds_the_device_date_and_measured_ceilings)
{
    plotprep(data_path("synthetic.csv"), NULL);
    assert_run_code(&result, 0);
    static const char *const want[] = {
        "device = \"synthetic test data (not measured)\"\n", "date = \"2026-11-22T03:00:00Z\"\n",
        "date_day = \"2026-11-22\"\n", "synthetic = 1\n",
        "bw_gbps = 2900\n", "peak_gflops = 51000\n",
        "naive_bound = 725\n", "tiled16_bound = 11600\n", "tiled32_bound = 23200\n",
        "model_peak = 1000\n", "model_bw = 150\n", "model_naive = 37.5\n", "model_tiled16 = 600\n",
        "model_tiled32 = 1200\n",
        "best_cublas = 47000\n", "best_naive = 4000\n", "best_tiled32 = 8000\n", "has_cpu_ijk = 1\n",
        "gemm_missing = \"\"\n", "size_min = 256\n", "size_max = 4096\n",
        "n_boundary_sizes = 7\n", "n_roofline = 6\n", "n_sweep = 6\n", "n_fail = 1\n", "n_skip = 1\n",
        "meta_build_type = \"debugoptimized\"\n"};
    char *meta = work_file("meta.gp");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_contains(meta, want[i], "meta.gp");
    free(meta);
}

Test(plotprep_synthetic, every_variant_gets_a_series_file_sorted_by_size)
{
    plotprep(data_path("synthetic.csv"), NULL);
    assert_run_code(&result, 0);
    static const char *const variants[] = {"cpu_ijk", "cpu_ikj", "cpu_blocked", "naive", "tiled16", "tiled32",
                                           "boundary16", "boundary32", "rect16", "cublas"};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "gemm_%s.dat", variants[i]);
        free(work_file(name));
    }
    char *naive = work_file("gemm_naive.dat");
    const char *rows[] = {"\n256 256 256 256 900 ", "\n512 512 512 512 2500 ", "\n1024 1024 1024 1024 3500 ",
                          "\n2048 2048 2048 2048 4000 ", "\n4096 4096 4096 4096 3900 "};
    const char *at = naive;
    for (size_t i = 0; i < 5; i++) {
        const char *hit = strstr(at, rows[i]);
        cr_assert_not_null(hit, "gemm_naive.dat lacks row '%s' after the rows before it:\n%s", rows[i] + 1, naive);
        at = hit + 1;
    }
    cr_assert_null(strstr(naive, "\n8192 "), "the FAIL row at 8192 must not be plotted:\n%s", naive);
    free(naive);
    assert_file_has("gemm_rect16.dat", "\n704.73 1000 500 700 5000 ");
}

Test(plotprep_synthetic, model_roofline_boundary_and_sweep_tables_hold_the_expected_rows)
{
    plotprep(data_path("synthetic.csv"), NULL);
    assert_run_code(&result, 0);
    assert_file_has("model.dat", "\n0 \"naive\" 37.5 725 4000\n");
    assert_file_has("model.dat", "\n1 \"TILE_WIDTH 16\" 600 11600 7400\n");
    assert_file_has("model.dat", "\n2 \"TILE_WIDTH 32\" 1000 23200 8000\n");
    assert_file_has("model.dat", "\n3 \"FP32 peak\" 1000 51000 47000\n");
    assert_file_has("roofline.dat", "\nnaive 0.25 3900 4096\n");
    assert_file_has("roofline.dat", "\ntiled16 4 7400 4096\n");
    assert_file_has("roofline.dat", "\ntiled32 8 8000 4096\n");
    assert_file_has("roofline.dat", "\nboundary32 8 7100 2049\n");
    assert_file_has("roofline.dat", "\ncublas 682.667 47000 4096\n");
    assert_file_has("boundary_cost.dat", "\n1023 6000 NaN 6500 NaN\n");
    assert_file_has("boundary_cost.dat", "\n1024 6200 6500 6700 6900\n");
    assert_file_has("boundary_cost.dat", "\n2049 6600 NaN 7100 NaN\n");
    assert_file_has("sweep.dat", "\n4 \"sweep_t16_smem48k\" 16 32 49152 0.5 0.4375 6800\n");
}

Test(plotprep_synthetic, a_dataset_with_one_kernel_names_the_missing_series)
{
    plotprep(data_path("tiny.csv"), NULL);
    assert_run_code(&result, 0);
    assert_file_has("meta.gp", "gemm_present = \"naive\"\n");
    assert_file_has("meta.gp", "gemm_missing = \"cpu_ijk, cpu_ikj, cpu_blocked, tiled16, tiled32, boundary16, "
                               "boundary32, cublas\"\n");
    assert_file_has("meta.gp", "has_cublas = 0\nbest_cublas = NaN\n");
    assert_file_has("meta.gp", "n_sweep = 0\n");
    assert_file_has("model.dat", "\n3 \"FP32 peak\" 1000 51000 NaN\n");
}

/* ---- refusals ----------------------------------------------------------------------------------- */

TestSuite(plotprep_refuses, .init = fresh_workdir, .fini = drop_workdir, .timeout = 20);

typedef struct bad_case {
    char file[48];     /* in tests/plots/data */
    char where[48];    /* "FILE:LINE:" or "FILE:" as the message must start */
    char phrase[128];  /* what the message must say */
} bad_case;

ParameterizedTestParameters(plotprep_refuses, malformed_records)
{
    static bad_case cases[] = {
        {"no-such-file.csv", "no-such-file.csv: ", "cannot open: No such file or directory"},
        {"bad-no-metadata.csv", "bad-no-metadata.csv:1: ", "no metadata before this line"},
        {"bad-version.csv", "bad-version.csv:1: ", "records format version '2' is not known"},
        {"bad-header.csv", "bad-header.csv:7: ", "header field 17 is 'gflop', expected 'gflops'"},
        {"bad-field-count.csv", "bad-field-count.csv:9: ", "row has 17 fields, expected 18"},
        {"bad-non-numeric.csv", "bad-non-numeric.csv:8: ", "field 'gflops' is 'fast', expected a finite number"},
        {"bad-pass-no-time.csv", "bad-pass-no-time.csv:8: ", "PASS row for 'naive' has no median_ms"},
        {"bad-no-gemm.csv", "bad-no-gemm.csv: ", "no 'gemm' rows"},
        {"bad-no-ceilings.csv", "bad-no-ceilings.csv: ", "no PASS 'ceiling' row 'copy_bandwidth'"},
        {"bad-fail-with-rate.csv", "bad-fail-with-rate.csv:9: ", "FAIL row for 'tiled16' carries a time or a rate"},
        {"bad-status.csv", "bad-status.csv:8: ", "status 'OK' is not PASS, FAIL or SKIP"},
        {"bad-unknown-kind.csv", "bad-unknown-kind.csv:8: ", "kind 'gemmm' is not one of gemm, ceiling, sweep"},
        {"bad-no-device.csv", "bad-no-device.csv:6: ", "no '# device: ...' metadata line"},
        {"bad-debug-build.csv", "bad-debug-build.csv: ", "build_type is 'debug'"},
    };
    return cr_make_param_array(bad_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(bad_case *c, plotprep_refuses, malformed_records, .init = fresh_workdir, .fini = drop_workdir,
                  .timeout = 20)
{
    plotprep(data_path(c->file), NULL);
    assert_run_code(&result, 2);
    char want[160];
    snprintf(want, sizeof want, "tl-plotprep: %s", data_path(c->where));
    assert_contains(result.err, want, "stderr");
    assert_contains(result.err, c->phrase, "stderr");
}

Test(plotprep_refuses, the_same_measurement_twice)
{
    plotprep(data_path("synthetic.csv"), data_path("synthetic.csv"));
    assert_run_code(&result, 2);
    assert_contains(result.err, "synthetic.csv:19: gemm 'cpu_ijk' (m=256 k=256 n=256) was already measured at",
                    "stderr");
}

Test(plotprep_refuses, records_of_two_devices_on_one_chart)
{
    plotprep(data_path("tiny.csv"), data_path("tiny-other-device.csv"));
    assert_run_code(&result, 2);
    assert_contains(result.err, "device 'synthetic second device (not measured)' differs from", "stderr");
}

Test(plotprep_refuses, a_call_without_records_or_without_out)
{
    char *no_files[] = {(char *)env_or_die("TL_PLOTPREP"), "--out", workdir, NULL};
    run(&result, no_files, NULL);
    assert_run_code(&result, 2);
    assert_contains(result.err, "no records file given", "stderr");
    char *no_out[] = {(char *)env_or_die("TL_PLOTPREP"), data_path("synthetic.csv"), NULL};
    run(&result, no_out, NULL);
    assert_run_code(&result, 2);
    assert_contains(result.err, "no --out WORKDIR given", "stderr");
    char *bad_opt[] = {(char *)env_or_die("TL_PLOTPREP"), "--fast", NULL};
    run(&result, bad_opt, NULL);
    assert_run_code(&result, 2);
    assert_contains(result.err, "unknown option '--fast'", "stderr");
}

Test(plotprep_refuses, nothing_when_asked_for_help)
{
    char *help[] = {(char *)env_or_die("TL_PLOTPREP"), "--help", NULL};
    run(&result, help, NULL);
    assert_run_code(&result, 0);
    assert_contains(result.out, "usage: tl-plotprep --out WORKDIR RECORDS.csv", "stdout");
}
