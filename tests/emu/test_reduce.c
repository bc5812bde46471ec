/* test_reduce.c: dynamic shared memory (extern __shared__) and a __shared__ scalar work, the dynamic
 * size is checked, and thread order is what TL_EMU_ORDER / tl_emu_set_order say. */
#include "emu_test.h"

cudaError_t launch_block_sum(const float *d_in, float *d_out, int n, int threads);
cudaError_t launch_last_writer(int *d_out, int blocks, int threads);

Test(reduce, block_sums_through_extern_shared_memory_are_exact, .timeout = 60) {
    int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    float in[1000], out[8];
    for (int i = 0; i < n; i++) in[i] = (float)(i % 17);
    float *d_in, *d_out;
    cr_assert_eq(cudaMalloc((void **)&d_in, sizeof in), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_out, sizeof out), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice), cudaSuccess);
    cudaError_t e = launch_block_sum(d_in, d_out, n, threads);
    cr_assert_eq(e, cudaSuccess, "launch: %s", cudaGetErrorName(e));
    cr_assert_eq(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < blocks; b++) {
        float want = 0;
        for (int i = b * threads; i < n && i < (b + 1) * threads; i++) want += in[i];
        cr_assert_float_eq(out[b], want, 0.0f, "block %d: %g, expected %g", b, out[b], want);
    }
}

cudaError_t launch_block_sum_bytes(const float *d_in, float *d_out, int n, int threads, size_t bytes);
cudaError_t allow_dynamic_shared(int bytes);

static int dynamic_limits(void *arg) {
    (void)arg;
    tl_emu_set_order(0, 0);                 /* the messages below name threads in forward order */
    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, 256 * 4);
    cudaMalloc((void **)&d_out, 4);
    cudaError_t big = launch_block_sum_bytes(d_in, d_out, 256, 256, 64 * 1024);
    cudaError_t allow = allow_dynamic_shared(64 * 1024);
    cudaError_t big2 = launch_block_sum_bytes(d_in, d_out, 256, 256, 64 * 1024);
    cudaError_t too_big = allow_dynamic_shared(300 * 1024);
    fprintf(stderr, "RESULT big=%s allow=%s big2=%s too_big=%s\n", cudaGetErrorName(big), cudaGetErrorName(allow),
            cudaGetErrorName(big2), cudaGetErrorName(too_big));
    cudaError_t small = launch_block_sum_bytes(d_in, d_out, 256, 256, 255 * 4);
    fprintf(stderr, "RESULT small=%s\n", cudaGetErrorName(small));
    return 0;
}

Test(reduce, dynamic_shared_memory_is_limited_and_checked, .timeout = 60) {
    child_result r;
    run_child(dynamic_limits, NULL, &r);
    assert_has(r.err, "tilelab-emu: invalid-launch: BlockSum<<<(1,1,1), (256,1,1), 65536>>> at reduce.cu:");
    assert_has(r.err, "cudaFuncAttributeMaxDynamicSharedMemorySize");
    assert_has(r.err, "RESULT big=cudaErrorInvalidValue allow=cudaSuccess big2=cudaSuccess too_big=cudaErrorInvalidValue");
    /* 255 floats for 256 threads: thread 255 writes partial[255] */
    assert_has(r.err, "tilelab-emu: shared-out-of-bounds: partial[255] at reduce.cu:12 in thread (255,0,0)");
    assert_has(r.err, "extern __shared__ float partial[] (255 elements from the launch; reduce.cu:6)");
    assert_has(r.err, "RESULT small=cudaErrorLaunchFailure");
}

static int last_writer(void *arg) {
    int mode = *(int *)arg;
    int *d_out, out[4];
    cudaMalloc((void **)&d_out, sizeof out);
    tl_emu_set_order(mode, 2024);
    launch_last_writer(d_out, 4, 256);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    fprintf(stderr, "RESULT %d %d %d %d\n", out[0], out[1], out[2], out[3]);
    return 0;
}

Test(reduce, thread_order_forward_reverse_and_random_changes_the_last_writer, .timeout = 60) {
    child_result fwd, rev, rnd;
    int m0 = 0, m1 = 1, m2 = 2;
    run_child(last_writer, &m0, &fwd);
    run_child(last_writer, &m1, &rev);
    run_child(last_writer, &m2, &rnd);
    assert_has(fwd.err, "RESULT 255 255 255 255");
    assert_has(rev.err, "RESULT 0 0 0 0");
    assert_lacks(rnd.err, "RESULT 255 255 255 255");
    /* each block gets its own permutation */
    int a, b, c, d;
    cr_assert_eq(sscanf(strstr(rnd.err, "RESULT"), "RESULT %d %d %d %d", &a, &b, &c, &d), 4);
    cr_assert(!(a == b && b == c && c == d), "random order gave the same last writer in every block: %d", a);
}

static int env_order(void *arg) {
    (void)arg;
    int *d_out, out[1];
    cudaMalloc((void **)&d_out, sizeof out);
    launch_last_writer(d_out, 1, 64);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    fprintf(stderr, "RESULT %d\n", out[0]);
    return 0;
}

Test(reduce, tl_emu_order_in_the_environment_sets_the_order, .timeout = 60) {
    child_result r;
    setenv("TL_EMU_ORDER", "reverse", 1);
    run_child(env_order, NULL, &r);
    assert_has(r.err, "RESULT 0");
    setenv("TL_EMU_ORDER", "random:7", 1);
    run_child(env_order, NULL, &r);
    assert_lacks(r.err, "RESULT 63");
    setenv("TL_EMU_ORDER", "sideways", 1);
    run_child(env_order, NULL, &r);
    assert_has(r.err, "TL_EMU_ORDER='sideways' is not forward, reverse or random[:SEED]");
    assert_has(r.err, "RESULT 63");
}

cudaError_t launch_two_barriers(int *d_out);
cudaError_t launch_scalar_race(int *d_out);

static int two_barriers(void *arg) {
    (void)arg;
    tl_emu_set_order(0, 0);                 /* the messages below name threads in forward order */
    int *d_out;
    cudaMalloc((void **)&d_out, 32 * sizeof(int));
    cudaError_t e = launch_two_barriers(d_out);
    fprintf(stderr, "RESULT %s\n", cudaGetErrorName(e));
    return 0;
}

Test(reduce, threads_at_two_different_barriers_are_divergent, .timeout = 60) {
    child_result r;
    run_child(two_barriers, NULL, &r);
    assert_has(r.err, "tilelab-emu: divergent-barrier: block (0,0,0) of kernel TwoBarriers (launched at reduce.cu:");
    assert_has(r.err, "its threads wait at different __syncthreads() calls");
    assert_has(r.err, "16 thread(s), e.g. thread (0,0,0), wait at __syncthreads() at reduce.cu:54");
    assert_has(r.err, "16 thread(s), e.g. thread (16,0,0), wait at __syncthreads() at reduce.cu:56");
    assert_has(r.err, "RESULT cudaErrorLaunchFailure");
}

static int scalar_race(void *arg) {
    (void)arg;
    tl_emu_set_order(0, 0);                 /* the messages below name threads in forward order */
    tl_emu_set_race_check(1);
    int *d_out;
    cudaMalloc((void **)&d_out, 32 * sizeof(int));
    cudaError_t e = launch_scalar_race(d_out);
    fprintf(stderr, "RESULT %s\n", cudaGetErrorName(e));
    return 0;
}

Test(reduce, two_threads_writing_one_shared_scalar_is_a_race, .timeout = 60) {
    child_result r;
    run_child(scalar_race, NULL, &r);
    assert_has(r.err, "tilelab-emu: race: winner: element winner of __shared__ int winner (reduce.cu:62)");
    assert_has(r.err, "thread (1,0,0) writes it at reduce.cu:63");
    assert_has(r.err, "after thread (0,0,0) wrote it at reduce.cu:63");
    assert_has(r.err, "two writes in the same barrier interval");
    assert_has(r.err, "RESULT cudaErrorLaunchFailure");
}

cudaError_t launch_too_much_static(float *d_out);

static int too_much_static(void *arg) {
    (void)arg;
    float *d_out;
    cudaMalloc((void **)&d_out, 32 * sizeof(float));
    cudaError_t e = launch_too_much_static(d_out);
    fprintf(stderr, "RESULT %s then %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}

Test(reduce, more_than_48_KiB_of_static_shared_memory_is_refused_at_launch, .timeout = 60) {
    child_result r;
    run_child(too_much_static, NULL, &r);
    assert_has(r.err, "tilelab-emu: invalid-launch: TooMuchStatic<<<(1,1,1), (32,1,1), 0>>> at reduce.cu:");
    assert_has(r.err, "its static __shared__ arrays take 52000 bytes, over the H100 SXM (emulated) limit of 49152 bytes");
    assert_has(r.err, "RESULT cudaErrorInvalidValue then cudaSuccess");
}

cudaError_t launch_reverse64(const float *d_in, float *d_out, int blocks);

Test(reduce, a_file_scope_shared_array_is_per_block, .timeout = 60) {
    float in[256], out[256], *d_in, *d_out;
    for (int i = 0; i < 256; i++) in[i] = (float)i;
    cr_assert_eq(cudaMalloc((void **)&d_in, sizeof in), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_out, sizeof out), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice), cudaSuccess);
    tl_emu_set_threads(2);
    cr_assert_eq(launch_reverse64(d_in, d_out, 4), cudaSuccess);
    cr_assert_eq(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 64; t++)
            cr_assert_eq(out[b * 64 + t], in[b * 64 + 63 - t], "block %d thread %d: %g", b, t, out[b * 64 + t]);
}

cudaError_t launch_big_local(float *d_out, int n);

static int big_local(void *arg) {
    (void)arg;
    tl_emu_set_order(0, 0);
    float *d_out;
    cudaMalloc((void **)&d_out, 2 * sizeof(float));
    launch_big_local(d_out, 65536);
    fprintf(stderr, "RESULT finished\n");
    return 0;
}

Test(reduce, a_kernel_that_overflows_its_stack_is_stopped_with_a_message, .timeout = 60) {
    child_result r;
    run_child(big_local, NULL, &r);
    cr_assert(r.exited && r.code == 1, "exit %d signal %d:\n%s", r.code, r.sig, r.err);
    assert_has(r.err, "tilelab-emu: stack-overflow: a kernel thread overflowed its 64 KiB stack in thread (0,0,0) of block (0,0,0) of kernel BigLocal");
    assert_has(r.err, "raise TL_EMU_STACK_KB");
    assert_lacks(r.err, "RESULT");
}

Test(reduce, a_bigger_stack_from_the_environment_lets_it_run, .timeout = 60) {
    child_result r;
    setenv("TL_EMU_STACK_KB", "512", 1);
    run_child(big_local, NULL, &r);
    assert_has(r.err, "RESULT finished");
}

static int threads_env(void *arg) {
    (void)arg;
    fprintf(stderr, "RESULT threads=%d model=%s\n", tl_emu_threads(), tl_emu_model_name());
    return 0;
}

Test(reduce, worker_count_and_model_come_from_the_environment, .timeout = 30) {
    child_result r;
    setenv("TL_EMU_THREADS", "3", 1);
    setenv("TL_EMU_MODEL", "a100", 1);
    run_child(threads_env, NULL, &r);
    assert_has(r.err, "RESULT threads=3 model=A100 SXM (emulated)");
    setenv("TL_EMU_THREADS", "0", 1);
    setenv("TL_EMU_MODEL", "v100", 1);
    run_child(threads_env, NULL, &r);
    assert_has(r.err, "TL_EMU_THREADS='0' is not a number from 1 to 256; using 1");
    assert_has(r.err, "TL_EMU_MODEL='v100' is not h100, h200, a100, l40s or t4; using h100");
    assert_has(r.err, "RESULT threads=1 model=H100 SXM (emulated)");
}

int run_tricky(void);

Test(reduce, comments_strings_and_char_literals_do_not_confuse_the_rewrite, .timeout = 30) {
    /* p[i] = a[(i + 1) % 4] + b[0][0] for p = {1, 2, 3, 4}: {3, 4, 5, 2} */
    cr_assert_eq(run_tricky(), 3452);
}

int run_tricky_named(void);

Test(reduce, host_variables_may_be_named_blockDim_and_gridDim, .timeout = 30) {
    cr_assert_eq(run_tricky_named(), 43452);
}
