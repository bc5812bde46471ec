/* lab.c: lab 02's program (kit-owned; the student edits naive.cu only).
 *
 * Build:  ./kit check 02          (or: meson compile -C build lab02)
 * Run:    build/labs/02-naive-kernel/lab02                          all variants, public sizes
 *         build/labs/02-naive-kernel/lab02 --variants naive --sizes 17,1000
 *         build/labs/02-naive-kernel/lab02 --sizes 4096 --records naive.csv   naive next to cuBLAS
 */
#include "lab.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

/* The harness hands out const inputs; the lecture's kernel signature takes float*. */
static int run_naive(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_naive((float *)d_M, (float *)d_N, d_P, m);
}

static const tl_variant variants[] = {
    {.name = "naive", .what = "MatrixMulKernel: one thread per element of P, 16x16 blocks",
     .where = TL_ON_GPU, .tile = 16, .square_only = 1,
     .refuse_hint = "this kernel takes one Width; rectangular products are lab 04's", .gpu = run_naive},
#ifdef TL_HAVE_CUBLAS
    {.name = "cublas", .what = "cuBLAS SGEMM (FP32), the yardstick (kit code)", .where = TL_ON_GPU,
     .gpu = launch_cublas},
#endif
};

static const tl_lab lab = {
    .id = "02",
    .name = "02-naive-kernel",
    .title = "the naive kernel: one thread per element of P",
    .variants = variants,
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    /* Non-multiples of 16 on both sides of a block edge, then 4096 for speed. */
    .default_sizes = "1,15,17,100,255,256,1000,1024,4096",
    .preamble = print_device_facts,
};

int main(int argc, char **argv)
{
    return tl_lab_main(&lab, argc, argv);
}
