/* lab08-kit.h: the kit's side of lab 08 (convert.cu for lab.c): the BF16 copies of the inputs. */
#ifndef TILELAB_LAB08_KIT_H
#define TILELAB_LAB08_KIT_H

#ifdef __cplusplus
extern "C" {
#endif

#define TL08_WANT_NB 1  /* N as BF16, row-major k x n (WMMA)          */
#define TL08_WANT_NBT 2 /* N transposed, n x ldk (mma.sync, wgmma)    */

typedef struct tl08_bf16 {
    const unsigned short *Mb, *Nb, *Nbt; /* device; Nb or Nbt NULL when not asked for */
    int ldk;                             /* k rounded up to a multiple of 8            */
} tl08_bf16;

/* Converts d_M (always) and what `want` names; stream-ordered, does not wait. 0 or a cudaError_t. */
int tl08_bf16_inputs(const float *d_M, const float *d_N, int m, int k, int n, int want, tl08_bf16 *out);

#ifdef __cplusplus
}
#endif
#endif
