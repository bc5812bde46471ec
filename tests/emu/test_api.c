/* test_api.c: the emulated device answers the harness's device queries from the model GPU, memory
 * calls check their ranges, overruns of cudaMalloc buffers fault with a named diagnostic, and errors
 * have CUDA's names. */
#include "emu_test.h"

cudaError_t tiled_attributes(cudaFuncAttributes *attr, int *blocks_per_sm, int block_threads);

Test(api, the_device_is_one_emulated_h100, .timeout = 30) {
    int count = 0, dev = -1;
    cr_assert_eq(cudaGetDeviceCount(&count), cudaSuccess);
    cr_assert_eq(count, 1);
    cr_assert_eq(cudaSetDevice(0), cudaSuccess);
    cr_assert_eq(cudaSetDevice(1), cudaErrorInvalidDevice);
    cr_assert_eq(cudaGetDevice(&dev), cudaSuccess);
    cr_assert_eq(dev, 0);
    struct cudaDeviceProp p;
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_assert_str_eq(p.name, "H100 SXM (emulated)");
    cr_assert_eq(p.major, 9);
    cr_assert_eq(p.minor, 0);
    cr_assert_eq(p.multiProcessorCount, 132);
    cr_assert_eq(p.maxThreadsPerBlock, 1024);
    cr_assert_eq(p.maxThreadsPerMultiProcessor, 2048);
    cr_assert_eq(p.maxBlocksPerMultiProcessor, 32);
    cr_assert_eq(p.sharedMemPerMultiprocessor, 228 * 1024);
    cr_assert_eq(p.sharedMemPerBlock, 48 * 1024);
    cr_assert_eq(p.sharedMemPerBlockOptin, 227 * 1024);
    cr_assert_eq(p.regsPerMultiprocessor, 65536);
    cr_assert_eq(p.l2CacheSize, 50 * 1024 * 1024);
    cr_assert_eq(p.warpSize, 32);
    cr_assert_eq(p.maxThreadsDim[2], 64);
    cr_assert_eq(p.maxGridSize[1], 65535);
}

Test(api, attributes_agree_with_the_properties, .timeout = 30) {
    int v;
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    cr_assert_eq(v, 132);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
    cr_assert_eq(v, 232448);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
    cr_assert_eq(v, 9);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0), cudaSuccess);
    cr_assert_gt(v, 0);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMaxRegistersPerMultiprocessor, 0), cudaSuccess);
    cr_assert_eq(v, 65536);
    cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture3DWidth, 0), cudaErrorInvalidValue,
                 "an attribute the model does not know must not get an invented value");
    cr_assert_eq(cudaDriverGetVersion(&v), cudaSuccess);
    cr_assert_eq(v, 13000);
    cr_assert_eq(cudaRuntimeGetVersion(&v), cudaSuccess);
    cr_assert_eq(v, 13000);
}

Test(api, kernel_attributes_and_occupancy_come_from_the_model, .timeout = 30) {
    cudaFuncAttributes a;
    int blocks = -1;
    cr_assert_eq(tiled_attributes(&a, &blocks, 256), cudaSuccess);
    cr_assert_eq(a.sharedSizeBytes, 2 * 16 * 16 * sizeof(float), "static shared bytes: %zu", a.sharedSizeBytes);
    cr_assert_eq(a.maxThreadsPerBlock, 1024);
    cr_assert_eq(a.numRegs, 32);
    /* 256 threads = 8 warps: 64 warps per SM allow 8 blocks; 32 registers allow 8; 3 KiB of shared memory 76 */
    cr_assert_eq(blocks, 8);
    cr_assert_eq(tiled_attributes(&a, &blocks, 1024), cudaSuccess);
    cr_assert_eq(blocks, 2);
    cr_assert_eq(tiled_attributes(&a, &blocks, 2048), cudaSuccess);
    cr_assert_eq(blocks, 0);
}

Test(api, memory_calls_copy_and_check_their_ranges, .timeout = 30) {
    float h[100], back[100], *d;
    for (int i = 0; i < 100; i++) h[i] = (float)i;
    size_t free0, total;
    cr_assert_eq(cudaMemGetInfo(&free0, &total), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
    size_t free1;
    cr_assert_eq(cudaMemGetInfo(&free1, &total), cudaSuccess);
    cr_assert_eq(free0 - free1, sizeof h);
    cr_assert_eq((size_t)d % 16, 0, "cudaMalloc pointer %p not 16-byte aligned", (void *)d);
    cr_assert_eq(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(back, d, sizeof h, cudaMemcpyDefault), cudaSuccess);
    cr_assert_arr_eq(back, h, sizeof h);
    cr_assert_eq(cudaMemset(d, 0, sizeof h), cudaSuccess);
    cr_assert_eq(cudaMemcpy(back, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(back[99], 0.0f);
    cr_assert_eq(cudaMemcpy(d, h, sizeof h + 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "cudaGetLastError resets an ordinary error");
    cr_assert_eq(cudaMemcpy(h, back, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue,
                 "a host pointer as the destination of HostToDevice");
    cr_assert_eq(cudaMemset(d + 50, 0, 51 * sizeof(float)), cudaErrorInvalidValue);
    cr_assert_eq(cudaFree(d), cudaSuccess);
    cr_assert_eq(cudaFree(d), cudaErrorInvalidValue, "a double free");
    cr_assert_eq(cudaFree(NULL), cudaSuccess);
    cr_assert_eq(cudaMemcpy(back, d, sizeof h, cudaMemcpyDeviceToHost), cudaErrorInvalidValue, "use after free");
}

static int write_past_end(void *arg) {
    (void)arg;
    int *d_counts;
    cudaMalloc((void **)&d_counts, 10 * sizeof(int));
    d_counts[10] = 1;                 /* host code writing through a device pointer, one past the end */
    return 0;
}

Test(api, a_write_one_past_a_buffer_faults_with_its_name, .timeout = 30) {
    child_result r;
    run_child(write_past_end, NULL, &r);
    cr_assert(r.exited && r.code == 1, "exit %d signal %d:\n%s", r.code, r.sig, r.err);
    assert_has(r.err, "tilelab-emu: global-out-of-bounds: write of 'd_counts'[40], 1 byte past its end in host code");
    assert_has(r.err, "buffer 'd_counts': 40 bytes (valid indices 0..39), from cudaMalloc at test_api.c:");
    assert_has(r.err, "write_past_end at ");
    assert_has(r.err, "test_api.c:102");
}

static int read_after_free(void *arg) {
    (void)arg;
    float *d_x;
    cudaMalloc((void **)&d_x, 4096);
    cudaFree(d_x);
    volatile float v = d_x[3];
    (void)v;
    return 0;
}

Test(api, a_read_after_cudaFree_faults_with_its_name, .timeout = 30) {
    child_result r;
    run_child(read_after_free, NULL, &r);
    cr_assert(r.exited && r.code == 1, "exit %d signal %d:\n%s", r.code, r.sig, r.err);
    assert_has(r.err, "tilelab-emu: global-out-of-bounds: read of 'd_x' after cudaFree (a use after free)");
}

Test(api, errors_have_cuda_names_and_strings, .timeout = 30) {
    cr_assert_str_eq(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration");
    cr_assert_str_eq(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
    cr_assert_str_eq(cudaGetErrorString(cudaErrorLaunchFailure), "unspecified launch failure");
    cr_assert_str_eq(cudaGetErrorString(cudaSuccess), "no error");
    cr_assert_str_eq(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
    cr_assert_eq(cudaPeekAtLastError(), cudaSuccess);
}

Test(api, events_measure_host_time, .timeout = 30) {
    cudaEvent_t a, b;
    float ms = -1;
    cr_assert_eq(cudaEventCreate(&a), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
    cr_assert_eq(cudaEventRecord(a, 0), cudaSuccess);
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    cr_assert_eq(cudaEventRecord(b, 0), cudaSuccess);
    cr_assert_eq(cudaEventSynchronize(b), cudaSuccess);
    cr_assert_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    cr_assert(ms >= 19.0f && ms < 2000.0f, "elapsed %g ms for a 20 ms sleep", ms);
    cr_assert_eq(cudaEventDestroy(a), cudaSuccess);
    cr_assert_eq(cudaEventDestroy(b), cudaSuccess);
    cr_assert_eq(cudaDeviceReset(), cudaSuccess);
}

Test(api, the_emulated_build_says_so, .timeout = 10) {
#if !defined(TL_EMULATED) || TL_EMULATED != 1
    cr_assert_fail("TL_EMULATED is not 1");
#endif
    cr_assert(strstr(tl_emu_model_name(), "emulated") != NULL);
}

int device_query(FILE *out);

Test(api, harness_style_cpp_host_code_runs_every_call_it_uses, .timeout = 30) {
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    cr_assert(f != NULL);
    int rc = device_query(f);
    fclose(f);
    cr_assert_eq(rc, 0, "device_query failed:\n%s", buf);
    assert_has(buf, "device 0 of 1: H100 SXM (emulated), sm_90, 132 SMs, 1980000 kHz, 81559 MiB, optin 232448, driver 13000 runtime 13000");
    assert_has(buf, "saxpy wrong=0 elapsed_ok=1 regs=32 smem=0 blocks_per_sm=8");
}
