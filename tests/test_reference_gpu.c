/* test_reference_gpu.c: the grader's GPU reference (common/reference_gpu.cu) gives the CPU
 * reference's bits (common/reference.c), element by element, on ragged sizes; skipped, with the
 * reason, where this build or host has no CUDA device. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"

/* 1 when why says there is no device to try (the only reason to skip, never a CUDA error). */
static int no_device(const char *why)
{
    return strstr(why, "no usable CUDA device") || strstr(why, "this build has no CUDA");
}

/* The CPU and GPU references of M (m x k) and N (k x n); fails on the first differing bit. */
static void assert_same_bits(const tl_matrix *M, const tl_matrix *N, int m, int k, int n)
{
    size_t cnt = (size_t)m * n;
    double *cref = malloc(cnt * sizeof(double)), *cabs = malloc(cnt * sizeof(double));
    double *gref = malloc(cnt * sizeof(double)), *gabs = malloc(cnt * sizeof(double));
    cr_assert(cref && cabs && gref && gabs, "out of memory for %dx%dx%d", m, k, n);
    memset(gref, 0xA5, cnt * sizeof(double));
    memset(gabs, 0xA5, cnt * sizeof(double));
    char why[200];
    if (tl_reference_gemm_gpu(M->data, N->data, gref, gabs, m, k, n, why, sizeof why) != 0) {
        if (no_device(why))
            cr_skip_test("no GPU reference here: %s", why);
        cr_assert_fail("%dx%dx%d: the GPU reference failed: %s", m, k, n, why);
    }
    tl_reference_gemm(M->data, N->data, cref, cabs, m, k, n);
    for (size_t e = 0; e < cnt; ++e) {
        cr_assert(memcmp(&cref[e], &gref[e], sizeof(double)) == 0,
                  "%dx%dx%d: ref[%zu, %zu] is %.17g on the GPU, expected the CPU's %.17g",
                  m, k, n, e / n, e % n, gref[e], cref[e]);
        cr_assert(memcmp(&cabs[e], &gabs[e], sizeof(double)) == 0,
                  "%dx%dx%d: absref[%zu, %zu] is %.17g on the GPU, expected the CPU's %.17g",
                  m, k, n, e / n, e % n, gabs[e], cabs[e]);
    }
    free(cref); free(cabs); free(gref); free(gabs);
}

static void random_case(int m, int k, int n, uint64_t seed)
{
    tl_matrix M, N;
    cr_assert_eq(tl_matrix_alloc(&M, "M", m, k), 0);
    cr_assert_eq(tl_matrix_alloc(&N, "N", k, n), 0);
    tl_matrix_fill_random(&M, seed, 1);
    tl_matrix_fill_random(&N, seed, 2);
    assert_same_bits(&M, &N, m, k, n);
    tl_matrix_free(&M);
    tl_matrix_free(&N);
}

/* Every dimension off the kernel's 32-wide tiles, and the degenerate shapes (a row, a column,
 * k 1), then one size the grader really sends to the GPU (above TL_REF_GPU_WORK). */
Test(reference_gpu, gives_the_cpu_bits_on_ragged_sizes, .timeout = 120)
{
    static const int sizes[][3] = {
        {1, 1, 1}, {1, 300, 7}, {7, 300, 1}, {33, 1, 65}, {31, 33, 97}, {257, 129, 300},
        {1000, 17, 1}, {64, 64, 64}, {65, 1025, 63}, {100, 2049, 95}, {1023, 1000, 1025},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        random_case(sizes[i][0], sizes[i][1], sizes[i][2], 1000 + i);
}

Test(reference_gpu, gives_the_cpu_bits_on_a_size_the_grader_sends_to_the_gpu, .timeout = 300)
{
    cr_assert_geq(1601.0 * 1601 * 1601, TL_REF_GPU_WORK, "the size below no longer reaches the GPU path");
    random_case(1601, 1601, 1601, 7);
}

/* Zeros of both signs: +0 + (-0) is +0, so a kernel that added padding terms or started from -0
 * would differ here in the sign bit; products of huge and tiny floats stay exact in double. */
Test(reference_gpu, gives_the_cpu_signed_zeros_and_extreme_products, .timeout = 60)
{
    int m = 37, k = 45, n = 33;
    tl_matrix M, N;
    cr_assert_eq(tl_matrix_alloc(&M, "M", m, k), 0);
    cr_assert_eq(tl_matrix_alloc(&N, "N", k, n), 0);
    tl_matrix_fill_random(&M, 5, 1);
    tl_matrix_fill_random(&N, 5, 2);
    for (int i = 0; i < m * k; ++i)
        if (i % 3 == 0)
            M.data[i] = (i % 2) ? -0.0f : 0.0f;
        else if (i % 7 == 0)
            M.data[i] *= 3e38f;
    for (int i = 0; i < k * n; ++i)
        if (i % 5 == 0)
            N.data[i] = -0.0f;
        else if (i % 11 == 0)
            N.data[i] *= 1e-38f;
    for (int p = 0; p < k; ++p)       /* row 0 of M all zeros: so is row 0 of P */
        M.data[p] = -0.0f;
    assert_same_bits(&M, &N, m, k, n);
    tl_matrix_free(&M);
    tl_matrix_free(&N);
}

Test(reference_gpu, refuses_an_empty_size_and_says_why, .timeout = 10)
{
    float one = 1.0f;
    double r, a;
    char why[200] = "unchanged";
    cr_assert_eq(tl_reference_gemm_gpu(&one, &one, &r, &a, 0, 1, 1, why, sizeof why), -1);
    cr_assert(why[0] && strcmp(why, "unchanged") != 0, "no reason given for refusing 0x1x1");
}
