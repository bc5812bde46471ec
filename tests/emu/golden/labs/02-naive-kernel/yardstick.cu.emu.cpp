#line 1 "labs/02-naive-kernel/yardstick.cu"
/* yardstick.cu: cuBLAS SGEMM as a variant of labs 02 and 03 (kit-owned, not a student file).
 *
 * Build:  part of lab02 / lab03 when cuBLAS is found at configure time (meson's summary says so);
 *         without it the 'cublas' variant is simply absent from the lab's table.
 * Run:    build/labs/02-naive-kernel/lab02 --variants naive,cublas --sizes 4096
 *
 * cuBLAS is column-major; our matrices are row-major. A row-major X is the column-major X^T,
 * so we ask cuBLAS for P^T = N^T * M^T: the operands swap places, nothing is transposed in
 * memory, and the leading dimension of each is its row-major row length.
 * The math mode stays CUBLAS_DEFAULT_MATH: plain FP32, no TF32 tensor cores (TF32 would fail
 * the kit's FP32 error bound, and it would not be the same arithmetic as the students'). */
#include <stdlib.h>

#include <cublas_v2.h>

#include "cuda_check.h"
#include "yardstick.h"

static cublasHandle_t handle;   /* made on first use, lives until the process ends */

static const char *status_name(cublasStatus_t st)
{
    switch (st) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "CUBLAS_STATUS_(other)";
    }
}

static void destroy_handle(void)
{
    if (handle)
        cublasDestroy(handle);
    handle = NULL;
}

extern "C" int launch_cublas(const float *d_M, const float *d_N, float *d_P, int m, int k, int n,
                             const void *ctx)
{
    (void)ctx;
    cublasStatus_t st;
    if (!handle) {
        if ((st = cublasCreate(&handle)) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "yardstick.cu: cublasCreate failed: %s\n", status_name(st));
            return (int)cudaErrorUnknown;
        }
        cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
        atexit(destroy_handle);
    }
    const float alpha = 1.0f, beta = 0.0f;
    /* Column-major: P^T (n x m) = N^T (n x k) * M^T (k x m); ld = row lengths n, k, n. */
    st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, d_N, n, d_M, k, &beta, d_P, n);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "yardstick.cu: cublasSgemm(%d x %d x %d) failed: %s\n", m, k, n, status_name(st));
        return (int)cudaErrorLaunchFailure;
    }
    return (int)cudaGetLastError();
}
