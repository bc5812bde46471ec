#line 1 "tests/emu/corpus/shared_shapes.cu"
/* FEATURE: 3-D __shared__ arrays, __shared__ float4 elements and their members, static and volatile
 * before __shared__, a float& bound to a shared element, shared arrays used through a function-like
 * macro, min(int, unsigned), and auto holding a shared element's value across a barrier. */
#include "corpus.h"
#define AS(i, j) As[i][j]
__global__ void Shapes(float *out) {
    static const tl_emu::Site cube_tl_site_ = {"cube", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (4), (8)>> cube(cube_tl_site_); 
    static const tl_emu::Site quad_tl_site_ = {"quad", __FILE__, __LINE__, "float4"}; tl_emu::Shared<tl_emu::A1<float4, (32)>> quad(quad_tl_site_); 
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (4), (8)>> As(As_tl_site_); 
    int t = threadIdx.x;                        /* 32 threads */
    cube(__LINE__)[t / 16][(t / 8) % 2 + 2][t % 8] = t;
    quad(__LINE__)[t].x = t; quad(__LINE__)[t].y = 2 * t; quad(__LINE__)[t].z = 0; quad(__LINE__)[t].w = 1;
    float &mine = cube(__LINE__)[t / 16][(t / 8) % 2][t % 8];
    mine = -t;
    AS(t / 8, t % 8) = 3 * t;
    __syncthreads();
    auto held = tl_emu::va( cube(__LINE__)[(31 - t) / 16][(31 - t) / 8 % 2 + 2][(31 - t) % 8]);   /* another thread's element */
    unsigned u = 20;
    int m = min(t, u);
    __syncthreads();
    cube(__LINE__)[(31 - t) / 16][(31 - t) / 8 % 2 + 2][(31 - t) % 8] = 0;           /* after the barrier: no race */
    (tl_emu::gcount(1), out)[t] = held + quad(__LINE__)[31 - t].y + cube(__LINE__)[t / 16][(t / 8) % 2][t % 8] + AS((31 - t) / 8, (31 - t) % 8) + m;
}
extern "C" int corpus_run(void) {
    float *d, h[32];
    CHECK(cudaMalloc(&d, sizeof h));
    tl_emu_launch(Shapes, "Shapes", __FILE__, __LINE__, 1,  32)(d);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++) {
        float want = (31 - t) + 2 * (31 - t) - t + 3 * (31 - t) + (t < 20 ? t : 20);
        if (h[t] != want) { fprintf(stderr, "WRONG: out[%d] = %g, expected %g\n", t, h[t], want); return 1; }
    }
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Shapes: fibers (a reference declared in the kernel body)
#if 1 && defined(float4)
static tl_emu::KernelReg tl_emu_reg_Shapes_0_(Shapes, "Shapes", 0 + sizeof(float) * (2) * (4) * (8) + sizeof(float4) * (32) + sizeof(float) * (4) * (8), 0);
#else
static tl_emu::KernelReg tl_emu_reg_Shapes_0_(Shapes, "Shapes", 0, 0);
#endif
