/* cublas_v2.h: tilelab emulation mode shim. cuBLAS does not run under emulation; this header lets a
 * file that includes it (and does not call it) build. A call fails at build time, naming the function. */
#ifndef TL_EMU_CUBLAS_V2_H
#define TL_EMU_CUBLAS_V2_H
#include "tl_emu.h"

typedef struct tl_emu_cublas_ctx *cublasHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_NOT_SUPPORTED = 15 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;

#define TL_EMU_NO_CUBLAS(f) \
    __attribute__((error("not supported under emulation: " #f " (cuBLAS needs a GPU); check this code on a GPU or build without it")))
#ifdef __cplusplus
extern "C" {
#endif
TL_EMU_NO_CUBLAS(cublasCreate) cublasStatus_t cublasCreate(cublasHandle_t *handle);
TL_EMU_NO_CUBLAS(cublasDestroy) cublasStatus_t cublasDestroy(cublasHandle_t handle);
TL_EMU_NO_CUBLAS(cublasSetStream) cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t s);
TL_EMU_NO_CUBLAS(cublasSgemm) cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
    int m, int n, int k, const float *alpha, const float *A, int lda, const float *B, int ldb, const float *beta, float *C, int ldc);
TL_EMU_NO_CUBLAS(cublasDgemm) cublasStatus_t cublasDgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
    int m, int n, int k, const double *alpha, const double *A, int lda, const double *B, int ldb, const double *beta, double *C, int ldc);
#ifdef __cplusplus
}
#endif
#endif
