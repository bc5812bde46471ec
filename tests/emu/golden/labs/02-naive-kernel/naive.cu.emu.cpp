#line 1 "labs/02-naive-kernel/naive.cu"
/* naive.cu: lab 02, the naive kernel. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 02     (builds, runs every variant on the public sizes, says what is wrong)
 * Read:   labs/02-naive-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats in row-major order on the device: element (i, j) of M is
 * Md[i*Width + j]. The harness fills Pd with NaN before each launch, so every element your grid
 * does not cover shows up (so set every element of Pd, never add to it). Plain CUDA C is all it
 * needs; templates (a templated kernel or __device__ helper) are allowed: they build for the GPU
 * and emulated.
 */
#include "cuda_check.h"
#include "lab.h"

#define BLOCK_WIDTH 16   /* threads per block side: 16 x 16 = 256 threads per block */

/* ------------------------------------------------------------------ the kernel */

/* Task 1: one thread computes one element of Pd, the lecture's MatrixMulKernel.
 * Map threadIdx.x to columns (Col) and threadIdx.y to rows (Row), so that the threads of a warp
 * read neighbouring elements of Nd and write neighbouring elements of Pd. The grid is rounded up:
 * threads outside P must not touch memory. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    /* TODO: Row and Col from blockIdx, blockDim, threadIdx; the bounds test; the dot product of
     * row Row of Md and column Col of Nd in a float Pvalue; the store into Pd. */
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)Width; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 27
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)Width; } } } else {
#line 27
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)Md; (void)Nd; (void)Pd; (void)Width; } }
#line 27
 }
}

/* ------------------------------------------------------------------ the launcher */

/* Task 2: enough BLOCK_WIDTH x BLOCK_WIDTH blocks to cover all of Pd. */
extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO: how many blocks in x and in y? (ceil_div in cuda_check.h) */
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------ the device query */

/* Task 3: write to out (not stdout) what this GPU offers, one fact a line, in the README's format
 * (judged line by line against the grader's own query of the device):
 *   device: NAME                     compute capability: MAJOR.MINOR
 *   sms: N                           max threads per block: N
 *   max threads per sm: N            max blocks per sm: N
 *   shared memory per block: N B     shared memory per sm: N B
 *   registers per block: N           registers per sm: N
 *   sm clock: N kHz                  memory clock: N kHz
 *   memory bus width: N bits         peak bandwidth: X.X GB/s  (2 x clock x bus width / 8)
 * Use cudaGetDeviceProperties and cudaDeviceGetAttribute, each call wrapped in CUDA_CHECK.
 * CUDA 13 removed cudaDeviceProp.clockRate and memoryClockRate: clocks come from
 * cudaDeviceGetAttribute(&v, cudaDevAttrClockRate / cudaDevAttrMemoryClockRate, dev) (kHz). */
extern "C" void print_device_facts(FILE *out)
{
    /* TODO: the device query. */
    fprintf(out, "print_device_facts: not written yet (task 3 in naive.cu)\n");
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
