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
        "gemm_missing = \"cpu_blocked64\"\n", "size_min = 256\n", "size_max = 4096\n",
        "n_boundary_sizes = 7\n", "n_hroof = 0\n", "n_sweep = 6\n", "n_fail = 1\n", "n_skip = 1\n",
        "traffic_src = \"none\"\n", "l2_gbps = NaN\n", "cpu_present = \"cpu_ijk cpu_ikj cpu_blocked\"\n",
        "meta_build_type = \"debugoptimized\"\n",
        /* no tensor-core ceiling rows (lab 08's bench writes them): no tensor-core roof, measured or not */
        "tc_tf32 = NaN\ntc_bf16 = NaN\n", "tc_day = \"\"\n"};
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

Test(plotprep_synthetic, mission_boundary_and_sweep_tables_hold_the_expected_rows)
{
    plotprep(data_path("synthetic.csv"), NULL);
    assert_run_code(&result, 0);
    /* no traffic rows in this (version 1) file: the measured DRAM bound is NaN, the model ones are there */
    assert_file_has("mission.dat", "\n0 \"naive\" 37.5 725 NaN 3900 ");
    assert_file_has("mission.dat", "\n1 \"tiled16\" 600 11600 NaN 7400 ");
    assert_file_has("mission.dat", "\n2 \"tiled32\" 1000 23200 NaN 8000 ");
    assert_file_has("boundary_cost.dat", "\n1023 6000 NaN 6500 NaN");
    assert_file_has("boundary_cost.dat", "\n1024 6200 6500 6700 6900");
    assert_file_has("boundary_cost.dat", "\n2049 6600 NaN 7100 NaN");
    assert_file_has("sweep.dat", "\n4 \"sweep_t16_smem48k\" 16 32 49152 0.5 0.4375 6800 NaN 1\n");
}

Test(plotprep_synthetic, the_ladder_its_traffic_and_the_hierarchical_roofline_come_from_version_2_records)
{
    plotprep(data_path("synthetic-ladder.csv"), NULL);
    assert_run_code(&result, 0);
    assert_file_has("meta.gp", "traffic_n = 4096\ntraffic_src = \"measured\"\n");
    assert_file_has("meta.gp", "l2_gbps = 8000\nl1_gbps = 25000\nshared_gbps = 30000\n");
    assert_file_has("meta.gp", "n_ladder = 7\n");
    /* % of cuBLAS and GB per level, in ladder order */
    assert_file_has("ladder.dat", "\n1 \"naive\" 5000 10 27.4878 17 43 275 0.13 ");
    assert_file_has("ladder.dat", "\n6 \"cublas\" 50000 100 2.74878 0.4 3.4 3.3 52.8 ");
    /* tiled32 at shared memory: 2 x 4096^3 FLOP / 431 GB = 0.3189 FLOP/B, roof 30000 x that */
    assert_file_has("hroofline.dat", "\"tiled32\" 3 \"shared\" 0.318884 9000 9566.52\n");
    /* naive's 0.13 GB at shared memory is under 1% of its L1 bytes: not a level it uses, not drawn */
    char *h = work_file("hroofline.dat");
    cr_assert_null(strstr(h, "\"naive\" 3 "), "naive drawn at the shared level:\n%s", h);
    free(h);
    assert_file_has("mission.dat", "\n0 \"naive\" 37.5 750 24253.9 5000 ");
    assert_file_has("served.dat", "\n0 \"naive\" 549.756 275 43 17 0.13\n");
}

Test(plotprep_synthetic, labs_07_08_and_tensor_core_rungs_join_the_ladder_when_their_records_are_passed)
{
    /* a second file of the same device, as labs 07-08's device scripts will write: a lab 07 rung and
     * cuBLAS in BF16, with their traffic */
    plotprep(data_path("synthetic-ladder.csv"), data_path("synthetic-labs0708.csv"));
    assert_run_code(&result, 0);
    assert_file_has("meta.gp", "n_ladder = 12\n");
    /* lab 07 is in the table: its rung comes before the yardstick, against its own run's cuBLAS (48,000) */
    assert_file_has("ladder.dat", "\n6 \"tma\" 45000 93.75 ");
    /* grouped by units, each group closed by its cuBLAS; % of peak of the rung's own units (for a BF16
     * rung the measured BF16 tensor-core peak: the fastest of lab 08's BF16 ceiling rows, 800,000),
     * column 13 the units (0 FP32, 1 TF32, 2 BF16) */
    assert_file_has("ladder.dat", "\n7 \"cublas\" 50000 100 ");
    assert_file_has("ladder.dat", "\n8 \"wmma_tf32\" 30000 10 ");
    assert_file_has("ladder.dat", "\n10 \"wgmma_bf16\" 540000 90 0.254517 NaN NaN NaN NaN \"540,000\" \"90.0%\" \"67.5%\" 2 \"not counted\"\n");
    assert_file_has("ladder.dat", "\n11 \"cublas_bf16\" 600000 100 ");
    /* the series files hold the bench's cuBLAS only (lab 07's run's own is its yardstick) */
    assert_file_has("gemm_cublas.dat", " 4096 4096 4096 50000 ");
    char *c = work_file("gemm_cublas.dat");
    cr_assert_null(strstr(c, " 48000 "), "lab 07's own cuBLAS in the cuBLAS series:\n%s", c);
    free(c);
    assert_file_has("hroof_names.gp", " tma cublas cublas_bf16\"");
    /* the rungs timed without traffic (lab 08's here) are named on the roofline, not silently missing */
    assert_file_has("hroof_names.gp", "hroof_unplaced = \"lab 08\"\n");
    /* a tensor-core rung is capped by the tensor cores' measured peak, not FP32's: DRAM roof 800000 */
    assert_file_has("hroofline.dat", "\"cublas_bf16\" 0 \"DRAM\" 687.195 600000 800000\n");
    /* the roofs the charts draw: per format the fastest ceiling row, the instruction and the day; the
     * datasheet's figures beside them (an sm_90 part with 132 SMs) */
    assert_file_has("meta.gp", "tc_tf32 = 400000\ntc_bf16 = 800000\n");
    assert_file_has("meta.gp", "tc_tf32_sheet_txt = \"494,700\"\ntc_bf16_sheet_txt = \"989,400\"\n"
                               "tc_tf32_by = \"wgmma\"\ntc_bf16_by = \"wgmma\"\ntc_day = \"2026-11-26\"\n");
    /* the charts name the day of each sort of row: the GPU rows span both files */
    assert_file_has("meta.gp", "gpu_day = \"2026-11-22 .. 2026-11-26\"\n");
    run_result *res = calloc(1, sizeof *res);
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--check-roofs", "--slack", "0",
                    (char *)data_path("synthetic-ladder.csv"), (char *)data_path("synthetic-labs0708.csv"), NULL};
    run(res, argv, NULL);
    assert_run_code(res, 0);
    free(res);
}

Test(plotprep_synthetic, the_slides_figures_come_from_the_same_records, .timeout = 20)
{
    char tex[300], out[300];
    snprintf(tex, sizeof tex, "%s/measured.tex", workdir);
    snprintf(out, sizeof out, "%s/work", workdir);
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--out", out, "--tex", tex,
                    (char *)data_path("synthetic-ladder.csv"), NULL};
    run(&result, argv, NULL);
    assert_run_code(&result, 0);
    char *t = slurp_file(tex, NULL);
    cr_assert_not_null(t, "no %s", tex);
    static const char *const want[] = {"\\newcommand{\\tlsize}{4096}\n", "\\newcommand{\\tlnaive}{5,000}\n",
                                       "\\newcommand{\\tlbw}{3,000}\n", "\\newcommand{\\tlcublas}{50,000}\n",
                                       "\\newcommand{\\tltraffic}{measured}\n", "\\newcommand{\\tlnaivedram}{17.0}\n",
                                       "\\newcommand{\\tlridge}{20.0}\n", "\\newcommand{\\tlmodelridge}{6.7}\n",
                                       "\\texttt{tiled32\\_conflict} & FP32 & 85.9 & 1,600 & 3.2 & 8.5 & 15.6 & 17.2 & 2,626"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_contains(t, want[i], "measured.tex");
    free(t);
}

Test(plotprep_synthetic, table_prints_the_ladder_with_percent_of_cublas)
{
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--table", (char *)data_path("synthetic-ladder.csv"), NULL};
    run(&result, argv, NULL);
    assert_run_code(&result, 0);
    assert_contains(result.out, "n = 4096 (a multiple of 32); bytes per level measured by ncu", "--table");
    assert_contains(result.out, "  tiled32_conflict  FP32    85.899    1600.0      3.2%      8.50     15.60     17.20   2626.00\n",
                    "--table");
}

Test(plotprep_synthetic, each_rung_is_compared_with_cublas_in_its_own_units)
{
    /* lab 07's file holds its own cuBLAS SGEMM (48,000, timed in its run): tma's 45,000 is 93.75% of it, not
     * 90% of the bench's 50,000; a TF32 rung against cuBLAS TF32, a BF16 rung against cuBLAS BF16, never
     * against SGEMM (600,000 BF16 is 100% of cuBLAS BF16, not 1,200%) */
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--table", (char *)data_path("synthetic-ladder.csv"),
                    (char *)data_path("synthetic-labs0708.csv"), NULL};
    run(&result, argv, NULL);
    assert_run_code(&result, 0);
    static const char *const want[] = {
        "  tma               FP32     3.054   45000.0     93.8%", "  cublas            FP32     2.749   50000.0    100.0%",
        "  wmma_tf32         TF32     4.581   30000.0     10.0%", "  cublas_tf32       TF32     0.458  300000.0    100.0%",
        "  wgmma_bf16        BF16     0.255  540000.0     90.0%", "  cublas_bf16       BF16     0.229  600000.0    100.0%"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_contains(result.out, want[i], "--table");
    /* lab 07's own cuBLAS is its run's yardstick, not a second cuBLAS rung or series */
    const char *first = strstr(result.out, "  cublas            FP32");
    cr_assert(first && !strstr(first + 1, "  cublas            FP32"), "two cuBLAS SGEMM rungs:\n%s", result.out);
}

Test(plotprep_synthetic, a_dataset_with_one_kernel_names_the_missing_series)
{
    plotprep(data_path("tiny.csv"), NULL);
    assert_run_code(&result, 0);
    assert_file_has("meta.gp", "gemm_present = \"naive\"\n");
    assert_file_has("meta.gp", "gemm_missing = \"cpu_ijk, cpu_ikj, cpu_blocked, cpu_blocked64, tiled16, tiled32, "
                               "boundary16, boundary32, cublas\"\n");
    assert_file_has("meta.gp", "has_cublas = 0\nbest_cublas = NaN\n");
    assert_file_has("meta.gp", "n_sweep = 0\n");
    assert_file_has("mission.dat", "\n2 \"tiled32\" 1000 23200 NaN NaN ");
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
        {"bad-version.csv", "bad-version.csv:1: ", "records format version '9' is not known"},
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
    /* lab 01's CPU rows are taken from the last file that has them (a vectorised supplement replaces
     * the dataset's), so the first duplicate named is the first GPU row */
    assert_contains(result.err, "synthetic.csv:28: gemm 'naive' (m=256 k=256 n=256) was already measured at",
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
    assert_contains(result.out, "usage: tl-plotprep --out WORKDIR [--tex FILE] RECORDS.csv", "stdout");
}

/* ---- the shipped H100 dataset: the sweep's limits reach the chart's data ------------------------- */

Test(plotprep_synthetic, the_sweep_table_carries_each_points_limit_and_the_register_tile)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/plots/data/nvidia-h100-80gb-hbm3-2026-11-22.csv", env_or_die("TL_ROOT"));
    plotprep(path, NULL);
    assert_run_code(&result, 0);
    char *text = work_file("sweep.dat");
    /* variant -> tile regs limit micro, as lab 05 measured them on sm_90 (labs/05-occupancy-study/README.md) */
    static const struct { const char *variant; int tile, regs, limit, micro; } want[] = {
        {"sweep_t16_s0k", 16, 32, 0, 1},   {"sweep_t16_s48k", 16, 32, 4, 1}, {"sweep_rt2_s0k", 32, 40, 3, 2},
        {"sweep_rt4_s48k", 64, 64, 3, 4}, {"sweep_rt8_s0k", 128, 128, 3, 8}, {"sweep_rt8_s100k", 128, 128, 4, 8}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "\"%s\" ", want[i].variant);
        const char *line = strstr(text, key);
        cr_assert_not_null(line, "sweep.dat has no row for %s:\n%s", want[i].variant, text);
        int tile, regs, micro;
        double smem, oc, oa, gf, limit;
        int n = sscanf(line + strlen(key), "%d %d %lf %lf %lf %lf %lf %d", &tile, &regs, &smem, &oc, &oa, &gf, &limit,
                       &micro);
        cr_assert_eq(n, 8, "sweep.dat row for %s does not hold 8 numbers after its name", want[i].variant);
        cr_assert_eq(tile, want[i].tile, "%s: tile %d, expected %d", want[i].variant, tile, want[i].tile);
        cr_assert_eq(regs, want[i].regs, "%s: regs %d, expected %d", want[i].variant, regs, want[i].regs);
        cr_assert_eq((int)limit, want[i].limit, "%s: limit %g, expected %d", want[i].variant, limit, want[i].limit);
        cr_assert_eq(micro, want[i].micro, "%s: micro %d, expected %d", want[i].variant, micro, want[i].micro);
    }
    free(text);
}

Test(plotprep_synthetic, readme_tables_of_labs_07_and_08_come_from_the_labs_own_run)
{
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--readme", "08", (char *)data_path("synthetic-ladder.csv"),
                    (char *)data_path("synthetic-labs0708.csv"), NULL};
    run(&result, argv, NULL);
    assert_run_code(&result, 0);
    /* the run's own date (the labs' file: 2026-11-26, not the bench's 2026-11-22), build and timing */
    assert_contains(result.out, "synthetic test data (not measured), 2026-11-26 (lab 08's own device run; debugoptimized build; invented",
                    "--readme 08");
    assert_contains(result.out, "| wmma_tf32 | TF32 tensor cores | 30,000 | 10.0 |\n", "--readme 08");
    assert_contains(result.out, "| wgmma_bf16 | BF16 tensor cores | 540,000 | 90.0 |\n", "--readme 08");
    char *argv7[] = {(char *)env_or_die("TL_PLOTPREP"), "--readme", "07", (char *)data_path("synthetic-ladder.csv"),
                     (char *)data_path("synthetic-labs0708.csv"), NULL};
    run(&result, argv7, NULL);
    assert_run_code(&result, 0);
    assert_contains(result.out, "| tma | FP32 | 45,000 | 93.8 |\n| cublas | FP32 | 48,000 | 100.0 |\n", "--readme 07");
    /* without the lab's run there is nothing to show: say which file to pass */
    char *none[] = {(char *)env_or_die("TL_PLOTPREP"), "--readme", "07", (char *)data_path("synthetic-ladder.csv"), NULL};
    run(&result, none, NULL);
    assert_run_code(&result, 2);
    assert_contains(result.err, "no lab 07 rows; pass the lab's run too", "stderr");
}

Test(plotprep_synthetic, the_slides_get_labs_07_and_08_figures_in_their_units, .timeout = 20)
{
    char tex[300], out[300];
    snprintf(tex, sizeof tex, "%s/measured.tex", workdir);
    snprintf(out, sizeof out, "%s/work", workdir);
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--out", out, "--tex", tex, (char *)data_path("synthetic-ladder.csv"),
                    (char *)data_path("synthetic-labs0708.csv"), NULL};
    run(&result, argv, NULL);
    assert_run_code(&result, 0);
    char *t = slurp_file(tex, NULL);
    cr_assert_not_null(t, "no %s", tex);
    static const char *const want[] = {"\\newcommand{\\tllabseventma}{45,000}\n", "\\newcommand{\\tllabseventmapct}{93.8}\n",
                                       "\\newcommand{\\tllabeightwgmmapct}{90.0}\n", "\\newcommand{\\tllabeightwmmatfpct}{10.0}\n",
                                       "\\newcommand{\\tllabsday}{2026-11-26}\n",
                                       "\\texttt{wgmma\\_bf16} & BF16 TC & 0.25 & 540,000 & 90.0 &"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_contains(t, want[i], "measured.tex");
    free(t);
}
