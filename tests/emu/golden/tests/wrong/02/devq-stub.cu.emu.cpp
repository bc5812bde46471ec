#line 1 "tests/wrong/02/devq-stub.cu"
/* KNOWN-WRONG SUBMISSION (tests/wrong/02/devq-stub.cu): the kernel and launcher are right, the device query is the skeleton's stub: no fact printed
 * Everything else is the reference solution; the checker must reject this file.
 * tests/wrong/README.md lists the verdict each bug must get. */
/* naive.cu: lab 02, the naive kernel: the reference solution (labs/02-naive-kernel/naive.cu completed).
 *
 * Check:  ./kit check 02     (builds, runs every variant on the public sizes, says what is wrong)
 * Read:   labs/02-naive-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats in row-major order on the device: element (i, j) of M is
 * Md[i*Width + j]. The harness fills Pd with NaN before each launch, so every element your grid
 * does not cover shows up. CUDA C only: no templates, no classes.
 */
#include "cuda_check.h"
#include "lab.h"

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
#line 25
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    /* The grid is rounded up, so the last blocks hold threads outside P: they do nothing. */
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } } } else {
#line 25
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    /* The grid is rounded up, so the last blocks hold threads outside P: they do nothing. */
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } }
#line 33
 }
}

/* ------------------------------------------------------------------ the launcher */

/* Task 2: enough 16 x 16 blocks to cover all of Pd: ceiling division, not floor. */
extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, BLOCK_WIDTH), ceil_div(Width, BLOCK_WIDTH), 1);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------ the device query */

/* Task 3: print what this GPU offers (BUG: the skeleton's stub, left as handed out). */
extern "C" void print_device_facts(FILE *out)
{  // BUG: differs from the solution here (the header says how)
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
