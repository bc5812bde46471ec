#line 1 "tests/emu/corpus/partial_mask_shfl.cu"
/* BUG: a full-mask shuffle inside `if (i < n)`: with n = 40 the second warp's lanes 8..31 skip it and
 * wait at the __syncthreads() while lanes 0..7 wait for them at the shuffle. */
#include "corpus.h"
__global__ void WarpSums(const float *x, float *out, int n) {
    static const tl_emu::Site part_tl_site_ = {"part", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (2)>> part(part_tl_site_); 
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0;
    if (i < n) {
        v = (tl_emu::gcount(0), x)[i];
        for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    }
    if (threadIdx.x % 32 == 0) part(__LINE__)[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) *out = part(__LINE__)[0] + part(__LINE__)[1];
}
extern "C" int corpus_run(void) {
    const int n = 40;
    float hx[n], r = 0;
    corpus_fill(hx, n, 7);
    double want = 0, mag = 0;
    for (int i = 0; i < n; i++) { want += hx[i]; mag += std::fabs(hx[i]); }
    float *x, *out;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof r));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    tl_emu_launch(WarpSums, "WarpSums", __FILE__, __LINE__, 1,  64)(x, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    cudaFree(x); cudaFree(out);
    if (!(std::fabs(r - want) <= 1e-5 * mag)) { fprintf(stderr, "WRONG: sum %.7g, expected %.7g\n", r, want); return 1; }
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// WarpSums: fibers (it uses __shfl_down_sync)
#if 1
static tl_emu::KernelReg tl_emu_reg_WarpSums_0_(WarpSums, "WarpSums", 0 + sizeof(float) * (2), 0);
#else
static tl_emu::KernelReg tl_emu_reg_WarpSums_0_(WarpSums, "WarpSums", 0, 0);
#endif
