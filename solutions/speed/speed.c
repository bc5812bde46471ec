/* speed.c: the kernel ladder: the reference kernels of labs 02-04 (and 06 when it is there), the
 * kit's own rungs (ladder.cu) and cuBLAS in one program, so one run times them on the same inputs,
 * the same GPU and the same clocks (instructor/lecturer tool, not a lab).
 *
 * Build:  part of the instructor edition (solutions/) when CUDA is on: build/solutions/speed/speed-ref
 * Run:    build/solutions/speed/speed-ref                          Width 4096, every variant
 *         build/solutions/speed/speed-ref --sizes 2049,4096 --records speed.csv
 * The lab binaries' options all work (--variants, --reps, --repeat, ...): it is one more tl_lab.
 * The order of the table below is the ladder's order (./kit bench prints it so, with % of cuBLAS).
 *
 * Lab 06 hook: when solutions/06-register-tiling/regtile.cu exists, solutions/speed/meson.build
 * compiles it in and defines TL_HAVE_LAB06; its three launchers (labs/06-register-tiling/lab.h)
 * become the rungs coarse1d, regtile and warptile. Nothing else needs to change.
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
/* ladder.cu: the kit's own rungs, already in the harness's launcher shape. */
int launch_ladder_naive_rows(const float *, const float *, float *, int, int, int, const void *);
int launch_ladder_naive_ldcg(const float *, const float *, float *, int, int, int, const void *);
int launch_ladder_tiled32_conflict(const float *, const float *, float *, int, int, int, const void *);
int launch_ladder_tiled32_pad(const float *, const float *, float *, int, int, int, const void *);
#ifdef TL_HAVE_LAB06
#include "../../labs/06-register-tiling/lab.h" /* launch_coarse1d, launch_regtile, launch_warptile */
typedef int (*rect_fn)(float *, float *, float *, int, int, int);
static int run_rect(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    rect_fn f = *(const rect_fn *)ctx;
    return f((float *)d_M, (float *)d_N, d_P, m, k, n);
}
static const rect_fn f_c1d = launch_coarse1d, f_rt = launch_regtile, f_wt = launch_warptile;
#endif

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
    {.name = "naive_rows", .what = "ladder: lab 02 with x walking rows (uncoalesced)", .where = TL_ON_GPU,
     .tile = 16, .square_only = 1, .gpu = launch_ladder_naive_rows},
    {.name = "naive", .what = "lab 02 MatrixMulKernel, 16x16 blocks", .where = TL_ON_GPU, .tile = 16,
     .square_only = 1, .gpu = run_square, .ctx = &f_naive},
    {.name = "naive_ldcg", .what = "ladder: lab 02 with __ldcg loads (L2 only, no L1)", .where = TL_ON_GPU,
     .tile = 16, .square_only = 1, .gpu = launch_ladder_naive_ldcg},
    {.name = "tiled16", .what = "lab 03 tiled, TILE_WIDTH 16", .where = TL_ON_GPU, .tile = 16,
     .square_only = 1, .multiple_of = 16, .gpu = run_square, .ctx = &f_t16},
    {.name = "tiled32", .what = "lab 03 tiled, TILE_WIDTH 32", .where = TL_ON_GPU, .tile = 32,
     .square_only = 1, .multiple_of = 32, .gpu = run_square, .ctx = &f_t32},
    {.name = "boundary16", .what = "lab 04 any Width, TILE_WIDTH 16", .where = TL_ON_GPU, .tile = 16,
     .square_only = 1, .gpu = run_square, .ctx = &f_b16},
    {.name = "boundary32", .what = "lab 04 any Width, TILE_WIDTH 32", .where = TL_ON_GPU, .tile = 32,
     .square_only = 1, .gpu = run_square, .ctx = &f_b32},
    {.name = "tiled32_conflict", .what = "ladder: lab 04 T32, Nd tile transposed (32-way bank conflicts)",
     .where = TL_ON_GPU, .tile = 32, .square_only = 1, .gpu = launch_ladder_tiled32_conflict},
    {.name = "tiled32_pad", .what = "ladder: the same, rows padded to 33 words (no conflicts)",
     .where = TL_ON_GPU, .tile = 32, .square_only = 1, .gpu = launch_ladder_tiled32_pad},
#ifdef TL_HAVE_LAB06
    {.name = "coarse1d", .what = "lab 06 (a): several outputs a thread, one column", .where = TL_ON_GPU,
     .gpu = run_rect, .ctx = &f_c1d},
    {.name = "regtile", .what = "lab 06 (b): a 2-D register tile a thread", .where = TL_ON_GPU,
     .gpu = run_rect, .ctx = &f_rt},
    {.name = "warptile", .what = "lab 06 (c): the speed step", .where = TL_ON_GPU, .gpu = run_rect,
     .ctx = &f_wt},
#endif
#ifdef TL_HAVE_CUBLAS
    {.name = "cublas", .what = "cuBLAS SGEMM (FP32, CUBLAS_DEFAULT_MATH: no TF32)", .where = TL_ON_GPU,
     .gpu = launch_cublas},
#endif
};

static const tl_lab lab = {
    .id = "speed",
    .name = "speed",
    .title = "the kernel ladder: labs 02-04 (06), the kit's rungs and cuBLAS",
    .variants = variants,
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    .default_sizes = "4096",
    .preamble = print_device_facts,
};

int main(int argc, char **argv)
{
    return tl_lab_main(&lab, argc, argv);
}
