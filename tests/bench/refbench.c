/* refbench.c (common/tl-refbench): how long the grader's reference of one size takes on the CPU (reference.c) and on
 * the GPU (reference_gpu.cu, its start included), and whether both give the same bits.
 *
 *   tl-refbench SIZE...      (SIZE: W for W x W x W, or MxKxN)
 * Prints 'refbench: SIZE cpu X s gpu Y s, bits equal' per size. Exit 0 all equal, 1 a bit
 * differs or the GPU failed, 2 usage, 77 no GPU here (the CPU figures are still printed). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tilelab.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tl-refbench SIZE...   (SIZE: W or MxKxN, e.g. tl-refbench 2048 4096)\n");
        return 2;
    }
    int status = 0;
    for (int a = 1; a < argc; ++a) {
        int m, k, n;
        char end;
        if (sscanf(argv[a], "%dx%dx%d%c", &m, &k, &n, &end) != 3) {
            if (sscanf(argv[a], "%d%c", &m, &end) != 1) {
                fprintf(stderr, "refbench: '%s' is not a size (W or MxKxN)\n", argv[a]);
                return 2;
            }
            k = n = m;
        }
        if (m < 1 || k < 1 || n < 1 || m > TL_MAX_DIM || k > TL_MAX_DIM || n > TL_MAX_DIM) {
            fprintf(stderr, "refbench: '%s': each dimension must be 1 to %d\n", argv[a], TL_MAX_DIM);
            return 2;
        }
        tl_matrix M, N;
        size_t cnt = (size_t)m * n;
        double *cref = malloc(cnt * 8), *cabs = malloc(cnt * 8), *gref = malloc(cnt * 8), *gabs = malloc(cnt * 8);
        if (tl_matrix_alloc(&M, "M", m, k) || tl_matrix_alloc(&N, "N", k, n) || !cref || !cabs || !gref || !gabs) {
            fprintf(stderr, "refbench: out of memory for %s\n", argv[a]);
            return 2;
        }
        tl_matrix_fill_random(&M, TL_DEFAULT_SEED, 1);
        tl_matrix_fill_random(&N, TL_DEFAULT_SEED, 2);
        double t0 = now_s();
        tl_reference_gemm(M.data, N.data, cref, cabs, m, k, n);
        double tc = now_s() - t0;
        char why[200];
        t0 = now_s();
        int g = tl_reference_gemm_gpu(M.data, N.data, gref, gabs, m, k, n, why, sizeof why);
        double tg = now_s() - t0;
        if (g != 0) {
            printf("refbench: %s cpu %.2f s gpu not done (%s)\n", argv[a], tc, why);
            if (status == 0)
                status = strstr(why, "no usable CUDA device") || strstr(why, "no CUDA") ? 77 : 1;
        } else {
            int same = memcmp(cref, gref, cnt * 8) == 0 && memcmp(cabs, gabs, cnt * 8) == 0;
            printf("refbench: %s cpu %.2f s gpu %.2f s (start and copies included), bits %s\n",
                   argv[a], tc, tg, same ? "equal" : "DIFFER");
            if (!same)
                status = 1;
        }
        fflush(stdout);
        tl_matrix_free(&M);
        tl_matrix_free(&N);
        free(cref); free(cabs); free(gref); free(gabs);
    }
    return status;
}
