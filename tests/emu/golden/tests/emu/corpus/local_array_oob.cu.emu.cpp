#line 1 "tests/emu/corpus/local_array_oob.cu"
/* BUG: a register-tiled kernel's accumulator array is read one past its end (acc[i + 1] for the
 * last i): on a GPU this reads another of the thread's variables, or a stack slot, and P is wrong
 * with no error. The emulated build checks every index into an array of known size. */
#include "corpus.h"
#define TM 4
__global__ void Coarse(const float *M, const float *N, float *P, int w) {
    int col = blockIdx.x * blockDim.x + threadIdx.x, row0 = blockIdx.y * TM;
    float acc[TM]; tl_emu::uninit_fill(acc, __LINE__, 1);
    for (int i = 0; i < TM; i++) acc[i] = 0.0f;
    for (int k = 0; k < w; k++)
        for (int i = 0; i < TM; i++) acc[i] += (tl_emu::gcount(0), M)[(row0 + i) * w + k] * (tl_emu::gcount(0), N)[k * w + col];
    for (int i = 0; i < TM; i++) (tl_emu::gcount(1), P)[(row0 + i) * w + col] = acc[i + 1];
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(Coarse, "Coarse", __FILE__, __LINE__, dim3(w / 16, w / TM),  16)(a, b, c, w);
    }, 32);
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Coarse: fibers (a local array whose size is not a number)
#if 1
static tl_emu::KernelReg tl_emu_reg_Coarse_0_(Coarse, "Coarse", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_Coarse_0_(Coarse, "Coarse", 0, 0);
#endif
