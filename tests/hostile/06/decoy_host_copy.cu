/* hostile/06/decoy_host_copy.cu (issue 24 item 3, lab 06's work rule): every launcher computes P on the
 * host (M and N copied back, a triple loop) and launches one kernel that reads each element of M and N
 * once (so "P not computed by the kernel" passes: every input loaded, every element of P stored) and
 * copies the host's product into P. Right everywhere, no tile. Expected: no correctness credit, the
 * headline "P not computed from the tiles" (no shared load at all). */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

/* The product on the host, put on the device: every launcher's first step. */
static float *host_product(const float *Md, const float *Nd, int m, int k, int n)
{
    float *M = (float *)malloc((size_t)m * k * sizeof(float)), *N = (float *)malloc((size_t)k * n * sizeof(float)),
          *P = (float *)malloc((size_t)m * n * sizeof(float)), *A = NULL;
    cudaMemcpy(M, Md, (size_t)m * k * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(N, Nd, (size_t)k * n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int q = 0; q < k; ++q)
                s += M[(size_t)i * k + q] * N[(size_t)q * n + j];
            P[(size_t)i * n + j] = s;
        }
    cudaMalloc((void **)&A, (size_t)m * n * sizeof(float));
    cudaMemcpy(A, P, (size_t)m * n * sizeof(float), cudaMemcpyHostToDevice);
    free(M);
    free(N);
    free(P);
    return A;
}

/* One thread an element of P; the first m k threads also read one element of M, the first k n one of N. */
__global__ void CopyKernel(const float *Md, const float *Nd, const float *A, float *Pd, int m, int k, int n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    float sink = 0;
    if (i < (long long)m * k) sink += Md[i];
    if (i < (long long)k * n) sink += Nd[i];
    if (i < (long long)m * n) Pd[i] = A[i] + sink * 0.0f;
}

static int launch(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    float *A = host_product(Md, Nd, m, k, n);
    long long most = (long long)m * n;
    if ((long long)m * k > most) most = (long long)m * k;
    if ((long long)k * n > most) most = (long long)k * n;
    CopyKernel<<<(unsigned)((most + 255) / 256), 256>>>(Md, Nd, A, Pd, m, k, n);
    cudaDeviceSynchronize();
    cudaFree(A);
    return (int)cudaGetLastError();
}

extern "C" int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
