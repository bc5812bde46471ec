/* lab.h: what lab 08's student files provide (kit-owned; do not edit). Included by the student's .cu
 * files (CUDA C) and by lab.c (C11), hence the C linkage.
 *
 * The inputs. The harness makes M (m x k) and N (k x n) in FP32. The kit (lab.c, convert.cu) makes
 * the copies the tensor-core parts read, outside the student's code:
 *   Mb   m x ldk  BF16, row-major: M rounded to nearest even, columns k..ldk-1 zero
 *   Nb   k x n    BF16, row-major: N rounded to nearest even                      (part a, BF16)
 *   Nbt  n x ldk  BF16, row-major: N transposed ("K-major"), columns k..ldk-1 zero (parts b, c)
 * with ldk = k rounded up to a multiple of 8 (16 bytes: what TMA and ldmatrix need of a row).
 * BF16 travels as its 16 bits (unsigned short) so that C code can hold it; kernels read it as
 * __nv_bfloat16. The output P (m x n) is FP32, row-major, as in every lab: accumulate in FP32, store
 * FP32 (the lab's choice: the checker sees every bit the tensor cores produced). Pd arrives filled
 * with NaN (the harness's poison, so an element never stored is seen): set every element of P, never
 * read it or add to it (common/cuda_check.h says why).
 * Each launcher returns the launch's cudaError_t as an int and does not wait. */
#ifndef TILELAB_LAB08_H
#define TILELAB_LAB08_H

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned short tl_bf16_bits; /* one BF16 value, its 16 bits */

/* ------------------------------------------------------------------ wmma.cu (part a) */
/* TF32 m16n16k8: reads the FP32 inputs, rounds them to TF32 in the fragments (__float_to_tf32). */
int launch_wmma_tf32(const float *Md, const float *Nd, float *Pd, int m, int k, int n);
/* BF16 m16n16k16: reads Mb (ld ldk) and Nb (ld n). */
int launch_wmma_bf16(const tl_bf16_bits *Mb, const tl_bf16_bits *Nb, float *Pd, int m, int k, int n, int ldk);

/* ------------------------------------------------------------------ mma.cu (part b) */
/* mma.sync m16n8k16 BF16, operands through ldmatrix from a swizzled shared tile: Mb and Nbt. */
int launch_mma_bf16(const tl_bf16_bits *Mb, const tl_bf16_bits *Nbt, float *Pd, int m, int k, int n, int ldk);

/* ------------------------------------------------------------------ wgmma.cu (part c, sm_90a only) */
/* wgmma m64nNk16 fed by TMA through an mbarrier pipeline: Mb and Nbt. Built only for sm_90a; on any
 * other GPU it returns cudaErrorInvalidDeviceFunction without launching. */
int launch_wgmma_bf16(const tl_bf16_bits *Mb, const tl_bf16_bits *Nbt, float *Pd, int m, int k, int n, int ldk);

#ifdef __cplusplus
}
#endif
#endif
