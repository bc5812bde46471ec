/* test_labtable.c: the lab table (common/labtable.c) is consistent, grader/rubric.md is exactly what
 * the table writes, the lab programs serve what the table says, and tl-lab answers scripts and
 * refuses bad questions with exit 2. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_capture.h"
#include "tilelab.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = 2 * (len + n + 1);
            buf = realloc(buf, cap);
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf)
        buf = calloc(1, 1);
    buf[len] = '\0';
    return buf;
}

static run_result query(const char *a1, const char *a2, const char *a3)
{
    char *argv[] = {TL_LAB, (char *)a1, (char *)a2, (char *)a3, NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s", TL_LAB);
    return r;
}

/* ------------------------------------------------------------------ the table itself */

Test(table, every_lab_has_a_unique_id_and_folder_and_at_least_one_student_file, .timeout = 10)
{
    cr_assert_gt(tl_nlabs, 0);
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        cr_assert(l->id && strlen(l->id) == 2, "lab %d: id '%s' is not two digits", i, l->id);
        cr_assert(strncmp(l->dir, l->id, 2) == 0 && l->dir[2] == '-', "lab %s: folder '%s' does not start with 'NN-'",
                  l->id, l->dir);
        cr_assert(l->files[0], "lab %s has no student file", l->id);
        cr_assert(l->title && *l->title, "lab %s has no title", l->id);
        for (int j = 0; j < i; ++j)
            cr_assert(strcmp(l->id, tl_labs[j].id) != 0, "lab id %s twice", l->id);
        cr_assert_eq(tl_lab_find(l->id), l);
        cr_assert_eq(tl_lab_find(l->dir), l);
    }
    cr_assert_null(tl_lab_find("99"));
    cr_assert_null(tl_lab_find(""));
    cr_assert_null(tl_lab_find(NULL));
}

Test(table, public_sizes_parse_and_every_variant_accepts_some_of_them, .timeout = 10)
{
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        if (l->own_main) {
            cr_assert_null(l->public_sizes, "lab %s has its own main: public sizes would never be served", l->id);
            cr_assert_gt(l->own_main_size, 0, "lab %s: own_main_size", l->id);
            continue;
        }
        tl_sizes s;
        char err[200];
        cr_assert_eq(tl_parse_sizes(l->public_sizes, &s, err, sizeof err), 0, "lab %s: public sizes: %s", l->id, err);
        cr_assert_gt(l->nvariants, 0, "lab %s serves no variant", l->id);
        for (int v = 0; v < l->nvariants; ++v) {
            const tl_lab_variant *x = &l->variants[v];
            int ok = 0;
            for (int c = 0; c < s.count; ++c)
                ok += (!x->square_only || (s.m[c] == s.k[c] && s.k[c] == s.n[c])) &&
                      (x->multiple_of <= 0 || (s.m[c] % x->multiple_of == 0 && s.k[c] % x->multiple_of == 0 &&
                                               s.n[c] % x->multiple_of == 0));
            cr_assert_gt(ok, 0, "lab %s variant %s accepts none of the public sizes", l->id, x->name);
        }
        if (l->safety_sizes)
            cr_assert_eq(tl_parse_sizes(l->safety_sizes, &s, err, sizeof err), 0, "lab %s: safety sizes: %s", l->id, err);
        if (l->speed_size)
            cr_assert_eq(tl_parse_sizes(l->speed_size, &s, err, sizeof err), 0, "lab %s: speed size: %s", l->id, err);
    }
}

Test(table, every_test_names_a_variant_and_speed_tests_have_a_size_and_falling_tiers, .timeout = 10)
{
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        cr_assert_gt(l->ntests, 0, "lab %s has no rubric test", l->id);
        for (int t = 0; t < l->ntests; ++t) {
            const tl_lab_test *x = &l->tests[t];
            cr_assert_gt(x->points, 0, "lab %s test '%s' is worth nothing", l->id, x->name);
            if (x->kind == TL_TEST_CALC || x->kind == TL_TEST_CALC_API || x->kind == TL_TEST_POLICY ||
                x->kind == TL_TEST_DEVFACTS)
                continue;
            cr_assert(tl_lab_variant_find(l, x->variant), "lab %s test '%s' names unknown variant '%s'", l->id,
                      x->name, x->variant);
            if (x->kind == TL_TEST_SPEED)
                cr_assert(l->speed_size && l->gpu, "lab %s has a speed test but no speed size", l->id);
            if (x->kind == TL_TEST_RACECHECK || x->kind == TL_TEST_MEMCHECK)
                cr_assert(l->safety_sizes, "lab %s has a sanitizer test but no safety sizes", l->id);
            if (x->kind == TL_TEST_HIDDEN)
                cr_assert(l->hidden_count > 0 && l->hidden_min >= 1 && l->hidden_min <= l->hidden_max,
                          "lab %s: hidden test without a valid hidden-size rule", l->id);
            for (int k = 1; k < TL_LAB_MAX_TIERS && x->tiers[k].max_ratio > 0; ++k)
                cr_assert(x->tiers[k].max_ratio > x->tiers[k - 1].max_ratio &&
                              x->tiers[k].credit < x->tiers[k - 1].credit,
                          "lab %s test '%s': tiers must get slower and pay less", l->id, x->name);
        }
    }
}

Test(table, speed_credit_is_linear_by_default_and_follows_tiers_when_given, .timeout = 10)
{
    cr_assert_float_eq(tl_speed_credit(1.2), 1.0, 1e-12);
    cr_assert_float_eq(tl_speed_credit(2.6), 0.5, 1e-12);
    cr_assert_float_eq(tl_speed_credit(4.0), 0.0, 1e-12);
    tl_lab_test t = {.name = "speed", .kind = TL_TEST_SPEED, .variant = "x", .points = 20,
                     .tiers = {{1.25, 1.0}, {1.5, 0.75}, {2.0, 0.5}}};
    cr_assert_float_eq(tl_test_speed_credit(&t, 1.0), 1.0, 1e-12);
    cr_assert_float_eq(tl_test_speed_credit(&t, 1.25), 1.0, 1e-12);
    cr_assert_float_eq(tl_test_speed_credit(&t, 1.3), 0.75, 1e-12);
    cr_assert_float_eq(tl_test_speed_credit(&t, 2.0), 0.5, 1e-12);
    cr_assert_float_eq(tl_test_speed_credit(&t, 2.01), 0.0, 1e-12);
    cr_assert_float_eq(tl_test_speed_credit(&t, 0.0), 0.0, 1e-12, "no ratio earns nothing");
    tl_lab_test linear = {.name = "speed", .kind = TL_TEST_SPEED};
    cr_assert_float_eq(tl_test_speed_credit(&linear, 2.6), 0.5, 1e-12);
}

Test(table, the_yardstick_is_found_by_name_but_never_graded, .timeout = 10)
{
    const tl_lab_info *lab = (const tl_lab_info *)1;
    cr_assert_eq(tl_variant_any("cublas", &lab), &tl_yardstick_cublas);
    cr_assert_null(lab);
    for (int i = 0; i < tl_nlabs; ++i)
        cr_assert_null(tl_lab_variant_find(&tl_labs[i], "cublas"), "lab %s grades the kit's cublas", tl_labs[i].id);
    cr_assert_eq(tl_variant_any("tiled32", &lab)->tile, 32);
    cr_assert_str_eq(lab->id, "03");
}

/* ------------------------------------------------------------------ rubric.md */

Test(rubric, grader_rubric_md_is_exactly_what_the_table_writes, .timeout = 30)
{
    run_result r = query("rubric", NULL, NULL);
    cr_assert_eq(r.exit_code, 0, "tl-lab rubric: exit %d\n%s", r.exit_code, r.out);
    char *md = slurp(TL_SOURCE_ROOT "/grader/rubric.md");
    cr_assert(md, "cannot read grader/rubric.md");
    if (strcmp(md, r.out) != 0) {
        size_t i = 0;
        while (md[i] && md[i] == r.out[i])
            ++i;
        size_t line = 1;
        for (size_t j = 0; j < i; ++j)
            line += md[j] == '\n';
        cr_assert_fail("grader/rubric.md differs from the lab table's rubric from line %zu on "
                       "(file: '%.60s', table: '%.60s'); fix: ninja -C build rubric",
                       line, md + i, r.out + i);
    }
    free(md);
    run_free(&r);
}

/* The READMEs' tables of labs are the table's too (common/labdocs.c): up to date, and a row edited
 * by hand is found (in a copy) and written back by `tl-lab readme`. */
Test(rubric, the_readmes_tables_of_labs_are_exactly_what_the_table_writes, .timeout = 30)
{
    char *argv[] = {TL_LAB, "readme", "--check", TL_SOURCE_ROOT "/README.md", TL_SOURCE_ROOT "/grader/README.md",
                    NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 0, "tl-lab readme --check: exit %d\n%s", r.exit_code, r.out);
    run_free(&r);
}

Test(rubric, a_hand_edited_readme_table_is_drift_and_readme_rewrites_it, .timeout = 30)
{
    char dir[] = "/tmp/tl-readme-XXXXXX", path[256];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/README.md", dir);
    char *md = slurp(TL_SOURCE_ROOT "/README.md");
    char *row = strstr(md, "| 03-tiled-kernel |");
    cr_assert(row, "README.md's table has no lab 03 row");
    row[2] = '9';                           /* "| 09-tiled-kernel |": a row nobody wrote from the table */
    FILE *f = fopen(path, "w");
    cr_assert(f && fputs(md, f) >= 0 && fclose(f) == 0);
    char *check[] = {TL_LAB, "readme", "--check", path, NULL}, *write[] = {TL_LAB, "readme", path, NULL};
    run_result r;
    cr_assert_eq(run_capture(check, &r), 0);
    cr_assert_eq(r.exit_code, 1, "a drifted table: exit %d, expected 1\n%s", r.exit_code, r.out);
    cr_assert(strstr(r.out, "ninja -C build readme-tables"), "the message names no fix:\n%s", r.out);
    run_free(&r);
    cr_assert_eq(run_capture(write, &r), 0);
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    run_free(&r);
    char *back = slurp(path), *orig = slurp(TL_SOURCE_ROOT "/README.md");
    cr_assert_str_eq(back, orig, "tl-lab readme did not write the table back");
    free(back);
    free(orig);
    free(md);
    remove(path);
    rmdir(dir);
}

/* ------------------------------------------------------------------ tl-lab */

Test(tl_lab, answers_what_scripts_ask, .timeout = 10)
{
    run_result r = query("dir", "3", NULL);
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    cr_assert_str_eq(r.out, "03-tiled-kernel\n");
    run_free(&r);
    r = query("get", "04", "public_sizes");
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    char want[1024];
    snprintf(want, sizeof want, "%s\n", tl_lab_find("04")->public_sizes);
    cr_assert_str_eq(r.out, want);
    run_free(&r);
    r = query("files", "05-occupancy-study", NULL);
    cr_assert_str_eq(r.out, "occupancy.c\n");
    run_free(&r);
    r = query("get", "01", "gpu");
    cr_assert_str_eq(r.out, "0\n");
    run_free(&r);
    r = query("get", "03", "emulated");
    cr_assert_str_eq(r.out, "1\n");
    run_free(&r);
    r = query("get", "03", "speed_variant");
    cr_assert_str_eq(r.out, "tiled32\n");
    run_free(&r);
    r = query("get", "02", "all_variants");
    cr_assert_str_eq(r.out, "naive\ncublas\n");
    run_free(&r);
    r = query("get", "05", "public_sizes");
    cr_assert_eq(r.exit_code, 0);
    cr_assert_str_eq(r.out, "\n", "a lab without public sizes gives an empty line");
    run_free(&r);
    r = query("list", NULL, NULL);
    cr_assert_eq(r.exit_code, 0);
    cr_assert(strncmp(r.out, "01\n02\n", 6) == 0, "%s", r.out);
    run_free(&r);
}

Test(tl_lab, refuses_unknown_labs_fields_and_commands_with_exit_2, .timeout = 10)
{
    const char *cases[][4] = {
        {"dir", "99", NULL, "no lab '99'"},        {"get", "03", "colour", "no field 'colour'"},
        {"frobnicate", NULL, NULL, "no command"},  {"get", "03", NULL, "takes 2 arguments"},
        {"title", "", NULL, "no lab ''"},          {NULL, NULL, NULL, "usage:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        run_result r = query(cases[i][0], cases[i][1], cases[i][2]);
        cr_assert_eq(r.exit_code, 2, "tl-lab %s %s %s: exit %d\n%s", cases[i][0] ? cases[i][0] : "",
                     cases[i][1] ? cases[i][1] : "", cases[i][2] ? cases[i][2] : "", r.exit_code, r.out);
        cr_assert(strstr(r.out, cases[i][3]), "the message lacks '%s':\n%s", cases[i][3], r.out);
        run_free(&r);
    }
}

/* ------------------------------------------------------------------ the programs serve the table */

Test(programs, each_built_lab_program_serves_the_tables_variants_and_public_sizes, .timeout = 60)
{
    int checked = 0;
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        for (int ref = 0; ref < 2; ++ref) {
            char bin[1024];
            snprintf(bin, sizeof bin, "%s/%s", TL_BUILD_ROOT, ref ? l->ref_binary : l->binary);
            if (access(bin, X_OK) != 0 || l->own_main)
                continue;             /* not built here (no CUDA), or lab 05 (own main) */
            char *argv[] = {bin, "--help", NULL};
            run_result r;
            cr_assert_eq(run_capture(argv, &r), 0);
            cr_assert_eq(r.exit_code, 0, "%s --help: exit %d\n%s", bin, r.exit_code, r.out);
            char want[1100];
            snprintf(want, sizeof want, "(default %s)", l->public_sizes);
            cr_assert(strstr(r.out, want), "%s does not default to the table's public sizes:\n%s", bin, r.out);
            for (int v = 0; v < l->nvariants; ++v) {
                snprintf(want, sizeof want, "  %-12s %s", l->variants[v].name, l->variants[v].what);
                cr_assert(strstr(r.out, want), "%s does not serve '%s' as the table says:\n%s", bin,
                          l->variants[v].name, r.out);
            }
            run_free(&r);
            ++checked;
        }
    }
    cr_assert_geq(checked, 2, "no lab program was built (lab 01 always is)");
}

Test(programs, a_lab_c_that_disagrees_with_the_table_is_refused_with_exit_2, .timeout = 30)
{
    const char *cases[][2] = {
        {"missing", "no CPU function for variant 'cpu_ikj'"},
        {"extra", "code for variant 'cpu_magic', which lab 01's table entry lacks"},
        {"own-main", "has no entry 05 with variants"},
        {"unknown", "has no entry 99"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *argv[] = {TL_LAB_MISMATCH, (char *)cases[i][0], "--no-time", NULL};
        run_result r;
        cr_assert_eq(run_capture(argv, &r), 0);
        cr_assert_eq(r.exit_code, 2, "%s: exit %d\n%s", cases[i][0], r.exit_code, r.out);
        cr_assert(strstr(r.out, cases[i][1]), "%s: the message lacks '%s':\n%s", cases[i][0], cases[i][1], r.out);
        cr_assert_null(strstr(r.out, "PASS"), "%s: something ran:\n%s", cases[i][0], r.out);
        run_free(&r);
    }
}

Test(table, a_variant_of_any_lab_is_found_by_name_for_multi_lab_programs, .timeout = 10)
{
    const tl_lab_info *lab = NULL;
    const tl_lab_variant *v = tl_variant_any("tiled16", &lab);
    cr_assert(v && lab && strcmp(lab->id, "03") == 0);
    cr_assert(v->on_gpu && v->tile == 16 && v->multiple_of == 16 && v->square_only);
    v = tl_variant_any("rect32", &lab);
    cr_assert(v && !v->square_only && v->tile == 32 && v->off_ladder);
    cr_assert_eq(tl_variant_any("cublas", &lab), &tl_yardstick_cublas, "the yardstick");
    cr_assert_null(lab);
    cr_assert_null(tl_variant_any("warp_magic", NULL));
}

/* The ladder (speed-ref, ./kit bench, the ladder chart) follows from the table: every GPU lab's
 * variants in order but the rect ones, the kit's rungs after the variant each names, cuBLAS last. */
Test(table, the_kernel_ladder_is_the_labs_variants_with_the_kits_rungs_and_cublas_last, .timeout = 10)
{
    const tl_lab_variant *v[64];
    const tl_lab_info *of[64];
    int n = tl_ladder(v, of, 64);
    char got[1024] = "";
    for (int i = 0; i < n; ++i) {
        strcat(got, i ? " " : "");
        strcat(got, v[i]->name);
    }
    cr_assert(strstr(got, "naive_rows naive naive_ldcg tiled16 tiled32 boundary16 boundary32 tiled32_conflict "
                          "tiled32_pad") == got, "the ladder starts as the lecture's: %s", got);
    cr_assert_str_eq(v[n - 1]->name, "cublas", "cuBLAS closes the ladder: %s", got);
    cr_assert(!strstr(got, "rect16") && !strstr(got, "cpu_"), "%s", got);
    for (int i = 0; i < n; ++i)
        if (of[i])
            cr_assert(of[i]->gpu && v[i]->on_gpu, "%s", v[i]->name);
}

/* ---------------------------------------------------------------- the work rule (tl_work_judge) */

/* The lecture's tiled kernel at m x k x n, tile T: each block loads its M and N tiles once per
 * phase (guarded loads at ragged edges load nothing), two shared loads per multiply-add. */
static tl_work_counts tiled_counts(int m, int k, int n, int T)
{
    unsigned long long gld = (unsigned long long)m * k * ((n + T - 1) / T) + (unsigned long long)k * n * ((m + T - 1) / T);
    tl_work_counts c = {1, gld, (unsigned long long)m * n, 2ULL * m * n * k, gld, 0};
    return c;
}

Test(work, the_lectures_tiled_kernel_meets_the_rule_and_its_figures_say_2_over_T, .timeout = 10)
{
    const tl_lab_info *l3 = tl_lab_find("03"), *l4 = tl_lab_find("04");
    char head[400], fig[400];
    tl_work_counts c = tiled_counts(512, 512, 512, 32);
    cr_assert_eq(tl_work_judge(l3, 32, 512, 512, 512, &c, head, sizeof head, fig, sizeof fig), 0, "%s", head);
    cr_assert(strstr(fig, "global loads per multiply-add: 0.0625 = 2/32") && strstr(fig, "used by 32 multiply-adds"),
              "%s", fig);
    /* Ragged and rectangular sizes: the count includes the edges, so no allowance is needed. */
    int sizes[][3] = {{17, 17, 17}, {1000, 17, 3}, {33, 1025, 65}, {1, 300, 1}, {4096, 64, 8}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        for (int T = 16; T <= 32; T += 16) {
            tl_work_counts r = tiled_counts(sizes[i][0], sizes[i][1], sizes[i][2], T);
            cr_assert_eq(tl_work_judge(l4, T, sizes[i][0], sizes[i][1], sizes[i][2], &r, head, sizeof head, NULL, 0), 0,
                         "%dx%dx%d T=%d: %s", sizes[i][0], sizes[i][1], sizes[i][2], T, head);
        }
}

Test(work, a_tiled_kernel_without_guards_on_its_loads_passes_at_ragged_sizes_and_lab_02s_does_not,
     .timeout = 10)
{
    const tl_lab_info *l4 = tl_lab_find("04");
    char head[400];
    /* Every thread loads one M and one N element per phase (clamped in bounds, or read then masked). */
    int sizes[][3] = {{17, 17, 17}, {1000, 1000, 1000}, {33, 17, 9}, {1025, 1025, 1025}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        int m = sizes[i][0], k = sizes[i][1], n = sizes[i][2], T = 32;
        unsigned long long pad = 2ULL * T * T * ((m + T - 1) / T) * ((n + T - 1) / T) * ((k + T - 1) / T);
        tl_work_counts c = {1, pad, (unsigned long long)m * n, 2ULL * m * n * k, pad, 0};
        cr_assert_eq(tl_work_judge(l4, T, m, k, n, &c, head, sizeof head, NULL, 0), 0, "%dx%dx%d: %s", m, k, n, head);
    }
    /* Lab 02's kernel at 17^3 with T = 32 still loads 4.8x that unguarded tiled kernel, and at 1000
     * 30x: both judged, both fail. */
    tl_work_counts n17 = {1, 2ULL * 17 * 17 * 17, 17 * 17, 0, 0, 0};
    cr_assert_eq(tl_work_judge(l4, 32, 17, 17, 17, &n17, head, sizeof head, NULL, 0), 1, "4.8x the unguarded count");
    cr_assert(strstr(head, "not tiled"), "%s", head);
    tl_work_counts n1000 = {1, 2000000000ULL, 1000000, 1, 2000000000ULL, 0};
    cr_assert_eq(tl_work_judge(l4, 32, 1000, 1000, 1000, &n1000, head, sizeof head, NULL, 0), 1);
    cr_assert(strstr(head, "not tiled: 2 global loads per multiply-add"), "%s", head);
}

Test(work, lab_02s_kernel_in_a_tiled_lab_is_not_tiled_and_says_why, .timeout = 10)
{
    const tl_lab_info *l3 = tl_lab_find("03"), *l2 = tl_lab_find("02");
    char head[400], fig[400];
    int w = 64;
    tl_work_counts naive = {1, 2ULL * w * w * w, (unsigned long long)w * w, 0, 0, 0};
    cr_assert_eq(tl_work_judge(l3, 16, w, w, w, &naive, head, sizeof head, fig, sizeof fig), 1);
    cr_assert(strstr(head, "not tiled: 2 global loads per multiply-add") && strstr(head, "lab 02's kernel"), "%s", head);
    /* The same counts are what lab 02 asks for. */
    cr_assert_eq(tl_work_judge(l2, 16, w, w, w, &naive, head, sizeof head, fig, sizeof fig), 0, "%s", head);
    cr_assert(strstr(fig, "global loads per multiply-add: 2 (both operands"), "%s", fig);
    /* Tiled loads, but the tiles not kept in shared memory. */
    tl_work_counts noshared = tiled_counts(w, w, w, 16);
    noshared.shared_stores = noshared.shared_loads = 0;
    cr_assert_eq(tl_work_judge(l3, 16, w, w, w, &noshared, head, sizeof head, NULL, 0), 1);
    cr_assert(strstr(head, "not staged in shared memory"), "%s", head);
}

Test(work, a_host_side_computation_fails_every_kernel_lab_and_lab_01_is_not_judged, .timeout = 10)
{
    char head[400];
    int w = 32;
    tl_work_counts none = {0};
    tl_work_counts decoy = {1, 0, (unsigned long long)w * w, 0, 0, 0};   /* zeros stored, nothing loaded */
    tl_work_counts unchecked = tiled_counts(w, w, w, 16);
    unchecked.unchecked_launches = 1;
    const char *labs[] = {"02", "03", "04"};
    for (int i = 0; i < 3; ++i) {
        const tl_lab_info *l = tl_lab_find(labs[i]);
        cr_assert_eq(tl_work_judge(l, 16, w, w, w, &none, head, sizeof head, NULL, 0), 1, "lab %s", labs[i]);
        cr_assert(strstr(head, "host-side computation: no kernel ran"), "lab %s: %s", labs[i], head);
        cr_assert_eq(tl_work_judge(l, 16, w, w, w, &decoy, head, sizeof head, NULL, 0), 1, "lab %s", labs[i]);
        cr_assert(strstr(head, "host-side computation") && strstr(head, "loaded 0 of the 2048"), "lab %s: %s",
                  labs[i], head);
        cr_assert_eq(tl_work_judge(l, 16, w, w, w, &unchecked, head, sizeof head, NULL, 0), 1, "lab %s", labs[i]);
        cr_assert(strstr(head, "race checking was switched off"), "lab %s: %s", labs[i], head);
    }
    cr_assert_eq(tl_work_judge(tl_lab_find("01"), 0, w, w, w, &none, head, sizeof head, NULL, 0), 0,
                 "lab 01 runs on the CPU: no kernel asked for");
}

/* Issue 24 (tests/hostile/02/reads_discarded.cu): the lab's kernel in every count, but the launcher
 * copied device data to the host and wrote the device after it (host_round_trips, the emulator's
 * guarded device): P was computed on the host, named so, in every kernel lab; a failing count keeps
 * its own reason; lab 01 is not judged. */
Test(work, a_host_round_trip_behind_honest_counts_is_p_computed_on_the_host, .timeout = 10)
{
    char head[600];
    const char *pattern = NULL;
    int w = 64;
    tl_work_counts naive = {.launches = 1, .global_loads = 2ULL * w * w * w, .global_stores = (unsigned long long)w * w};
    cr_assert_eq(tl_work_judge(tl_lab_find("02"), 16, w, w, w, &naive, head, sizeof head, NULL, 0), 0, "%s", head);
    naive.host_round_trips = 2;
    cr_assert_eq(tl_work_judge_why(tl_lab_find("02"), 16, w, w, w, &naive, head, sizeof head, NULL, 0, &pattern), 1);
    cr_assert(strncmp(head, "P was computed on the host: ", 28) == 0 && strstr(head, "2 times") &&
              strstr(head, "after its last kernel"), "%s", head);
    cr_assert_str_eq(pattern, "p-computed-on-host");
    cr_assert_null(strstr(head, "host-side computation"), "%s", head);
    tl_work_counts tiled = tiled_counts(w, w, w, 16);
    tiled.host_round_trips = 1;
    cr_assert_eq(tl_work_judge(tl_lab_find("03"), 16, w, w, w, &tiled, head, sizeof head, NULL, 0), 1);
    cr_assert(strstr(head, "P was computed on the host: ") && strstr(head, "1 time "), "%s", head);
    /* a failing count keeps its own reason (the lab's rule comes first) */
    tl_work_counts none = {0};
    none.host_round_trips = 1;
    cr_assert_eq(tl_work_judge(tl_lab_find("03"), 16, w, w, w, &none, head, sizeof head, NULL, 0), 1);
    cr_assert(strstr(head, "no kernel ran"), "%s", head);
    cr_assert_eq(tl_work_judge(tl_lab_find("01"), 0, w, w, w, &none, head, sizeof head, NULL, 0), 0);
}

/* The fewest shared loads per multiply-add (TL_WORK_MIN_SHARED_PER_FMA): a kernel that stages its tiles
 * but reads them about 0.05 times per multiply-add fails in lab 03 (P came from elsewhere), passes in
 * lab 08 (a tensor-core fragment is loaded once and reused across a warp's tile: the solution reads
 * 0.05), and where only instructions were counted (ncu) the rule reads the most elements they can
 * have read (lab 06's warp tile: 0.0625 LDS.128 per multiply-add, 0.25 elements). */
Test(work, the_fewest_shared_loads_rule_spares_fragments_and_reads_vector_loads_at_their_width, .timeout = 10)
{
    const tl_lab_info *l3 = tl_lab_find("03"), *l8 = tl_lab_find("08"), *l6 = tl_lab_find("06");
    cr_assert(l3 && l8 && l6);
    char head[600];
    int m = 256, k = 256, n = 256, T = 16;
    tl_work_counts c = tiled_counts(m, k, n, T);
    c.shared_loads = (unsigned long long)(0.05 * m * k * n);
    cr_assert_eq(tl_work_judge(l3, T, m, k, n, &c, head, sizeof head, NULL, 0), 1, "lab 03 at 0.05 passed");
    cr_assert(strstr(head, "P not computed from the tiles"), "%s", head);
    tl_work_counts f = tiled_counts(m, k, n, 128);
    f.shared_loads = (unsigned long long)(0.05 * m * k * n);
    cr_assert_eq(tl_work_judge(l8, 128, m, k, n, &f, head, sizeof head, NULL, 0), 0, "lab 08's fragments: %s", head);
    const tl_lab_variant *wt = tl_lab_variant_find(l6, "warptile");
    cr_assert(wt);
    tl_work_counts w = tiled_counts(1024, 1024, 1024, wt->tile);
    w.shared_loads = (unsigned long long)(0.0625 * 1024 * 1024 * 1024);   /* instructions, as ncu counts */
    cr_assert_eq(tl_work_judge(l6, wt->tile, 1024, 1024, 1024, &w, head, sizeof head, NULL, 0), 1,
                 "read as elements, 0.0625 is under the rule");
    w.shared_loads_most = 4 * w.shared_loads;                              /* LDS.128: 4 floats each */
    cr_assert_eq(tl_work_judge(l6, wt->tile, 1024, 1024, 1024, &w, head, sizeof head, NULL, 0), 0, "%s", head);
}

/* Session 9's red team (tests/hostile/04/decoy_once_per_phase.cu): a kernel that stages every tile,
 * reads each staged element once a phase and copies a P made elsewhere reads 2/T per multiply-add,
 * which the padded tiles of a ragged size lift over the floor (lab 04 at 97^3, T = 32: 0.14): it
 * fails on its reads per staged element (1, at least 4), where the lecture's kernel reads T. */
Test(work, a_kernel_that_reads_each_staged_element_once_fails_at_a_ragged_size_and_the_lectures_passes,
     .timeout = 10)
{
    const tl_lab_info *l4 = tl_lab_find("04");
    cr_assert(l4);
    char head[600];
    int m = 97, k = 97, n = 97, T = 32, b = (97 + T - 1) / T;
    unsigned long long staged = 2ULL * T * T * b * b * b;          /* every phase's two tiles, padded */
    tl_work_counts honest = {1, 2ULL * m * k * b, (unsigned long long)m * n, staged * T, staged, 0, 0};
    cr_assert_eq(tl_work_judge(l4, T, m, k, n, &honest, head, sizeof head, NULL, 0), 0, "the lecture's: %s", head);
    tl_work_counts decoy = honest;
    decoy.shared_loads = staged;                                      /* once each */
    decoy.global_loads += (unsigned long long)m * n;                  /* the host's P */
    cr_assert_eq(tl_work_judge(l4, T, m, k, n, &decoy, head, sizeof head, NULL, 0), 1, "the decoy passed");
    cr_assert(strstr(head, "P not computed from the tiles") && strstr(head, "1 reads of each"), "%s", head);
    /* counted by ncu (instructions): not judged this way */
    decoy.shared_loads_most = decoy.shared_loads;
    head[0] = '\0';
    tl_work_judge(l4, T, m, k, n, &decoy, head, sizeof head, NULL, 0);
    cr_assert_null(strstr(head, "reads of each"), "%s", head);
}
