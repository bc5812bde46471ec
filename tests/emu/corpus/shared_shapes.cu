/* FEATURE: 3-D __shared__ arrays, __shared__ float4 elements and their members, static and volatile
 * before __shared__, a float& bound to a shared element, shared arrays used through a function-like
 * macro, min(int, unsigned), and auto holding a shared element's value across a barrier. */
#include "corpus.h"
#define AS(i, j) As[i][j]
__global__ void Shapes(float *out) {
    __shared__ float cube[2][4][8];
    static __shared__ float4 quad[32];
    volatile __shared__ float As[4][8];
    int t = threadIdx.x;                        /* 32 threads */
    cube[t / 16][(t / 8) % 2 + 2][t % 8] = t;
    quad[t].x = t; quad[t].y = 2 * t; quad[t].z = 0; quad[t].w = 1;
    float &mine = cube[t / 16][(t / 8) % 2][t % 8];
    mine = -t;
    AS(t / 8, t % 8) = 3 * t;
    __syncthreads();
    auto held = cube[(31 - t) / 16][(31 - t) / 8 % 2 + 2][(31 - t) % 8];   /* another thread's element */
    unsigned u = 20;
    int m = min(t, u);
    __syncthreads();
    cube[(31 - t) / 16][(31 - t) / 8 % 2 + 2][(31 - t) % 8] = 0;           /* after the barrier: no race */
    out[t] = held + quad[31 - t].y + cube[t / 16][(t / 8) % 2][t % 8] + AS((31 - t) / 8, (31 - t) % 8) + m;
}
extern "C" int corpus_run(void) {
    float *d, h[32];
    CHECK(cudaMalloc(&d, sizeof h));
    Shapes<<<1, 32>>>(d);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++) {
        float want = (31 - t) + 2 * (31 - t) - t + 3 * (31 - t) + (t < 20 ? t : 20);
        if (h[t] != want) { fprintf(stderr, "WRONG: out[%d] = %g, expected %g\n", t, h[t], want); return 1; }
    }
    return 0;
}
