/* lab.c: lab 06's program (kit-owned; the student edits regtile.cu only).
 *
 * Build:  ./kit check 06          (or: meson compile -C build lab06)
 * Run:    build/labs/06-register-tiling/lab06                                  all variants, public sizes
 *         build/labs/06-register-tiling/lab06 --variants coarse1d --sizes 17,1000x17x3
 *         build/labs/06-register-tiling/lab06 --variants warptile,cublas --sizes 2048,4096   next to cuBLAS
 */
#include "lab.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

/* The harness hands out const inputs; the lecture's launchers take float*. */
typedef int (*rect_fn)(float *, float *, float *, int, int, int);

static int run_rect(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    rect_fn f = *(const rect_fn *)ctx;
    return f((float *)d_M, (float *)d_N, d_P, m, k, n);
}

static const rect_fn f_coarse1d = launch_coarse1d, f_regtile = launch_regtile, f_warptile = launch_warptile;

/* .tile is the block tile's side, so that failure reports name the block tiles of P. */
static const tl_variant variants[] = {
    {.name = "coarse1d", .what = "(a) 1-D coarsening: 64x64 block tile, 8 outputs a thread in a column",
     .where = TL_ON_GPU, .tile = 64, .gpu = run_rect, .ctx = &f_coarse1d},
    {.name = "regtile", .what = "(b) 2-D register tiling: 128x128x8 block tile, 8x8 outputs a thread",
     .where = TL_ON_GPU, .tile = 128, .gpu = run_rect, .ctx = &f_regtile},
    {.name = "warptile", .what = "(c) float4 loads, transposed M tile, warp tiling, double buffering",
     .where = TL_ON_GPU, .tile = 128, .gpu = run_rect, .ctx = &f_warptile},
#ifdef TL_HAVE_CUBLAS
    {.name = "cublas", .what = "cuBLAS SGEMM (FP32), the yardstick (kit code)", .where = TL_ON_GPU,
     .gpu = launch_cublas},
#endif
};

static const tl_lab lab = {
    .id = "06",
    .name = "06-register-tiling",
    .title = "register tiling and thread coarsening, toward cuBLAS speed",
    .variants = variants,
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    /* Ragged around the block tiles (64, 128) and the phase (8); k not a multiple of 4 (the
     * float4 fallback); vectors, outer products, thin and tall shapes; then 2048 for speed. */
    .default_sizes = "1,7,63,65,127,129,257,1000,1023,"
                     "1x1x1,1x300x1,300x1x300,1000x17x3,33x1025x65,130x7x129,129x130x131,"
                     "4096x64x8,8x64x4096,2000x3x2000,256x1022x254,2048",
    .repeat = 3,
};

int main(int argc, char **argv)
{
    return tl_lab_main(&lab, argc, argv);
}
