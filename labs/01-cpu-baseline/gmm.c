/* gmm.c: lab 01, the CPU baseline. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 01     (builds, runs every variant on the public sizes, says what is wrong)
 * Read:   labs/01-cpu-baseline/README.md for the tasks and the questions.
 *
 * All matrices are Width x Width floats in row-major order: element (i, j) of M is M[i*Width + j].
 * The harness fills P with NaN before each call, so every element you forget to write shows up.
 */
#include "lab.h"

/* Task 1: the lecture's GMM_CPU. For each i and j, P[i][j] = sum over k of M[i][k] * N[k][j].
 * Keep the loop order i, j, k (the dot product innermost) and sum in a float. */
void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    /* TODO: the triple loop. */
    (void)M; (void)N; (void)P; (void)Width;
}

/* Task 2: the same product, loops in the order i, k, j. The inner loop now walks a row of N and
 * a row of P in memory order. Hint: set row i of P to 0 first, then add M[i][k] * N[k][j]. */
void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    /* TODO: i-k-j loops. */
    (void)M; (void)N; (void)P; (void)Width;
}

/* Task 3: cache blocking ("tiling" on the CPU). Compute P block by block: for each Block x Block
 * block of P, loop over the blocks of M's rows and N's columns so that the three blocks in use fit
 * in the cache. Width need not be a multiple of Block: the last block in each direction is
 * smaller. Do not drop it. */
void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    /* TODO: blocked loops. */
    (void)M; (void)N; (void)P; (void)Width; (void)Block;
}
