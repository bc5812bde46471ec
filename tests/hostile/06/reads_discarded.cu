/* hostile/06/reads_discarded.cu (issue 24 item 3, red team): step (b)'s kernel in every access it
 * makes (a 128 x 128 block tile, phases of 8 staged in shared memory, each thread reading 8 values of
 * M's tile and 8 of N's into registers per step, 0.25 shared loads per multiply-add) whose register
 * values are summed into a sink and thrown away: the outputs are copied from a product computed on
 * the host, which read M and N back from the device. Every count the emulator keeps looks like the
 * lab's kernel. Expected: no correctness credit (the launcher read the device's M and N back, then
 * copied to the device and launched: the guarded device's host round trips, 'P was computed on the
 * host'; tests/hostile/expected.txt). */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

#define BM 128
#define BN 128
#define BK 8

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

__global__ void __launch_bounds__(256) RegTileKernel(const float *Md, const float *Nd, const float *A, float *Pd,
                                                     int m, int k, int n)
{
    __shared__ float Ms[BK][BM];
    __shared__ float Ns[BK][BN];
    int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    float sink = 0;
    for (int p = 0; p < (k + BK - 1) / BK; ++p) {
        for (int e = tid; e < BK * BM; e += 256) {   /* M's tile (transposed) and N's tile, guarded */
            int r = e / BK, c = e % BK, gr = rowBase + r, gc = p * BK + c;
            Ms[c][r] = gr < m && gc < k ? Md[(size_t)gr * k + gc] : 0.0f;
            int nr = e / BN, nc = e % BN, gnr = p * BK + nr, gnc = colBase + nc;
            Ns[nr][nc] = gnr < k && gnc < n ? Nd[(size_t)gnr * n + gnc] : 0.0f;
        }
        __syncthreads();
        for (int kk = 0; kk < BK; ++kk)             /* the register tile's reads, summed and dropped */
            for (int i = 0; i < 8; ++i)
                sink += Ms[kk][ty * 8 + i] + Ns[kk][tx * 8 + i];
        __syncthreads();
    }
    for (int i = 0; i < 8; ++i)           /* the thread's 8 x 8 outputs, from the host's product */
        for (int j = 0; j < 8; ++j) {
            int r = rowBase + ty * 8 + i, c = colBase + tx * 8 + j;
            if (r < m && c < n)
                Pd[(size_t)r * n + c] = A[(size_t)r * n + c] + sink * 0.0f;
        }
}

static int launch(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    float *A = host_product(Md, Nd, m, k, n);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    RegTileKernel<<<grid, 256>>>(Md, Nd, A, Pd, m, k, n);
    cudaDeviceSynchronize();
    cudaFree(A);
    return (int)cudaGetLastError();
}

extern "C" int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
