/* hostile/01/macro_bomb.c: a few lines of macros that expand to 10^16 tokens: the compiler grows
 * without end. Expected: the build is stopped by the build limits (memory, CPU seconds per
 * compiler process) within seconds, the build fails, every test scores 0. */
#include "lab.h"
#define A(x) x x x x x x x x x x
#define B(x) A(A(x))
#define C(x) B(B(x))
#define D(x) C(C(x))
#define E(x) D(D(x))
static const int bomb = E(E(1 +)) 0;
void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width * Width; ++i)
        P[i] = bomb + M[i] * N[i];
}
void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width) { GMM_CPU(M, N, P, Width); }
void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block) { (void)Block; GMM_CPU(M, N, P, Width); }
