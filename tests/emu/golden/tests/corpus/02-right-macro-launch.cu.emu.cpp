#line 1 "tests/corpus/02-right-macro-launch.cu"
/* 02-right-macro-launch.cu: corpus, lab 02, right: the solution with its launch written through a function-like
 * macro that names the kernel (KERNEL(MatrixMulKernel)<<<dimGrid, dimBlock>>>(...)), as code bases that pick a
 * kernel by macro write it: valid CUDA, emulated as it is (the rewrite reads the source before the preprocessor) */
#include "cuda_check.h"
#include "lab.h"

#define KERNEL(name) name   /* a build could pick another kernel here */   /* STYLE: the kernel named through a macro */

#define BLOCK_WIDTH 16   /* threads per block side: 16 x 16 = 256 threads per block */

/* ------------------------------------------------------------------ the kernel */

/* Task 1: one thread computes one element of Pd, the lecture's MatrixMulKernel. threadIdx.x
 * walks columns, so the 16 (32) threads of a warp read neighbouring elements of Nd and write
 * neighbouring elements of Pd: coalesced accesses. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    /* The grid is rounded up, so the last blocks hold threads outside P: they do nothing. */
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 18
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    /* The grid is rounded up, so the last blocks hold threads outside P: they do nothing. */
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } } } else {
#line 18
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    /* The grid is rounded up, so the last blocks hold threads outside P: they do nothing. */
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } }
#line 26
 }
}

/* ------------------------------------------------------------------ the launcher */

/* Task 2: enough 16 x 16 blocks to cover all of Pd: ceiling division, not floor. */
extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, BLOCK_WIDTH), ceil_div(Width, BLOCK_WIDTH), 1);
    tl_emu_launch(KERNEL(MatrixMulKernel), "KERNEL(MatrixMulKernel)", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);   /* STYLE: launched through the macro */
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------ the device query */

/* Task 3: what does this GPU offer? One fact a line in the README's fixed format ("sms: 132"):
 * the grader compares every line with its own query of the device. CUDA 13 removed
 * cudaDeviceProp.clockRate and memoryClockRate: ask cudaDeviceGetAttribute for clocks (kHz). */
extern "C" void print_device_facts(FILE *out)
{
    int dev = 0;
    cudaDeviceProp p;
    if (CUDA_CHECK(cudaGetDevice(&dev)) != cudaSuccess ||
        CUDA_CHECK(cudaGetDeviceProperties(&p, dev)) != cudaSuccess) {
        fprintf(out, "device facts: not available (see the error above)\n");
        return;
    }
    int sm_khz = 0, mem_khz = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    /* DDR: two transfers per clock; kHz x 1000 = Hz; the bus width is in bits, 8 to a byte. */
    double peak_gbs = 2.0 * mem_khz * 1e3 * (p.memoryBusWidth / 8) / 1e9;
    fprintf(out, "device: %s\n", p.name);
    fprintf(out, "compute capability: %d.%d\n", p.major, p.minor);
    fprintf(out, "sms: %d\n", p.multiProcessorCount);
    fprintf(out, "max threads per block: %d\n", p.maxThreadsPerBlock);
    fprintf(out, "max threads per sm: %d\n", p.maxThreadsPerMultiProcessor);
    fprintf(out, "max blocks per sm: %d\n", p.maxBlocksPerMultiProcessor);
    fprintf(out, "shared memory per block: %zu B\n", p.sharedMemPerBlock);
    fprintf(out, "shared memory per sm: %zu B\n", p.sharedMemPerMultiprocessor);
    fprintf(out, "registers per block: %d\n", p.regsPerBlock);
    fprintf(out, "registers per sm: %d\n", p.regsPerMultiprocessor);
    fprintf(out, "sm clock: %d kHz\n", sm_khz);
    fprintf(out, "memory clock: %d kHz\n", mem_khz);
    fprintf(out, "memory bus width: %d bits\n", p.memoryBusWidth);
    fprintf(out, "peak bandwidth: %.1f GB/s\n", peak_gbs);
    /* Not judged (other keys are ignored): what question 2 needs next to the facts. */
    fprintf(out, "naive bound: %.0f GFLOP/s (peak bandwidth / 4 B per FLOP, if every operand came from DRAM)\n",
            peak_gbs / 4);
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
