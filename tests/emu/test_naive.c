/* test_naive.c: the lecture's naive kernel, emulated, gives the reference result at ragged sizes and
 * in every thread order. */
#include "emu_test.h"

cudaError_t launch_naive(float *d_M, float *d_N, float *d_P, int Width);

static void assert_correct(int w) {
    cudaError_t err;
    int wrong = run_gemm(launch_naive, w, 42, &err);
    cr_assert_eq(err, cudaSuccess, "Width %d: CUDA error %s", w, cudaGetErrorName(err));
    cr_assert_eq(wrong, 0, "Width %d: %d wrong elements", w, wrong);
}

Test(naive, matches_the_reference_at_ragged_sizes, .timeout = 60) {
    int sizes[] = {1, 15, 16, 17, 63, 100};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) assert_correct(sizes[i]);
}

Test(naive, matches_in_reverse_and_random_thread_order, .timeout = 60) {
    tl_emu_set_order(1, 0);
    assert_correct(33);
    tl_emu_set_order(2, 12345);
    assert_correct(33);
}

Test(naive, matches_on_one_worker_and_on_several, .timeout = 60) {
    tl_emu_set_threads(1);
    assert_correct(48);
    tl_emu_set_threads(3);
    assert_correct(48);
}
