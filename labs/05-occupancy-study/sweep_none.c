/* sweep_none.c: lab 05's sweep in a build without CUDA (kit-owned). The calculator (part A)
 * still runs; every GPU entry point says that there is no CUDA. */
#include <stdio.h>
#include <string.h>

#include "lab.h"

int tl_sweep_kernel_count(void)
{
    return 0;
}

int tl_sweep_config_count(void)
{
    return 0;
}

void tl_sweep_config_get(int i, tl_sweep_config *c)
{
    (void)i;
    memset(c, 0, sizeof *c);
}

int tl_sweep_device(tl_occ_device *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    snprintf(err, errlen, "this build has no CUDA");
    return -1;
}

int tl_sweep_api(int kern, int block_threads, int dyn_smem, int *regs, int *static_smem,
                 int *max_threads, int *api_blocks, char *err, size_t errlen)
{
    (void)kern; (void)block_threads; (void)dyn_smem;
    *regs = *static_smem = *max_threads = *api_blocks = 0;
    snprintf(err, errlen, "this build has no CUDA");
    return -1;
}

int tl_sweep_launch(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)d_M; (void)d_N; (void)d_P; (void)m; (void)k; (void)n; (void)ctx;
    return 35;   /* cudaErrorInsufficientDriver: no usable CUDA device */
}
