#line 1 "labs/08-tensor-cores/convert.cu"
/* convert.cu: the kit's BF16 copies of lab 08's inputs (kit code; the student edits wmma.cu, mma.cu
 * and wgmma.cu only). lab.h says what the copies are; lab.c calls tl08_bf16_inputs before each run of
 * a BF16 variant, so every run converts the inputs it reads (about 60 us at 4096 on an H100: the
 * kit's own figures in tests/gpu/lab08-bench.cu leave it out of the time, for the kernels and
 * cuBLAS alike).
 * Rounding: to nearest, ties to even, done on the bits (the emulated build has no cuda_bf16.h); NaN
 * stays NaN. The buffers are kept between calls and grown when a larger size comes. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "cuda_check.h"
#include "lab.h"
#include "lab08-kit.h"

__device__ __forceinline__ unsigned short tl08_round_bf16(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b); /* the bits (also under emulation, which has no __float_as_uint) */
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu)) /* NaN: keep it a quiet NaN */
        return (unsigned short)((b >> 16) | 0x40u);
    b += 0x7FFFu + ((b >> 16) & 1u);
    return (unsigned short)(b >> 16);
}

/* Y (rows x ldy) = X (rows x cols, ld cols) rounded, zero in columns cols..ldy-1; or, transposed,
 * Y (cols x ldy) with Y[j][i] = X[i][j], zero in columns rows..ldy-1. */
__global__ void tl08_convert_k(const float *X, unsigned short *Y, int rows, int cols, int ldy, int transposed)
{
    int out_rows = transposed ? cols : rows, in_cols = transposed ? rows : cols;
    size_t total = (size_t)out_rows * ldy;
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x) {
        int r = (int)(i / ldy), c = (int)(i % ldy);
        float v = 0.0f;
        if (c < in_cols)
            v = transposed ? (tl_emu::gcount(0), X)[(size_t)c * cols + r] : X[(size_t)r * cols + c];
        (tl_emu::gcount(1), Y)[i] = tl08_round_bf16(v);
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 32
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x) {
        int r = (int)(i / ldy), c = (int)(i % ldy);
        float v = 0.0f;
        if (c < in_cols)
            v = transposed ? (tl_emu::gcount(0), X)[(size_t)c * cols + r] : X[(size_t)r * cols + c];
        (tl_emu::gcount(1), Y)[i] = tl08_round_bf16(v);
    } } } } else {
#line 32
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x) {
        int r = (int)(i / ldy), c = (int)(i % ldy);
        float v = 0.0f;
        if (c < in_cols)
            v = transposed ? (tl_emu::gcount(0), X)[(size_t)c * cols + r] : X[(size_t)r * cols + c];
        (tl_emu::gcount(1), Y)[i] = tl08_round_bf16(v);
    } } }
#line 38
 }
}

static unsigned short *buf[3];
static size_t cap[3];

static int ensure(int which, size_t count)
{
    if (cap[which] >= count)
        return 0;
    if (buf[which])
        cudaFree(buf[which]);
    buf[which] = NULL;
    cap[which] = 0;
    cudaError_t e = cudaMalloc((void **)&buf[which], count * sizeof(unsigned short));
    if (e != cudaSuccess)
        return (int)e;
    cap[which] = count;
    return 0;
}

#ifdef TL_EMULATED
#include <stdlib.h>
/* tl08_convert_k's work on the host: X copied out, rounded, Y copied in. */
static int host_convert(const float *X, unsigned short *Y, int rows, int cols, int ldy, int transposed)
{
    int out_rows = transposed ? cols : rows, in_cols = transposed ? rows : cols;
    size_t nin = (size_t)rows * cols, nout = (size_t)out_rows * ldy;
    float *h_X = (float *)malloc(nin * sizeof(float));
    unsigned short *h_Y = (unsigned short *)malloc(nout * sizeof(unsigned short));
    int rc = (!h_X || !h_Y) ? (int)cudaErrorMemoryAllocation : (int)cudaMemcpy(h_X, X, nin * sizeof(float), cudaMemcpyDeviceToHost);
    for (size_t i = 0; rc == 0 && i < nout; i++) {
        int r = (int)(i / ldy), c = (int)(i % ldy);
        float v = 0.0f;
        if (c < in_cols)
            v = transposed ? h_X[(size_t)c * cols + r] : h_X[(size_t)r * cols + c];
        uint32_t b;
        memcpy(&b, &v, sizeof b);
        if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu))
            h_Y[i] = (unsigned short)((b >> 16) | 0x40u);
        else
            h_Y[i] = (unsigned short)((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
    }
    if (rc == 0)
        rc = (int)cudaMemcpy(Y, h_Y, nout * sizeof(unsigned short), cudaMemcpyHostToDevice);
    free(h_X);
    free(h_Y);
    return rc;
}
#endif

extern "C" int tl08_bf16_inputs(const float *d_M, const float *d_N, int m, int k, int n, int want, tl08_bf16 *out)
{
    int ldk = (k + 7) / 8 * 8;
    memset(out, 0, sizeof *out);
    out->ldk = ldk;
    int rc = ensure(0, (size_t)m * ldk);
    if (rc == 0 && (want & TL08_WANT_NB))
        rc = ensure(1, (size_t)k * n);
    if (rc == 0 && (want & TL08_WANT_NBT))
        rc = ensure(2, (size_t)n * ldk);
    if (rc != 0)
        return rc;
#ifdef TL_EMULATED
    /* Emulated: converted on the host, so that the emulator's counts of the case (kernel stores,
     * launches) are the student's kernel's alone. */
    rc = host_convert(d_M, buf[0], m, k, ldk, 0);
    if (rc == 0 && (want & TL08_WANT_NB))
        rc = host_convert(d_N, buf[1], k, n, n, 0);
    if (rc == 0 && (want & TL08_WANT_NBT))
        rc = host_convert(d_N, buf[2], k, n, ldk, 1);
    if (rc != 0)
        return rc;
#else
    int blocks = 1024, threads = 256;
    tl_emu_launch(tl08_convert_k, "tl08_convert_k", __FILE__, __LINE__, blocks,  threads)(d_M, buf[0], m, k, ldk, 0);
    if (want & TL08_WANT_NB)
        tl_emu_launch(tl08_convert_k, "tl08_convert_k", __FILE__, __LINE__, blocks,  threads)(d_N, buf[1], k, n, n, 0);
    if (want & TL08_WANT_NBT)
        tl_emu_launch(tl08_convert_k, "tl08_convert_k", __FILE__, __LINE__, blocks,  threads)(d_N, buf[2], k, n, ldk, 1);
#endif
    out->Mb = buf[0];
    out->Nb = (want & TL08_WANT_NB) ? buf[1] : NULL;
    out->Nbt = (want & TL08_WANT_NBT) ? buf[2] : NULL;
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// tl08_convert_k: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_tl08_convert_k_0_(tl08_convert_k, "tl08_convert_k", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_tl08_convert_k_0_(tl08_convert_k, "tl08_convert_k", 0, 1);
#endif
