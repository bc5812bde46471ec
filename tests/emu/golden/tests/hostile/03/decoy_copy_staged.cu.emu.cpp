#line 1 "tests/hostile/03/decoy_copy_staged.cu"
/* hostile/03/decoy_copy_staged.cu (issue 24 item 3): the launcher computes P on the host and hands it to a
 * decoy kernel dressed as the tiled kernel: each block stages one tile of M, one of N and one of the host's
 * product in __shared__ memory (every element of M and N loaded once, every loaded element staged, the tiles
 * read back), then copies the product's tile into Pd. It loads fewer elements than a tiled kernel and stages
 * all of them, so "not tiled" and "not staged" both pass. Expected: no correctness credit; the headline names
 * the shared loads per multiply-add (about 3/Width, where the tiled kernel reads 2). */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

static __device__ float *g_answer;   /* the host's product, on the device (static: lab 03 links one unit per tile width) */

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    static const tl_emu::Site Pds_tl_site_ = {"Pds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Pds(Pds_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); { ;
    ;
    Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + Col];
    Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Nd)[Row * Width + Col];
    Pds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = g_answer[Row * Width + Col]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 22
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); { ;
    ;
    Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + Col];
    Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Nd)[Row * Width + Col];
    Pds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = g_answer[Row * Width + Col]; } } } else {
#line 22
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); { ;
    ;
    Mds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + Col];
    Nds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Nd)[Row * Width + Col];
    Pds(__LINE__, tl_emu_ep_)[ty][tx] = g_answer[Row * Width + Col]; } }
#line 26
 }
    if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    volatile float  tl_p_sink[tl_emu::MAX_THREADS]; if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { sink = (Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[tx][ty] + Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[tx][ty]);
    (void)sink;
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty][tx]; } *(tl_p_sink + tl_emu_t_) = sink; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 28
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { sink = (Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[tx][ty] + Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[tx][ty]);
    (void)sink;
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx]; } *(tl_p_sink + tl_emu_t_) = sink; } } else {
#line 28
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { sink = (Mds(__LINE__, tl_emu_ep_)[tx][ty] + Nds(__LINE__, tl_emu_ep_)[tx][ty]);
    (void)sink;
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pds(__LINE__, tl_emu_ep_)[ty][tx]; } *(tl_p_sink + tl_emu_t_) = sink; }
#line 30
 }
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    size_t n = (size_t)Width * Width;
    float *M = (float *)malloc(n * sizeof(float)), *N = (float *)malloc(n * sizeof(float)),
          *P = (float *)malloc(n * sizeof(float)), *A = NULL;
    cudaMemcpy(M, Md, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(N, Nd, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float s = 0;
            for (int k = 0; k < Width; ++k)
                s += M[i * Width + k] * N[k * Width + j];
            P[i * Width + j] = s;
        }
    cudaMalloc((void **)&A, n * sizeof(float));
    cudaMemcpy(A, P, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_answer, &A, sizeof A);
    free(M);
    free(N);
    free(P);
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, g,  b)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
