/* speed.c: the reference kernels of labs 02-04 and cuBLAS in one program, so one run times them
 * on the same inputs, the same GPU and the same clocks (instructor/lecturer tool, not a lab).
 *
 * Build:  part of the instructor edition (solutions/) when CUDA is on: build/solutions/speed/speed-ref
 * Run:    build/solutions/speed/speed-ref                          Width 4096, every variant
 *         build/solutions/speed/speed-ref --sizes 2048,4096 --records speed.csv
 * The lab binaries' options all work (--variants, --reps, --repeat, ...): it is one more tl_lab.
 */
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

/* The labs' launchers, as their reference builds name them. */
int launch_naive(float *Md, float *Nd, float *Pd, int Width);
int launch_tiled_t16(float *Md, float *Nd, float *Pd, int Width);
int launch_tiled_t32(float *Md, float *Nd, float *Pd, int Width);
int launch_boundary_t16(float *Md, float *Nd, float *Pd, int Width);
int launch_boundary_t32(float *Md, float *Nd, float *Pd, int Width);
void print_device_facts(FILE *out);

typedef int (*square_fn)(float *, float *, float *, int);

static int run_square(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n;
    square_fn f = *(const square_fn *)ctx;
    return f((float *)d_M, (float *)d_N, d_P, m);
}

static const square_fn f_naive = launch_naive, f_t16 = launch_tiled_t16, f_t32 = launch_tiled_t32,
                       f_b16 = launch_boundary_t16, f_b32 = launch_boundary_t32;

static const tl_variant variants[] = {
    {.name = "naive", .what = "lab 02 MatrixMulKernel, 16x16 blocks", .where = TL_ON_GPU, .tile = 16,
     .square_only = 1, .gpu = run_square, .ctx = &f_naive},
    {.name = "tiled16", .what = "lab 03 tiled, TILE_WIDTH 16", .where = TL_ON_GPU, .tile = 16,
     .square_only = 1, .multiple_of = 16, .gpu = run_square, .ctx = &f_t16},
    {.name = "tiled32", .what = "lab 03 tiled, TILE_WIDTH 32", .where = TL_ON_GPU, .tile = 32,
     .square_only = 1, .multiple_of = 32, .gpu = run_square, .ctx = &f_t32},
    {.name = "boundary16", .what = "lab 04 any Width, TILE_WIDTH 16", .where = TL_ON_GPU, .tile = 16,
     .square_only = 1, .gpu = run_square, .ctx = &f_b16},
    {.name = "boundary32", .what = "lab 04 any Width, TILE_WIDTH 32", .where = TL_ON_GPU, .tile = 32,
     .square_only = 1, .gpu = run_square, .ctx = &f_b32},
#ifdef TL_HAVE_CUBLAS
    {.name = "cublas", .what = "cuBLAS SGEMM (FP32)", .where = TL_ON_GPU, .gpu = launch_cublas},
#endif
};

static const tl_lab lab = {
    .id = "speed",
    .name = "speed",
    .title = "the reference kernels of labs 02-04 next to cuBLAS",
    .variants = variants,
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    .default_sizes = "4096",
    .preamble = print_device_facts,
};

int main(int argc, char **argv)
{
    return tl_lab_main(&lab, argc, argv);
}
