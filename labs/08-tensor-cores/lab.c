/* lab.c: lab 08's program (kit-owned; the student edits wmma.cu, mma.cu and wgmma.cu only).
 *
 * Build:  ./kit check 08          (or: meson compile -C build lab08)
 * Run:    build/labs/08-tensor-cores/lab08                                all variants, public sizes
 *         build/labs/08-tensor-cores/lab08 --variants wmma_tf32 --sizes 17,1000x17x3
 *         build/labs/08-tensor-cores/lab08 --variants wgmma_bf16,cublas --sizes 4096
 *         build/labs/emulated/lab08-emu --variants wmma_tf32,wmma_bf16    (no GPU: part (a) only)
 * The BF16 variants get the kit's BF16 copies of the FP32 inputs (convert.cu, lab.h), made inside
 * each timed run. The inputs of lab 08 are drawn on the BF16 grid (the lab table's inputs_bf16), so
 * rounding them to BF16 or TF32 is exact and the kit's FP32 bound judges what the tensor cores add:
 * the accumulation. A kernel that accumulates in BF16, or rounds P, fails.
 * Parts (b) and (c) are GPU-only: the emulated build leaves mma.cu and wgmma.cu out and the driver
 * names their variants "GPU only". wgmma_bf16 needs an sm_90 GPU and the sm_90a build (gpu_archs
 * with 90); elsewhere its launcher refuses (invalid device function) and the other parts still run.
 */
#include "lab.h"
#include "lab08-kit.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

typedef int (*bf16_fn)(const tl_bf16_bits *, const tl_bf16_bits *, float *, int, int, int, int);

static int run_wmma_tf32(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return launch_wmma_tf32(d_M, d_N, d_P, m, k, n);
}


/* ctx: the launcher and which copy of N it reads (TL08_WANT_NB: row-major, else transposed). */
typedef struct bf16_variant {
    bf16_fn fn;
    int want;
} bf16_variant;

static int run_bf16(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    const bf16_variant *v = (const bf16_variant *)ctx;
    tl08_bf16 in;
#ifdef TL_EMULATED
    /* The kit's BF16 copies are made on the host under emulation (convert.cu: a copy out, a copy in):
     * outside the guard the harness puts around the student's launcher (driver.c), so that they are
     * not the launcher's host round trips; the guard is as it was again for the student's launcher. */
    int guarded = tl_emu_guard_device(0);
#endif
    int rc = tl08_bf16_inputs(d_M, d_N, m, k, n, v->want, &in);
#ifdef TL_EMULATED
    tl_emu_guard_device(guarded);
#endif
    if (rc != 0)
        return rc;
    return v->fn(in.Mb, v->want == TL08_WANT_NB ? in.Nb : in.Nbt, d_P, m, k, n, in.ldk);
}

static const bf16_variant v_wmma = {launch_wmma_bf16, TL08_WANT_NB};
#ifndef TL08_EMULATED
static const bf16_variant v_mma = {launch_mma_bf16, TL08_WANT_NBT};
static const bf16_variant v_wgmma = {launch_wgmma_bf16, TL08_WANT_NBT};
#endif

/* The code of each variant; names, constraints and sizes are lab 08's entry in common/labtable.c. */
static const tl_lab_code code[] = {
    {"wmma_tf32", .gpu = run_wmma_tf32},
    {"wmma_bf16", .gpu = run_bf16, .ctx = &v_wmma},
#ifndef TL08_EMULATED
    {"mma_bf16", .gpu = run_bf16, .ctx = &v_mma},
    {"wgmma_bf16", .gpu = run_bf16, .ctx = &v_wgmma},
#endif
#ifdef TL_HAVE_CUBLAS
    {"cublas", .gpu = launch_cublas},
#endif
};

int main(int argc, char **argv)
{
    return tl_lab_run("08", code, (int)(sizeof code / sizeof code[0]), NULL, argc, argv);
}
