/* test_check.c: the checker's bound, and the patterns it names for each classic mistake. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"

/* A case: random M (m x k), N (k x n), the reference, and P = the float product (correct). */
typedef struct fx {
    int m, k, n;
    tl_matrix M, N, P;
    double *ref, *absref;
} fx;

static void fx_make(fx *f, int m, int k, int n)
{
    f->m = m; f->k = k; f->n = n;
    tl_matrix_alloc(&f->M, "M", m, k);
    tl_matrix_alloc(&f->N, "N", k, n);
    tl_matrix_alloc(&f->P, "P", m, n);
    tl_matrix_fill_random(&f->M, 11, 1);
    tl_matrix_fill_random(&f->N, 11, 2);
    f->ref = malloc(sizeof(double) * m * n);
    f->absref = malloc(sizeof(double) * m * n);
    tl_reference_gemm(f->M.data, f->N.data, f->ref, f->absref, m, k, n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int p = 0; p < k; ++p)
                s += f->M.data[i * k + p] * f->N.data[p * n + j];
            f->P.data[i * n + j] = s;
        }
}

static void fx_free(fx *f)
{
    tl_matrix_free(&f->M); tl_matrix_free(&f->N); tl_matrix_free(&f->P);
    free(f->ref); free(f->absref);
}

static int check(fx *f, int tile, tl_check_report *r)
{
    return tl_check(f->P.data, f->ref, f->absref, f->m, f->n, f->k, tile, f->M.data, f->N.data, r);
}

static void assert_pattern(const tl_check_report *r, tl_pattern want)
{
    cr_assert_eq(r->pattern, want, "pattern '%s', expected '%s' (%s)", tl_pattern_name(r->pattern),
                 tl_pattern_name(want), r->detail);
}

Test(check, an_exact_result_passes, .timeout = 10)
{
    fx f;
    fx_make(&f, 20, 20, 20);
    for (int i = 0; i < 400; ++i)
        f.P.data[i] = (float)f.ref[i];
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 0);
    assert_pattern(&r, TL_PAT_NONE);
    fx_free(&f);
}

Test(check, float_rounding_within_the_bound_passes, .timeout = 10)
{
    fx f;
    fx_make(&f, 64, 333, 48);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 0, "%ld wrong, worst %.3g of bound", r.wrong, r.worst_ratio);
    fx_free(&f);
}

Test(check, an_error_just_over_the_bound_fails_and_just_under_passes, .timeout = 10)
{
    fx f;
    fx_make(&f, 8, 100, 8);
    double b = tl_check_bound(f.absref[9], 100);
    f.P.data[9] = (float)(f.ref[9] + b * 0.9);
    tl_check_report r;
    cr_assert_eq(check(&f, 4, &r), 0, "0.9 of the bound must pass");
    f.P.data[9] = (float)(f.ref[9] + b * 1.1 + fabs(f.ref[9]) * 1e-7);
    cr_assert_eq(check(&f, 4, &r), 1, "1.1 of the bound must fail");
    cr_assert_eq(r.wrong, 1);
    cr_assert_eq(r.worst_row, 1);
    cr_assert_eq(r.worst_col, 1);
    cr_assert_gt(r.worst_ratio, 1.0);
    fx_free(&f);
}

Test(check, nan_and_inf_always_fail, .timeout = 10)
{
    fx f;
    fx_make(&f, 10, 10, 10);
    f.P.data[5] = NAN;
    f.P.data[77] = INFINITY;
    tl_check_report r;
    cr_assert_eq(check(&f, 4, &r), 1);
    cr_assert_eq(r.wrong, 2);
    cr_assert_eq(r.nonfinite, 2);
    cr_assert_eq(r.unwritten, 0, "a computed NaN is not the poison");
    fx_free(&f);
}

Test(check, a_single_wrong_element_is_located, .timeout = 10)
{
    fx f;
    fx_make(&f, 40, 40, 40);
    f.P.data[17 * 40 + 20] += 0.5f;   /* inside the tiles, away from the edge */
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    cr_assert_eq(r.wrong, 1);
    cr_assert_eq(r.worst_row, 17);
    cr_assert_eq(r.worst_col, 20);
    cr_assert_str_eq(r.rows_desc, "17");
    cr_assert_str_eq(r.cols_desc, "20");
    cr_assert_eq(r.tiles_wrong, 1);
    assert_pattern(&r, TL_PAT_SCATTERED);
    fx_free(&f);
}

Test(check, errors_only_in_the_edge_tiles_are_named_boundary_handling, .timeout = 10)
{
    fx f;
    fx_make(&f, 40, 40, 40);   /* tiles of 16: the last tile row/column is 32..39 */
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 40; ++j)
            if ((i >= 32 || j >= 32) && (i + j) % 3 == 0)
                f.P.data[i * 40 + j] += 1.0f;
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_EDGE_TILES);
    cr_assert(r.edge_only);
    cr_assert(strstr(r.detail, "boundary handling") != NULL, "%s", r.detail);
    fx_free(&f);
}

Test(check, unwritten_edge_tiles_are_named_grid_too_small, .timeout = 10)
{
    fx f;
    fx_make(&f, 40, 40, 40);
    uint32_t poison = TL_POISON_BITS;
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 40; ++j)
            if (i >= 32 || j >= 32)
                memcpy(&f.P.data[i * 40 + j], &poison, 4);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_UNWRITTEN_EDGE);
    cr_assert(strstr(r.detail, "ceiling") != NULL, "%s", r.detail);
    fx_free(&f);
}

Test(check, a_transposed_store_is_named_swapped_indices, .timeout = 10)
{
    fx f;
    fx_make(&f, 24, 24, 24);
    for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 24; ++j)
            f.P.data[j * 24 + i] = (float)f.ref[i * 24 + j];
    tl_check_report r;
    cr_assert_eq(check(&f, 8, &r), 1);
    assert_pattern(&r, TL_PAT_TRANSPOSED);
    cr_assert(strstr(r.detail, "[Col][Row]") != NULL, "%s", r.detail);
    fx_free(&f);
}

Test(check, a_transposed_store_is_named_at_sizes_above_the_full_alternative_check, .timeout = 60)
{
    fx f;
    fx_make(&f, 640, 640, 640);   /* 2.6e8 multiply-adds: the alternatives sample P */
    for (int i = 0; i < 640; ++i)
        for (int j = 0; j < 640; ++j)
            f.P.data[(size_t)j * 640 + i] = (float)f.ref[(size_t)i * 640 + j];
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_TRANSPOSED);
    fx_free(&f);
}

Test(check, a_missing_last_term_is_named_loop_bound, .timeout = 10)
{
    fx f;
    fx_make(&f, 16, 30, 16);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j)
            f.P.data[i * 16 + j] = (float)(f.ref[i * 16 + j] - (double)f.M.data[i * 30 + 29] * f.N.data[29 * 16 + j]);
    tl_check_report r;
    cr_assert_eq(check(&f, 0, &r), 1);
    assert_pattern(&r, TL_PAT_MISSING_TERM);
    fx_free(&f);
}

Test(check, a_dropped_partial_k_tile_is_named, .timeout = 10)
{
    fx f;
    fx_make(&f, 20, 20, 20);   /* tile 16: terms 16..19 dropped */
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 20; ++j) {
            double s = 0;
            for (int p = 0; p < 16; ++p)
                s += (double)f.M.data[i * 20 + p] * f.N.data[p * 20 + j];
            f.P.data[i * 20 + j] = (float)s;
        }
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_PARTIAL_DROPPED);
    cr_assert(strstr(r.detail, "k >= 16") != NULL, "%s", r.detail);
    fx_free(&f);
}

/* A register tile's row and column offsets swapped at the store (tests/wrong/06/mapping.cu): each
 * 4x4 micro-tile of a thread lands transposed in place: every value right, at another element. */
Test(check, right_values_at_other_elements_are_named_misplaced, .timeout = 10)
{
    fx f;
    fx_make(&f, 32, 40, 32);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
            int bi = i / 4 * 4, bj = j / 4 * 4;
            f.P.data[i * 32 + j] = (float)f.ref[(bi + (j - bj)) * 32 + bj + (i - bi)];
        }
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_MISPLACED);
    cr_assert(strstr(r.detail, "hold the right value of another element of P"), "%s", r.detail);
    /* the same wrong elements holding values of their own: not misplaced */
    for (int e = 0; e < 32 * 32; ++e)
        if (f.P.data[e] != (float)f.ref[e])
            f.P.data[e] = (float)(f.ref[e] + 0.37 + 0.001 * (e % 7));
    cr_assert_eq(check(&f, 16, &r), 1);
    cr_assert_neq(r.pattern, TL_PAT_MISPLACED, "%s", r.detail);
    fx_free(&f);
}

Test(check, a_running_sum_is_named_accumulator_not_reset, .timeout = 10)
{
    fx f;
    fx_make(&f, 12, 12, 12);
    double run = 0;
    for (int e = 0; e < 144; ++e) {
        run += f.ref[e];
        f.P.data[e] = (float)run;
    }
    tl_check_report r;
    cr_assert_eq(check(&f, 0, &r), 1);
    assert_pattern(&r, TL_PAT_ACCUMULATED);
    fx_free(&f);
}

Test(check, the_reason_line_and_the_explanation_name_the_pattern, .timeout = 10)
{
    fx f;
    fx_make(&f, 40, 40, 40);
    f.P.data[0] += 3.0f;
    tl_check_report r;
    check(&f, 16, &r);
    char reason[200];
    tl_check_reason(&r, reason, sizeof reason);
    cr_assert_str_eq(reason, "scattered errors (1/1600 wrong)");
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    tl_check_explain(&r, mem, "  ");
    fclose(mem);
    cr_assert(strstr(buf, "worst: P[0][0]") != NULL, "%s", buf);
    cr_assert(strstr(buf, "__syncthreads") != NULL, "%s", buf);
    free(buf);
    fx_free(&f);
}

/* ------------------------------------------------------------------ issue 16: hints from the pattern */

static void poison_all(fx *f)
{
    uint32_t poison = TL_POISON_BITS;
    for (int e = 0; e < f->m * f->n; ++e)
        memcpy(&f->P.data[e], &poison, 4);
}

/* One float dot product of M's row i (read with row length ms) and N's column j (row length ns). */
static float dot(const fx *f, int i, int j, int ms, int ns)
{
    float s = 0;
    for (int p = 0; p < f->k; ++p)
        s += f->M.data[(size_t)i * ms + p] * f->N.data[(size_t)p * ns + j];
    return s;
}

Test(check, a_grid_with_x_and_y_swapped_is_named_not_floor_division, .timeout = 10)
{
    fx f;
    fx_make(&f, 100, 20, 40);    /* grid (ceil(100/16), ceil(40/16)) = (7, 3): 48 rows, 112 columns */
    tl_matrix good;
    tl_matrix_alloc(&good, "P", 100, 40);
    memcpy(good.data, f.P.data, sizeof(float) * 4000);
    poison_all(&f);
    for (int i = 0; i < 48; ++i)
        for (int j = 0; j < 40; ++j)
            f.P.data[i * 40 + j] = good.data[i * 40 + j];
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_GRID_SWAPPED);
    cr_assert(strstr(r.detail, "x and y exchanged"), "%s", r.detail);
    tl_matrix_free(&good);
    fx_free(&f);
}

Test(check, p_stored_with_row_stride_k_is_named_not_a_race, .timeout = 10)
{
    fx f;
    fx_make(&f, 30, 17, 45);
    tl_matrix good;
    tl_matrix_alloc(&good, "P", 30, 45);
    memcpy(good.data, f.P.data, sizeof(float) * 30 * 45);
    poison_all(&f);
    for (int i = 0; i < 30; ++i)      /* Pd[Row * k + Col], in thread order */
        for (int j = 0; j < 45; ++j)
            f.P.data[i * 17 + j] = good.data[i * 45 + j];
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_ROW_STRIDE);
    cr_assert(strstr(r.detail, "row stride of 17 (k)"), "%s", r.detail);
    tl_matrix_free(&good);
    fx_free(&f);
}

Test(check, m_read_with_the_wrong_row_length_is_named_not_boundary_handling, .timeout = 10)
{
    fx f;
    fx_make(&f, 4096, 16, 1);         /* the case: M[Row * n + p] with n = 1 */
    for (int i = 0; i < 4096; ++i)
        f.P.data[i] = dot(&f, i, 0, 1, 1);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_WRONG_DIM);
    cr_assert(strstr(r.detail, "M read as rows of 1"), "%s", r.detail);
    cr_assert_not(r.edge_only, "a 4096 x 1 P has no interior: 'only the edges' means nothing there");
    fx_free(&f);
}

Test(check, a_tall_p_with_its_rows_wrong_is_not_called_boundary_handling, .timeout = 10)
{
    fx f;
    fx_make(&f, 200, 8, 1);
    for (int i = 1; i < 200; ++i)
        f.P.data[i] += 1.0f;
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    cr_assert_neq(r.pattern, TL_PAT_EDGE_TILES, "called boundary handling: %s", r.detail);
    fx_free(&f);
}

Test(check, a_wholly_wrong_cpu_result_gets_a_hint_without_gpu_names, .timeout = 10)
{
    fx f;
    fx_make(&f, 40, 40, 40);
    for (int e = 0; e < 1600; ++e)
        f.P.data[e] = f.P.data[e] * 2 + 1;
    tl_check_report r;
    cr_assert_eq(check(&f, 0, &r), 1);
    assert_pattern(&r, TL_PAT_ALL);
    cr_assert(strstr(r.detail, "1600 of 1600"), "%s", r.detail);
    cr_assert_null(strstr(r.detail, "Mds"), "a CPU lab's hint names GPU tiles: %s", r.detail);
    cr_assert_eq(check(&f, 16, &r), 1);
    cr_assert(strstr(r.detail, "Mds[ty][p]"), "a tiled kernel's hint names its tiles: %s", r.detail);
    fx_free(&f);
}

Test(check, p_equal_to_m_times_m_is_named_a_wrong_operand, .timeout = 10)
{
    fx f;
    fx_make(&f, 40, 40, 40);
    for (int i = 0; i < 40; ++i)          /* Md[k * Width + Col] where Nd belongs */
        for (int j = 0; j < 40; ++j) {
            float s = 0;
            for (int p = 0; p < 40; ++p)
                s += f.M.data[i * 40 + p] * f.M.data[p * 40 + j];
            f.P.data[i * 40 + j] = s;
        }
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_WRONG_OPERAND);
    cr_assert(strstr(r.detail, "P equals M * M"), "%s", r.detail);
    fx_free(&f);
}

Test(check, phases_counted_from_n_are_named_with_the_count, .timeout = 10)
{
    fx f;
    fx_make(&f, 17, 33, 9);               /* ph < ceil_div(n, 16) = 1: 16 of the 33 terms */
    for (int i = 0; i < 17; ++i)
        for (int j = 0; j < 9; ++j) {
            float s = 0;
            for (int p = 0; p < 16; ++p)
                s += f.M.data[i * 33 + p] * f.N.data[p * 9 + j];
            f.P.data[i * 9 + j] = s;
        }
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_PHASES);
    cr_assert(strstr(r.detail, "p < 16 of k = 33") && strstr(r.detail, "ceil_div(n, TILE_WIDTH)"), "%s", r.detail);
    fx_free(&f);
}

/* 17 x 33 x 49 at tile 16: a phase loop one short (k % 16 == 1) sums p < 32, and so would phases
 * counted from m = 17 (ceil_div(17, 16) * 16 = 32): the same sums, so not "counted from the wrong
 * dimension" alone (a kernel counting from k, one short, was told it counted from m), but the dropped
 * tail naming both */
Test(check, one_phase_short_where_m_gives_the_same_count_names_both, .timeout = 10)
{
    fx f;
    fx_make(&f, 17, 33, 49);
    for (int i = 0; i < 17; ++i)
        for (int j = 0; j < 49; ++j) {
            float s = 0;
            for (int p = 0; p < 32; ++p)
                s += f.M.data[i * 33 + p] * f.N.data[p * 49 + j];
            f.P.data[i * 49 + j] = s;
        }
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_PARTIAL_DROPPED);
    cr_assert(strstr(r.detail, "lacks the terms k >= 32") && strstr(r.detail, "one short") &&
              strstr(r.detail, "counted from m = 17"), "%s", r.detail);
    fx_free(&f);
}

Test(check, every_element_a_computed_nan_suggests_p_was_read_before_written, .timeout = 10)
{
    fx f;
    fx_make(&f, 20, 20, 20);
    for (int e = 0; e < 400; ++e)         /* a GPU's NaN from P += x on the NaN-poisoned P */
        f.P.data[e] = nanf("");
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_NONFINITE);
    cr_assert(strstr(r.detail, "reading P before writing it?"), "%s", r.detail);
    fx_free(&f);
}

/* Issue 25's phase patterns: P computed as a tiled kernel with the bug computes it (phases of T). */
static void tiled_like(fx *f, int T, int mode)   /* 0 one short, 1 reset per phase, 2 clamped, 3 stale */
{
    int m = f->m, k = f->k, n = f->n, phases = (k + T - 1) / T;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int ph = 0; ph < (mode == 0 ? phases - 1 : phases); ++ph) {
                if (mode == 1)
                    s = 0;
                for (int c = 0; c < T; ++c) {
                    int p = ph * T + c;
                    float a, b;
                    if (p < k) {
                        a = f->M.data[i * k + p];
                        b = f->N.data[p * n + j];
                    } else if (mode == 2) {
                        a = f->M.data[i * k + k - 1];
                        b = f->N.data[(k - 1) * n + j];
                    } else if (mode == 3) {
                        a = f->M.data[i * k + p - T];
                        b = f->N.data[(p - T) * n + j];
                    } else {
                        a = b = 0;
                    }
                    s += a * b;
                }
            }
            f->P.data[i * n + j] = s;
        }
}

Test(check, a_phase_loop_one_short_is_named_where_k_is_a_multiple_of_the_phase, .timeout = 10)
{
    fx f;
    fx_make(&f, 20, 64, 24);
    tiled_like(&f, 16, 0);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_PHASE_SHORT);
    cr_assert(strstr(r.detail, "p >= 48 of k = 64") && strstr(r.detail, "one short"), "%s", r.detail);
    fx_free(&f);
}

Test(check, a_sum_reset_in_every_phase_is_named, .timeout = 10)
{
    fx f;
    fx_make(&f, 20, 40, 24);
    tiled_like(&f, 16, 1);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_PHASE_RESET);
    cr_assert(strstr(r.detail, "only the last phase's terms") && strstr(r.detail, "p >= 32 of k = 40"), "%s", r.detail);
    fx_free(&f);
}

/* A double-buffered kernel whose prefetch loads the wrong phase: phase ph computed from phase
 * src(ph) (lag: ph - 1 from the second phase on; lead: ph + 1 from the second phase on, zero past k). */
static void prefetch_like(fx *f, int T, int lead)
{
    int m = f->m, k = f->k, n = f->n, phases = (k + T - 1) / T;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int ph = 0; ph < phases; ++ph) {
                int src = ph == 0 ? 0 : lead ? ph + 1 : ph - 1;
                for (int c = 0; c < T; ++c) {
                    int p = src * T + c;
                    if (p < k)
                        s += f->M.data[i * k + p] * f->N.data[p * n + j];
                }
            }
            f->P.data[i * n + j] = s;
        }
}

Test(check, a_prefetch_of_the_wrong_phase_is_named_both_ways, .timeout = 10)
{
    fx f;
    fx_make(&f, 20, 64, 24);
    prefetch_like(&f, 16, 0);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_PREFETCH_PHASE);
    cr_assert(strstr(r.detail, "loads phase ph, not ph + 1") && strstr(r.detail, "k = 64"), "%s", r.detail);
    prefetch_like(&f, 16, 1);
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_PREFETCH_PHASE);
    cr_assert(strstr(r.detail, "loads phase ph + 2"), "%s", r.detail);
    fx_free(&f);
}

Test(check, clamped_and_stale_out_of_range_tile_entries_are_extra_terms_not_a_race, .timeout = 10)
{
    for (int mode = 2; mode <= 3; ++mode) {
        fx f;
        fx_make(&f, 20, 40, 24);
        tiled_like(&f, 16, mode);
        tl_check_report r;
        cr_assert_eq(check(&f, 16, &r), 1);
        assert_pattern(&r, TL_PAT_OUTSIDE_TERMS);
        /* the headline reads "NAME: DETAIL" */
        cr_assert_str_eq(tl_pattern_name(r.pattern), "extra terms from outside the matrix");
        cr_assert(strncmp(r.detail, "out-of-range tile entries must be 0", 35) == 0 &&
                  strstr(r.detail, mode == 2 ? "clamped" : "previous phase"), "%s", r.detail);
        fx_free(&f);
    }
}

/* At sizes above the full alternative check (2e8 multiply-adds) the extra terms are still named: a
 * clamped kernel at 1023 was "precision lost" (its one extra term a few BF16 roundings) and at 1000
 * "all wrong" (corpus 04-wrong-clamped-loads.cu, issue 25). */
Test(check, clamped_tile_entries_are_extra_terms_at_sizes_above_the_full_alternative_check, .timeout = 60)
{
    fx f;
    fx_make(&f, 600, 601, 600);   /* 2.2e8 multiply-adds; 601 = 37 phases of 16 + 9: 7 slots past k */
    tiled_like(&f, 16, 2);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_OUTSIDE_TERMS);
    cr_assert(strstr(r.detail, "clamped") != NULL, "%s", r.detail);
    fx_free(&f);
}

/* The GPU's sizes (lead's i25-1 on an H100: a phase loop one short at 4096 and a guard without its
 * else at 1023 were "precision lost ... BF16"): the phase patterns are tried on a sample of P above
 * 2e8 multiply-adds, before the BF16 heuristic. */
Test(check, phase_patterns_are_named_at_sizes_above_the_full_alternative_check, .timeout = 120)
{
    static const struct { int m, k, n, mode; tl_pattern want; } c[] = {
        {600, 608, 600, 0, TL_PAT_PHASE_SHORT},    /* 608 = 38 phases of 16 */
        {600, 608, 600, 1, TL_PAT_PHASE_RESET},
        {600, 601, 600, 3, TL_PAT_OUTSIDE_TERMS},  /* stale: the previous phase's values past k */
    };
    for (size_t t = 0; t < sizeof c / sizeof c[0]; ++t) {
        fx f;
        fx_make(&f, c[t].m, c[t].k, c[t].n);
        tiled_like(&f, 16, c[t].mode);
        tl_check_report r;
        cr_assert_eq(check(&f, 16, &r), 1);
        assert_pattern(&r, c[t].want);
        fx_free(&f);
    }
}

/* Issue 25: a grid that covers the wrong rows or columns says which, and which index is wrong. */
static void poison_outside(fx *f, int (*keep)(int i, int j, int T), int T)
{
    for (int i = 0; i < f->m; ++i)
        for (int j = 0; j < f->n; ++j)
            if (!keep(i, j, T)) {
                uint32_t b = TL_POISON_BITS;
                memcpy(&f->P.data[i * f->n + j], &b, sizeof b);
            }
}
static int keep_first_block_row(int i, int j, int T) { (void)j; return i < T; }
static int keep_diagonal(int i, int j, int T) { return i / T == j / T; }
static int keep_corner8(int i, int j, int T) { return i % T < 8 && j % T < 8; }

Test(check, a_grid_that_covers_the_wrong_rows_or_columns_says_which, .timeout = 10)
{
    fx f;
    fx_make(&f, 40, 20, 48);                  /* a 1-D grid: one row of 16-row blocks */
    poison_outside(&f, keep_first_block_row, 16);
    tl_check_report r;
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_GRID_COVERS);
    cr_assert(strstr(r.detail, "only rows 0..15 and columns 0..47") && strstr(r.detail, "too few rows") &&
              strstr(r.detail, "blockIdx.y"), "%s", r.detail);
    fx_free(&f);
    fx_make(&f, 48, 20, 48);                  /* Col from blockIdx.y: the diagonal tiles */
    poison_outside(&f, keep_diagonal, 16);
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_GRID_COVERS);
    cr_assert(strstr(r.detail, "diagonal") && strstr(r.detail, "same block index"), "%s", r.detail);
    fx_free(&f);
    fx_make(&f, 48, 20, 32);                  /* 8 x 8 blocks on a grid sized for 16 x 16 */
    poison_outside(&f, keep_corner8, 16);
    cr_assert_eq(check(&f, 16, &r), 1);
    assert_pattern(&r, TL_PAT_GRID_COVERS);
    cr_assert(strstr(r.detail, "first 8 row(s) and 8 column(s)") && strstr(r.detail, "smaller (8 x 8 threads)"),
              "%s", r.detail);
    fx_free(&f);
}
