/* test_tiled.c: the lecture's tiled kernel (Width a multiple of TILE_WIDTH) gives the reference
 * result with and without race checking, raises no diagnostic, and a block of 33 x 33 threads is
 * refused as on a GPU. */
#include "emu_test.h"

cudaError_t launch_tiled(float *d_M, float *d_N, float *d_P, int Width);
cudaError_t launch_tiled_shape(float *d_M, float *d_N, float *d_P, int Width, int bx, int by, int gx, int gy);

static void assert_correct(int w) {
    cudaError_t err;
    int wrong = run_gemm(launch_tiled, w, 3, &err);
    cr_assert_eq(err, cudaSuccess, "Width %d: CUDA error %s", w, cudaGetErrorName(err));
    cr_assert_eq(wrong, 0, "Width %d: %d wrong elements", w, wrong);
    cr_assert_eq(tl_emu_last_diagnostic(NULL, 0), 0, "a correct kernel raised a diagnostic");
}

Test(tiled, matches_the_reference_with_race_checking, .timeout = 60) {
    tl_emu_set_race_check(1);
    assert_correct(16);
    assert_correct(64);
    assert_correct(128);
}

Test(tiled, matches_the_reference_without_race_checking, .timeout = 60) {
    tl_emu_set_race_check(0);
    assert_correct(128);
}

Test(tiled, matches_in_every_thread_order_on_several_workers, .timeout = 60) {
    tl_emu_set_threads(2);
    for (int mode = 0; mode < 3; mode++) {
        tl_emu_set_order(mode, 99);
        assert_correct(64);
    }
}

static float *d_M, *d_N, *d_P;
static void alloc3(void) {
    cr_assert_eq(cudaMalloc((void **)&d_M, 64 * 64 * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_N, 64 * 64 * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_P, 64 * 64 * 4), cudaSuccess);
}

static int launch_33x33(void *arg) {
    (void)arg;
    alloc3();
    cudaError_t e = launch_tiled_shape(d_M, d_N, d_P, 64, 33, 33, 2, 2);
    fprintf(stderr, "RESULT launch=%s after=%s sync=%s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()),
            cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}

Test(tiled, a_33x33_block_is_an_invalid_configuration, .timeout = 30) {
    child_result r;
    run_child(launch_33x33, NULL, &r);
    cr_assert(r.exited && r.code == 0, "child failed:\n%s", r.err);
    assert_has(r.err, "tilelab-emu: invalid-launch: MatrixMulKernel<<<(2,2,1), (33,33,1), 0>>> at tiled.cu:");
    assert_has(r.err, "33 x 33 x 1 = 1089 threads exceeds the H100 SXM (emulated) limit of 1024 threads per block");
    /* Not sticky: the next cudaGetLastError() is clean, and cudaDeviceSynchronize() never saw it. */
    assert_has(r.err, "RESULT launch=cudaErrorInvalidConfiguration after=cudaSuccess sync=cudaSuccess");
}

static int launch_zero_grid(void *arg) {
    (void)arg;
    alloc3();
    cudaError_t e = launch_tiled_shape(d_M, d_N, d_P, 64, 16, 16, 0, 4);
    fprintf(stderr, "RESULT launch=%s\n", cudaGetErrorName(e));
    return 0;
}

Test(tiled, an_empty_grid_is_an_invalid_configuration, .timeout = 30) {
    child_result r;
    run_child(launch_zero_grid, NULL, &r);
    assert_has(r.err, "tilelab-emu: invalid-launch:");
    assert_has(r.err, "grid (0,4,1) has a dimension of 0");
    assert_has(r.err, "RESULT launch=cudaErrorInvalidConfiguration");
}

static int launch_z65(void *arg) {
    (void)arg;
    alloc3();
    cudaError_t e = launch_tiled_shape(d_M, d_N, d_P, 64, 1, 1, 1, 70000);
    fprintf(stderr, "RESULT launch=%s\n", cudaGetErrorName(e));
    return 0;
}

Test(tiled, a_grid_over_the_y_limit_is_an_invalid_configuration, .timeout = 30) {
    child_result r;
    run_child(launch_z65, NULL, &r);
    assert_has(r.err, "grid (1,70000,1) exceeds the H100 SXM (emulated) limits of 2147483647 x 65535 x 65535");
    assert_has(r.err, "RESULT launch=cudaErrorInvalidConfiguration");
}

/* The counters the grader reads: the tiled kernel at Width 64, TILE_WIDTH 16 loads each input element
 * Width/TILE_WIDTH times from global memory (2/TILE_WIDTH loads per multiply-add) and twice per
 * multiply-add from shared memory (counted when asked: tl_emu_set_count_shared). Without asking, shared
 * accesses are not counted. */
Test(tiled, counts_its_global_and_shared_accesses, .timeout = 60) {
    tl_emu_set_count_shared(0);
    tl_emu_counters_reset();
    assert_correct(64);
    tl_emu_counters c0;
    tl_emu_counters_get(&c0);
    cr_assert_eq(c0.shared_loads, 0);
    cr_assert_eq(c0.global_stores, 64 * 64);
    tl_emu_set_count_shared(1);
    for (int rc = 0; rc <= 1; rc++) {
        tl_emu_set_race_check(rc);
        tl_emu_counters_reset();
        assert_correct(64);
        tl_emu_counters c;
        tl_emu_counters_get(&c);
        const unsigned long long w = 64, macs = w * w * w;
        cr_assert_eq(c.launches, 1);
        cr_assert_eq(c.blocks, 16);
        cr_assert_eq(c.threads, w * w);
        cr_assert_eq(c.global_loads, 2 * macs / 16, "global loads %llu, expected %llu", c.global_loads, 2 * macs / 16);
        cr_assert_eq(c.global_stores, w * w);
        cr_assert_eq(c.shared_loads, 2 * macs, "shared loads %llu, expected %llu", c.shared_loads, 2 * macs);
        cr_assert_eq(c.shared_stores, 2 * w * w * (w / 16));
        cr_assert_eq(c.unchecked_launches, rc ? 0u : 1u);
    }
}
