/* FEATURE: __shared__ tiles that leave the checked views and come back, as real kernels write them (issue 25):
 * filled by __device__ helpers taking an array parameter, a pointer to rows, a reference to an array (of a row, a
 * stage) and one stage of a 3-D array, an
 * extern __shared__ buffer cast to a pointer to rows, a float4 stored through &Tile[r][c], the product read by
 * a helper through a row pointer. Right answers, and no "read of __shared__ memory never written" or race. */
#include "corpus.h"
#define T 16
__device__ void load_m(float tile[][T], const float *Md, int row, int col0, int w) {
    tile[threadIdx.y][threadIdx.x] = Md[row * w + col0 + threadIdx.x];
}
__device__ void load_n(float (*tile)[T], const float *Nd, int row0, int col, int w) {
    tile[threadIdx.y][threadIdx.x] = Nd[(row0 + threadIdx.y) * w + col];
}
__device__ void load_ref(float (&tile)[T][T], const float *src, int w) {
    tile[threadIdx.y][threadIdx.x] = src[threadIdx.y * w + threadIdx.x];
}
__device__ float dot_ref(const float (&mrow)[T], const float (&ntile)[T][T], int tx) {
    float s = 0;
    for (int k = 0; k < T; ++k) s += mrow[k] * ntile[k][tx];
    return s;
}
__device__ float dot_row(const float *mrow, float (*ntile)[T], int tx) {
    float s = 0;
    for (int k = 0; k < T; ++k) s += mrow[k] * ntile[k][tx];
    return s;
}
/* both tiles through helpers (array parameter, pointer to rows); the product through a row pointer */
__global__ void Helpers(float *Md, float *Nd, float *Pd, int w) {
    __shared__ float Mds[T][T], Nds[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float p = 0;
    for (int ph = 0; ph < w / T; ++ph) {
        load_m(Mds, Md, row, ph * T, w);
        load_n(Nds, Nd, ph * T, col, w);
        __syncthreads();
        p += dot_row(Mds[ty], Nds, tx);
        __syncthreads();
    }
    Pd[row * w + col] = p;
}
/* double buffering in one 3-D array: each stage passed on as a 2-D array; one barrier a phase */
__global__ void Stages(float *Md, float *Nd, float *Pd, int w) {
    __shared__ float Mds[2][T][T], Nds[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float p = 0;
    for (int ph = 0; ph < w / T; ++ph) {
        int s = ph % 2;
        load_m(Mds[s], Md, row, ph * T, w);
        load_n(Nds[s], Nd, ph * T, col, w);
        __syncthreads();
        for (int k = 0; k < T; ++k) p += Mds[s][ty][k] * Nds[s][k][tx];
    }
    Pd[row * w + col] = p;
}
/* references to arrays: a whole tile, a stage of a 3-D array, a row */
__global__ void Refs(float *Md, float *Nd, float *Pd, int w) {
    __shared__ float Mds[T][T], Nds[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y, row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float p = 0;
    for (int ph = 0; ph < w / T; ++ph) {
        load_ref(Mds, Md + row0 * w + ph * T, w);
        load_ref(Nds[ph % 2], Nd + ph * T * w + col0, w);
        __syncthreads();
        p += dot_ref(Mds[ty], Nds[ph % 2], tx);
        __syncthreads();
    }
    Pd[(row0 + ty) * w + col0 + tx] = p;
}
/* extern __shared__ cast to pointers to rows; M's tile stored as float4 through &Mds[ty][4 * tx] */
__global__ void Casts(float *Md, float *Nd, float *Pd, int w) {
    extern __shared__ float smem[];
    float (*Mds)[T] = (float (*)[T])smem;
    float (*Nds)[T] = (float (*)[T])(smem + T * T);
    __shared__ __align__(16) float Mv[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float p = 0;
    for (int ph = 0; ph < w / T; ++ph) {
        if (tx < T / 4) {
            const float *m = Md + row * w + ph * T + 4 * tx;
            *reinterpret_cast<float4 *>(&Mv[ty][4 * tx]) = make_float4(m[0], m[1], m[2], m[3]);
        }
        Mds[ty][tx] = Md[row * w + ph * T + tx];
        Nds[ty][tx] = Nd[(ph * T + ty) * w + col];
        __syncthreads();
        for (int k = 0; k < T; ++k) p += 0.5f * (Mds[ty][k] + Mv[ty][k]) * Nds[k][tx];
        __syncthreads();
    }
    Pd[row * w + col] = p;
}
extern "C" int corpus_run(void) {
    int bad = corpus_gemm([](float *a, float *b, float *c, int w) {
        Helpers<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        Stages<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        Refs<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        Casts<<<dim3(w / T, w / T), dim3(T, T), 2 * T * T * sizeof(float)>>>(a, b, c, w);
    }, 64);
    return bad;
}
