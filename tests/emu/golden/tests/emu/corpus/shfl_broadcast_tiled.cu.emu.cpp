#line 1 "tests/emu/corpus/shfl_broadcast_tiled.cu"
/* FEATURE: a tiled product where each lane holds one element of M's tile in a register and the row's
 * elements reach the other lanes by __shfl_sync with width 16 (a warp holds two 16-lane rows); N's
 * tile goes through shared memory and barriers. */
#include "corpus.h"
#define TILE_WIDTH 16
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        float m = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += __shfl_sync(0xffffffffu, m, k, TILE_WIDTH) * Nds(__LINE__)[k][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dim3(w / TILE_WIDTH, w / TILE_WIDTH),  dim3(TILE_WIDTH, TILE_WIDTH))(a, b, c, w);
    }, 64);
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: fibers (it uses __shfl_sync)
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#endif
