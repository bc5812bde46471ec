/* checkshape.c: the shapes a wrong product takes, each a test of its own that tl_check (check.c)
 * asks in turn: another product (transposed, swapped, an operand twice), terms missing or added
 * (first or last term, a partial tile, phases short or shifted), what a grid covered, values
 * stored at other elements' places, sums never reset, strides and dimensions mixed up. Each
 * judges within the checker's rounding bound (tl_check_bound). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"
#include "checkshape.h"

int tl_chk_is_poison(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits == TL_POISON_BITS;
}

int tl_chk_elem_bad(float got, double ref, double absref, int k)
{
    if (!isfinite(got))
        return 1;
    return fabs((double)got - ref) > tl_check_bound(absref, k);
}

double tl_chk_alt_transpose_out(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
{   /* P[i][j] holds the product's (j, i): the store indexed P[Col][Row] */
    (void)m;
    double s = 0, as = 0;
    for (int p = 0; p < k; ++p) {
        s += (double)M[(size_t)j * k + p] * N[(size_t)p * n + i];
        as += fabs((double)M[(size_t)j * k + p] * N[(size_t)p * n + i]);
    }
    *a = as;
    return s;
}

double tl_chk_alt_n_transposed(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
{   /* M * N^T: N read as N[Col][k] */
    (void)m; (void)n;
    double s = 0, as = 0;
    for (int p = 0; p < k; ++p) {
        s += (double)M[(size_t)i * k + p] * N[(size_t)j * k + p];
        as += fabs((double)M[(size_t)i * k + p] * N[(size_t)j * k + p]);
    }
    *a = as;
    return s;
}

double tl_chk_alt_m_transposed(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
{   /* M^T * N: M read as M[k][Row] */
    (void)k;
    double s = 0, as = 0;
    for (int p = 0; p < m; ++p) {
        s += (double)M[(size_t)p * m + i] * N[(size_t)p * n + j];
        as += fabs((double)M[(size_t)p * m + i] * N[(size_t)p * n + j]);
    }
    *a = as;
    return s;
}

double tl_chk_alt_swapped(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
{   /* N * M */
    (void)m; (void)n;
    double s = 0, as = 0;
    for (int p = 0; p < k; ++p) {
        s += (double)N[(size_t)i * k + p] * M[(size_t)p * k + j];
        as += fabs((double)N[(size_t)i * k + p] * M[(size_t)p * k + j]);
    }
    *a = as;
    return s;
}

double tl_chk_alt_m_self(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
{   /* M * M: M read where N belongs (square) */
    (void)m; (void)N;
    double s = 0, as = 0;
    for (int p = 0; p < k; ++p) {
        s += (double)M[(size_t)i * k + p] * M[(size_t)p * n + j];
        as += fabs((double)M[(size_t)i * k + p] * M[(size_t)p * n + j]);
    }
    *a = as;
    return s;
}

double tl_chk_alt_n_self(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
{   /* N * N: N read where M belongs (square) */
    (void)m; (void)M;
    double s = 0, as = 0;
    for (int p = 0; p < k; ++p) {
        s += (double)N[(size_t)i * k + p] * N[(size_t)p * n + j];
        as += fabs((double)N[(size_t)i * k + p] * N[(size_t)p * n + j]);
    }
    *a = as;
    return s;
}

/* Does got match some other product everywhere (within the same bound)? alt(i, j) computes
 * the alternative in double; limited to small cases to keep checking cheap. */
int tl_chk_matches_alt(const float *got, const float *M, const float *N, int m, int k, int n, tl_chk_alt_fn f)
{
    /* Each element costs a dot product: above ~2e8 multiply-adds a sample of about 4096
     * elements, spread over P with an odd step (a transposed 1024 x 1024 P was called
     * "accumulator not reset" when large sizes tried no alternative at all). */
    size_t total = (size_t)m * n, step = 1;
    if ((double)m * n * k > 2e8) {
        step = total / 4096 + 1;
        step |= 1;
    }
    for (size_t e = 0; e < total; e += step) {
        int i = (int)(e / (size_t)n), j = (int)(e % (size_t)n);
        double a, v = f(M, N, m, k, n, i, j, &a);
        if (tl_chk_elem_bad(got[e], v, a, k))
            return 0;
    }
    return 1;
}

/* Every element sums only the terms p < kc (kc < k): the phase (or k) loop counted from another
 * dimension, ceil_div(n or m, T) * T terms, where the dot product needs k. */
int tl_chk_sums_to(const float *got, const double *ref, const double *absref, const float *M, const float *N,
                   int m, int k, int n, int kc)
{
    if (kc <= 0 || kc >= k)
        return 0;
    int differs = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double tail = 0;
            for (int p = kc; p < k; ++p)
                tail += (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            size_t e = (size_t)i * n + j;
            if (tl_chk_elem_bad(got[e], ref[e] - tail, absref[e], k))
                return 0;
            differs |= tl_chk_elem_bad(got[e], ref[e], absref[e], k);
        }
    return differs;
}

/* Every element equals the reference less its first (last) term? */
int tl_chk_missing_term(const float *got, const double *ref, const double *absref, const float *M,
                        const float *N, int m, int k, int n, int last)
{
    int p = last ? k - 1 : 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double term = (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            if (tl_chk_elem_bad(got[(size_t)i * n + j], ref[(size_t)i * n + j] - term,
                         absref[(size_t)i * n + j], k))
                return 0;
        }
    return 1;
}

/* The dot products stopped at k0 (the last partial tile of the k loop dropped)? With
 * interior_only, only elements in full tiles (i < m0, j < n0) are compared, and every element
 * outside them must be wrong: the last partial block dropped in all three loops. */
int tl_chk_dropped_tail(const float *got, const double *ref, const double *absref, const float *M,
                        const float *N, int m, int k, int n, int T, int interior_only)
{
    int k0 = k / T * T, m0 = m / T * T, n0 = n / T * T;
    if (k0 == 0 || (interior_only && (m0 == 0 || n0 == 0)))
        return 0;   /* no full tile at all: nothing kept to compare, say something else */
    if (interior_only && ((m0 == m && n0 == n) || k0 == k))
        return 0;   /* edges alone wrong with a full k loop: that is boundary handling */
    if (!interior_only && k0 == k)
        return 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            size_t e = (size_t)i * n + j;
            if (interior_only && (i >= m0 || j >= n0)) {
                if (!tl_chk_elem_bad(got[e], ref[e], absref[e], k) && ref[e] != 0)
                    return 0;
                continue;
            }
            double tail = 0;
            for (int p = k0; p < k; ++p)
                tail += (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            if (tl_chk_elem_bad(got[e], ref[e] - tail, absref[e], k))
                return 0;
        }
    return 1;
}

/* ---- what a grid covered (issue 25): the written elements of a P whose written elements are all
 * right, told by their shape. Each returns 1 when the shape fits exactly. */
/* The written elements are exactly rows [0, r0) x columns [0, c0). */
int tl_chk_written_rect(const float *got, int m, int n, int *r0, int *c0)
{
    int mr = 0, mc = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            if (!tl_chk_is_poison(got[(size_t)i * n + j])) {
                if (i + 1 > mr) mr = i + 1;
                if (j + 1 > mc) mc = j + 1;
            }
    if (mr == 0 || (mr == m && mc == n))
        return 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            if (tl_chk_is_poison(got[(size_t)i * n + j]) == (i < mr && j < mc))
                return 0;
    *r0 = mr;
    *c0 = mc;
    return 1;
}

/* Only the tiles on the diagonal (row tile == column tile) were written: Row and Col come from the
 * same block index. */
int tl_chk_written_diagonal(const float *got, int m, int n, int T)
{
    if (T <= 0 || (m <= T && n <= T))
        return 0;
    int any = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            int w = !tl_chk_is_poison(got[(size_t)i * n + j]);
            if (w != (i / T == j / T))
                return 0;
            any |= w;
        }
    return any;
}

/* In every tile only its first bh rows and bw columns were written (bh, bw < T where they differ):
 * a block smaller than the tile the grid was sized for. */
int tl_chk_written_corner(const float *got, int m, int n, int T, int *bh, int *bw)
{
    if (T <= 1 || m < T || n < T)
        return 0;
    int h = 0, w = 0;
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j)
            if (!tl_chk_is_poison(got[(size_t)i * n + j])) {
                if (i + 1 > h) h = i + 1;
                if (j + 1 > w) w = j + 1;
            }
    if (h == 0 || (h == T && w == T))
        return 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            if (tl_chk_is_poison(got[(size_t)i * n + j]) == (i % T < h && j % T < w))
                return 0;
    *bh = h;
    *bw = w;
    return 1;
}

/* ---- phases (issue 25): a tiled kernel's k loop runs in phases of T terms; the tile width the
 * kernel used is not known here, so each test tries the lab's tile and the usual ones. */
static int phase_widths(int tile, int k, int *out)
{
    static const int usual[] = {8, 16, 32, 64};
    int n = 0;
    if (tile > 1 && tile < k * 2)
        out[n++] = tile;
    for (int i = 0; i < 4; ++i)
        if (usual[i] != tile && usual[i] < k * 2)
            out[n++] = usual[i];
    return n;
}

/* The elements the phase tests below compare: every one up to 2e8 multiply-adds, above that about
 * 4096 spread over P with an odd step, as tl_chk_matches_alt samples (each costs a partial dot
 * product: a GPU's 4096^3 case, where a phase loop one short was "precision lost", is 6.9e10). */
static size_t sample_step(int m, int k, int n)
{
    size_t total = (size_t)m * n, step = 1;
    if ((double)m * n * k > 2e8)
        step = (total / 4096 + 1) | 1;
    return step;
}

/* Every element sums exactly the terms p in [a, b) of its dot product (and that differs from it). */
static int sums_range(const float *got, const double *ref, const double *absref, const float *M, const float *N,
                      int m, int k, int n, int a, int b)
{
    if (a < 0 || b > k || a >= b || (a == 0 && b == k))
        return 0;
    int differs = 0;
    size_t step = sample_step(m, k, n);
    for (size_t e0 = 0; e0 < (size_t)m * n; e0 += step) {
        int i = (int)(e0 / (size_t)n), j = (int)(e0 % (size_t)n);
        double s = 0;
        for (int p = a; p < b; ++p)
            s += (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
        size_t e = (size_t)i * n + j;
        if (tl_chk_elem_bad(got[e], s, absref[e], k))
            return 0;
        differs |= tl_chk_elem_bad(got[e], ref[e], absref[e], k);
    }
    return differs;
}

/* The phase loop one short (ph < phases - 1, or ph + 1 < Width / T): the last phase's terms
 * missing, told apart from a floor division where k is a multiple of the phase. Returns the
 * phase width found, 0 none. */
int tl_chk_phase_short(const float *got, const double *ref, const double *absref, const float *M,
                       const float *N, int m, int k, int n, int tile)
{
    int w[5], nw = phase_widths(tile, k, w);
    for (int i = 0; i < nw; ++i) {
        int phases = (k + w[i] - 1) / w[i];
        /* k not a multiple: the same sums as a floor division (dropped_tail names both) */
        if (phases >= 2 && k % w[i] == 0 && sums_range(got, ref, absref, M, N, m, k, n, 0, (phases - 1) * w[i]))
            return w[i];
    }
    return 0;
}

/* The sum set to 0 inside the phase loop (float Pvalue = 0 after for (ph ...)): only the last
 * phase's terms reach P. Returns the phase width found, 0 none. */
int tl_chk_phase_reset(const float *got, const double *ref, const double *absref, const float *M,
                       const float *N, int m, int k, int n, int tile)
{
    int w[5], nw = phase_widths(tile, k, w);
    for (int i = 0; i < nw; ++i) {
        int phases = (k + w[i] - 1) / w[i];
        if (phases >= 2 && sums_range(got, ref, absref, M, N, m, k, n, (phases - 1) * w[i], k))
            return w[i];
    }
    return 0;
}

/* Whether every element equals the product with the terms [a1, b1) counted once more and the terms
 * [a2, b2) left out (and differs from the product somewhere). */
static int sums_shifted(const float *got, const double *ref, const double *absref, const float *M, const float *N,
                        int m, int k, int n, int a1, int b1, int a2, int b2)
{
    int differs = 0;
    size_t step = sample_step(m, k, n);
    for (size_t e0 = 0; e0 < (size_t)m * n; e0 += step) {
        int i = (int)(e0 / (size_t)n), j = (int)(e0 % (size_t)n);
        double s = ref[(size_t)i * n + j], extra = 0;
        for (int p = a1; p < b1; ++p)
            extra += (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
        for (int p = a2; p < b2; ++p)
            extra -= (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
        size_t e = (size_t)i * n + j;
        if (tl_chk_elem_bad(got[e], s + extra, absref[e] + fabs(extra), k))
            return 0;
        differs |= tl_chk_elem_bad(got[e], ref[e], absref[e], k);
    }
    return differs;
}

/* A double-buffered phase loop whose prefetch loads the wrong phase's tiles: the phase before
 * (the prefetch loads ph into the next buffer, not ph + 1: phase 0's tiles count twice, the last
 * phase's never; returns the width) or the phase after (ph + 2: phase 1's tiles never count;
 * returns minus the width). 0: none. */
int tl_chk_prefetch_phase(const float *got, const double *ref, const double *absref, const float *M,
                          const float *N, int m, int k, int n, int tile)
{
    int w[5], nw = phase_widths(tile, k, w);
    for (int i = 0; i < nw; ++i) {
        int T = w[i], phases = (k + T - 1) / T;
        if (phases < 2)
            continue;
        if (sums_shifted(got, ref, absref, M, N, m, k, n, 0, T, (phases - 1) * T, k))
            return T;
        if (sums_shifted(got, ref, absref, M, N, m, k, n, 0, 0, T, 2 * T < k ? 2 * T : k))
            return -T;
    }
    return 0;
}

/* Out-of-range tile entries of the last phase (columns >= k of M's tile, rows >= k of N's) not
 * set to 0: each element gains extra terms. Clamped (min(index, k - 1)): the last term once more
 * for each slot past k; stale: the previous phase's values left in those slots. Returns the
 * phase width found (negative: stale), 0 none. */
int tl_chk_outside_terms(const float *got, const double *ref, const double *absref, const float *M,
                         const float *N, int m, int k, int n, int tile)
{
    int w[5], nw = phase_widths(tile, k, w);
    for (int t = 0; t < nw; ++t) {
        int T = w[t], r = k % T;
        if (r == 0)
            continue;                     /* no slot past k: nothing extra to add */
        int last = k - r, slots = T - r;
        for (int mode = 0; mode < 2; ++mode) {
            if (mode == 1 && last < T)
                continue;                 /* stale needs a previous phase */
            int ok = 1, differs = 0;
            for (int i = 0; ok && i < m; ++i)
                for (int j = 0; ok && j < n; ++j) {
                    double extra = 0;
                    if (mode == 0)
                        extra = slots * (double)M[(size_t)i * k + k - 1] * N[(size_t)(k - 1) * n + j];
                    else
                        for (int c = r; c < T; ++c)
                            extra += (double)M[(size_t)i * k + last - T + c] * N[(size_t)(last - T + c) * n + j];
                    size_t e = (size_t)i * n + j;
                    if (tl_chk_elem_bad(got[e], ref[e] + extra, absref[e] + fabs(extra), k))
                        ok = 0;
                    differs |= tl_chk_elem_bad(got[e], ref[e], absref[e], k);
                }
            if (ok && differs)
                return mode == 0 ? T : -T;
        }
    }
    return 0;
}

/* Every element (after the first) equals the previous one plus its own dot product: a sum
 * that was never reset between elements. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nine in ten wrong elements hold, within the rounding bound, the right value of another element of P:
 * the sums are right and the store's index is not (a register tile's row and column offsets swapped,
 * a thread's element stored at its neighbour's place). Judged only where P's values lie far enough
 * apart for a chance match to be rare: the values' spread, over their count, at least 20 times the
 * widest rounding bound (a wrong value then falls within a bound of some value of P by chance with a
 * probability of about 10%, under 25% where the values crowd around 0), and at least 8 wrong: nine in
 * ten of them matching by chance is then below 1e-4. */
int tl_chk_misplaced(const float *got, const double *ref, const double *absref, int m, int n, int k, long wrong)
{
    size_t total = (size_t)m * n;
    if (total > ((size_t)1 << 18) || wrong < 8)
        return 0;
    double *v = malloc(total * sizeof *v), maxb = 0;
    if (!v)
        return 0;
    for (size_t e = 0; e < total; ++e) {
        v[e] = ref[e];
        double b = tl_check_bound(absref[e], k);
        if (b > maxb)
            maxb = b;
    }
    qsort(v, total, sizeof *v, cmp_double);
    if (2 * maxb * (double)total > 0.1 * (v[total - 1] - v[0])) {
        free(v);
        return 0;
    }
    long matched = 0;
    for (size_t e = 0; e < total; ++e) {
        if (!tl_chk_elem_bad(got[e], ref[e], absref[e], k))
            continue;
        if (!isfinite(got[e]))
            break;
        double g = got[e];
        size_t lo = 0, hi = total;        /* the first value >= g - maxb */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (v[mid] < g - maxb)
                lo = mid + 1;
            else
                hi = mid;
        }
        matched += lo < total && v[lo] <= g + maxb;
    }
    free(v);
    return matched * 10 >= wrong * 9;
}

int tl_chk_accumulated(const float *got, const double *ref, const double *absref, int m, int n, int k)
{
    size_t count = (size_t)m * n, ok = 0, judged = 0;
    if (count < 4)
        return 0;
    double carry = 0, acarry = 0;
    for (size_t e = 0; e < count; ++e) {
        carry += ref[e];
        acarry += absref[e];
        /* The running sum's error bound grows with every element: once it is 64 times an
         * element's own, it admits almost any value (at 1000 x 1000 every wrong P "matched"),
         * so only the elements before that are evidence. */
        if (tl_check_bound(acarry, k) > 64 * tl_check_bound(absref[e], k))
            continue;
        ++judged;
        if (!tl_chk_elem_bad(got[e], carry, acarry, k))
            ++ok;
    }
    return judged >= 4 && ok >= judged * 9 / 10;
}

/* The grid's x and y exchanged (ceil_div already used): blocks cover ceil(n/T)*T rows and
 * ceil(m/T)*T columns. True when exactly the elements outside that are unwritten. */
int tl_chk_grid_swapped(const float *got, int m, int n, int T, long unwritten)
{
    if (T <= 0 || m == n)
        return 0;
    long rows = ((long)n + T - 1) / T * T, cols = ((long)m + T - 1) / T * T;
    if (rows > m)
        rows = m;
    if (cols > n)
        cols = n;
    if (rows == m && cols == n)
        return 0;
    long outside = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            int out = i >= rows || j >= cols;
            if (out != tl_chk_is_poison(got[(size_t)i * n + j]))
                return 0;
            outside += out;
        }
    return outside == unwritten;
}

/* P stored at [Row * s + Col] with s != n: every written element holds the product's element of
 * some (Row, Col) that lands there. At least 90% of the written elements must fit. */
int tl_chk_row_stride(const float *got, const double *ref, const double *absref, int m, int n, int k, int s)
{
    if (s == n || s <= 0 || (double)m * n * ((double)n / s + 1) > 5e7)
        return 0;   /* (each element has up to n/s candidate rows: bounded work) */
    long written = 0, fit = 0, all = 0;
    for (long e = 0; e < (long)m * n; ++e)
        all += !tl_chk_is_poison(got[e]);
    for (long e = 0; e < (long)m * n; ++e) {
        if (tl_chk_is_poison(got[e]))
            continue;
        ++written;
        if ((written - fit) * 10 > all)
            return 0;   /* more than a tenth already misfit: not this stride */
        for (long r = e / s < m - 1 ? e / s : m - 1; r >= 0; --r) {
            long c = e - r * s;
            if (c >= n)
                break;
            if (c >= 0 && !tl_chk_elem_bad(got[e], ref[(size_t)r * n + c], absref[(size_t)r * n + c], k)) {
                ++fit;
                break;
            }
        }
    }
    return written > 0 && fit * 10 >= written * 9;
}

/* M read with row length s (M[Row*s + p]) or N with row length s (N[p*s + Col]) instead of k
 * or n: the rows (columns) that stay inside the matrix match that product; the others may read
 * anything. At least one row (column) must differ from the right product. */
int tl_chk_wrong_dim(const float *got, const double *ref, const double *absref, const float *M, const float *N,
                     int m, int k, int n, int s, int of_n)
{
    if (s <= 0 || s == (of_n ? n : k))
        return 0;
    int compared = 0, differs = 0;
    for (int i = 0; i < m; ++i) {
        if (!of_n && (long)i * s + k > (long)m * k)
            continue;
        for (int j = 0; j < n; ++j) {
            if (of_n && (long)(k - 1) * s + j >= (long)k * n)
                continue;
            double v = 0, a = 0;
            for (int p = 0; p < k; ++p) {
                double t = of_n ? (double)M[(size_t)i * k + p] * N[(size_t)p * s + j]
                                : (double)M[(size_t)i * s + p] * N[(size_t)p * n + j];
                v += t;
                a += fabs(t);
            }
            size_t e = (size_t)i * n + j;
            if (tl_chk_elem_bad(got[e], v, a, k))
                return 0;
            ++compared;
            differs |= tl_chk_elem_bad(got[e], ref[e], absref[e], k);
        }
    }
    return compared > 0 && differs;
}
