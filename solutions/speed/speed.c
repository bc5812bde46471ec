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

/* The ladder, in order. Rungs that are a lab's variant take their facts (description, tile width,
 * size limits) from the lab table (common/labtable.c) through tl_variant_from_table; the kit's own
 * rungs are described here. */
typedef struct rung {
    const char *name;
    tl_launch_fn gpu;
    const void *ctx;
    const char *what; /* the kit's own rungs only (NULL: from the lab table) */
    int tile;
} rung;

static const rung ladder[] = {
    {"naive_rows", launch_ladder_naive_rows, NULL, "ladder: lab 02 with x walking rows (uncoalesced)", 16},
    {"naive", run_square, &f_naive, NULL, 0},
    {"naive_ldcg", launch_ladder_naive_ldcg, NULL, "ladder: lab 02 with __ldcg loads (L2 only, no L1)", 16},
    {"tiled16", run_square, &f_t16, NULL, 0},
    {"tiled32", run_square, &f_t32, NULL, 0},
    {"boundary16", run_square, &f_b16, NULL, 0},
    {"boundary32", run_square, &f_b32, NULL, 0},
    {"tiled32_conflict", launch_ladder_tiled32_conflict, NULL,
     "ladder: lab 04 T32, Nd tile transposed (32-way bank conflicts)", 32},
    {"tiled32_pad", launch_ladder_tiled32_pad, NULL, "ladder: the same, rows padded to 33 words (no conflicts)", 32},
#ifdef TL_HAVE_LAB06
    {"coarse1d", run_rect, &f_c1d, NULL, 0},
    {"regtile", run_rect, &f_rt, NULL, 0},
    {"warptile", run_rect, &f_wt, NULL, 0},
#endif
#ifdef TL_HAVE_CUBLAS
    {"cublas", launch_cublas, NULL, NULL, 0},
#endif
};
#define N_RUNGS (sizeof ladder / sizeof ladder[0])

int main(int argc, char **argv)
{
    static tl_variant variants[N_RUNGS];
    for (size_t i = 0; i < N_RUNGS; i++) {
        const rung *r = &ladder[i];
        if (r->what) {
            variants[i] = (tl_variant){.name = r->name, .what = r->what, .where = TL_ON_GPU, .tile = r->tile,
                                       .square_only = 1, .gpu = r->gpu, .ctx = r->ctx};
        } else if (tl_variant_from_table(&variants[i], r->name, NULL, r->gpu, r->ctx) != 0) {
            /* lab 06 before its table entry lands: any m, k, n */
            variants[i] = (tl_variant){.name = r->name, .what = "lab 06 (not yet in the lab table)",
                                       .where = TL_ON_GPU, .gpu = r->gpu, .ctx = r->ctx};
        }
    }
    const tl_lab lab = {
        .id = "speed",
        .name = "speed",
        .title = "the kernel ladder: labs 02-04 (06), the kit's rungs and cuBLAS",
        .variants = variants,
        .nvariants = (int)N_RUNGS,
        .default_sizes = "4096",
        .preamble = print_device_facts,
    };
    return tl_lab_main(&lab, argc, argv);
}
