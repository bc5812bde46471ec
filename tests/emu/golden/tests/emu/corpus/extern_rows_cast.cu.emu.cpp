#line 1 "tests/emu/corpus/extern_rows_cast.cu"
/* The tiles cut from extern __shared__ memory by a cast to a pointer to rows (valid CUDA, as real
 * kernels write it): right answers, no diagnostic; the accesses through the cast pointers are watched
 * by no race check, so the emulator names the array and the cast's line (tl_emu_shared_escapes). */
#include "corpus.h"
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    static const tl_emu::Site smem_tl_site_ = {"smem", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::ADyn<float>> smem(smem_tl_site_); 
    float (*Mds)[16] = (float (*)[16])&*smem(__LINE__);
    float (*Nds)[16] = reinterpret_cast<float (*)[16]>(&*smem(__LINE__) + 16 * 16);
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * 16 + ty, Col = blockIdx.x * 16 + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / 16; ++ph) {
        Mds[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * 16 + tx];
        Nds[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * 16 + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < 16; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dim3(w / 16, w / 16),  dim3(16, 16),  2 * 16 * 16 * sizeof(float))(a, b, c, w);
    }, 32);
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: fibers (a local initialised with () or {})
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#endif
