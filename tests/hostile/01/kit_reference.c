/* hostile/01/kit_reference.c (issue 24 item 1): every variant computed by the kit's own
 * double-precision reference (tl_reference_gemm, reachable by its name: lab 01 lists no kit
 * function). Expected: refused before any test runs, naming "links tl_reference_gemm". */
#include "lab.h"
#include <stdlib.h>

void tl_reference_gemm(const float *M, const float *N, double *ref, double *absref, int m, int k, int n);

static void by_the_kit(const float *M, const float *N, float *P, int Width)
{
    double *ref = malloc(sizeof(double) * Width * Width), *abs = malloc(sizeof(double) * Width * Width);
    if (!ref || !abs)
        abort();
    tl_reference_gemm(M, N, ref, abs, Width, Width, Width);
    for (int i = 0; i < Width * Width; ++i)
        P[i] = (float)ref[i];
    free(ref);
    free(abs);
}

void GMM_CPU(const float *M, const float *N, float *P, int Width) { by_the_kit(M, N, P, Width); }
void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width) { by_the_kit(M, N, P, Width); }
void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    (void)Block;
    by_the_kit(M, N, P, Width);
}
