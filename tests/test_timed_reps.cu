/* test_timed_reps.cu: the GPU timer's per-repetition check (issue 24 item 4) run end to end on the
 * emulated GPU: device.cu's tl_gpu_case_time, its poison, its M scaling and its check kernel, with
 * an honest launcher and the three hostile ones of tests/hostile/03 (skip when asked again, launch
 * every other call, replay a remembered answer). The emulator's times mean nothing; what is tested is
 * which runs are refused and the words. */
#include <criterion/criterion.h>
#include <string.h>

#include "tilelab.h"

__global__ void naive_kernel(const float *M, const float *N, float *P, int m, int k, int n)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m && c < n) {
        float s = 0;
        for (int i = 0; i < k; ++i)
            s += M[r * k + i] * N[i * n + c];
        P[r * n + c] = s;
    }
}

static int launch(const float *M, const float *N, float *P, int m, int k, int n)
{
    dim3 b(16, 16), g((n + 15) / 16, (m + 15) / 16);
    naive_kernel<<<g, b>>>(M, N, P, m, k, n);
    return (int)cudaGetLastError();
}

static int honest(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return launch(M, N, P, m, k, n);
}

static int calls;   /* reset by each test's setup */

static int skip_repeated(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return calls++ ? 0 : launch(M, N, P, m, k, n);
}

static int every_other(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return calls++ % 2 ? 0 : launch(M, N, P, m, k, n);
}

static float *saved;
static int replay(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    size_t bytes = sizeof(float) * (size_t)m * n;
    if (calls++)
        return (int)cudaMemcpy(P, saved, bytes, cudaMemcpyDeviceToDevice);
    int rc = launch(M, N, P, m, k, n);
    if (rc == 0 && (rc = (int)cudaMalloc((void **)&saved, bytes)) == 0)
        rc = (int)cudaMemcpy(saved, P, bytes, cudaMemcpyDeviceToDevice);
    return rc;
}

/* Runs fn once (the checked run), then times it: the timer's return code, err its words. */
static int time_it(tl_launch_fn fn, char *err, size_t errlen)
{
    const int m = 24, k = 20, n = 28;
    tl_matrix M, N, P;
    cr_assert_eq(tl_matrix_alloc(&M, "M", m, k), 0);
    cr_assert_eq(tl_matrix_alloc(&N, "N", k, n), 0);
    cr_assert_eq(tl_matrix_alloc(&P, "P", m, n), 0);
    for (int i = 0; i < m * k; ++i)
        M.data[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < k * n; ++i)
        N.data[i] = (float)((i * 5) % 13) * 0.25f - 1.0f;
    tl_gpu_case gc;
    cr_assert_eq(tl_gpu_case_alloc(&gc, m, k, n, err, errlen), 0, "%s", err);
    cr_assert_eq(tl_gpu_case_upload(&gc, &M, &N, err, errlen), 0, "%s", err);
    calls = 0;
    saved = NULL;
    cr_assert_eq(tl_gpu_case_run(&gc, fn, NULL, &P, err, errlen), 0, "%s", err);
    tl_stats st;
    memset(&st, 0, sizeof st);
    int flushed = 0;
    err[0] = 0;
    int rc = tl_gpu_case_time(&gc, fn, NULL, 1, 4, &P, &st, &flushed, err, errlen);
    if (saved)
        cudaFree(saved);
    tl_gpu_case_free(&gc);
    tl_matrix_free(&M), tl_matrix_free(&N), tl_matrix_free(&P);
    return rc;
}

Test(timed_reps, an_honest_launcher_is_timed, .timeout = 300)
{
    char err[600];
    cr_assert_eq(time_it(honest, err, sizeof err), 0, "%s", err);
}

Test(timed_reps, a_launcher_that_skips_repeated_calls_is_refused, .timeout = 300)
{
    char err[600];
    cr_assert_eq(time_it(skip_repeated, err, sizeof err), 2, "%s", err);
    cr_assert(strstr(err, "the timed runs did not all do the whole work: repetition 1 left P unwritten"), "%s", err);
}

Test(timed_reps, a_launcher_that_launches_every_other_call_is_refused, .timeout = 300)
{
    char err[600];
    cr_assert_eq(time_it(every_other, err, sizeof err), 2, "%s", err);
    cr_assert(strstr(err, "left P unwritten"), "%s", err);
}

Test(timed_reps, a_launcher_that_replays_its_answer_is_refused, .timeout = 300)
{
    char err[600];
    cr_assert_eq(time_it(replay, err, sizeof err), 2, "%s", err);
    cr_assert(strstr(err, "is not the product of its inputs"), "%s", err);
}

/* device.cu keeps a freed case's buffers for the next case of the same dimensions, and the timed
 * check's buffers and events for the next timed request (a window's requests then make no driver
 * allocation): the next case gets the same allocations, and is poisoned, uploaded and checked as a
 * fresh one, so a launcher that skips work or replays an answer is refused on them all the same;
 * another size gets its own. */
Test(timed_reps, a_case_of_the_same_size_reuses_the_buffers_and_is_checked_as_a_fresh_one, .timeout = 300)
{
    char err[600];
    tl_gpu_case a, b;
    cr_assert_eq(tl_gpu_case_alloc(&a, 24, 20, 28, err, sizeof err), 0, "%s", err);
    float *pm = a.d_M, *pn = a.d_N, *pp = a.d_P;
    tl_gpu_case_free(&a);
    cr_assert_null(a.d_M, "a freed case still names its buffers");
    cr_assert_eq(tl_gpu_case_alloc(&b, 24, 20, 28, err, sizeof err), 0, "%s", err);
    cr_assert(b.d_M == pm && b.d_N == pn && b.d_P == pp, "a case of the same size did not get the kept buffers");
    tl_gpu_case_free(&b);
    cr_assert_eq(tl_gpu_case_alloc(&b, 24, 20, 30, err, sizeof err), 0, "%s", err);
    cr_assert_eq(b.n, 30);
    tl_gpu_case_free(&b);

    cr_assert_eq(time_it(honest, err, sizeof err), 0, "%s", err);
    cr_assert_eq(time_it(honest, err, sizeof err), 0, "timed again on the kept buffers: %s", err);
    cr_assert_eq(time_it(skip_repeated, err, sizeof err), 2, "%s", err);
    cr_assert(strstr(err, "left P unwritten"), "on kept buffers: %s", err);
    cr_assert_eq(time_it(replay, err, sizeof err), 2, "%s", err);
    cr_assert(strstr(err, "is not the product of its inputs"), "on kept buffers: %s", err);
    cr_assert_eq(time_it(honest, err, sizeof err), 0, "after the refused ones: %s", err);
}
