#line 1 "tests/emu/corpus/warp_reduce_dot.cu"
/* FEATURE: a dot product reduced within each warp, two ways: __shfl_down_sync (every lane takes part,
 * lanes past n with 0), and through shared memory with __syncwarp() between each read and write. */
#include "corpus.h"
__global__ void DotShfl(const float *x, const float *y, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? (tl_emu::gcount(0), x)[i] * (tl_emu::gcount(0), y)[i] : 0.0f;
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
__global__ void DotSyncwarp(const float *x, const float *y, float *out, int n) {
    static const tl_emu::Site s_tl_site_ = {"s", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (64)>> s(s_tl_site_); 
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s(__LINE__)[t] = i < n ? (tl_emu::gcount(0), x)[i] * (tl_emu::gcount(0), y)[i] : 0.0f;
    __syncthreads();
    if (t < 32) {
        float v = s(__LINE__)[t] + s(__LINE__)[t + 32];
        __syncwarp();
        s(__LINE__)[t] = v;
        __syncwarp();
        for (int off = 16; off > 0; off /= 2) {
            v = s(__LINE__)[t] + s(__LINE__)[(t + off) % 32];
            __syncwarp();
            s(__LINE__)[t] = v;
            __syncwarp();
        }
        if (t == 0) atomicAdd(out, s(__LINE__)[0]);
    }
}
extern "C" int corpus_run(void) {
    const int n = 1000;
    float hx[n], hy[n], r[2] = {0, 0};
    corpus_fill(hx, n, 3);
    corpus_fill(hy, n, 4);
    double want = 0, mag = 0;
    for (int i = 0; i < n; i++) { want += (double)hx[i] * hy[i]; mag += std::fabs((double)hx[i] * hy[i]); }
    float *x, *y, *out;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMalloc(&out, sizeof r));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, sizeof r));
    tl_emu_launch(DotShfl, "DotShfl", __FILE__, __LINE__, (n + 127) / 128,  128)(x, y, out, n);
    CHECK(cudaGetLastError());
    tl_emu_launch(DotSyncwarp, "DotSyncwarp", __FILE__, __LINE__, (n + 63) / 64,  64)(x, y, out + 1, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int k = 0; k < 2; k++)
        if (!(std::fabs(r[k] - want) <= 1e-5 * mag + 1e-6)) { fprintf(stderr, "WRONG: dot %d = %.7g, expected %.7g\n", k, r[k], want); bad = 1; }
    cudaFree(x); cudaFree(y); cudaFree(out);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// DotShfl: fibers (it uses __shfl_down_sync)
#if 1
static tl_emu::KernelReg tl_emu_reg_DotShfl_0_(DotShfl, "DotShfl", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_DotShfl_0_(DotShfl, "DotShfl", 0, 0);
#endif
// DotSyncwarp: fibers (it uses __syncwarp)
#if 1
static tl_emu::KernelReg tl_emu_reg_DotSyncwarp_1_(DotSyncwarp, "DotSyncwarp", 0 + sizeof(float) * (64), 0);
#else
static tl_emu::KernelReg tl_emu_reg_DotSyncwarp_1_(DotSyncwarp, "DotSyncwarp", 0, 0);
#endif
