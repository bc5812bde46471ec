/* 02-right-style-helper-ldg.cu: corpus, lab 02, right (issue 24 item 6): the naive kernel with its dot product in a
 * __device__ helper that reads M with __ldg(Md + i) and N with *(Nd + i), and P's element stored through a
 * float & the kernel binds. Valid CUDA; the emulator counts each access at its address, so the work rule sees the
 * naive kernel's 2 global loads per multiply-add. */
#include "cuda_check.h"
#include "lab.h"

#define BLOCK_WIDTH 16

__device__ float row_dot_col(const float *Md, const float *Nd, int Row, int Col, int Width)
{
    float s = 0;
    for (int k = 0; k < Width; ++k)
        s += __ldg(Md + Row * Width + k) * *(Nd + k * Width + Col);
    return s;
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float &out = Pd[Row * Width + Col];
        out = row_dot_col(Md, Nd, Row, Col, Width);
    }
}

extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(BLOCK_WIDTH, BLOCK_WIDTH), g(ceil_div(Width, BLOCK_WIDTH), ceil_div(Width, BLOCK_WIDTH));
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
