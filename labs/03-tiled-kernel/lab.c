/* lab.c: lab 03's program (kit-owned; the student edits tiled.cu only).
 *
 * Build:  ./kit check 03          (or: meson compile -C build lab03)
 * Run:    build/labs/03-tiled-kernel/lab03                            all variants, public sizes
 *         build/labs/03-tiled-kernel/lab03 --variants tiled16 --sizes 64,1024
 *         build/labs/03-tiled-kernel/lab03 --sizes 4096 --records tiled.csv   next to cuBLAS
 *         build/labs/03-tiled-kernel/lab03 --repeat 10 --no-time   hunt for a race harder
 */
#include "lab.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

/* The harness hands out const inputs; the lecture's kernel signature takes float*. */
static int run_t16(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_tiled_t16((float *)d_M, (float *)d_N, d_P, m);
}

static int run_t32(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_tiled_t32((float *)d_M, (float *)d_N, d_P, m);
}

#define TL_LAB03_HINT "the tiled kernel of lab 03 needs Width a multiple of TILE_WIDTH; lab 04 handles any size"

static const tl_variant variants[] = {
    {.name = "tiled16", .what = "tiled MatrixMulKernel, TILE_WIDTH 16", .where = TL_ON_GPU, .tile = 16,
     .square_only = 1, .multiple_of = 16, .refuse_hint = TL_LAB03_HINT, .gpu = run_t16},
    {.name = "tiled32", .what = "tiled MatrixMulKernel, TILE_WIDTH 32", .where = TL_ON_GPU, .tile = 32,
     .square_only = 1, .multiple_of = 32, .refuse_hint = TL_LAB03_HINT, .gpu = run_t32},
#ifdef TL_HAVE_CUBLAS
    {.name = "cublas", .what = "cuBLAS SGEMM (FP32), the yardstick (kit code)", .where = TL_ON_GPU,
     .gpu = launch_cublas},
#endif
};

static const tl_lab lab = {
    .id = "03",
    .name = "03-tiled-kernel",
    .title = "the tiled kernel: shared memory, phases, two barriers",
    .variants = variants,
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    /* One tile, a few tiles, many phases; 16 and 48 are refused by tiled32 by design. */
    .default_sizes = "16,32,48,64,256,512,1024,2048,4096",
    /* Three checked runs per case: a missing __syncthreads rarely gives the same bits twice. */
    .repeat = 3,
};

int main(int argc, char **argv)
{
    return tl_lab_main(&lab, argc, argv);
}
