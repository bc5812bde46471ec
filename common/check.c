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

static int is_poison(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits == TL_POISON_BITS;
}

static int elem_bad(float got, double ref, double absref, int k)
{
    if (!isfinite(got))
        return 1;
    return fabs((double)got - ref) > tl_check_bound(absref, k);
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

/* Does got match some other product everywhere (within the same bound)? alt(i, j) computes
 * the alternative in double; limited to small cases to keep checking cheap. */
typedef double (*alt_fn)(const float *M, const float *N, int m, int k, int n, int i, int j, double *absv);

static double alt_transpose_out(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
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

static double alt_n_transposed(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
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

static double alt_m_transposed(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
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

static double alt_swapped(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
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

static double alt_m_self(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
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

static double alt_n_self(const float *M, const float *N, int m, int k, int n, int i, int j, double *a)
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

static int matches_alt(const float *got, const float *M, const float *N, int m, int k, int n, alt_fn f)
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
        if (elem_bad(got[e], v, a, k))
            return 0;
    }
    return 1;
}

/* Every element sums only the terms p < kc (kc < k): the phase (or k) loop counted from another
 * dimension, ceil_div(n or m, T) * T terms, where the dot product needs k. */
static int sums_to(const float *got, const double *ref, const double *absref, const float *M, const float *N,
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
            if (elem_bad(got[e], ref[e] - tail, absref[e], k))
                return 0;
            differs |= elem_bad(got[e], ref[e], absref[e], k);
        }
    return differs;
}

/* Every element equals the reference less its first (last) term? */
static int missing_term(const float *got, const double *ref, const double *absref, const float *M,
                        const float *N, int m, int k, int n, int last)
{
    int p = last ? k - 1 : 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double term = (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            if (elem_bad(got[(size_t)i * n + j], ref[(size_t)i * n + j] - term,
                         absref[(size_t)i * n + j], k))
                return 0;
        }
    return 1;
}

/* The dot products stopped at k0 (the last partial tile of the k loop dropped)? With
 * interior_only, only elements in full tiles (i < m0, j < n0) are compared, and every element
 * outside them must be wrong: the last partial block dropped in all three loops. */
static int dropped_tail(const float *got, const double *ref, const double *absref, const float *M,
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
                if (!elem_bad(got[e], ref[e], absref[e], k) && ref[e] != 0)
                    return 0;
                continue;
            }
            double tail = 0;
            for (int p = k0; p < k; ++p)
                tail += (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            if (elem_bad(got[e], ref[e] - tail, absref[e], k))
                return 0;
        }
    return 1;
}

/* ---- what a grid covered (issue 25): the written elements of a P whose written elements are all
 * right, told by their shape. Each returns 1 when the shape fits exactly. */
/* The written elements are exactly rows [0, r0) x columns [0, c0). */
static int written_rect(const float *got, int m, int n, int *r0, int *c0)
{
    int mr = 0, mc = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            if (!is_poison(got[(size_t)i * n + j])) {
                if (i + 1 > mr) mr = i + 1;
                if (j + 1 > mc) mc = j + 1;
            }
    if (mr == 0 || (mr == m && mc == n))
        return 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            if (is_poison(got[(size_t)i * n + j]) == (i < mr && j < mc))
                return 0;
    *r0 = mr;
    *c0 = mc;
    return 1;
}

/* Only the tiles on the diagonal (row tile == column tile) were written: Row and Col come from the
 * same block index. */
static int written_diagonal(const float *got, int m, int n, int T)
{
    if (T <= 0 || (m <= T && n <= T))
        return 0;
    int any = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            int w = !is_poison(got[(size_t)i * n + j]);
            if (w != (i / T == j / T))
                return 0;
            any |= w;
        }
    return any;
}

/* In every tile only its first bh rows and bw columns were written (bh, bw < T where they differ):
 * a block smaller than the tile the grid was sized for. */
static int written_corner(const float *got, int m, int n, int T, int *bh, int *bw)
{
    if (T <= 1 || m < T || n < T)
        return 0;
    int h = 0, w = 0;
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j)
            if (!is_poison(got[(size_t)i * n + j])) {
                if (i + 1 > h) h = i + 1;
                if (j + 1 > w) w = j + 1;
            }
    if (h == 0 || (h == T && w == T))
        return 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            if (is_poison(got[(size_t)i * n + j]) == (i % T < h && j % T < w))
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

/* Every element sums exactly the terms p in [a, b) of its dot product (and that differs from it). */
static int sums_range(const float *got, const double *ref, const double *absref, const float *M, const float *N,
                      int m, int k, int n, int a, int b)
{
    if (a < 0 || b > k || a >= b || (a == 0 && b == k))
        return 0;
    int differs = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int p = a; p < b; ++p)
                s += (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            size_t e = (size_t)i * n + j;
            if (elem_bad(got[e], s, absref[e], k))
                return 0;
            differs |= elem_bad(got[e], ref[e], absref[e], k);
        }
    return differs;
}

/* The phase loop one short (ph < phases - 1, or ph + 1 < Width / T): the last phase's terms
 * missing, told apart from a floor division where k is a multiple of the phase. Returns the
 * phase width found, 0 none. */
static int phase_short(const float *got, const double *ref, const double *absref, const float *M,
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
static int phase_reset(const float *got, const double *ref, const double *absref, const float *M,
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
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = ref[(size_t)i * n + j], extra = 0;
            for (int p = a1; p < b1; ++p)
                extra += (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            for (int p = a2; p < b2; ++p)
                extra -= (double)M[(size_t)i * k + p] * N[(size_t)p * n + j];
            size_t e = (size_t)i * n + j;
            if (elem_bad(got[e], s + extra, absref[e] + fabs(extra), k))
                return 0;
            differs |= elem_bad(got[e], ref[e], absref[e], k);
        }
    return differs;
}

/* A double-buffered phase loop whose prefetch loads the wrong phase's tiles: the phase before
 * (the prefetch loads ph into the next buffer, not ph + 1: phase 0's tiles count twice, the last
 * phase's never; returns the width) or the phase after (ph + 2: phase 1's tiles never count;
 * returns minus the width). 0: none. */
static int prefetch_phase(const float *got, const double *ref, const double *absref, const float *M,
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
static int outside_terms(const float *got, const double *ref, const double *absref, const float *M,
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
                    if (elem_bad(got[e], ref[e] + extra, absref[e] + fabs(extra), k))
                        ok = 0;
                    differs |= elem_bad(got[e], ref[e], absref[e], k);
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
static int misplaced(const float *got, const double *ref, const double *absref, int m, int n, int k, long wrong)
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
        if (!elem_bad(got[e], ref[e], absref[e], k))
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

static int accumulated(const float *got, const double *ref, const double *absref, int m, int n, int k)
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
        if (!elem_bad(got[e], carry, acarry, k))
            ++ok;
    }
    return judged >= 4 && ok >= judged * 9 / 10;
}

/* The grid's x and y exchanged (ceil_div already used): blocks cover ceil(n/T)*T rows and
 * ceil(m/T)*T columns. True when exactly the elements outside that are unwritten. */
static int grid_swapped(const float *got, int m, int n, int T, long unwritten)
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
            if (out != is_poison(got[(size_t)i * n + j]))
                return 0;
            outside += out;
        }
    return outside == unwritten;
}

/* P stored at [Row * s + Col] with s != n: every written element holds the product's element of
 * some (Row, Col) that lands there. At least 90% of the written elements must fit. */
static int row_stride(const float *got, const double *ref, const double *absref, int m, int n, int k, int s)
{
    if (s == n || s <= 0 || (double)m * n * ((double)n / s + 1) > 5e7)
        return 0;   /* (each element has up to n/s candidate rows: bounded work) */
    long written = 0, fit = 0, all = 0;
    for (long e = 0; e < (long)m * n; ++e)
        all += !is_poison(got[e]);
    for (long e = 0; e < (long)m * n; ++e) {
        if (is_poison(got[e]))
            continue;
        ++written;
        if ((written - fit) * 10 > all)
            return 0;   /* more than a tenth already misfit: not this stride */
        for (long r = e / s < m - 1 ? e / s : m - 1; r >= 0; --r) {
            long c = e - r * s;
            if (c >= n)
                break;
            if (c >= 0 && !elem_bad(got[e], ref[(size_t)r * n + c], absref[(size_t)r * n + c], k)) {
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
static int wrong_dim(const float *got, const double *ref, const double *absref, const float *M, const float *N,
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
            if (elem_bad(got[e], v, a, k))
                return 0;
            ++compared;
            differs |= elem_bad(got[e], ref[e], absref[e], k);
        }
    }
    return compared > 0 && differs;
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
            if (!elem_bad(g, ref[e], absref[e], k))
                continue;
            double bound = tl_check_bound(absref[e], k);
            double ratio = isfinite(g) ? fabs((double)g - ref[e]) / bound : INFINITY;
            int edge = (i / T == trows - 1 && m % T) || (j / T == tcols - 1 && n % T);
            rep->wrong++;
            edge_wrong += edge;
            if (!isfinite(g)) {
                rep->nonfinite++;
                if (is_poison(g)) {
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
    int r0 = 0, c0 = 0;       /* what a grid covered (written_rect, written_corner) */
    int rs;                         /* a wrong row stride or row length found                */
    if (rep->wrong == 0) {
        rep->pattern = TL_PAT_NONE;
    } else if (rep->unwritten == rep->wrong) {
        /* Only the edge tiles unwritten, and something was written: a grid one block short.
         * (Nothing written at all is "unwritten elements", even when P is one edge tile.) */
        if (grid_swapped(got, m, n, tile, rep->unwritten)) {
            rep->pattern = TL_PAT_GRID_SWAPPED;
            snprintf(rep->detail, sizeof rep->detail,
                     "%ld element(s) were never written, exactly those a grid with x and y exchanged misses: "
                     "the blocks cover %d rows and %d columns of this %d x %d P (the grid's x counts columns, "
                     "n; its y rows, m)", rep->unwritten, (n + tile - 1) / tile * tile < m ? (n + tile - 1) / tile * tile : m,
                     (m + tile - 1) / tile * tile < n ? (m + tile - 1) / tile * tile : n, m, n);
        } else if (tile > 0 && written_diagonal(got, m, n, tile)) {
            rep->pattern = TL_PAT_GRID_COVERS;
            snprintf(rep->detail, sizeof rep->detail,
                     "only the tiles on P's diagonal were written (tile row = tile column): Row and Col come from "
                     "the same block index; Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * "
                     "blockDim.x + threadIdx.x (is Col taken from blockIdx.y?)");
        } else if (tile > 0 && written_corner(got, m, n, tile, &r0, &c0)) {
            rep->pattern = TL_PAT_GRID_COVERS;
            snprintf(rep->detail, sizeof rep->detail,
                     "in every %d x %d tile only its first %d row(s) and %d column(s) were written: the blocks "
                     "launched are smaller (%d x %d threads) than the %d x %d the grid was sized for; launch "
                     "dim3 dimBlock(%d, %d) with that grid, or size the grid from the block you launch",
                     tile, tile, r0, c0, c0, r0, tile, tile, tile, tile);
        } else if (written_rect(got, m, n, &r0, &c0) &&
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
    } else if (M && N && m == n && matches_alt(got, M, N, m, k, n, alt_transpose_out)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail,
                 "P holds the transpose of M*N: the result was stored at [Col][Row] instead of "
                 "[Row][Col] (row and column swapped)");
    } else if (M && N && m == k && k == n && matches_alt(got, M, N, m, k, n, alt_n_transposed)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals M * transpose(N): N was read as N[Col*Width + k] instead of "
                 "N[k*Width + Col] (swapped index into N or its tile)");
    } else if (M && N && m == k && k == n && matches_alt(got, M, N, m, k, n, alt_m_transposed)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals transpose(M) * N: M was read as M[k*Width + Row] instead of "
                 "M[Row*Width + k] (swapped index into M or its tile)");
    } else if (M && N && m == k && k == n && matches_alt(got, M, N, m, k, n, alt_swapped)) {
        rep->pattern = TL_PAT_TRANSPOSED;
        snprintf(rep->detail, sizeof rep->detail, "P equals N * M: the operands are swapped");
    } else if (M && N && m == k && k == n && matches_alt(got, M, N, m, k, n, alt_m_self)) {
        rep->pattern = TL_PAT_WRONG_OPERAND;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals M * M: M was read where N belongs (Md[k*Width + Col] for Nd[k*Width + Col], or Mds "
                 "for Nds; at square sizes nothing else goes wrong)");
    } else if (M && N && m == k && k == n && matches_alt(got, M, N, m, k, n, alt_n_self)) {
        rep->pattern = TL_PAT_WRONG_OPERAND;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals N * N: N was read where M belongs (Nd[Row*Width + k] for Md[Row*Width + k], or Nds "
                 "for Mds)");
    } else if (can_alt && tile > 0 && k > n && (rs = (n + tile - 1) / tile * tile) < k && rs != k / tile * tile &&
               sums_to(got, ref, absref, M, N, m, k, n, rs)) {
        /* (where ceil_div(n, T) tiles end where the last partial tile begins, a phase loop one short
         * gives the same sums: that case is told as the dropped tail below, naming both) */
        rep->pattern = TL_PAT_PHASES;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element sums only the terms p < %d of k = %d: the phase loop ran ceil_div(n, TILE_WIDTH) "
                 "= %d times, counted from n = %d; the dot product runs over k (M is m x k, N is k x n): "
                 "ph < ceil_div(k, TILE_WIDTH)", rs, k, rs / tile, n);
    } else if (can_alt && tile > 0 && k > m && (rs = (m + tile - 1) / tile * tile) < k && rs != k / tile * tile &&
               sums_to(got, ref, absref, M, N, m, k, n, rs)) {
        rep->pattern = TL_PAT_PHASES;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element sums only the terms p < %d of k = %d: the phase loop ran ceil_div(m, TILE_WIDTH) "
                 "= %d times, counted from m = %d; the dot product runs over k (M is m x k, N is k x n): "
                 "ph < ceil_div(k, TILE_WIDTH)", rs, k, rs / tile, m);
    } else if (can_alt && (rs = row_stride(got, ref, absref, m, n, k, k) ? k :
                                row_stride(got, ref, absref, m, n, k, m) ? m : 0) != 0) {
        rep->pattern = TL_PAT_ROW_STRIDE;
        snprintf(rep->detail, sizeof rep->detail,
                 "the right values are in the wrong places: P was stored with a row stride of %d (%s) instead "
                 "of n = %d: P is m x n, so P[Row * n + Col]", rs, rs == k ? "k" : "m", n);
    } else if (can_alt && (rs = wrong_dim(got, ref, absref, M, N, m, k, n, n, 0) ? n :
                                wrong_dim(got, ref, absref, M, N, m, k, n, m, 0) ? m : 0) != 0) {
        rep->pattern = TL_PAT_WRONG_DIM;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals the product with M read as rows of %d (M[Row * %s + p]): M is m x k, its row "
                 "length is k = %d (M[Row * k + p]); %d of %d rows wrong", rs, rs == n ? "n" : "m", k,
                 rep->rows_wrong, m);
    } else if (can_alt && (rs = wrong_dim(got, ref, absref, M, N, m, k, n, k, 1) ? k :
                                wrong_dim(got, ref, absref, M, N, m, k, n, m, 1) ? m : 0) != 0) {
        rep->pattern = TL_PAT_WRONG_DIM;
        snprintf(rep->detail, sizeof rep->detail,
                 "P equals the product with N read as rows of %d (N[p * %s + Col]): N is k x n, its row "
                 "length is n = %d (N[p * n + Col]); %d of %d columns wrong", rs, rs == k ? "k" : "m", n,
                 rep->cols_wrong, n);
    } else if (M && N && tile > 0 && dropped_tail(got, ref, absref, M, N, m, k, n, tile, 0)) {
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
    } else if (M && N && tile > 0 && dropped_tail(got, ref, absref, M, N, m, k, n, tile, 1)) {
        rep->pattern = TL_PAT_PARTIAL_DROPPED;
        snprintf(rep->detail, sizeof rep->detail,
                 "the last partial block is dropped in every direction: rows >= %d and columns "
                 ">= %d are wrong and the others lack the terms k >= %d; a loop like 'ii + Block <= "
                 "Width' skips it", m / tile * tile, n / tile * tile, k / tile * tile);
    } else if (can_alt && (rs = phase_short(got, ref, absref, M, N, m, k, n, tile)) != 0) {
        rep->pattern = TL_PAT_PHASE_SHORT;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element lacks the terms of the last phase (p >= %d of k = %d, with phases of %d): the "
                 "phase loop stops one short; it runs ph = 0 .. ceil_div(k, TILE_WIDTH) - 1 (ph < ceil_div(k, "
                 "TILE_WIDTH))", ((k + rs - 1) / rs - 1) * rs, k, rs);
    } else if (can_alt && (rs = phase_reset(got, ref, absref, M, N, m, k, n, tile)) != 0) {
        rep->pattern = TL_PAT_PHASE_RESET;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element holds only the last phase's terms (p >= %d of k = %d, with phases of %d): the "
                 "sum is set to 0 inside the phase loop; set Pvalue = 0 once, before the loop over ph",
                 ((k + rs - 1) / rs - 1) * rs, k, rs);
    } else if (can_alt && (rs = prefetch_phase(got, ref, absref, M, N, m, k, n, tile)) != 0) {
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
    } else if (M && N && (rs = outside_terms(got, ref, absref, M, N, m, k, n, tile)) != 0) {   /* O(m n T): any size */
        rep->pattern = TL_PAT_OUTSIDE_TERMS;
        snprintf(rep->detail, sizeof rep->detail,
                 "out-of-range tile entries must be 0 (every element "
                 "gains %s of the last phase, whose tiles of %d reach past k = %d): in the last phase a tile "
                 "entry past column k-1 of M or row k-1 of N must be written 0, not %s",
                 rs > 0 ? "the last term once for each slot past k" : "the previous phase's terms in the slots past k",
                 rs > 0 ? rs : -rs, k,
                 rs > 0 ? "loaded from a clamped index (min(col, k - 1))" : "left holding the previous phase's value");
    } else if (M && N && k > 1 && missing_term(got, ref, absref, M, N, m, k, n, 1)) {
        rep->pattern = TL_PAT_MISSING_TERM;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element lacks its last term M[i][k-1]*N[k-1][j]: the k loop stops one "
                 "short (k < Width-1, or a bound off by one)");
    } else if (M && N && k > 1 && missing_term(got, ref, absref, M, N, m, k, n, 0)) {
        rep->pattern = TL_PAT_MISSING_TERM;
        snprintf(rep->detail, sizeof rep->detail,
                 "every element lacks its first term M[i][0]*N[0][j]: the k loop starts at 1");
    } else if (accumulated(got, ref, absref, m, n, k)) {
        rep->pattern = TL_PAT_ACCUMULATED;
        snprintf(rep->detail, sizeof rep->detail,
                 "each element equals the previous one plus its own dot product: the sum is not "
                 "reset to 0 for each element of P");
    } else if (rep->nonfinite == 0 && misplaced(got, ref, absref, m, n, k, rep->wrong)) {
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
