#line 1 "tests/emu/corpus/launch_forms.cu"
/* FEATURE: __CUDACC__ is defined, so a launch macro that expands to <<<...>>> launches; a launch split
 * over two lines; a launch inside a #define; a templated kernel and its launch. */
#include "corpus.h"
#ifdef __CUDACC__
#define KERNEL_LAUNCH(k, g, b, ...) tl_emu_launch(k, "k", __FILE__, __LINE__, g,  b)(__VA_ARGS__)
#else
#define KERNEL_LAUNCH(k, g, b, ...) k(__VA_ARGS__)
#endif
#define LAUNCH_TILED(g, b, M, N, P, W) \
    tl_emu_launch(Tiled<16>, "Tiled<16>", __FILE__, __LINE__, g,  b) \
(M, N, P, W)
template <int TILE> __global__ void Tiled(const float *Md, const float *Nd, float *Pd, int Width) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE), (TILE)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE), (TILE)>> Nds(Nds_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * TILE + ty, Col = blockIdx.x * TILE + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE; ++ph) {
        Mds(__LINE__)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE + tx];
        Nds(__LINE__)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) Pvalue += Mds(__LINE__)[ty][k] * Nds(__LINE__)[k][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
}
__global__ void Naive(const float *Md, const float *Nd, float *Pd, int Width) {
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    if (Row < Width && Col < Width) {
        float s = 0;
        for (int k = 0; k < Width; ++k) s += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = s;
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 27
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    if (Row < Width && Col < Width) {
        float s = 0;
        for (int k = 0; k < Width; ++k) s += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = s;
    } } } } else {
#line 27
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    if (Row < Width && Col < Width) {
        float s = 0;
        for (int k = 0; k < Width; ++k) s += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = s;
    } } }
#line 32
 }
}
extern "C" int corpus_run(void) {
    int bad = corpus_gemm([](float *a, float *b, float *c, int w) {
        KERNEL_LAUNCH(Naive, dim3((w + 15) / 16, (w + 15) / 16), dim3(16, 16), a, b, c, w);
    }, 48);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(Tiled<16>, "Tiled<16>", __FILE__, __LINE__, dim3(w / 16, w / 16), 
               dim3(16, 16))
(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) { LAUNCH_TILED(dim3(w / 16, w / 16), dim3(16, 16), a, b, c, w); }, 32);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) { tl_emu_launch(Tiled<8>, "Tiled<8>", __FILE__, __LINE__, dim3(w / 8, w / 8),  dim3(8, 8))(a, b, c, w); }, 32);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Tiled: fibers (a template kernel)
// Naive: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_Naive_1_(Naive, "Naive", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_Naive_1_(Naive, "Naive", 0, 1);
#endif
