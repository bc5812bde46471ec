/* KNOWN WRONG, accumulator not reset: GMM_CPU declares sum once, outside the loops, so each
 * element adds the previous ones. Expected verdict for cpu_ijk: "accumulator not reset". */
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    float sum = 0;  // BUG: differs from the solution here (the header says how)
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {  // BUG: the solution declares sum = 0 here, for each element
            for (int k = 0; k < Width; ++k)
                sum += M[i * Width + k] * N[k * Width + j];
            P[i * Width + j] = sum;
        }
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width; ++i) {
        float *Prow = P + (long)i * Width;
        for (int j = 0; j < Width; ++j)
            Prow[j] = 0;
        for (int k = 0; k < Width; ++k) {
            float a = M[i * Width + k];
            const float *Nrow = N + (long)k * Width;
            for (int j = 0; j < Width; ++j)
                Prow[j] += a * Nrow[j];
        }
    }
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    for (int i = 0; i < Width * Width; ++i)
        P[i] = 0;
    /* Blocks of rows of P (ii), of the dot product (kk), of columns of P (jj); inside a block
     * the i-k-j order of GMM_CPU_ikj. min() keeps the last, partial block of each direction. */
    for (int ii = 0; ii < Width; ii += Block)
        for (int kk = 0; kk < Width; kk += Block)
            for (int jj = 0; jj < Width; jj += Block) {
                int iend = min_int(ii + Block, Width);
                int kend = min_int(kk + Block, Width);
                int jend = min_int(jj + Block, Width);
                for (int i = ii; i < iend; ++i)
                    for (int k = kk; k < kend; ++k) {
                        float a = M[i * Width + k];
                        for (int j = jj; j < jend; ++j)
                            P[i * Width + j] += a * N[k * Width + j];
                    }
            }
}
