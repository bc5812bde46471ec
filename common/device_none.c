/* device_none.c: the device part of the harness in a build without CUDA.
 * Every GPU entry point reports "no usable CUDA device" cleanly. */
#include <string.h>

#include "tilelab.h"

int tl_device_facts(tl_facts *f, char *why, size_t whylen)
{
    memset(f, 0, sizeof *f);
    snprintf(why, whylen, "this build has no CUDA (nvcc was not found when it was configured: run ./kit doctor)");
    return -1;
}

int tl_have_cuda_build(void)
{
    return 0;
}

int tl_device_query(tl_device_info *info)
{
    memset(info, 0, sizeof *info);
    snprintf(info->why, sizeof info->why,
             "this build has no CUDA (nvcc was not found when it was configured: run ./kit doctor)");
    return -1;
}

void tl_device_print(const tl_device_info *info, FILE *out)
{
    fprintf(out, "no usable CUDA device: %s\n", info->why);
}

static int no_cuda(char *err, size_t errlen)
{
    snprintf(err, errlen, "no usable CUDA device: this build has no CUDA");
    return -1;
}

void tl_gpu_set_exact_alloc(int on)
{
    (void)on;
}

int tl_gpu_case_alloc(tl_gpu_case *c, int m, int k, int n, char *err, size_t errlen)
{
    (void)m; (void)k; (void)n;
    memset(c, 0, sizeof *c);
    return no_cuda(err, errlen);
}

void tl_gpu_case_free(tl_gpu_case *c)
{
    memset(c, 0, sizeof *c);
}

int tl_gpu_case_upload(tl_gpu_case *c, const tl_matrix *M, const tl_matrix *N, char *err, size_t errlen)
{
    (void)c; (void)M; (void)N;
    return no_cuda(err, errlen);
}

int tl_gpu_case_run(tl_gpu_case *c, tl_launch_fn fn, const void *ctx, tl_matrix *P, char *err, size_t errlen)
{
    (void)c; (void)fn; (void)ctx; (void)P;
    return no_cuda(err, errlen);
}

int tl_gpu_case_time(tl_gpu_case *c, tl_launch_fn fn, const void *ctx, int warmup, int reps,
                     const tl_matrix *checked, tl_stats *st, int *l2_flushed, char *err, size_t errlen)
{
    (void)c; (void)fn; (void)ctx; (void)warmup; (void)reps; (void)checked; (void)st; (void)l2_flushed;
    return no_cuda(err, errlen);
}

void tl_gpu_mark_request(int seq)
{
    (void)seq;
}
