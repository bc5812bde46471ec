/* reference.c: the double-precision reference product and the scale of its rounding error.
 *
 * Loop order i-k-j walks both N and the result row in memory order; accumulating in double
 * makes the reference exact to ~1e-16 relative, far below float32's error. */
#include <math.h>
#include <string.h>

#include "tilelab.h"

void tl_reference_gemm(const float *M, const float *N, double *ref, double *absref,
                       int m, int k, int n)
{
    memset(ref, 0, sizeof(double) * (size_t)m * (size_t)n);
    memset(absref, 0, sizeof(double) * (size_t)m * (size_t)n);
    for (int i = 0; i < m; ++i) {
        double *r = ref + (size_t)i * n;
        double *a = absref + (size_t)i * n;
        for (int p = 0; p < k; ++p) {
            double mv = M[(size_t)i * k + p];
            double am = fabs(mv);
            const float *nrow = N + (size_t)p * n;
            for (int j = 0; j < n; ++j) {
                r[j] += mv * nrow[j];
                a[j] += am * fabs((double)nrow[j]);
            }
        }
    }
}
