/* lab.c: lab 04's program (kit-owned; the student edits boundary.cu only).
 *
 * Build:  ./kit check 04          (or: meson compile -C build lab04)
 * Run:    build/labs/04-boundary-handling/lab04                         all variants, public sizes
 *         build/labs/04-boundary-handling/lab04 --variants boundary16 --sizes 1,15,17
 *         build/labs/04-boundary-handling/lab04 --variants rect32 --sizes 1000x17x3,1x300x1
 */
#include "lab.h"
#include "tilelab.h"

/* The harness hands out const inputs; the lecture's kernel signature takes float*. */
static int run_b16(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_boundary_t16((float *)d_M, (float *)d_N, d_P, m);
}

static int run_b32(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_boundary_t32((float *)d_M, (float *)d_N, d_P, m);
}

static int run_r16(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return launch_rect_t16((float *)d_M, (float *)d_N, d_P, m, k, n);
}

static int run_r32(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return launch_rect_t32((float *)d_M, (float *)d_N, d_P, m, k, n);
}

#define TL_LAB04_HINT "MatrixMulKernel takes one Width; the rect variants take m x k x n"

static const tl_variant variants[] = {
    {.name = "boundary16", .what = "MatrixMulKernel for any Width, TILE_WIDTH 16", .where = TL_ON_GPU,
     .tile = 16, .square_only = 1, .refuse_hint = TL_LAB04_HINT, .gpu = run_b16},
    {.name = "boundary32", .what = "MatrixMulKernel for any Width, TILE_WIDTH 32", .where = TL_ON_GPU,
     .tile = 32, .square_only = 1, .refuse_hint = TL_LAB04_HINT, .gpu = run_b32},
    {.name = "rect16", .what = "MatrixMulKernelRect, m x k x n, TILE_WIDTH 16", .where = TL_ON_GPU,
     .tile = 16, .gpu = run_r16},
    {.name = "rect32", .what = "MatrixMulKernelRect, m x k x n, TILE_WIDTH 32", .where = TL_ON_GPU,
     .tile = 32, .gpu = run_r32},
};

static const tl_lab lab = {
    .id = "04",
    .name = "04-boundary-handling",
    .title = "boundary handling: any Width, then rectangular matrices",
    .variants = variants,
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    /* Square: 1, T-1 and T+1 for both tile widths, primes, around 1024. Rectangular (refused
     * by the square variants by design): vectors, outer products, tall and skinny shapes. */
    .default_sizes = "1,15,17,31,33,97,257,1000,1023,1025,"
                     "1x1x1,1x300x1,300x1x300,1000x17x3,33x1025x65,17x33x49,4096x64x8,8x64x4096,"
                     "2000x3x2000",
    .repeat = 3,
};

int main(int argc, char **argv)
{
    return tl_lab_main(&lab, argc, argv);
}
