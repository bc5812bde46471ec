/* reference.c: the double-precision reference product and the scale of its rounding error.
 *
 * Loop order i-k-j walks both N and the result row in memory order; accumulating in double
 * makes the reference exact to ~1e-16 relative, far below float32's error. Large products
 * (Width 4096 is 6.9e10 multiply-adds) are split by rows over the host's cores; each row is
 * computed the same way whatever the split, so the result does not depend on the thread count. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "tilelab.h"

#define TL_REF_MAX_THREADS 32       /* host threads for one reference product          */
#define TL_REF_THREAD_WORK 1e7      /* multiply-adds below which one thread is faster   */

typedef struct ref_job {
    const float *M, *N;
    double *ref, *absref;
    int row0, row1, k, n;
} ref_job;

static void ref_rows(const ref_job *j)
{
    int k = j->k, n = j->n;
    for (int i = j->row0; i < j->row1; ++i) {
        double *r = j->ref + (size_t)i * n;
        double *a = j->absref + (size_t)i * n;
        memset(r, 0, sizeof(double) * (size_t)n);
        memset(a, 0, sizeof(double) * (size_t)n);
        for (int p = 0; p < k; ++p) {
            double mv = j->M[(size_t)i * k + p];
            double am = fabs(mv);
            const float *nrow = j->N + (size_t)p * n;
            for (int c = 0; c < n; ++c) {
                r[c] += mv * nrow[c];
                a[c] += am * fabs((double)nrow[c]);
            }
        }
    }
}

static void *ref_thread(void *arg)
{
    ref_rows(arg);
    return NULL;
}

void tl_reference_gemm(const float *M, const float *N, double *ref, double *absref,
                       int m, int k, int n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = 1;
    if ((double)m * k * n > TL_REF_THREAD_WORK && cores > 1)
        nt = cores > TL_REF_MAX_THREADS ? TL_REF_MAX_THREADS : (int)cores;
    if (nt > m)
        nt = m;
    ref_job jobs[TL_REF_MAX_THREADS];
    pthread_t tid[TL_REF_MAX_THREADS];
    int started[TL_REF_MAX_THREADS] = {0};
    for (int t = 0; t < nt; ++t) {
        jobs[t] = (ref_job){M, N, ref, absref, (int)((long)m * t / nt), (int)((long)m * (t + 1) / nt), k, n};
        if (t > 0)
            started[t] = pthread_create(&tid[t], NULL, ref_thread, &jobs[t]) == 0;
    }
    ref_rows(&jobs[0]);
    for (int t = 1; t < nt; ++t) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            ref_rows(&jobs[t]);   /* no thread to be had: do its rows here */
    }
}
