/* test_ncu.c: the GPU's counters as the grader reads them (grader/ncu.c, issue 24 item 4), without a
 * GPU: ncu's raw CSV parsed (the kit's kernels left out, units converted, ncu's own lines and anything
 * else skipped), the lab's work rule on the counts (the same tl_work_judge_why as the emulated count,
 * with the documented margins), the timed median against the kernels' GPU time, and ncu's words that
 * mean "not checked here". The files in tests/ncu/ are ncu's own output on an H100 (written by
 * tests/gpu/ncu-work-on-device.sh; tests/ncu/README.md says which run). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "grade.h"
#include "ncu.h"

static char *fixture(const char *name, size_t *len)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/tests/ncu/%s", TL_SOURCE_ROOT, name);
    char *t = tg_read_file(p, 16 << 20, len);
    cr_assert(t, "fixture %s is missing", p);
    return t;
}

static void parse_fixture(const char *name, tg_ncu_counts *c)
{
    size_t len = 0;
    char *t = fixture(name, &len);
    char err[300] = "";
    cr_assert_eq(tg_ncu_parse(t, len, c, err, sizeof err), 0, "%s: %s", name, err);
    free(t);
}

/* A table as ncu writes it: its own lines, a header, a units row, then the kernels. */
static const char *head =
    "==PROF== Connected to process 41 (/build/labs/03-tiled-kernel/lab03)\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"gpu__time_duration.sum\",\"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum\","
    "\"smsp__sass_inst_executed_op_global_ld.sum\",\"smsp__sass_inst_executed_op_global_st.sum\","
    "\"smsp__sass_inst_executed_op_ldgsts.sum\",\"smsp__sass_inst_executed_op_shared_ld.sum\","
    "\"smsp__sass_inst_executed_op_shared_st.sum\",\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\","
    "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\","
    "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"usecond\",\"byte\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\","
    "\"inst\",\"inst\",\"inst\"\n";

/* One kernel row: name, time (us), L1 bytes, warp-level gld gst ldgsts sld sst, thread-level dfma fadd ffma fmul. */
static void row(char *out, size_t len, const char *name, double us, double bytes, double gld, double gst, double sld,
                double sst, double ffma)
{
    snprintf(out + strlen(out), len - strlen(out),
             "\"0\",\"41\",\"lab03\",\"127.0.0.1\",\"%s\",\"1\",\"7\",\"%.3f\",\"%.0f\",\"%.0f\",\"%.0f\",\"0\",\"%.0f\","
             "\"%.0f\",\"0\",\"0\",\"%.0f\",\"0\"\n", name, us, bytes, gld, gst, sld, sst, ffma);
}

/* ------------------------------------------------------------------ ncu's own output (tests/ncu/) */

Test(ncu, the_reference_kernels_as_ncu_counted_them_on_an_h100_meet_their_labs_rules)
{
    char h[480], f[640];
    const char *pat = NULL;
    tg_ncu_counts c;
    parse_fixture("lab03-tiled16-512-solution.csv", &c);
    cr_assert_eq(c.kernels, 1);
    cr_assert_eq(c.kit_kernels, 0);
    cr_assert_float_eq(c.q[TG_NCU_FFMA], 512.0 * 512 * 512, 0.5, "one FFMA per multiply-add: %g", c.q[TG_NCU_FFMA]);
    cr_assert_float_eq(c.q[TG_NCU_GLD], 2.0 / 16 * 512 * 512 * 512, 0.5, "2/16 loads per multiply-add");
    cr_assert_float_eq(c.q[TG_NCU_GST], 512.0 * 512, 0.5);
    cr_assert_float_eq(c.q[TG_NCU_TIME], 43040, 0.5, "43,040 ns as ncu printed it");
    cr_assert(strstr(c.names, "MatrixMulKernel_t16(float *, float *, float *, int)"), "%s", c.names);
    cr_assert_eq(tg_ncu_judge(tl_lab_find("03"), 16, 512, 512, 512, &c, h, sizeof h, f, sizeof f, &pat), 0, "%s", h);
    cr_assert(strstr(f, "global loads per multiply-add: 0.125 = 2/16") && strstr(f, "shared loads per multiply-add: 1.25"),
              "%s", f);
    parse_fixture("lab02-naive-512-solution.csv", &c);
    cr_assert_eq(tg_ncu_judge(tl_lab_find("02"), 16, 512, 512, 512, &c, h, sizeof h, f, sizeof f, &pat), 0, "%s", h);
    cr_assert(strstr(f, "global loads per multiply-add: 2"), "%s", f);
    parse_fixture("lab06-regtile-1024-solution.csv", &c);
    const tl_lab_info *l6 = tl_lab_find("06");
    const tl_lab_variant *rt = tl_lab_variant_find(l6, "regtile");
    cr_assert(rt);
    cr_assert_eq(tg_ncu_judge(l6, rt->tile, 1024, 1024, 1024, &c, h, sizeof h, f, sizeof f, &pat), 0, "%s", h);
    cr_assert_float_eq(c.q[TG_NCU_FFMA], 1024.0 * 1024 * 1024, 0.5);
}

Test(ncu, lab_02s_naive_kernel_counted_on_an_h100_is_not_tiled_in_lab_03)
{
    /* tests/wrong/03/naive-in-tiled.cu is lab 02's kernel: the same counts */
    tg_ncu_counts c;
    parse_fixture("lab02-naive-512-solution.csv", &c);
    char h[480], f[640];
    const char *pat = NULL;
    for (int t = 16; t <= 32; t += 16) {
        cr_assert_eq(tg_ncu_judge(tl_lab_find("03"), t, 512, 512, 512, &c, h, sizeof h, f, sizeof f, &pat), 1);
        cr_assert(strncmp(h, "not tiled: 2 global loads per multiply-add at 512 x 512 x 512", 61) == 0 &&
                  strcmp(pat, "not-tiled") == 0, "%s", h);
    }
}

Test(ncu, a_timed_run_as_ncu_counted_it_leaves_the_kits_30_kernels_out)
{
    tg_ncu_counts c;
    parse_fixture("lab03-tiled32-2048-timed-solution.csv", &c);
    cr_assert_eq(c.kernels, 13, "1 checked + 2 warm-up + 10 timed launches");
    cr_assert_eq(c.kit_kernels, 30, "10 x (scale, L2 flush, check)");
    cr_assert_float_eq(c.q[TG_NCU_FFMA], 13 * 2048.0 * 2048 * 2048, 1);
    cr_assert(c.q[TG_NCU_TIME] > 13 * 1.8e6 && c.q[TG_NCU_TIME] < 13 * 1.9e6, "%g ns", c.q[TG_NCU_TIME]);
    cr_assert_null(strstr(c.names, "tl_"), "%s", c.names);
}

Test(ncu, a_run_whose_table_has_no_kernel_is_host_side_computation)
{
    size_t len = 0;
    char *t = fixture("lab03-tiled16-512-solution.csv", &len);
    char *last = NULL;   /* the table without its kernel row: header and units only */
    for (char *p = t; (p = strstr(p, "\n\"")) != NULL; ++p)
        last = p;
    cr_assert(last);
    last[1] = '\0';
    tg_ncu_counts c;
    char err[300], h[480], f[640];
    const char *pat = NULL;
    cr_assert_eq(tg_ncu_parse(t, strlen(t), &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.kernels, 0);
    cr_assert_eq(tg_ncu_judge(tl_lab_find("03"), 16, 512, 512, 512, &c, h, sizeof h, f, sizeof f, &pat), 1);
    cr_assert(strstr(h, "no kernel ran") && strcmp(pat, "host-side-computation") == 0, "%s", h);
    free(t);
}

Test(ncu, the_table_is_read_by_its_header_and_the_kits_kernels_are_left_out)
{
    static char t[8192];
    snprintf(t, sizeof t, "%s", head);
    row(t, sizeof t, "MatrixMulKernel_t16(float *, float *, float *, int)", 1500.5, 1e9, 1000, 10, 5000, 1000, 8e9);
    row(t, sizeof t, "tl_l2_flush_kernel(float *, unsigned long)", 80, 0, 0, 99999, 0, 0, 0);
    row(t, sizeof t, "tl_rep_check_kernel(const float *, const float *, unsigned long, float, float, int *)", 9, 5, 77,
        0, 0, 0, 0);
    strcat(t, "a line the program printed, \"quoted\", is not the table's\n==PROF== Disconnected from process 41\n");
    tg_ncu_counts c;
    char err[300];
    cr_assert_eq(tg_ncu_parse(t, strlen(t), &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.kernels, 1);
    cr_assert_eq(c.kit_kernels, 2);
    cr_assert_float_eq(c.q[TG_NCU_TIME], 1500500.0, 1e-3, "usecond -> ns: %g", c.q[TG_NCU_TIME]);
    cr_assert_float_eq(c.q[TG_NCU_GLD], 32000.0, 1e-9, "warp instructions x 32");
    cr_assert_float_eq(c.q[TG_NCU_GST], 320.0, 1e-9);
    cr_assert_float_eq(c.q[TG_NCU_FFMA], 8e9, 1, "thread-level FFMA as read");
    cr_assert(strstr(c.names, "MatrixMulKernel_t16") && !strstr(c.names, "tl_"), "%s", c.names);
}

Test(ncu, a_kernel_named_like_the_kits_with_other_parameters_is_the_students)
{
    static char t[8192];
    snprintf(t, sizeof t, "%s", head);
    row(t, sizeof t, "tl_l2_flush_kernel(int)", 10, 0, 100, 1, 0, 0, 0);
    tg_ncu_counts c;
    char err[300];
    cr_assert_eq(tg_ncu_parse(t, strlen(t), &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.kernels, 1, "an overload of a kit kernel's name was left out: its work would be hidden");
    cr_assert_eq(c.kit_kernels, 0);
}

Test(ncu, numbers_with_separators_and_quotes_inside_names_are_read)
{
    static char t[8192];
    snprintf(t, sizeof t, "%s", head);
    strcat(t, "\"0\",\"41\",\"lab03\",\"h\",\"k<\"\"x\"\", 2>(float *)\",\"1\",\"7\",\"1,234.5\",\"2,000\",\"3\",\"4\",\"0\","
              "\"5\",\"6\",\"0\",\"0\",\"7,000,000\",\"0\"\n");
    tg_ncu_counts c;
    char err[300];
    cr_assert_eq(tg_ncu_parse(t, strlen(t), &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.kernels, 1);
    cr_assert(strstr(c.names, "k<\"x\", 2>(float *)"), "%s", c.names);
    cr_assert_float_eq(c.q[TG_NCU_TIME], 1234500.0, 1e-3);
    cr_assert_float_eq(c.q[TG_NCU_FFMA], 7e6, 1e-6);
}

Test(ncu, a_table_without_a_metric_or_without_a_header_is_not_read)
{
    tg_ncu_counts c;
    char err[300];
    const char *none = "==PROF== Connected to process 1\n==WARNING== No kernels were profiled.\n";
    cr_assert_eq(tg_ncu_parse(none, strlen(none), &c, err, sizeof err), -1);
    cr_assert(strstr(err, "no CSV table"), "%s", err);
    const char *short_head = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"nsecond\"\n";
    cr_assert_eq(tg_ncu_parse(short_head, strlen(short_head), &c, err, sizeof err), -1);
    cr_assert(strstr(err, "has no column smsp__"), "%s", err);
}

Test(ncu, ncus_words_that_mean_not_checked_here_are_recognised)
{
    char why[600];
    cr_assert_eq(tg_ncu_problem("==PROF== Connected to process 12\n==ERROR== ERR_NVGPUCTRPERM - The user does not "
                                "have permission to access NVIDIA GPU Performance Counters on the target device 0.\n",
                                why, sizeof why), 1);
    cr_assert(strstr(why, "administrators") && strstr(why, "NVreg_RestrictProfilingToAdminUsers=0"), "%s", why);
    cr_assert_eq(tg_ncu_problem("==ERROR== Failed to find metric smsp__made_up.sum\n", why, sizeof why), 1);
    cr_assert(strstr(why, "ncu failed: ==ERROR== Failed to find metric"), "%s", why);
    cr_assert_eq(tg_ncu_problem("==PROF== Disconnected from process 12\n", why, sizeof why), 0);
}

/* ------------------------------------------------------------------ the rule on counts */

static tg_ncu_counts counts(int kernels, double mkn, double gld_per_fma, double sld_per_fma, double stores,
                            double ffma_per_fma)
{
    tg_ncu_counts c;
    memset(&c, 0, sizeof c);
    c.kernels = kernels;
    c.q[TG_NCU_FFMA] = ffma_per_fma * mkn;
    c.q[TG_NCU_GLD] = gld_per_fma * mkn;
    c.q[TG_NCU_SLD] = sld_per_fma * mkn;
    c.q[TG_NCU_SST] = gld_per_fma * mkn;
    c.q[TG_NCU_GST] = stores;
    c.q[TG_NCU_TIME] = 2e6;
    c.have[TG_NCU_TIME] = 1;
    return c;
}

Test(ncu, the_tiled_kernel_passes_lab_03s_rule_and_lab_02s_kernel_does_not)
{
    const tl_lab_info *lab = tl_lab_find("03");
    cr_assert(lab && lab->work.tiled);
    double n = 2048, mkn = n * n * n;
    char h[480], f[640];
    const char *pat = NULL;
    tg_ncu_counts tiled = counts(1, mkn, 2.0 / 16, 1.25, n * n, 1.0);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &tiled, h, sizeof h, f, sizeof f, &pat), 0, "%s", h);
    cr_assert(strstr(f, "multiply-adds executed") && strstr(f, "kernel time 2.000 ms"), "%s", f);
    tg_ncu_counts naive = counts(1, mkn, 2.0, 0, n * n, 1.0);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &naive, h, sizeof h, f, sizeof f, &pat), 1);
    cr_assert(strncmp(h, "not tiled", 9) == 0 && strcmp(pat, "not-tiled") == 0, "%s", h);
}

/* The bytes a warp's loads asked for (smsp__sass_data_bytes_mem_global_op_ld) beside warp instructions
 * x 32. An honest lab 03 kernel whose M tile is loaded by a quarter of each warp's lanes, four floats
 * each (tests/corpus/03-right-float4-store.cu), read 0.3125 global loads per multiply-add from warp
 * instructions on the H100 (2026-11-26 16:50 UTC, class-on-device), 2.5 x its true 0.125: "not tiled",
 * a false reject; its bytes say 0.125. Lab 02's kernel at 16 x 16 asks for 0.5625 floats per
 * multiply-add (two rows of a warp read one element of M each: H100, 17:15 UTC), its instructions say
 * 2: the bytes are a lower bound, read by the "at most" rule only. */
static void with_bytes(tg_ncu_counts *c, double mkn, double gld)
{
    c->q[TG_NCU_GLD_DATA] = gld * 4 * mkn;
    c->have[TG_NCU_GLD_DATA] = 1;
}

Test(ncu, the_bytes_the_loads_asked_for_bound_the_at_most_rule_and_only_that)
{
    const tl_lab_info *lab = tl_lab_find("03");
    double n = 2048, mkn = n * n * n;
    char h[480], f[640];
    const char *pat = NULL;
    /* warp instructions x 32 as the H100 read them: 0.3125 per multiply-add */
    tg_ncu_counts c = counts(1, mkn, 0.3125, 2.0, n * n, 1.0);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, &pat), 1,
                 "without the bytes, the idle lanes count: the case this test is about is not reproduced");
    with_bytes(&c, mkn, 2.0 / 16);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, &pat), 0, "%s", h);
    cr_assert(strstr(f, "global loads per multiply-add: 0.125"), "the figure shown is the one judged: %s", f);
    /* lab 02's kernel: caught in lab 03 on its bytes too */
    tg_ncu_counts naive = counts(1, mkn, 2.0, 0, n * n, 1.0);
    with_bytes(&naive, mkn, 0.5625);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &naive, h, sizeof h, f, sizeof f, &pat), 1);
    cr_assert(strncmp(h, "not tiled", 9) == 0, "%s", h);
    /* ... and in lab 02 its "at least" rule (1 global load per multiply-add) reads the instructions (2),
     * not the broadcast-merged bytes (0.5625): the honest naive kernel passes */
    const tl_lab_info *lab02 = tl_lab_find("02");
    cr_assert(lab02 && lab02->work.min_loads_per_fma > 0.5625);
    naive.q[TG_NCU_SST] = 0;
    naive.q[TG_NCU_SLD] = 0;
    cr_assert_eq(tg_ncu_judge(lab02, 16, 2048, 2048, 2048, &naive, h, sizeof h, f, sizeof f, &pat), 0, "%s", h);
}

Test(ncu, the_bytes_columns_are_asked_for_and_optional_in_a_table)
{
    const char *m = tg_ncu_metrics();
    cr_assert(strstr(m, "smsp__sass_data_bytes_mem_global_op_ld.sum") &&
              strstr(m, "smsp__sass_data_bytes_mem_global_op_ldgsts.sum"), "%s", m);
    /* a table without them (the stored H100 recordings of tests/ncu) is still read: see the tests above */
}

Test(ncu, vector_stores_and_vector_shared_stores_are_not_counted_against_an_honest_kernel)
{
    /* a register-tiled kernel storing P with float4 (a quarter of m n store instructions) and its
     * tiles with 128-bit shared stores (a quarter of its global load instructions) */
    const tl_lab_info *lab = tl_lab_find("03");
    double n = 2048, mkn = n * n * n;
    char h[480], f[640];
    tg_ncu_counts c = counts(1, mkn, 2.0 / 16, 1.0, n * n / 4, 1.0);
    c.q[TG_NCU_SST] = c.q[TG_NCU_GLD] / 4;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, NULL), 0, "%s", h);
    /* ... but no store at all, or no shared store at all, is caught */
    c.q[TG_NCU_GST] = 0;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, NULL), 1);
    c = counts(1, mkn, 2.0 / 16, 1.0, n * n, 1.0);
    c.q[TG_NCU_SST] = 0;
    c.q[TG_NCU_SLD] = 0;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, NULL), 1);
}

Test(ncu, stores_made_by_global_atomics_or_reductions_count)
{
    /* 03-right-style-lambda-ldg-tiles.cu stores P with atomicExch (ATOM: no STG at all); a split-k
     * kernel accumulates P with atomicAdd (RED) */
    const tl_lab_info *lab = tl_lab_find("03");
    double n = 2048, mkn = n * n * n;
    char h[480], f[640];
    tg_ncu_counts c = counts(1, mkn, 2.0 / 16, 1.25, 0, 1.0);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, NULL), 1, "no store: caught");
    c.q[TG_NCU_GATOM] = n * n;
    c.have[TG_NCU_GATOM] = 1;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, NULL), 0, "%s", h);
    c.q[TG_NCU_GATOM] = 0;
    c.q[TG_NCU_GRED] = 2 * n * n;
    c.have[TG_NCU_GRED] = 1;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &c, h, sizeof h, f, sizeof f, NULL), 0, "%s", h);
}

Test(ncu, no_kernel_or_too_few_multiply_adds_is_host_side_computation)
{
    const tl_lab_info *lab = tl_lab_find("03");
    double n = 2048, mkn = n * n * n;
    char h[480], f[640];
    const char *pat = NULL;
    tg_ncu_counts none = counts(0, mkn, 0, 0, 0, 0);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &none, h, sizeof h, f, sizeof f, &pat), 1);
    cr_assert(strstr(h, "host-side computation: no kernel ran") && strcmp(pat, "host-side-computation") == 0, "%s", h);
    /* a decoy that loads and stores like the tiled kernel but multiplies a tenth of what P needs */
    tg_ncu_counts decoy = counts(1, mkn, 2.0 / 16, 1.25, n * n, 0.1);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &decoy, h, sizeof h, f, sizeof f, &pat), 1);
    cr_assert(strstr(h, "host-side computation: the GPU executed") && strstr(h, "0.1 of the m k n"), "%s", h);
    /* the margin: a compiler's FMUL for the first product of each dot product stays far above it */
    tg_ncu_counts fmul_first = counts(1, mkn, 2.0 / 16, 1.25, n * n, 1.0 - 1.0 / 2048);
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &fmul_first, h, sizeof h, f, sizeof f, NULL), 0, "%s", h);
    /* double accumulation (DFMA) or FMUL + FADD count as multiply-adds: a style, never a breach */
    tg_ncu_counts dbl = counts(1, mkn, 2.0 / 16, 1.25, n * n, 0);
    dbl.q[TG_NCU_DFMA] = mkn;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &dbl, h, sizeof h, f, sizeof f, NULL), 0, "%s", h);
    tg_ncu_counts sep = counts(1, mkn, 2.0 / 16, 1.25, n * n, 0);
    sep.q[TG_NCU_FMUL] = sep.q[TG_NCU_FADD] = mkn;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &sep, h, sizeof h, f, sizeof f, NULL), 0, "%s", h);
}

Test(ncu, lab_02s_decoy_that_copies_a_host_product_is_not_the_labs_kernel)
{
    const tl_lab_info *lab = tl_lab_find("02");
    cr_assert(lab && lab->work.min_loads_per_fma > 0);
    double n = 2048, mkn = n * n * n;
    char h[480], f[640];
    const char *pat = NULL;
    tg_ncu_counts naive = counts(1, mkn, 2.0, 0, n * n, 1.0);
    naive.q[TG_NCU_SST] = 0;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &naive, h, sizeof h, f, sizeof f, &pat), 0, "%s", h);
    tg_ncu_counts decoy = counts(1, mkn, 3.0 / 2048, 0, n * n, 0);
    decoy.q[TG_NCU_SST] = 0;
    cr_assert_eq(tg_ncu_judge(lab, 16, 2048, 2048, 2048, &decoy, h, sizeof h, f, sizeof f, &pat), 1);
    cr_assert(strcmp(pat, "not-the-labs-kernel") == 0, "%s: %s", pat, h);
}

/* ------------------------------------------------------------------ the timed median */

Test(ncu, a_median_far_below_the_kernels_own_time_is_a_forged_timing)
{
    char why[600];
    cr_assert_eq(tg_ncu_timing(0.004, 1.9, why, sizeof why), 1);
    cr_assert(strstr(why, "forged timing") && strstr(why, "0.004 ms") && strstr(why, "1.900 ms"), "%s", why);
    cr_assert_eq(tg_ncu_timing(1.9 * TG_NCU_TIME_MARGIN * 0.99, 1.9, why, sizeof why), 1, "just below the margin");
    /* an honest median is the kernel time plus launch overhead: at or above it */
    cr_assert_eq(tg_ncu_timing(2.05, 1.9, why, sizeof why), 0, "%s", why);
    cr_assert(strstr(why, "ratio 1.08"), "%s", why);
    /* within the margin below (a faster clock in the timed runs, two streams overlapping) is not forged */
    cr_assert_eq(tg_ncu_timing(1.9 * 0.6, 1.9, why, sizeof why), 0, "%s", why);
    /* no kernel time measured: nothing said, nothing decided */
    cr_assert_eq(tg_ncu_timing(0.001, 0, why, sizeof why), 0);
    cr_assert_eq(why[0], '\0');
    /* NaN reported: never plausible */
    cr_assert_eq(tg_ncu_timing(NAN, 1.9, why, sizeof why), 1);
}

Test(ncu, the_metrics_asked_for_name_every_quantity_read)
{
    const char *m = tg_ncu_metrics();
    for (int q = 0; q < TG_NCU_NQ; ++q)
        cr_assert(strstr(m, tg_ncu_metric_name(q)), "%s is not asked for: %s", tg_ncu_metric_name(q), m);
    cr_assert(tg_ncu_kit_kernel("tl_l2_flush_kernel(float *, unsigned long)"));
    cr_assert_not(tg_ncu_kit_kernel("tl_l2_flush_kernel"));
}

/* ------------------------------------------------------------------ what a test makes of them */

/* The correctness test's work note from a variant's profiled run (counters.c), decided from
 * recorded outcomes: judged counters decide, "not checked here" leaves the emulated count to. */
Test(ncu, the_counters_decide_the_work_where_they_were_read_and_say_why_not_elsewhere)
{
    static grun R;
    static tg_opts O;   /* the options (const to the grader's parts: zero here) */
    static gsub g;
    memset(&R, 0, sizeof R);
    R.opt = &O;
    memset(&g, 0, sizeof g);
    R.lab = tl_lab_find("03");
    const tl_lab_variant *v = tl_lab_variant_find(R.lab, "tiled16");
    cr_assert(v);
    int vi = (int)(v - R.lab->variants);
    tg_work_note wn;
    memset(&wn, 0, sizeof wn);
    cr_assert_eq(tg_counters_work(&R, &g, v, &wn), 0, "no profiled run: the emulated count decides");
    g.ctr_ran = 1;
    g.ctr[vi].state = TG_CTR_NOT_CHECKED;
    snprintf(g.ctr[vi].why, sizeof g.ctr[vi].why, "the GPU's performance counters are for administrators");
    cr_assert_eq(tg_counters_work(&R, &g, v, &wn), 0);
    cr_assert(strstr(wn.ctr_note, "administrators"), "%s", wn.ctr_note);
    tg_buf out = {0};
    tg_work_report(&R, 0, &wn, &out);
    cr_assert(out.s && strstr(out.s, "work from the GPU's counters (ncu): not checked here: the GPU's performance "
                                     "counters are for administrators; the emulated count below decides"), "%s",
              out.s);
    tg_buf_free(&out);
    /* judged and bad: the test's headline and pattern are the counters' */
    memset(&wn, 0, sizeof wn);
    g.ctr[vi] = (tg_ctr_var){.state = TG_CTR_JUDGED, .work_judged = 1, .bad = 1, .pattern = "not-tiled",
                             .size = "2048"};
    snprintf(g.ctr[vi].headline, sizeof g.ctr[vi].headline, "not tiled: 2 global loads per multiply-add");
    snprintf(g.ctr[vi].figures, sizeof g.ctr[vi].figures, "1 launch; global loads per multiply-add: 2");
    cr_assert_eq(tg_counters_work(&R, &g, v, &wn), 1);
    cr_assert(wn.bad == 1 && wn.by_counters && strcmp(wn.pattern, "not-tiled") == 0 && strcmp(wn.size, "2048") == 0);
    tg_work_report(&R, 0, &wn, &out);
    cr_assert(out.s && strstr(out.s, "work at size 2048 (read from the GPU's counters by ncu, in another process"),
              "%s", out.s);
    tg_buf_free(&out);
    /* the profiled case itself failed (a program that computes otherwise when profiled): the student's */
    memset(&wn, 0, sizeof wn);
    g.ctr[vi] = (tg_ctr_var){.state = TG_CTR_FAILED, .bad = 1, .pattern = "profiled-run-failed", .size = "2048"};
    snprintf(g.ctr[vi].headline, sizeof g.ctr[vi].headline, "the profiled run did not pass: wrong");
    cr_assert_eq(tg_counters_work(&R, &g, v, &wn), 1);
    cr_assert(wn.bad && strstr(wn.headline, "the profiled run did not pass"), "%s", wn.headline);
}

/* Where the work is counted on a GPU (counters.c's policy, grader/README.md): by default the counting
 * twin counts it, as ./kit check and an emulated run do, and no submission is profiled before its
 * tests (every variant's counters "not run": the emulated count decides, with no "not checked here"
 * note); the build makes the counting twin with the file, and not the emulated program where
 * compute-sanitizer runs the safety tests. TL_GRADE_NCU=1 profiles every submission (the counters
 * judge the work; the twins are built late, for what the counters could not decide); where ncu did
 * not read the reference's counters it says why per variant. TL_GRADE_NCU=0: ncu not looked for. */
static void policy_run(grun *R, tg_opts *O, const char *ncu_env, int probe_read_counters, int sanitizer)
{
    memset(R, 0, sizeof *R);
    memset(O, 0, sizeof *O);
    R->opt = O;
    R->lab = tl_lab_find("03");
    R->env.gpu_ok = 1;                 /* a GPU that answered: the probe would try ncu */
    R->env.have_emu_target = 1;
    if (sanitizer)
        snprintf(R->env.sanitizer, sizeof R->env.sanitizer, "/usr/local/cuda/bin/compute-sanitizer");
    if (ncu_env)
        setenv("TL_GRADE_NCU", ncu_env, 1);
    else
        unsetenv("TL_GRADE_NCU");
    tg_counters_probe(R);              /* no reference built here: ncu never reads the counters */
    cr_assert_eq(R->env.ncu_ok, 0);
    R->env.ncu_ok = probe_read_counters;   /* as where the probe's profiled run of the reference passed */
    unsetenv("TL_GRADE_NCU");
}

Test(ncu, by_default_the_counting_twin_counts_the_work_on_a_gpu_and_no_submission_is_profiled)
{
    static grun R;
    static tg_opts O;
    static gsub g;
    for (int read = 0; read < 2; ++read) {
        policy_run(&R, &O, NULL, read, 1);
        cr_assert_eq(R.env.ncu_every, 0, "the default profiles no submission");
        memset(&g, 0, sizeof g);
        g.built = 1;
        tg_counters_run(&R, &g);
        cr_assert(g.ctr_ran, "the run's record says the step ran (an on-demand profile may follow)");
        const tl_lab_variant *v = tl_lab_variant_find(R.lab, "tiled32");
        cr_assert(v);
        const tg_ctr_var *cv = tg_counters_var(&R, &g, v);
        cr_assert(cv && cv->state == TG_CTR_NONE, "not profiled before the tests (ncu %s)", read ? "works" : "missing");
        cr_assert_not(tg_counters_decide(&R, &g, v), "the emulated count decides");
        tg_work_note wn;
        memset(&wn, 0, sizeof wn);
        cr_assert_eq(tg_counters_work(&R, &g, v, &wn), 0);
        cr_assert_str_eq(wn.ctr_note, "", "no 'not checked here' about the counters: the policy, not a lack");
        /* the build: the counting twin with the file; the emulated program not (compute-sanitizer runs
         * the safety tests), nothing late */
        cr_assert_eq(tg_build_twin_plan(&R), TG_TWINS_COUNT, "plan %d", tg_build_twin_plan(&R));
    }
    /* a GPU without compute-sanitizer: the emulated program runs the safety tests, so it is built */
    policy_run(&R, &O, NULL, 1, 0);
    cr_assert_eq(tg_build_twin_plan(&R), TG_TWINS_PROGRAM | TG_TWINS_COUNT);
    /* graded emulated: the program runs every test */
    policy_run(&R, &O, NULL, 0, 1);
    R.env.gpu_ok = 0;
    cr_assert_eq(tg_build_twin_plan(&R), TG_TWINS_PROGRAM | TG_TWINS_COUNT);
    O.emulate = 1;
    R.env.gpu_ok = 1;
    cr_assert_eq(tg_build_twin_plan(&R), TG_TWINS_PROGRAM | TG_TWINS_COUNT);
    /* a lab without an emulated build here: nothing */
    policy_run(&R, &O, NULL, 0, 1);
    R.env.have_emu_target = 0;
    cr_assert_eq(tg_build_twin_plan(&R), 0);
}

Test(ncu, tl_grade_ncu_1_profiles_every_submission_and_tl_grade_ncu_0_never_looks_for_ncu)
{
    static grun R;
    static tg_opts O;
    static gsub g;
    /* TL_GRADE_NCU=1, where the probe read the reference's counters: the counters judge the work, the
     * twins are built late (only where a variant's counters could not decide) */
    policy_run(&R, &O, "1", 1, 1);
    cr_assert_eq(R.env.ncu_every, 1);
    cr_assert_eq(tg_build_twin_plan(&R), TG_TWINS_COUNT | TG_TWINS_LATE);
    /* ... where ncu did not read them: every variant "not checked here", with the probe's reason, the
     * emulated count decides, the twins built with the file */
    policy_run(&R, &O, "1", 0, 1);
    cr_assert_eq(R.env.ncu_every, 1);
    cr_assert_null(strstr(R.env.ncu_why, "TL_GRADE_NCU"), "%s", R.env.ncu_why);
    cr_assert_eq(tg_build_twin_plan(&R), TG_TWINS_COUNT);
    memset(&g, 0, sizeof g);
    g.built = 1;
    tg_counters_run(&R, &g);
    const tl_lab_variant *v = tl_lab_variant_find(R.lab, "tiled16");
    cr_assert(v);
    const tg_ctr_var *cv = tg_counters_var(&R, &g, v);
    cr_assert(cv && cv->state == TG_CTR_NOT_CHECKED && cv->why[0], "%s", cv ? cv->why : "none");
    tg_work_note wn;
    memset(&wn, 0, sizeof wn);
    cr_assert_eq(tg_counters_work(&R, &g, v, &wn), 0);
    cr_assert_str_eq(wn.ctr_note, cv->why);
    cr_assert_eq(tg_counters_on_demand(&R, &g, "a test"), 0, "nothing to profile on demand where ncu was not read");
    /* TL_GRADE_NCU=0: ncu not even looked for, the log says why, nothing profiled */
    policy_run(&R, &O, "0", 0, 1);
    cr_assert_str_eq(R.env.ncu, "", "ncu not even looked for");
    const char *said = "TL_GRADE_NCU=0: the GPU's counters are not read";
    cr_assert(strncmp(R.env.ncu_why, said, strlen(said)) == 0, "%s", R.env.ncu_why);
    cr_assert_eq(R.env.ncu_every, 0);
    memset(&g, 0, sizeof g);
    g.built = 1;
    tg_counters_run(&R, &g);
    cv = tg_counters_var(&R, &g, v);
    cr_assert(cv && cv->state == TG_CTR_NONE);
    cr_assert_eq(tg_counters_on_demand(&R, &g, "a test"), 0, "ncu was not probed: no profile on demand");
    cr_assert_eq(tg_build_twin_plan(&R), TG_TWINS_COUNT);
}

/* The default policy's second evidence: where the speed test found the time implausible, every needed
 * variant was profiled on demand; afterwards a correctness test of a variant whose counters show a
 * breach (the GPU ran another kernel than the twin counted: hostile/03/gpu_emulated_twin_differs.cu
 * without its #ifdef) or whose profiled run failed loses its credit, named; the others keep theirs. */
Test(ncu, counters_read_on_demand_take_the_credit_of_a_variant_they_find_untiled)
{
    static grun R;
    static tg_opts O;
    static gsub g;
    policy_run(&R, &O, NULL, 1, 1);
    memset(&g, 0, sizeof g);
    g.built = 1;
    tg_counters_run(&R, &g);
    tres tr[TL_LAB_MAX_TESTS];
    memset(tr, 0, sizeof tr);
    int nt = 0;
    for (int i = 0; i < R.lab->ntests; ++i) {
        tr[nt].t = &R.lab->tests[i];
        tr[nt].graded = 1;
        tr[nt].score = tr[nt].t->points;
        tr[nt].passed = 1;
        ++nt;
    }
    int v16 = (int)(tl_lab_variant_find(R.lab, "tiled16") - R.lab->variants);
    int v32 = (int)(tl_lab_variant_find(R.lab, "tiled32") - R.lab->variants);
    g.ctr[v16] = (tg_ctr_var){.state = TG_CTR_JUDGED, .work_judged = 1, .bad = 1, .pattern = "not-tiled", .size = "2048"};
    snprintf(g.ctr[v16].headline, sizeof g.ctr[v16].headline, "not tiled: 2 global loads per multiply-add");
    g.ctr[v32] = (tg_ctr_var){.state = TG_CTR_JUDGED, .work_judged = 1, .size = "2048"};
    tg_counters_after_tests(&R, &g, tr, nt);
    for (int i = 0; i < nt; ++i)
        cr_assert_float_eq(tr[i].score, tr[i].t->points, 1e-9, "not profiled on demand: nothing changes (%s)",
                           tr[i].t->name);
    g.ctr_demand = 1;                  /* as tg_counters_on_demand leaves it */
    tg_counters_after_tests(&R, &g, tr, nt);
    int lost = 0;
    for (int i = 0; i < nt; ++i) {
        const tl_test_kind k = tr[i].t->kind;
        int correctness16 = (k == TL_TEST_PUBLIC || k == TL_TEST_HIDDEN) && strcmp(tr[i].t->variant, "tiled16") == 0;
        if (correctness16) {
            ++lost;
            cr_assert_float_eq(tr[i].score, 0, 1e-9, "%s kept its credit", tr[i].t->name);
            cr_assert(tr[i].have_head && tr[i].head.v.kind == TL_V_WORK && strcmp(tr[i].head.v.pattern, "not-tiled") == 0);
            cr_assert(strstr(tr[i].out.s, "no credit: the GPU's counters, read on demand") &&
                      strstr(tr[i].out.s, "not tiled: 2 global loads"), "%s", tr[i].out.s);
        } else {
            cr_assert_float_eq(tr[i].score, tr[i].t->points, 1e-9, "%s lost its credit", tr[i].t->name);
        }
        tg_buf_free(&tr[i].out);
        free(tr[i].cases);
    }
    cr_assert_eq(lost, 2, "public and hidden tiled16");
    tg_buf_free(&g.notes);
}

Test(ncu, a_median_well_above_the_profiled_kernels_time_is_for_review_only)
{
    char why[600];
    /* ncu-3 on the H100: gpu_profiler_aware timed its naive kernel at 2.727 ms, profiled tiled at 1.851 */
    cr_assert_eq(tg_ncu_review(2.727, 1.851, why, sizeof why), 1);
    cr_assert(strstr(why, "REVIEW: the timed runs took 1.47 x"), "%s", why);
    /* the solution: 1.846 against 1.846; lab 06's: 0.397 against 0.401 */
    cr_assert_eq(tg_ncu_review(1.846, 1.846, why, sizeof why), 0);
    cr_assert_eq(tg_ncu_review(0.397, 0.401, why, sizeof why), 0);
    cr_assert_eq(why[0], '\0');
    cr_assert_eq(tg_ncu_review(5.0, 0, why, sizeof why), 0, "no kernel time: nothing said");
}

/* ------------------------------------------------------------------ one session, two requests (issue 29) */

/* ncu's lines of a stored file (tests/ncu/): what = 'o' its own lines and table head (the lines before
 * the first kernel row), 'r' its kernel rows. */
static void lines_of(const char *name, char what, tg_buf *out)
{
    size_t len = 0;
    char *t = fixture(name, &len);
    int rows = 0;
    for (char *p = t; *p;) {
        size_t l = strcspn(p, "\n");
        int is_row = p[0] == '"' && p[1] >= '0' && p[1] <= '9';
        rows += is_row;
        if ((what == 'r' && is_row) || (what == 'o' && !is_row && rows == 0)) {
            tg_buf_add(out, p, l);
            tg_buf_add(out, "\n", 1);
        }
        p += l + (p[l] == '\n');
    }
    free(t);
}

/* The marker's row as ncu would write it for request seq (grid "(seq, 1, 1)"): the tiled16 file's
 * kernel row with its name and launch shape replaced. */
static void marker_row(tg_buf *out, int seq)
{
    tg_buf r = {0};
    lines_of("lab03-tiled16-512-solution.csv", 'r', &r);
    const char *from = "\"MatrixMulKernel_t16(float *, float *, float *, int)\",\"1\",\"7\",\"(16, 16, 1)\",\"(32, 32, 1)\"";
    char *at = strstr(r.s, from);
    cr_assert(at, "the stored tiled16 row's name and launch shape");
    char to[200];
    snprintf(to, sizeof to, "\"%s\",\"1\",\"7\",\"(1, 1, 1)\",\"(%d, 1, 1)\"", TG_NCU_MARKER, seq);
    tg_buf_add(out, r.s, (size_t)(at - r.s));
    tg_buf_add(out, to, strlen(to));
    tg_buf_add(out, at + strlen(from), r.len - (size_t)(at - r.s) - strlen(from));
    tg_buf_free(&r);
}

/* A session's table from a recipe: 'h' ncu's lines and head, '1'..'9' the marker of that request,
 * 'a' the tiled16 solution's row (512), 'b' the timed tiled32 run's 43 rows (2048, the kit's 30 among
 * them). */
static char *session_of(const char *recipe, size_t *len)
{
    tg_buf t = {0};
    for (const char *c = recipe; *c; ++c) {
        if (*c == 'h')
            lines_of("lab03-tiled16-512-solution.csv", 'o', &t);
        else if (*c >= '1' && *c <= '9')
            marker_row(&t, *c - '0');
        else if (*c == 'a')
            lines_of("lab03-tiled16-512-solution.csv", 'r', &t);
        else if (*c == 'b')
            lines_of("lab03-tiled32-2048-timed-solution.csv", 'r', &t);
    }
    tg_buf_add(&t, "==PROF== Disconnected from process 1762\n", 41);
    *len = t.len;
    return t.s;
}

static void same_counts(const tg_ncu_counts *a, const tg_ncu_counts *b, const char *what)
{
    cr_assert_eq(a->kernels, b->kernels, "%s: %d kernels, alone %d", what, a->kernels, b->kernels);
    cr_assert_eq(a->kit_kernels, b->kit_kernels, "%s: %d of the kit's, alone %d", what, a->kit_kernels, b->kit_kernels);
    cr_assert_str_eq(a->names, b->names, "%s", what);
    for (int q = 0; q < TG_NCU_NQ; ++q) {
        cr_assert_eq(a->have[q], b->have[q], "%s: column %s", what, tg_ncu_metric_name(q));
        cr_assert(a->q[q] == b->q[q], "%s: %s %g, alone %g", what, tg_ncu_metric_name(q), a->q[q], b->q[q]);
    }
}

/* Honest: each request's part reads exactly what a session of that request alone read (the stored
 * files), so every judgment, figure and kernel time per variant is as before. */
Test(ncu, a_session_of_two_requests_splits_into_what_each_alone_read)
{
    size_t len = 0;
    char *t = session_of("h1a2b", &len);
    char *part[2] = {NULL, NULL}, why[300] = "", err[300] = "";
    size_t plen[2];
    cr_assert_eq(tg_ncu_split(t, len, 2, part, plen, why, sizeof why), 0, "%s", why);
    tg_ncu_counts got, alone;
    cr_assert_eq(tg_ncu_parse(part[0], plen[0], &got, err, sizeof err), 0, "%s", err);
    parse_fixture("lab03-tiled16-512-solution.csv", &alone);
    same_counts(&got, &alone, "request 1 (tiled16)");
    cr_assert_eq(tg_ncu_parse(part[1], plen[1], &got, err, sizeof err), 0, "%s", err);
    parse_fixture("lab03-tiled32-2048-timed-solution.csv", &alone);
    same_counts(&got, &alone, "request 2 (tiled32, the kit's 30 kernels left out as alone)");
    cr_assert_eq(got.kernels, 13);
    cr_assert_null(strstr(part[0], TG_NCU_MARKER), "no marker row in a part");
    cr_assert_null(strstr(part[1], "MatrixMulKernel_t16"), "request 1's kernel is not request 2's");
    free(part[0]), free(part[1]), free(t);
    /* a request that launched no kernel: its part is the head alone (as a session of it alone) */
    t = session_of("h12b", &len);
    cr_assert_eq(tg_ncu_split(t, len, 2, part, plen, why, sizeof why), 0, "%s", why);
    cr_assert_eq(tg_ncu_parse(part[0], plen[0], &got, err, sizeof err), 0, "%s", err);
    cr_assert_eq(got.kernels, 0);
    free(part[0]), free(part[1]), free(t);
}

/* The single session (one variant: the grader's other path) has one marker: it is neither the
 * student's kernel nor counted among the kit's, so its figures are what they were before it. */
Test(ncu, the_marker_in_a_session_of_one_request_changes_no_count)
{
    size_t len = 0;
    char *t = session_of("h1a", &len);
    tg_ncu_counts got, alone;
    char err[300] = "";
    cr_assert_eq(tg_ncu_parse(t, len, &got, err, sizeof err), 0, "%s", err);
    parse_fixture("lab03-tiled16-512-solution.csv", &alone);
    same_counts(&got, &alone, "one request with its marker");
    free(t);
}

static void split_refused(const char *recipe, int nreq, const char *words)
{
    size_t len = 0;
    char *t = session_of(recipe, &len);
    char *part[4] = {NULL, NULL, NULL, NULL}, why[300] = "";
    size_t plen[4];
    cr_assert_eq(tg_ncu_split(t, len, nreq, part, plen, why, sizeof why), -1, "%s split for %d requests", recipe, nreq);
    cr_assert(strstr(why, words), "%s: %s (expected \"%s\")", recipe, why, words);
    for (int i = 0; i < 4; ++i)
        cr_assert_null(part[i], "no part is handed out when the split is refused");
    free(t);
}

/* Anything but exactly one marker per request, in order, with no kernel before the first: refused
 * (the grader then profiles each variant in a session of its own, as before). */
Test(ncu, a_session_whose_markers_are_not_one_per_request_in_order_is_not_split)
{
    split_refused("h1a2b", 3, "2 request markers for 3 requests");       /* a request without its marker */
    split_refused("h1ab", 2, "1 request marker for 2 requests");          /* a missing delimiter */
    split_refused("h1a2b3", 2, "more request markers than the 2");        /* an extra delimiter */
    split_refused("h1a3b", 2, "request marker 2 has grid (3, 1, 1), not (2, 1, 1)");   /* out of order */
    split_refused("h1a1b", 2, "request marker 2 has grid (1, 1, 1)");     /* the same one twice */
    split_refused("ha1a2b", 2, "a kernel (MatrixMulKernel_t16(float *, float *, float *, int)) before the first");
    split_refused("h", 1, "0 request markers for 1 requests");
    split_refused("1a", 1, "no CSV table");
}

/* The grader reads a session's table once (tg_ncu_session_counts: split, then each part parsed once,
 * profile_session judging those counts): each request's counts are what a session of it alone read. */
Test(ncu, a_session_is_read_once_into_each_requests_counts_as_alone)
{
    size_t len = 0;
    char *t = session_of("h1a2b", &len);
    tg_ncu_counts got[2], alone;
    char why[320] = "x";
    cr_assert_eq(tg_ncu_session_counts(t, len, 2, got, why, sizeof why), 0, "%s", why);
    cr_assert_str_eq(why, "", "nothing said when it reads");
    parse_fixture("lab03-tiled16-512-solution.csv", &alone);
    same_counts(&got[0], &alone, "request 1 (tiled16)");
    parse_fixture("lab03-tiled32-2048-timed-solution.csv", &alone);
    same_counts(&got[1], &alone, "request 2 (tiled32)");
    free(t);
}

static void session_unread(const char *before, const char *recipe, const char *from, const char *to, int nreq,
                           const char *words)
{
    size_t len = 0;
    char *t = session_of(recipe, &len);
    tg_buf s = {0};
    tg_buf_add(&s, before, strlen(before));
    char *at = from ? strstr(t, from) : NULL;
    cr_assert(!from || at, "%s is in the stored table", from);
    if (at) {
        tg_buf_add(&s, t, (size_t)(at - t));
        tg_buf_add(&s, to, strlen(to));
        tg_buf_add(&s, at + strlen(from), len - (size_t)(at - t) - strlen(from));
    } else {
        tg_buf_add(&s, t, len);
    }
    tg_ncu_counts got[4];
    char why[320] = "";
    cr_assert_eq(tg_ncu_session_counts(s.s, s.len, nreq, got, why, sizeof why), -1, "%s read for %d requests", recipe, nreq);
    cr_assert_str_eq(why, words, "%s", recipe);
    tg_buf_free(&s);
    free(t);
}

/* What it cannot read, with the words profile_session gives for profiling each variant alone. */
Test(ncu, a_session_it_cannot_read_says_why_in_profile_sessions_words)
{
    session_unread("==ERROR== Failed to profile kernel\n", "h1a2b", NULL, NULL, 2,
                   "ncu failed: ==ERROR== Failed to profile kernel");
    session_unread("", "h1ab", NULL, NULL, 2, "ncu's table did not split per request: 1 request marker for 2 requests");
    session_unread("", "h1a2b", "\"gpu__time_duration.sum\"", "\"gpu__time_madeup.sum\"", 2,
                   "request 1's table: ncu's table has no column gpu__time_duration.sum");
}

/* A profiled run with the device shared that did not pass for a reason beside the program (out of
 * time, the device's memory taken, no answer at all: in the 0511Z class an honest slow file's run
 * under ncu beside 15 sessions ended with status 9) is run again alone before it counts; a wrong
 * answer counts at once, and a run that had the device alone counts whatever it did. */
Test(ncu, a_shared_profiled_run_that_ended_without_answering_is_run_again_alone)
{
    const cstat again[] = {C_DIED, C_TIMEOUT, C_NODEV};
    for (size_t i = 0; i < sizeof again / sizeof again[0]; ++i) {
        cres r;
        memset(&r, 0, sizeof r);
        r.st = again[i];
        snprintf(r.reason, sizeof r.reason, "the program ended without answering (exited with status 9)");
        tg_ctr_var shared = {.shared = 1}, alone = {.shared = 0};
        tg_ctr_case_failed(&shared, &r);
        tg_ctr_case_failed(&alone, &r);
        cr_expect_eq(shared.state, TG_CTR_FAILED);
        cr_expect(tg_ctr_again_alone(&shared), "status %d with the device shared: run again alone", (int)again[i]);
        cr_expect(!tg_ctr_again_alone(&alone), "status %d with the device alone: it counts", (int)again[i]);
    }
    const struct { cstat st; const char *reason; int again; } other[] = {
        {C_WRONG, "3 of 4194304 elements wrong", 0},                 /* a wrong answer counts at once */
        {C_ERROR, "cudaMalloc(d_M): out of memory", 1},              /* the memory taken beside others */
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; ++i) {
        cres r;
        memset(&r, 0, sizeof r);
        r.st = other[i].st;
        snprintf(r.reason, sizeof r.reason, "%s", other[i].reason);
        tg_ctr_var cv = {.shared = 1};
        tg_ctr_case_failed(&cv, &r);
        cr_expect_str_eq(cv.pattern, "profiled-run-failed");
        cr_expect_eq(tg_ctr_again_alone(&cv), other[i].again, "%s: run again alone %d", other[i].reason, other[i].again);
    }
}
