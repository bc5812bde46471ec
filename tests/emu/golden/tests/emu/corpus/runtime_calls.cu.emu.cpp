#line 1 "tests/emu/corpus/runtime_calls.cu"
/* FEATURE: cudaMemcpyAsync, cudaMallocManaged, cudaMemcpyToSymbol into __constant__ memory,
 * cudaOccupancyMaxPotentialBlockSize, cudaFuncSetAttribute with cudaSharedmemCarveoutMaxShared, streams. */
#include "corpus.h"
__constant__ float scale[4];
__global__ void Scale(float *x, int n) {
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  i = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    if (i < n) (tl_emu::gcount(1), x)[i] = (tl_emu::gcount(0), x)[i] * scale[i % 4]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 6
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  i = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    if (i < n) (tl_emu::gcount(1), x)[i] = (tl_emu::gcount(0), x)[i] * scale[i % 4]; } } } else {
#line 6
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  i = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    if (i < n) (tl_emu::gcount(1), x)[i] = (tl_emu::gcount(0), x)[i] * scale[i % 4]; } }
#line 7
 }
}
extern "C" int corpus_run(void) {
    const int n = 1000;
    float h[n], s[4] = {1, 2, 3, 4};
    for (int i = 0; i < n; i++) h[i] = (float)i;
    CHECK(cudaMemcpyToSymbol(scale, s, sizeof s));
    CHECK(cudaFuncSetAttribute(Scale, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    int minGrid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, Scale, 0, 0));
    if (block < 32 || block > 1024 || minGrid < 1) { fprintf(stderr, "WRONG: block %d grid %d\n", block, minGrid); return 1; }
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    float *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, st));
    tl_emu_launch(Scale, "Scale", __FILE__, __LINE__, (n + block - 1) / block,  block,  0,  st)(d, n);
    CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    float *m;
    CHECK(cudaMallocManaged(&m, n * sizeof(float)));
    for (int i = 0; i < n; i++) m[i] = 1.0f;
    tl_emu_launch(Scale, "Scale", __FILE__, __LINE__, (n + 255) / 256,  256)(m, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        if (h[i] != (float)i * s[i % 4] || m[i] != s[i % 4]) { fprintf(stderr, "WRONG at %d: %g %g\n", i, h[i], m[i]); return 1; }
    cudaStreamDestroy(st);
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Scale: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_Scale_0_(Scale, "Scale", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_Scale_0_(Scale, "Scale", 0, 1);
#endif
