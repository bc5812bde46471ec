/* FEATURE: __CUDACC__ is defined, so a launch macro that expands to <<<...>>> launches; a launch split
 * over two lines; a launch inside a #define; a templated kernel and its launch. */
#include "corpus.h"
#ifdef __CUDACC__
#define KERNEL_LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
#else
#define KERNEL_LAUNCH(k, g, b, ...) k(__VA_ARGS__)
#endif
#define LAUNCH_TILED(g, b, M, N, P, W) \
    Tiled<16>                          \
        <<<g, b>>>(M, N, P, W)
template <int TILE> __global__ void Tiled(const float *Md, const float *Nd, float *Pd, int Width) {
    __shared__ float Mds[TILE][TILE];
    __shared__ float Nds[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * TILE + ty, Col = blockIdx.x * TILE + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * TILE + tx];
        Nds[ty][tx] = Nd[(ph * TILE + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
__global__ void Naive(const float *Md, const float *Nd, float *Pd, int Width) {
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float s = 0;
        for (int k = 0; k < Width; ++k) s += Md[Row * Width + k] * Nd[k * Width + Col];
        Pd[Row * Width + Col] = s;
    }
}
extern "C" int corpus_run(void) {
    int bad = corpus_gemm([](float *a, float *b, float *c, int w) {
        KERNEL_LAUNCH(Naive, dim3((w + 15) / 16, (w + 15) / 16), dim3(16, 16), a, b, c, w);
    }, 48);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        Tiled<16>
            <<<dim3(w / 16, w / 16),
               dim3(16, 16)>>>(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) { LAUNCH_TILED(dim3(w / 16, w / 16), dim3(16, 16), a, b, c, w); }, 32);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) { Tiled<8><<<dim3(w / 8, w / 8), dim3(8, 8)>>>(a, b, c, w); }, 32);
    return bad;
}
