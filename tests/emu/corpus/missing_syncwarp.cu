/* BUG: the last warp sums shared memory as if its lanes ran in lockstep: no __syncwarp() between one
 * lane's write and another lane's read. Volta and later schedule lanes independently. */
#include "corpus.h"
__global__ void BlockSum(const float *x, float *out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        s[t] += s[(t + 16) % 32];
        s[t] += s[(t + 8) % 32];
        s[t] += s[(t + 4) % 32];
        s[t] += s[(t + 2) % 32];
        s[t] += s[(t + 1) % 32];
        if (t == 0) out[blockIdx.x] = s[0];
    }
}
extern "C" int corpus_run(void) {
    float hx[128], r[2];
    corpus_fill(hx, 128, 6);
    float *x, *out;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof r));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    BlockSum<<<2, 64>>>(x, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 2; b++) {
        double want = 0, mag = 0;
        for (int i = 0; i < 64; i++) { want += hx[b * 64 + i]; mag += std::fabs(hx[b * 64 + i]); }
        if (!(std::fabs(r[b] - want) <= 1e-5 * mag)) { fprintf(stderr, "WRONG: block %d sum %.7g, expected %.7g\n", b, r[b], want); bad = 1; }
    }
    cudaFree(x); cudaFree(out);
    return bad;
}
