/* hostile/01/build_reads_outside.c (issue 24 item 6, red team): a build that reads files outside the
 * submission and gets the compiler to quote them in the build log, which the student's report shows:
 * the mount table (/proc/self/mountinfo: where the grader's folders are on the host), the grader's
 * secrets by the names the kit keeps them under, and the solutions. Expected: the build fails (0);
 * the instructor's files are not in the sandbox (no such file), and no host path of the grader's out
 * folder or kit reaches the report. */
#if __has_include("/kit/grader/secret")
#include "/kit/grader/secret"
#endif
#if __has_include("/kit/solutions/01-cpu-baseline/gmm.c")
#include "/kit/solutions/01-cpu-baseline/gmm.c"
#endif
#include "/proc/self/mountinfo"
/* gmm.c: lab 01, the CPU baseline: the reference solution (labs/01-cpu-baseline/gmm.c completed). */
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float sum = 0;
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
