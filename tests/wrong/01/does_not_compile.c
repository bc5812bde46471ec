/* wrong/01/does_not_compile.c: KNOWN WRONG: a syntax error and an undeclared name.
 * Expected: 0 on every test, the compiler's first errors quoted, the class run goes on. */
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float sum = 0  // BUG: no semicolon
            for (int k = 0; k < Width; ++k)
                sum += M[i * Width + k] * N[k * Width + j];
            P[i * Width + j] = summ;  // BUG: an undeclared name
        }
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    GMM_CPU(M, N, P, Width);  // BUG: not the solution's loop (this file is about its build errors)
}

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    (void)Block;  // BUG: not the solution's blocked loops (as above)
    GMM_CPU(M, N, P, Width);
}
