/* check.c: is the student's product right, and if not, where and why?
 *
 * Each element must satisfy |P - ref| <= TL_CHECK_SLACK * k * u * (|M||N|)ij with u = 2^-24:
 * the classic worst-case bound for a float32 dot product of length k (Higham, "Accuracy and
 * Stability of Numerical Algorithms", 3.1), doubled for reassociation (tiles, FMA). NaN and
 * Inf always fail. A failure is then described: rows, columns, tiles, and a named pattern. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"
#include "verdict.h"
#include "checkshape.h"

double tl_check_bound(double absref, int k)
{
    return TL_CHECK_SLACK * (double)k * ldexp(1.0, -24) * absref + 1e-30;
}

/* Every element within 2^-6 (|M||N|)ij of the reference: what summing, or storing, in BF16 (unit
 * roundoff 2^-8) leaves, where a wrong index or a missing tile leaves errors of the order of P. */
static int within_bf16(const float *got, const double *ref, const double *absref, int m, int n)
{
    size_t total = (size_t)m * n;
    for (size_t e = 0; e < total; ++e)
        if (fabs((double)got[e] - ref[e]) > ldexp(1.0, -6) * absref[e] + 1e-30)
            return 0;
    return 1;
}

/* "3, 7-9, 12" from a 0/1 array; at most TL_MAX_WRONG_LIST ranges, then ", ...". */
static void describe_ranges(const unsigned char *flag, int count, char *out, size_t len)
{
    size_t used = 0;
    int ranges = 0;
    out[0] = '\0';
    for (int i = 0; i < count; ++i) {
        if (!flag[i])
            continue;
        int j = i;
        while (j + 1 < count && flag[j + 1])
            ++j;
        if (ranges == TL_MAX_WRONG_LIST) {
            snprintf(out + used, len - used, ", ...");
            return;
        }
        int w = i == j ? snprintf(out + used, len - used, "%s%d", ranges ? ", " : "", i)
                       : snprintf(out + used, len - used, "%s%d-%d", ranges ? ", " : "", i, j);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
        ++ranges;
        i = j;
    }
}


int tl_check(const float *got, const double *ref, const double *absref, int m, int n, int k,
             int tile, const float *M, const float *N, tl_check_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->m = m; rep->n = n; rep->k = k; rep->tile = tile;
    rep->worst_row = rep->worst_col = -1;
    int T = tile > 0 ? tile : (m > n ? m : n);
    int trows = (m + T - 1) / T, tcols = (n + T - 1) / T;
    rep->tiles_total = trows * tcols;

    unsigned char *rowf = calloc((size_t)m, 1), *colf = calloc((size_t)n, 1);
    unsigned char *tilef = calloc((size_t)rep->tiles_total, 1);
    int *rowcount = calloc((size_t)m, sizeof(int)), *colcount = calloc((size_t)n, sizeof(int));
    if (!rowf || !colf || !tilef || !rowcount || !colcount) {
        free(rowf); free(colf); free(tilef); free(rowcount); free(colcount);
        rep->wrong = (long)m * n;
        rep->pattern = TL_PAT_ALL;
        snprintf(rep->detail, sizeof rep->detail, "out of memory while checking");
        return 1;
    }
    long unwritten_edge = 0, edge_wrong = 0;
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            size_t e = (size_t)i * n + j;
            float g = got[e];
            if (!tl_chk_elem_bad(g, ref[e], absref[e], k))
                continue;
            double bound = tl_check_bound(absref[e], k);
            double ratio = isfinite(g) ? fabs((double)g - ref[e]) / bound : INFINITY;
            int edge = (i / T == trows - 1 && m % T) || (j / T == tcols - 1 && n % T);
            rep->wrong++;
            edge_wrong += edge;
            if (!isfinite(g)) {
                rep->nonfinite++;
                if (tl_chk_is_poison(g)) {
                    rep->unwritten++;
                    unwritten_edge += edge;
                }
            }
            if (rep->worst_row < 0 || ratio > rep->worst_ratio) {
                rep->worst_row = i; rep->worst_col = j;
                rep->worst_value = g; rep->worst_expected = ref[e];
                rep->worst_bound = bound; rep->worst_ratio = ratio;
            }
            rowf[i] = colf[j] = 1;
            rowcount[i]++; colcount[j]++;
            tilef[(i / T) * tcols + j / T] = 1;
        }
    }
    for (int i = 0; i < m; ++i) {
        rep->rows_wrong += rowf[i];
        rep->full_rows += rowcount[i] == n;
    }
    for (int j = 0; j < n; ++j) {
        rep->cols_wrong += colf[j];
        rep->full_cols += colcount[j] == m;
    }
    for (int t = 0; t < rep->tiles_total; ++t)
        rep->tiles_wrong += tilef[t];
    describe_ranges(rowf, m, rep->rows_desc, sizeof rep->rows_desc);
    describe_ranges(colf, n, rep->cols_desc, sizeof rep->cols_desc);
    describe_ranges(tilef, rep->tiles_total, rep->tiles_desc, sizeof rep->tiles_desc);
    /* "Only the edges": meaningful only when P has an interior (a full tile row and column);
     * in a 4096 x 1 P every element is an edge element. */
    rep->edge_only = rep->wrong > 0 && edge_wrong == rep->wrong && m >= T && n >= T && tile > 0;

    long total = (long)m * n;
    /* Alternatives that cost a product each: only up to ~2e8 multiply-adds (matches_alt samples). */
    int can_alt = M && N && (double)m * n * k <= 2e8;
    int r0 = 0, c0 = 0;       /* what a grid covered (tl_chk_written_rect, tl_chk_written_corner) */
    int rs;                         /* a wrong row stride or row length found                */
    if (rep->wrong == 0) {
        rep->pattern = TL_PAT_NONE;
    } else if (rep->unwritten == rep->wrong) {
        /* Only the edge tiles unwritten, and something was written: a grid one block short.
         * (Nothing written at all is "unwritten elements", even when P is one edge tile.) */
        if (tl_chk_grid_swapped(got, m, n, tile, rep->unwritten)) {
            rep->pattern = TL_PAT_GRID_SWAPPED;
            snprintf(rep->detail, sizeof rep->detail,
                     "%ld element(s) were never written, exactly those a grid with x and y exchanged misses: "
                     "the blocks cover %d rows and %d columns of this %d x %d P (the grid's x counts columns, "
                     "n; its y rows, m)", rep->unwritten, (n + tile - 1) / tile * tile < m ? (n + tile - 1) / tile * tile : m,
                     (m + tile - 1) / tile * tile < n ? (m + tile - 1) / tile * tile : n, m, n);
        } else if (tile > 0 && tl_chk_written_diagonal(got, m, n, tile)) {
            rep->pattern = TL_PAT_GRID_COVERS;
            snprintf(rep->detail, sizeof rep->detail,
                     "only the tiles on P's diagonal were written (tile row = tile column): Row and Col come from "
                     "the same block index; Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * "
                     "blockDim.x + threadIdx.x (is Col taken from blockIdx.y?)");
        } else if (tile > 0 && tl_chk_written_corner(got, m, n, tile, &r0, &c0)) {
            rep->pattern = TL_PAT_GRID_COVERS;
            snprintf(rep->detail, sizeof rep->detail,
                     "in every %d x %d tile only its first %d row(s) and %d column(s) were written: the blocks "
                     "launched are smaller (%d x %d threads) than the %d x %d the grid was sized for; launch "
                     "dim3 dimBlock(%d, %d) with that grid, or size the grid from the block you launch",
                     tile, tile, r0, c0, c0, r0, tile, tile, tile, tile);
        } else if (tl_chk_written_rect(got, m, n, &r0, &c0) &&
                   !(tile > 0 && (r0 == m || r0 == m / tile * tile) && (c0 == n || c0 == n / tile * tile))) {
            rep->pattern = TL_PAT_GRID_COVERS;
            snprintf(rep->detail, sizeof rep->detail,
                     "only rows 0..%d and columns 0..%d of this %d x %d P were written: the threads reach %s; %s",
                     r0 - 1, c0 - 1, m, n,
                     r0 < m && c0 < n ? "too few rows and too few columns" : r0 < m ? "too few rows" : "too few columns",
                     r0 < m && c0 == n ? "the rows come from y: Row = blockIdx.y * blockDim.y + threadIdx.y, with "
                                         "ceil_div(m, blockDim.y) blocks in the grid's y (a 1-D grid has one row of blocks)"
                     : c0 < n && r0 == m ? "the columns come from x: Col = blockIdx.x * blockDim.x + threadIdx.x, with "
                                           "ceil_div(n, blockDim.x) blocks in the grid's x"
                     : "the grid's x must reach n (columns) and its y m (rows), each block times its threads");
        } else if (unwritten_edge == rep->unwritten && tile > 0 && rep->unwritten < (long)m * n) {
            rep->pattern = TL_PAT_UNWRITTEN_EDGE;
            snprintf(rep->detail, sizeof rep->detail,
                     "%ld element(s) in the last tile row/column were never written: the grid does "
                     "not cover P (floor instead of ceiling division?)", rep->unwritten);
        } else {
            rep->pattern = TL_PAT_UNWRITTEN;
            snprintf(rep->detail, sizeof rep->detail,
                     "%ld element(s) still hold the NaN poison written before the run: nothing "
                     "stored them (a missing store, a loop bound, or threads that never run)",
                     rep->unwritten);
        }
    } else if (M && N && m == n && tl_chk_matches_alt(got, M, N, m, k, n, tl_chk_alt_transpose_out)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail,
                 "P holds the transpose of M*N: the result was stored at [Col][Row] instead of "
                 "[Row][Col] (row and column swapped)");
    } else if (M && N && m == k && k == n && tl_chk_matches_alt(got, M, N, m, k, n, tl_chk_alt_n_transposed)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals M * transpose(N): N was read as N[Col*Width + k] instead of "
                 "N[k*Width + Col] (swapped index into N or its tile)");
    } else if (M && N && m == k && k == n && tl_chk_matches_alt(got, M, N, m, k, n, tl_chk_alt_m_transposed)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals transpose(M) * N: M was read as M[k*Width + Row] instead of "
                 "M[Row*Width + k] (swapped index into M or its tile)");
    } else if (M && N && m == k && k == n && tl_chk_matches_alt(got, M, N, m, k, n, tl_chk_alt_swapped)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail, "P equals N * M: the operands are swapped");
    } else if (M && N && m == k && k == n && tl_chk_matches_alt(got, M, N, m, k, n, tl_chk_alt_m_self)) {
        rep->pattern = TL_PAT_WRONG_OPERAND;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals M * M: M was read where N belongs (Md[k*Width + Col] for Nd[k*Width + Col], or Mds "
                 "for Nds; at square sizes nothing else goes wrong)");
    } else if (M && N && m == k && k == n && tl_chk_matches_alt(got, M, N, m, k, n, tl_chk_alt_n_self)) {
        rep->pattern = TL_PAT_WRONG_OPERAND;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals N * N: N was read where M belongs (Nd[Row*Width + k] for Md[Row*Width + k], or Nds "
                 "for Mds)");
    } else if (can_alt && tile > 0 && k > n && (rs = (n + tile - 1) / tile * tile) < k && rs != k / tile * tile &&
               tl_chk_sums_to(got, ref, absref, M, N, m, k, n, rs)) {
        /* (where ceil_div(n, T) tiles end where the last partial tile begins, a phase loop one short
         * gives the same sums: that case is told as the dropped tail below, naming both) */
        rep->pattern = TL_PAT_PHASES;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element sums only the terms p < %d of k = %d: the phase loop ran ceil_div(n, TILE_WIDTH) "
                 "= %d times, counted from n = %d; the dot product runs over k (M is m x k, N is k x n): "
                 "ph < ceil_div(k, TILE_WIDTH)", rs, k, rs / tile, n);
    } else if (can_alt && tile > 0 && k > m && (rs = (m + tile - 1) / tile * tile) < k && rs != k / tile * tile &&
               tl_chk_sums_to(got, ref, absref, M, N, m, k, n, rs)) {
        rep->pattern = TL_PAT_PHASES;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element sums only the terms p < %d of k = %d: the phase loop ran ceil_div(m, TILE_WIDTH) "
                 "= %d times, counted from m = %d; the dot product runs over k (M is m x k, N is k x n): "
                 "ph < ceil_div(k, TILE_WIDTH)", rs, k, rs / tile, m);
    } else if (can_alt && (rs = tl_chk_row_stride(got, ref, absref, m, n, k, k) ? k :
                                tl_chk_row_stride(got, ref, absref, m, n, k, m) ? m : 0) != 0) {
        rep->pattern = TL_PAT_ROW_STRIDE;
        snprintf(rep->detail, sizeof rep->detail,
                 "the right values are in the wrong places: P was stored with a row stride of %d (%s) instead "
                 "of n = %d: P is m x n, so P[Row * n + Col]", rs, rs == k ? "k" : "m", n);
    } else if (can_alt && (rs = tl_chk_wrong_dim(got, ref, absref, M, N, m, k, n, n, 0) ? n :
                                tl_chk_wrong_dim(got, ref, absref, M, N, m, k, n, m, 0) ? m : 0) != 0) {
        rep->pattern = TL_PAT_WRONG_DIM;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals the product with M read as rows of %d (M[Row * %s + p]): M is m x k, its row "
                 "length is k = %d (M[Row * k + p]); %d of %d rows wrong", rs, rs == n ? "n" : "m", k,
                 rep->rows_wrong, m);
    } else if (can_alt && (rs = tl_chk_wrong_dim(got, ref, absref, M, N, m, k, n, k, 1) ? k :
                                tl_chk_wrong_dim(got, ref, absref, M, N, m, k, n, m, 1) ? m : 0) != 0) {
        rep->pattern = TL_PAT_WRONG_DIM;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals the product with N read as rows of %d (N[p * %s + Col]): N is k x n, its row "
                 "length is n = %d (N[p * n + Col]); %d of %d columns wrong", rs, rs == k ? "k" : "m", n,
                 rep->cols_wrong, n);
    } else if (M && N && tile > 0 && tl_chk_dropped_tail(got, ref, absref, M, N, m, k, n, tile, 0)) {
        rep->pattern = TL_PAT_PARTIAL_DROPPED;
        /* where the phases counted from m or n would stop at the same term, say so too */
        int fl = k / tile * tile;
        char also[120] = "";
        if (k > m && (m + tile - 1) / tile * tile == fl)
            snprintf(also, sizeof also, ", or phases counted from m = %d (ceil_div(m, TILE_WIDTH) is the same "
                     "count here)", m);
        else if (k > n && (n + tile - 1) / tile * tile == fl)
            snprintf(also, sizeof also, ", or phases counted from n = %d (ceil_div(n, TILE_WIDTH) is the same "
                     "count here)", n);
        snprintf(rep->detail, sizeof rep->detail,
                 "every element lacks the terms k >= %d: the last partial tile of the k loop is "
                 "dropped (Width / TILE_WIDTH phases or blocks instead of the ceiling, or a phase loop one "
                 "short%s)", fl, also);
    } else if (M && N && tile > 0 && tl_chk_dropped_tail(got, ref, absref, M, N, m, k, n, tile, 1)) {
        rep->pattern = TL_PAT_PARTIAL_DROPPED;
        snprintf(rep->detail, sizeof rep->detail,
                 "the last partial block is dropped in every direction: rows >= %d and columns "
                 ">= %d are wrong and the others lack the terms k >= %d; a loop like 'ii + Block <= "
                 "Width' skips it", m / tile * tile, n / tile * tile, k / tile * tile);
    } else if (M && N && (rs = tl_chk_phase_short(got, ref, absref, M, N, m, k, n, tile)) != 0) {
        rep->pattern = TL_PAT_PHASE_SHORT;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element lacks the terms of the last phase (p >= %d of k = %d, with phases of %d): the "
                 "phase loop stops one short; it runs ph = 0 .. ceil_div(k, TILE_WIDTH) - 1 (ph < ceil_div(k, "
                 "TILE_WIDTH))", ((k + rs - 1) / rs - 1) * rs, k, rs);
    } else if (M && N && (rs = tl_chk_phase_reset(got, ref, absref, M, N, m, k, n, tile)) != 0) {
        rep->pattern = TL_PAT_PHASE_RESET;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element holds only the last phase's terms (p >= %d of k = %d, with phases of %d): the "
                 "sum is set to 0 inside the phase loop; set Pvalue = 0 once, before the loop over ph",
                 ((k + rs - 1) / rs - 1) * rs, k, rs);
    } else if (M && N && (rs = tl_chk_prefetch_phase(got, ref, absref, M, N, m, k, n, tile)) != 0) {
        rep->pattern = TL_PAT_PREFETCH_PHASE;
        if (rs > 0)
            snprintf(rep->detail, sizeof rep->detail,
                     "each phase computed from the previous phase's tiles (phases of %d, k = %d): phase 0's terms "
                     "count twice and the last phase's never: the prefetch into the other buffer loads phase ph, "
                     "not ph + 1", rs, k);
        else
            snprintf(rep->detail, sizeof rep->detail,
                     "phase 1's terms never count (phases of %d, k = %d): the prefetch into the other buffer "
                     "loads phase ph + 2, not ph + 1", -rs, k);
    } else if (M && N && (rs = tl_chk_outside_terms(got, ref, absref, M, N, m, k, n, tile)) != 0) {   /* O(m n T): any size */
        rep->pattern = TL_PAT_OUTSIDE_TERMS;
        snprintf(rep->detail, sizeof rep->detail,
                 "out-of-range tile entries must be 0 (every element "
                 "gains %s of the last phase, whose tiles of %d reach past k = %d): in the last phase a tile "
                 "entry past column k-1 of M or row k-1 of N must be written 0, not %s",
                 rs > 0 ? "the last term once for each slot past k" : "the previous phase's terms in the slots past k",
                 rs > 0 ? rs : -rs, k,
                 rs > 0 ? "loaded from a clamped index (min(col, k - 1))" : "left holding the previous phase's value");
    } else if (M && N && k > 1 && tl_chk_missing_term(got, ref, absref, M, N, m, k, n, 1)) {
        rep->pattern = TL_PAT_MISSING_TERM;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element lacks its last term M[i][k-1]*N[k-1][j]: the k loop stops one "
                 "short (k < Width-1, or a bound off by one)");
    } else if (M && N && k > 1 && tl_chk_missing_term(got, ref, absref, M, N, m, k, n, 0)) {
        rep->pattern = TL_PAT_MISSING_TERM;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element lacks its first term M[i][0]*N[0][j]: the k loop starts at 1");
    } else if (tl_chk_accumulated(got, ref, absref, m, n, k)) {
        rep->pattern = TL_PAT_ACCUMULATED;
        snprintf(rep->detail, sizeof rep->detail,
                 "each element equals the previous one plus its own dot product: the sum is not "
                 "reset to 0 for each element of P");
    } else if (rep->nonfinite == 0 && tl_chk_misplaced(got, ref, absref, m, n, k, rep->wrong)) {
        rep->pattern = TL_PAT_MISPLACED;
        snprintf(rep->detail, sizeof rep->detail,
                 "%ld elements hold the right value of another element of P: the sums are right, the "
                 "store's index is not (which row and column of P each thread's value goes to)", rep->wrong);
    } else if (rep->nonfinite > 0 && rep->nonfinite - rep->unwritten == rep->wrong) {
        /* Every wrong element is a computed NaN/Inf: from [-1, 1] inputs that means a read of
         * something that is not part of M or N. The GPU harness puts NaN right after d_M and
         * d_N, so an unguarded load past their end lands here (0 * NaN is NaN). */
        rep->pattern = TL_PAT_NONFINITE;
        if (rep->wrong == total && total > 1)   /* NaN everywhere: P itself was read (a GPU's NaN) */
            snprintf(rep->detail, sizeof rep->detail, "every element is NaN: reading P before writing it? "
                     "(P += ... or beta * P with beta 0: the kit fills P with NaN before the run, and NaN + x, "
                     "0 * NaN are NaN; sum in a register and store once, P[Row * n + Col] = Pvalue), or an "
                     "uninitialised Pvalue");
        else
            snprintf(rep->detail, sizeof rep->detail, "%ld elements are NaN/Inf from inputs in [-1, 1]: "
                     "a load without its bounds check read past the end of M or N (NaN is put there), "
                     "or an uninitialised value (Pvalue, a tile entry)%s",
                     rep->nonfinite, rep->edge_only ? "; all in the last tile row/column" : "");
    } else if (rep->nonfinite == 0 && rep->wrong * 2 >= total && k >= 8 && within_bf16(got, ref, absref, m, n)) {
        rep->pattern = TL_PAT_PRECISION;
        snprintf(rep->detail, sizeof rep->detail,
                 "%ld of %ld elements are off by more than FP32 accumulation allows, yet every error is within "
                 "a few BF16 roundings (2^-6 |M||N|): partial sums kept in BF16, or P rounded to BF16 or FP16",
                 rep->wrong, total);
    } else if (rep->edge_only && rep->wrong < total) {
        rep->pattern = TL_PAT_EDGE_TILES;
        snprintf(rep->detail, sizeof rep->detail,
                 "only the last tile row and/or column are wrong: boundary handling? (loads past "
                 "the edge must write 0; the store must be guarded)");
    } else if (rep->wrong * 10 >= total * 9) {
        rep->pattern = TL_PAT_ALL;
        snprintf(rep->detail, sizeof rep->detail,
                 "(nearly) every element is wrong (%ld of %ld): check the index formulas (P[i][j] = sum "
                 "over p of M[i*k + p] * N[p*n + j], stored at P[i*n + j]%s), the loop bounds and that the "
                 "sum starts at 0", rep->wrong, total,
                 tile > 0 ? "; in a tiled kernel also the tiles: loaded at [ty][tx], used as Mds[ty][p] and "
                            "Nds[p][tx]" : "");
    } else if (rep->full_rows == rep->rows_wrong) {
        rep->pattern = TL_PAT_ROWS;
        snprintf(rep->detail, sizeof rep->detail, "whole rows of P are wrong (%d): check the row "
                 "index and the loop over rows", rep->full_rows);
    } else if (rep->full_cols == rep->cols_wrong) {
        rep->pattern = TL_PAT_COLS;
        snprintf(rep->detail, sizeof rep->detail, "whole columns of P are wrong (%d): check the "
                 "column index and the loop over columns", rep->full_cols);
    } else if (rep->nonfinite > rep->unwritten) {
        rep->pattern = TL_PAT_NONFINITE;
        snprintf(rep->detail, sizeof rep->detail, "%ld elements are NaN or Inf although the inputs "
                 "are in [-1, 1]: uninitialised values (Pvalue, shared memory) or reads outside "
                 "the matrices", rep->nonfinite - rep->unwritten);
    } else {
        rep->pattern = TL_PAT_SCATTERED;
        snprintf(rep->detail, sizeof rep->detail,
                 "%ld scattered elements are wrong: the signature of a race (a missing "
                 "__syncthreads) or of values read before they were written", rep->wrong);
    }
    free(rowf); free(colf); free(tilef); free(rowcount); free(colcount);
    return rep->wrong > 0;
}

const char *tl_pattern_name(tl_pattern p)
{
    switch (p) {
    case TL_PAT_NONE: return "correct";
    case TL_PAT_ALL: return "all wrong";
    case TL_PAT_EDGE_TILES: return "boundary handling";
    case TL_PAT_UNWRITTEN: return "unwritten elements";
    case TL_PAT_UNWRITTEN_EDGE: return "grid too small";
    case TL_PAT_TRANSPOSED: return "swapped indices";
    case TL_PAT_MISSING_TERM: return "loop bound";
    case TL_PAT_ACCUMULATED: return "accumulator not reset";
    case TL_PAT_PARTIAL_DROPPED: return "last partial tile dropped";
    case TL_PAT_ROWS: return "wrong rows";
    case TL_PAT_COLS: return "wrong columns";
    case TL_PAT_SCATTERED: return "scattered errors";
    case TL_PAT_NONFINITE: return "NaN/Inf computed";
    case TL_PAT_GUARD: return "write outside P";
    case TL_PAT_RACE: return "race";
    case TL_PAT_GRID_SWAPPED: return "grid x and y swapped";
    case TL_PAT_ROW_STRIDE: return "wrong row stride";
    case TL_PAT_WRONG_DIM: return "wrong dimension";
    case TL_PAT_WRONG_OPERAND: return "wrong operand";
    case TL_PAT_PHASES: return "phases counted from the wrong dimension";
    case TL_PAT_MISPLACED: return "values stored in the wrong places";
    case TL_PAT_PRECISION: return "precision lost";
    case TL_PAT_PHASE_SHORT: return "phase loop one short";
    case TL_PAT_PHASE_RESET: return "sum reset every phase";
    case TL_PAT_OUTSIDE_TERMS: return "extra terms from outside the matrix";
    case TL_PAT_GRID_COVERS: return "the grid covers the wrong rows or columns";
    case TL_PAT_PREFETCH_PHASE: return "prefetch of the wrong phase";
    }
    return "?";
}

const char *tl_pattern_hint(tl_pattern p)
{
    switch (p) {
    case TL_PAT_EDGE_TILES: return "guard the loads (write 0 outside the matrix) and the store";
    case TL_PAT_UNWRITTEN_EDGE: return "size the grid with ceil_div(Width, TILE_WIDTH), not Width / TILE_WIDTH";
    case TL_PAT_SCATTERED: return "a missing __syncthreads() (either one) lets threads read a tile before it is loaded or after it is overwritten";
    case TL_PAT_GUARD: return "a store without the (Row < m && Col < n) guard writes past the end of P";
    case TL_PAT_RACE: return "a missing __syncthreads() (either one), or one that not every thread of the block reaches: threads read a tile before it is loaded or after it is overwritten";
    case TL_PAT_NONFINITE: return "guard every load: if (Row < Width && ph*TILE_WIDTH+tx < Width) load, else write 0 (and the same for N); initialise Pvalue = 0";
    case TL_PAT_ACCUMULATED: return "declare the sum inside the loops over i and j, or set it to 0 there";
    case TL_PAT_MISSING_TERM: return "the k loop must run k = 0 .. Width-1 (k < Width)";
    case TL_PAT_PARTIAL_DROPPED: return "loop over ceil_div(Width, TILE) tiles and clamp each block's end with min(start + TILE, Width)";
    case TL_PAT_TRANSPOSED: return "P[Row*Width+Col] = sum over k of M[Row*Width+k] * N[k*Width+Col]";
    case TL_PAT_GRID_SWAPPED: return "dim3 dimGrid(ceil_div(n, TILE_WIDTH), ceil_div(m, TILE_WIDTH)): x runs over the columns of P, y over its rows";
    case TL_PAT_ROW_STRIDE: return "P is m x n: store at P[Row * n + Col]";
    case TL_PAT_WRONG_DIM: return "M is m x k and N is k x n: M[Row * k + p], N[p * n + Col]";
    case TL_PAT_WRONG_OPERAND: return "P = M * N: the k loop multiplies M[Row][p] (Mds[ty][p]) by N[p][Col] (Nds[p][tx])";
    case TL_PAT_PHASES: return "for (ph = 0; ph < ceil_div(k, TILE_WIDTH); ++ph): k is the length of the dot product";
    case TL_PAT_PRECISION: return "accumulate in FP32 (a float accumulator, FP32 fragments) and store P as FP32; round only the inputs";
    case TL_PAT_MISPLACED: return "store each sum at P[Row * n + Col] of its own row and column (in register tiling, the thread's row offset with the rows, its column offset with the columns)";
    case TL_PAT_PHASE_SHORT: return "for (ph = 0; ph < ceil_div(k, TILE_WIDTH); ++ph): every phase, the last one too";
    case TL_PAT_PHASE_RESET: return "float Pvalue = 0; before for (ph ...), and Pvalue += ... inside it";
    case TL_PAT_GRID_COVERS: return "Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x; dimGrid(ceil_div(n, blockDim.x), ceil_div(m, blockDim.y))";
    case TL_PAT_OUTSIDE_TERMS: return "if (the element is inside M) Mds[ty][tx] = M[...]; else Mds[ty][tx] = 0; (and the same for Nds), in every phase";
    case TL_PAT_PREFETCH_PHASE: return "in phase ph compute from buffer ph % 2 and load phase ph + 1 into buffer (ph + 1) % 2 (only while ph + 1 < the number of phases)";
    default: return "";
    }
}

/* The verdicts' identifiers: written into results.json and the known-wrong manifest, so never
 * renamed (the words, tl_pattern_name, may change). */
static const char *const slugs[] = {
    [TL_PAT_NONE] = "correct",              [TL_PAT_ALL] = "all-wrong",
    [TL_PAT_EDGE_TILES] = "boundary-handling", [TL_PAT_UNWRITTEN] = "unwritten-elements",
    [TL_PAT_UNWRITTEN_EDGE] = "grid-too-small", [TL_PAT_TRANSPOSED] = "swapped-indices",
    [TL_PAT_MISSING_TERM] = "loop-bound",   [TL_PAT_ACCUMULATED] = "accumulator-not-reset",
    [TL_PAT_PARTIAL_DROPPED] = "last-partial-tile-dropped", [TL_PAT_ROWS] = "wrong-rows",
    [TL_PAT_COLS] = "wrong-columns",        [TL_PAT_SCATTERED] = "scattered-errors",
    [TL_PAT_NONFINITE] = "nan-inf-computed", [TL_PAT_GUARD] = "write-outside-p",
    [TL_PAT_RACE] = "race",                 [TL_PAT_GRID_SWAPPED] = "grid-x-y-swapped",
    [TL_PAT_ROW_STRIDE] = "wrong-row-stride", [TL_PAT_WRONG_DIM] = "wrong-dimension",
    [TL_PAT_WRONG_OPERAND] = "wrong-operand", [TL_PAT_PHASES] = "phases-from-wrong-dimension",
    [TL_PAT_MISPLACED] = "values-in-wrong-places", [TL_PAT_PRECISION] = "precision-lost",
    [TL_PAT_PHASE_SHORT] = "phase-loop-one-short", [TL_PAT_PHASE_RESET] = "sum-reset-every-phase",
    [TL_PAT_OUTSIDE_TERMS] = "extra-terms-outside-the-matrix", [TL_PAT_GRID_COVERS] = "grid-covers-wrong-rows-or-columns",
    [TL_PAT_PREFETCH_PHASE] = "prefetch-of-the-wrong-phase",
};

const char *tl_pattern_slug(tl_pattern p)
{
    return (int)p >= 0 && (size_t)p < sizeof slugs / sizeof slugs[0] && slugs[p] ? slugs[p] : "unknown";
}

int tl_pattern_from_slug(const char *slug)
{
    for (size_t i = 0; slug && i < sizeof slugs / sizeof slugs[0]; ++i)
        if (slugs[i] && strcmp(slugs[i], slug) == 0)
            return (int)i;
    return -1;
}

int tl_pattern_generic(tl_pattern p)
{
    return p == TL_PAT_ALL || p == TL_PAT_SCATTERED || p == TL_PAT_ROWS || p == TL_PAT_COLS ||
           p == TL_PAT_UNWRITTEN;
}

void tl_check_verdict(const tl_check_report *rep, tl_verdict *v)
{
    tl_pattern p = rep->wrong == 0 && rep->guard_broken ? TL_PAT_GUARD : rep->pattern;
    tl_verdict_init(v, rep->wrong == 0 && !rep->guard_broken ? TL_V_NONE : TL_V_CHECKER, tl_pattern_slug(p));
    v->m = rep->m;
    v->k = rep->k;
    v->n = rep->n;
    if (v->kind == TL_V_NONE)
        return;
    tl_verdict_set(v->matrix, sizeof v->matrix, "P");
    if (rep->worst_row >= 0) {
        v->row = rep->worst_row;
        v->column = rep->worst_col;
    }
    v->count = rep->wrong;
    v->total = (long long)rep->m * rep->n;
    v->nonfinite = rep->nonfinite;
    v->unwritten = rep->unwritten;
    tl_verdict_set(v->detail, sizeof v->detail, rep->wrong ? rep->detail : "the guard after P was overwritten");
}

static int reworded;   /* tl_check_reword_for_tests */

void tl_check_reword_for_tests(int on)
{
    reworded = on != 0;
}

void tl_check_reason(const tl_check_report *rep, char *buf, size_t len)
{
    if (rep->guard_broken && rep->wrong == 0)
        snprintf(buf, len, "write outside P (%d canaries %s the matrix overwritten)",
                 rep->guard_broken, rep->guard_where ? rep->guard_where : "around");
    else if (rep->wrong == 0)
        snprintf(buf, len, "ok");
    else if (reworded)
        snprintf(buf, len, "REWORDED %ld of %ld elements off, looks like <%s>", rep->wrong, (long)rep->m * rep->n,
                 tl_pattern_hint(rep->pattern));
    else
        snprintf(buf, len, "%s (%ld/%ld wrong)%s", tl_pattern_name(rep->pattern), rep->wrong,
                 (long)rep->m * rep->n,
                 rep->guard_broken && rep->pattern != TL_PAT_GUARD ? " + write outside P" : "");
}

void tl_check_explain(const tl_check_report *rep, FILE *out, const char *ind)
{
    if (rep->guard_broken)
        fprintf(out, "%swrite outside P: %d guard canaries %s P were overwritten (a store "
                "without its bounds check?)\n", ind, rep->guard_broken,
                rep->guard_where ? rep->guard_where : "around");
    if (rep->wrong == 0)
        return;
    if (reworded) {
        fprintf(out, "%sREWORDED: at size %d x %d the kernel went astray; our guess: [%s] (%s)\n", ind, rep->m,
                rep->n, rep->detail, tl_pattern_name(rep->pattern));
        return;
    }
    fprintf(out, "%s%ld of %ld elements wrong (%ld NaN/Inf, %ld never written)\n", ind,
            rep->wrong, (long)rep->m * rep->n, rep->nonfinite, rep->unwritten);
    if (isfinite(rep->worst_value))
        fprintf(out, "%sworst: P[%d][%d] = %.9g, expected %.9g (error %.3g, bound %.3g: %.3g%% of the bound)\n",
                ind, rep->worst_row, rep->worst_col, rep->worst_value, rep->worst_expected,
                fabs(rep->worst_value - rep->worst_expected), rep->worst_bound,
                100.0 * rep->worst_ratio);
    else
        fprintf(out, "%sfirst bad: P[%d][%d] = %s, expected %.9g\n", ind, rep->worst_row,
                rep->worst_col, isnan(rep->worst_value) ? "NaN" : "Inf", rep->worst_expected);
    fprintf(out, "%swrong rows: %s (%d of %d); wrong columns: %s (%d of %d)\n", ind,
            rep->rows_desc, rep->rows_wrong, rep->m, rep->cols_desc, rep->cols_wrong, rep->n);
    if (rep->tile > 0)
        fprintf(out, "%swrong %dx%d tiles: %d of %d (numbered row by row: %s)%s\n", ind, rep->tile,
                rep->tile, rep->tiles_wrong, rep->tiles_total, rep->tiles_desc,
                rep->edge_only ? ", all in the last tile row/column" : "");
    fprintf(out, "%slikely: %s\n", ind, rep->detail);
    const char *hint = tl_pattern_hint(rep->pattern);
    if (*hint)
        fprintf(out, "%sfix: %s\n", ind, hint);
}
