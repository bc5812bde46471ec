#line 1 "tests/emu/corpus/fiber_fallback.cu"
/* FEATURE: kernels the region form leaves to fibers (a barrier inside a uniform if, auto locals, a
 * template) still run correctly. */
#include "corpus.h"
__global__ void Reverse(float *x, int n, int twice) {
    static const tl_emu::Site buf_tl_site_ = {"buf", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (64)>> buf(buf_tl_site_); 
    auto t = tl_emu::va( threadIdx.x);
    buf(__LINE__)[t] = (tl_emu::gcount(0), x)[t];
    if (twice) {
        __syncthreads();
        float v = buf(__LINE__)[n - 1 - t];
        __syncthreads();
        buf(__LINE__)[t] = v;
    }
    __syncthreads();
    (tl_emu::gcount(1), x)[t] = buf(__LINE__)[n - 1 - t];
}
extern "C" int corpus_run(void) {
    float h[64], *d;
    for (int i = 0; i < 64; i++) h[i] = (float)i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    tl_emu_launch(Reverse, "Reverse", __FILE__, __LINE__, 1,  64)(d, 64, 1);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) if (h[i] != (float)i) { fprintf(stderr, "WRONG: x[%d] = %g\n", i, h[i]); return 1; }
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Reverse: fibers (a local declared with auto)
#if 1
static tl_emu::KernelReg tl_emu_reg_Reverse_0_(Reverse, "Reverse", 0 + sizeof(float) * (64), 0);
#else
static tl_emu::KernelReg tl_emu_reg_Reverse_0_(Reverse, "Reverse", 0, 0);
#endif
