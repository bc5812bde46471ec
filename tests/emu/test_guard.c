/* test_guard.c: the device guarded from host code while a launcher runs (tl_emu_guard_device, issue
 * 24: tests/hostile/02/reads_discarded.cu). The honest launchers of fixtures/guard.cu (streams, a
 * __constant__ table, split-k over a zeroed workspace, unified memory set before the first kernel and
 * read after the last, a value copied back after the last kernel) count no host round trip and give
 * the right P; each way of getting M and N onto the host before a later write to the device counts
 * one or more; host code that dereferences a device pointer stops with the reason and its line. */
#include "emu_test.h"
#include "tl_emu_api.h"

cudaError_t launch_streams(float *, float *, float *, int);
cudaError_t launch_splitk(float *, float *, float *, int);
cudaError_t launch_managed_counter(float *, float *, float *, int);
cudaError_t launch_copy_back(float *, float *, float *, int);
cudaError_t launch_managed_round_trip(float *, float *, float *, int);
cudaError_t launch_symbol_round_trip(float *, float *, float *, int);
cudaError_t launch_host_reads(float *, float *, float *, int);

/* As the lab harness runs a launcher (common/driver.c: inputs uploaded, P poisoned, the launcher run
 * with the device guarded, P copied back after): the wrong elements, the round trips in *trips. */
static int guarded_gemm(launcher_fn launch, int w, unsigned long long *trips, cudaError_t *err) {
    size_t n = (size_t)w * w, bytes = n * sizeof(float);
    float *M = malloc(bytes), *N = malloc(bytes), *P = malloc(bytes);
    fill_random(M, n, 11);
    fill_random(N, n, 12);
    float *d_M, *d_N, *d_P;
    int wrong = -1;
    *err = cudaMalloc((void **)&d_M, bytes);
    if (!*err) *err = cudaMalloc((void **)&d_N, bytes);
    if (!*err) *err = cudaMalloc((void **)&d_P, bytes);
    if (!*err) *err = cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice);
    if (!*err) *err = cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice);
    if (!*err) *err = cudaMemset(d_P, 0xFF, bytes);
    tl_emu_counters_reset();
    tl_emu_guard_device(1);
    if (!*err) *err = cudaMemset(d_P, 0xFF, bytes);        /* the harness's own, inside the bracket */
    if (!*err) *err = launch(d_M, d_N, d_P, w);
    if (!*err) *err = cudaDeviceSynchronize();
    if (!*err) *err = cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost);
    tl_emu_guard_device(0);
    tl_emu_counters c;
    tl_emu_counters_get(&c);
    *trips = c.host_round_trips;
    if (!*err) wrong = count_wrong(M, N, P, w, NULL, NULL);
    cudaFree(d_M);
    cudaFree(d_N);
    cudaFree(d_P);
    free(M);
    free(N);
    free(P);
    return wrong;
}

Test(guard, honest_launchers_count_no_round_trip_and_compute_P, .timeout = 60) {
    struct { const char *name; launcher_fn f; } honest[] = {
        {"streams and a __constant__ table", launch_streams},
        {"split-k over a zeroed workspace", launch_splitk},
        {"unified memory set before the first kernel", launch_managed_counter},
    };
    for (size_t i = 0; i < sizeof honest / sizeof honest[0]; ++i) {
        unsigned long long trips = 99;
        cudaError_t err;
        int wrong = guarded_gemm(honest[i].f, 37, &trips, &err);
        cr_assert_eq(err, cudaSuccess, "%s: %s", honest[i].name, cudaGetErrorName(err));
        cr_assert_eq(wrong, 0, "%s: %d wrong elements", honest[i].name, wrong);
        cr_assert_eq(trips, 0, "%s: %llu host round trips", honest[i].name, trips);
    }
}

Test(guard, device_data_on_the_host_before_a_later_device_write_is_a_round_trip, .timeout = 60) {
    struct { const char *name; launcher_fn f; unsigned long long least; } hostile[] = {
        {"M and N copied back, P copied up, then a kernel", launch_copy_back, 2},
        {"unified memory read by the host between kernels", launch_managed_round_trip, 1},
        {"a symbol copied back between kernels", launch_symbol_round_trip, 1},
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; ++i) {
        unsigned long long trips = 0;
        cudaError_t err;
        int wrong = guarded_gemm(hostile[i].f, 37, &trips, &err);
        cr_assert_eq(err, cudaSuccess, "%s: %s", hostile[i].name, cudaGetErrorName(err));
        cr_assert_eq(wrong, 0, "%s: P is right (the counts alone cannot tell): %d wrong", hostile[i].name, wrong);
        cr_assert_geq(trips, hostile[i].least, "%s: %llu host round trips", hostile[i].name, trips);
    }
    /* outside the bracket nothing is counted (the harness's own copies, a kit program's host code) */
    float *d;
    float h[4] = {0};
    cudaMalloc((void **)&d, sizeof h);
    tl_emu_counters_reset();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    d[0] = 1.0f;                                           /* open again: host code may touch it */
    tl_emu_counters c;
    tl_emu_counters_get(&c);
    cr_assert_eq(c.host_round_trips, 0);
    cudaFree(d);
}

static int host_reads(void *arg) {
    (void)arg;
    unsigned long long trips;
    cudaError_t err;
    guarded_gemm(launch_host_reads, 19, &trips, &err);
    return 0;
}

Test(guard, host_code_reading_a_device_pointer_stops_with_the_reason_and_its_line, .timeout = 60) {
    child_result r;
    run_child(host_reads, NULL, &r);
    cr_assert(r.exited && r.code == 1, "exit %d signal %d:\n%s", r.code, r.sig, r.err);
    /* this harness is C: cudaMalloc knows no element size, so the place is in bytes (Md[1]) */
    assert_has(r.err, "tilelab-emu: host-access-device-memory: host code read device memory: 'd_M' at byte 4");
    assert_has(r.err, "outside any kernel");
    assert_has(r.err, "launch_host_reads at ");
    assert_has(r.err, "guard.cu:159");
    assert_lacks(r.err, "global-out-of-bounds");
}
