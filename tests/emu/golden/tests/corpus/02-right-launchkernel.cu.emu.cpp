#line 1 "tests/corpus/02-right-launchkernel.cu"
/* 02-right-launchkernel.cu: corpus, lab 02, right: siboehm's kernel 1 (naive, x walks rows) with
 * alpha/beta (beta = 0 never reads C), launched through cudaLaunchKernel with an argument array. */
#include "cuda_check.h"
#include "lab.h"

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] uint  x = (blockIdx.x * blockDim.x + threadIdx.x); [[maybe_unused]] uint  y = (blockIdx.y * blockDim.y + threadIdx.y); { ;
    ;
    if (x < M && y < N) {
        float tmp = 0.0;
        for (int i = 0; i < K; ++i)
            tmp += (tl_emu::gcount(0), A)[x * K + i] * (tl_emu::gcount(0), B)[i * N + y];
        (tl_emu::gcount(1), C)[x * N + y] = beta == 0.0f ? alpha * tmp : alpha * tmp + beta * (tl_emu::gcount(0), C)[x * N + y];
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 10
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] uint  x = (blockIdx.x * blockDim.x + threadIdx.x); [[maybe_unused]] uint  y = (blockIdx.y * blockDim.y + threadIdx.y); { ;
    ;
    if (x < M && y < N) {
        float tmp = 0.0;
        for (int i = 0; i < K; ++i)
            tmp += (tl_emu::gcount(0), A)[x * K + i] * (tl_emu::gcount(0), B)[i * N + y];
        (tl_emu::gcount(1), C)[x * N + y] = beta == 0.0f ? alpha * tmp : alpha * tmp + beta * (tl_emu::gcount(0), C)[x * N + y];
    } } } } else {
#line 10
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] uint  x = (blockIdx.x * blockDim.x + threadIdx.x); [[maybe_unused]] uint  y = (blockIdx.y * blockDim.y + threadIdx.y); { ;
    ;
    if (x < M && y < N) {
        float tmp = 0.0;
        for (int i = 0; i < K; ++i)
            tmp += (tl_emu::gcount(0), A)[x * K + i] * (tl_emu::gcount(0), B)[i * N + y];
        (tl_emu::gcount(1), C)[x * N + y] = beta == 0.0f ? alpha * tmp : alpha * tmp + beta * (tl_emu::gcount(0), C)[x * N + y];
    } } }
#line 17
 }
}

extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    int M = Width, N = Width, K = Width;
    float alpha = 1.0f, beta = 0.0f;
    const float *A = Md, *B = Nd;
    float *C = Pd;
    dim3 gridDim(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
    dim3 blockDim(32, 32);
    void *args[] = {&M, &N, &K, &alpha, &A, &B, &beta, &C};
    cudaError_t e = cudaLaunchKernel((const void *)sgemm_naive, gridDim, blockDim, args, 0, 0);
    if (e != cudaSuccess)
        return (int)e;
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
// sgemm_naive: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_sgemm_naive_0_(sgemm_naive, "sgemm_naive", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_sgemm_naive_0_(sgemm_naive, "sgemm_naive", 0, 1);
#endif
