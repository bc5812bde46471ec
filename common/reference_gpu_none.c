/* reference_gpu_none.c: tl_reference_gemm_gpu in a build without CUDA: never done, so the
 * caller computes the reference on the CPU (reference.c). */
#include <stdio.h>

#include "tilelab.h"

int tl_reference_gemm_gpu(const float *M, const float *N, double *ref, double *absref,
                          int m, int k, int n, char *why, size_t whylen)
{
    (void)M; (void)N; (void)ref; (void)absref; (void)m; (void)k; (void)n;
    if (why && whylen)
        snprintf(why, whylen, "this build has no CUDA");
    return -1;
}

void tl_reference_gpu_hold(int on)
{
    (void)on;
}
