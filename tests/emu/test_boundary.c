/* test_boundary.c: the boundary-handling tiled kernel gives the reference result at sizes that are
 * not multiples of the tile, in every order, without a diagnostic. */
#include "emu_test.h"

cudaError_t launch_boundary(float *d_M, float *d_N, float *d_P, int Width);

static void assert_correct(int w) {
    cudaError_t err;
    int wrong = run_gemm(launch_boundary, w, 11, &err);
    cr_assert_eq(err, cudaSuccess, "Width %d: CUDA error %s", w, cudaGetErrorName(err));
    cr_assert_eq(wrong, 0, "Width %d: %d wrong elements", w, wrong);
    cr_assert_eq(tl_emu_last_diagnostic(NULL, 0), 0, "Width %d: a correct kernel raised a diagnostic", w);
}

Test(boundary, matches_the_reference_at_ragged_sizes, .timeout = 120) {
    int sizes[] = {1, 2, 15, 16, 17, 31, 33, 100, 129};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) assert_correct(sizes[i]);
}

Test(boundary, matches_in_reverse_and_random_order, .timeout = 60) {
    tl_emu_set_order(1, 0);
    assert_correct(50);
    tl_emu_set_order(2, 77);
    assert_correct(50);
}
