/* tests/gpu/scale-probe.cu: one process's piece of GPU work, for tests/gpu/scale-diag.sh (issue 29).
 *
 * How the pieces a graded lab 03 submission's processes do (a CUDA context, device buffers per
 * case, pageable copies, small kernels) scale when N processes do them at once on one GPU.
 * Usage: scale-probe MODE REPS [SIZE]
 *   ctx            start CUDA (a context) and quit: REPS is ignored
 *   alloc          REPS times: three cudaMalloc of SIZE^2 floats, then their cudaFree
 *   case           REPS times: alloc, two pageable copies in, a multiply kernel, one copy out, free
 *   keep           as case, the three buffers allocated once for every rep (the buffers kept)
 *   kernels        one 64^2 case's buffers, then REPS small launches each waited for
 *   hold           a context made, then REPS seconds asleep: a resident context (scale-diag RESIDENT)
 * Prints one line: mode, wall seconds, user and sys CPU seconds of this process. Exit 0, 1 on a
 * CUDA error (named), 2 on usage.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "scale-probe: %s: %s\n", #x, cudaGetErrorString(e_));          \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

__global__ void mm(const float *M, const float *N, float *P, int w)
{
    __shared__ float a[16][16], b[16][16];
    int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
    float s = 0;
    for (int p = 0; p < w / 16; ++p) {
        a[threadIdx.y][threadIdx.x] = M[r * w + p * 16 + threadIdx.x];
        b[threadIdx.y][threadIdx.x] = N[(p * 16 + threadIdx.y) * w + c];
        __syncthreads();
        for (int k = 0; k < 16; ++k) s += a[threadIdx.y][k] * b[k][threadIdx.x];
        __syncthreads();
    }
    P[r * w + c] = s;
}

static void one_case(float *h, float *dM, float *dN, float *dP, int w)
{
    size_t b = sizeof(float) * (size_t)w * w;
    CK(cudaMemcpy(dM, h, b, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dN, h, b, cudaMemcpyHostToDevice));
    mm<<<dim3(w / 16, w / 16), dim3(16, 16)>>>(dM, dN, dP, w);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, dP, b, cudaMemcpyDeviceToHost));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: scale-probe ctx|alloc|case|keep|kernels|hold REPS [SIZE]\n");
        return 2;
    }
    const char *mode = argv[1];
    int reps = atoi(argv[2]), w = argc > 3 ? atoi(argv[3]) : 1024;
    if (reps < 1 || w < 16 || w % 16) {
        fprintf(stderr, "scale-probe: REPS >= 1 and SIZE a multiple of 16, please\n");
        return 2;
    }
    double t0 = now();
    CK(cudaFree(0));
    size_t b = sizeof(float) * (size_t)w * w;
    float *h = NULL, *dM = NULL, *dN = NULL, *dP = NULL;
    if (!strcmp(mode, "case") || !strcmp(mode, "keep") || !strcmp(mode, "kernels")) {
        h = (float *)malloc(b);
        if (!h) return fprintf(stderr, "scale-probe: out of memory\n"), 1;
        for (size_t i = 0; i < (size_t)w * w; ++i) h[i] = (float)(i % 7) * 0.25f;
    }
    if (!strcmp(mode, "alloc") || !strcmp(mode, "case")) {
        for (int r = 0; r < reps; ++r) {
            CK(cudaMalloc(&dM, b));
            CK(cudaMalloc(&dN, b));
            CK(cudaMalloc(&dP, b));
            if (h) one_case(h, dM, dN, dP, w);
            CK(cudaFree(dM));
            CK(cudaFree(dN));
            CK(cudaFree(dP));
        }
    } else if (!strcmp(mode, "keep")) {
        CK(cudaMalloc(&dM, b));
        CK(cudaMalloc(&dN, b));
        CK(cudaMalloc(&dP, b));
        for (int r = 0; r < reps; ++r) one_case(h, dM, dN, dP, w);
    } else if (!strcmp(mode, "kernels")) {
        CK(cudaMalloc(&dM, b));
        CK(cudaMalloc(&dN, b));
        CK(cudaMalloc(&dP, b));
        for (int r = 0; r < reps; ++r) {
            mm<<<dim3(w / 16, w / 16), dim3(16, 16)>>>(dM, dN, dP, w);
            CK(cudaDeviceSynchronize());
        }
    } else if (!strcmp(mode, "hold")) {
        struct timespec ts = {reps, 0};
        nanosleep(&ts, NULL);
    } else if (strcmp(mode, "ctx") != 0) {
        fprintf(stderr, "scale-probe: unknown mode %s (ctx, alloc, case, keep, kernels, hold)\n", mode);
        return 2;
    }
    double t1 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%s %.3f %.3f %.3f\n", mode, t1 - t0, ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec,
           ru.ru_stime.tv_sec + 1e-6 * ru.ru_stime.tv_usec);
    free(h);
    return 0;
}
