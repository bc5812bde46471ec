/* yardstick.h: cuBLAS SGEMM on the labs' row-major data, the yardstick labs 02 and 03 time
 * their kernels against (kit-owned; built only when cuBLAS is found, see labs/meson.build). */
#ifndef TILELAB_YARDSTICK_H
#define TILELAB_YARDSTICK_H

#ifdef __cplusplus
extern "C" {
#endif

/* A tl_launch_fn: P (m x n) = M (m x k) * N (k x n), row-major, FP32 (no TF32). */
int launch_cublas(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx);

#ifdef __cplusplus
}
#endif
#endif
