/* test_known_wrong.c: each known-wrong kernel of fixtures/ must be caught, with the right class of
 * diagnostic naming the array or buffer, the element, the thread, the block and the source lines,
 * and the launch must fail the way the harness sees it. Built once per fixture: -DCASE_<NAME>. */
#include "emu_test.h"

#if defined(CASE_NOSYNC1) || defined(CASE_NOSYNC2) || defined(CASE_UNINIT) || defined(CASE_SHARED_OOB)
cudaError_t launch_tiled(float *d_M, float *d_N, float *d_P, int Width);
#define LAUNCH launch_tiled
#else
cudaError_t launch_boundary(float *d_M, float *d_N, float *d_P, int Width);
#define LAUNCH launch_boundary
#endif

/* The expected messages name threads as forward order meets them, and need race checking, whatever
 * TL_EMU_ORDER and TL_EMU_RACECHECK say. */
static void defaults(void) {
    tl_emu_set_order(0, 0);
    tl_emu_set_race_check(1);
}
TestSuite(known_wrong, .init = defaults);

static void run_case(int width, child_result *r) {
    bad_case c = {LAUNCH, width};
    run_child(run_bad_case, &c, r);
}

/* The harness's view of a kernel that a diagnostic stopped. */
static inline void assert_launch_failed(const child_result *r) {
    cr_assert(r->exited && r->code == 0, "the child did not finish (signal %d):\n%s", r->sig, r->err);
    assert_has(r->err, "RESULT launch=cudaErrorLaunchFailure sync=cudaErrorLaunchFailure wrong=-1");
    assert_lacks(r->err, "diag_len=0");
    assert_has(r->err, "AFTER recover: malloc=cudaSuccess last=cudaSuccess; again launch=cudaErrorLaunchFailure wrong=-1");
}
/* A kernel that touched memory past a buffer: the launch fails as on a GPU, the process goes on. */
static inline void assert_launch_faulted(const child_result *r) {
    cr_assert(r->exited && r->code == 0, "the child did not finish (signal %d):\n%s", r->sig, r->err);
    assert_has(r->err, "RESULT launch=cudaErrorIllegalAddress sync=cudaErrorIllegalAddress wrong=-1");
    assert_lacks(r->err, "diag_len=0");
    assert_has(r->err, "the kernel stops here; cudaGetLastError() returns cudaErrorIllegalAddress");
    assert_has(r->err, "AFTER recover: malloc=cudaSuccess last=cudaSuccess; again launch=cudaErrorIllegalAddress wrong=-1");
}

#ifdef CASE_NOSYNC1
Test(known_wrong, missing_first_syncthreads_is_a_race_on_the_tiles, .timeout = 60) {
    tl_emu_set_threads(1);                                /* so that block (0,0,0) reports first */
    for (int order = 0; order < 3; order++) {
        tl_emu_set_order(order, 5);
        child_result r;
        run_case(64, &r);
        assert_launch_failed(&r);
        cr_assert(strstr(r.err, "tilelab-emu: race: Mds: element Mds[") || strstr(r.err, "tilelab-emu: race: Nds: element Nds["),
                  "order %d: no race on Mds or Nds in\n%s", order, r.err);
        assert_has(r.err, "of __shared__ float ");
        assert_has(r.err, "[16][16] (tiled_nosync1.cu:");
        assert_has(r.err, "block (0,0,0) of kernel MatrixMulKernel (launched at tiled_nosync1.cu:30)");
        /* the write (line 18 or 19) and the read of the inner product (line 21) */
        assert_has(r.err, "it at tiled_nosync1.cu:21");
        cr_assert(strstr(r.err, "it at tiled_nosync1.cu:18") || strstr(r.err, "it at tiled_nosync1.cu:19"),
                  "no load line in\n%s", r.err);
        assert_has(r.err, "FIRST tilelab-emu: race: ");
    }
}
#endif

#ifdef CASE_NOSYNC2
Test(known_wrong, missing_second_syncthreads_is_a_race_on_the_tiles, .timeout = 60) {
    child_result r;
    run_case(64, &r);
    assert_launch_failed(&r);
    assert_has(r.err, "tilelab-emu: race: Mds: element Mds[0][0] of __shared__ float Mds[16][16] (tiled_nosync2.cu:10)");
    /* as fibers, thread 1 reads the tile after thread 0 wrote the next phase's; in region form all
     * threads read the tile before any writes the next one, so the race shows as the write of the
     * next phase after another thread's read of this one: the same two lines either way */
    cr_assert((strstr(r.err, "thread (1,0,0) reads it at tiled_nosync2.cu:22") &&
               strstr(r.err, "after thread (0,0,0) wrote it at tiled_nosync2.cu:18, with no __syncthreads() between the two")) ||
              (strstr(r.err, "thread (0,0,0) writes it at tiled_nosync2.cu:18") &&
               strstr(r.err, "after thread (1,0,0) read it at tiled_nosync2.cu:22, with no __syncthreads() between the two")),
              "no race between lines 18 and 22 in\n%s", r.err);
}
#endif

#ifdef CASE_SYNC_IN_IF
Test(known_wrong, syncthreads_inside_the_bounds_check_is_a_divergent_barrier, .timeout = 60) {
    child_result r;
    run_case(100, &r);
    assert_launch_failed(&r);
    assert_has(r.err, "tilelab-emu: divergent-barrier: block (");
    assert_has(r.err, "some threads returned while others wait at a barrier");
    assert_has(r.err, "wait at __syncthreads() at boundary_sync_in_if.cu:19");
    assert_has(r.err, "have returned from the kernel without reaching it");
}

Test(known_wrong, syncthreads_inside_the_bounds_check_passes_at_multiples_of_the_tile, .timeout = 60) {
    cudaError_t err;
    int wrong = run_gemm(launch_boundary, 64, 1, &err);
    cr_assert_eq(err, cudaSuccess, "CUDA error %s", cudaGetErrorName(err));
    cr_assert_eq(wrong, 0);
}
#endif

#ifdef CASE_NOGUARD
Test(known_wrong, a_missing_load_guard_reads_past_the_end_of_the_buffer, .timeout = 60) {
    child_result r;
    run_case(100, &r);
    assert_launch_faulted(&r);
    assert_has(r.err, "tilelab-emu: global-out-of-bounds: read of 'd_M'[10000], 1 element past its end in thread (0,4,0) of block (");
    assert_has(r.err, ",6,0) of kernel MatrixMulKernel (launched at boundary_noguard.cu:32)");
    assert_has(r.err, "buffer 'd_M': 10000 elements of 4 bytes (40000 bytes) (valid indices 0..9999), from cudaMalloc at emu_test.h:");
    /* the faulting load (line 15; -O2's line table may give the loop header, 14) */
    cr_assert(strstr(r.err, "at (from the debug line table) MatrixMulKernel(float*, float*, float*, int) at ") &&
              (strstr(r.err, "boundary_noguard.cu:15") || strstr(r.err, "boundary_noguard.cu:14")),
              "no source line of the load in\n%s", r.err);
}
#endif

#ifdef CASE_NOSTOREGUARD
Test(known_wrong, a_missing_store_guard_writes_past_the_end_of_the_output, .timeout = 60) {
    child_result r;
    run_case(100, &r);
    assert_launch_faulted(&r);
    /* block (x,6): Row 100 is the first row past the matrix; thread (0,4) of block (0,6) writes P[10000] */
    assert_has(r.err, "tilelab-emu: global-out-of-bounds: write of 'd_P'[");
    assert_has(r.err, "element");
    assert_has(r.err, "past its end in thread (");
    assert_has(r.err, ",6,0) of kernel MatrixMulKernel (launched at boundary_nostoreguard.cu:");
    assert_has(r.err, "buffer 'd_P': 10000 elements of 4 bytes (40000 bytes) (valid indices 0..9999)");
    assert_has(r.err, "boundary_nostoreguard.cu:29");
}
#endif

#ifdef CASE_UNINIT
Test(known_wrong, a_tile_column_never_loaded_is_an_uninitialized_shared_read, .timeout = 60) {
    child_result r;
    run_case(32, &r);
    assert_launch_failed(&r);
    assert_has(r.err, "tilelab-emu: uninitialized-shared-read: Mds: element Mds[0][15] of __shared__ float Mds[16][16] (uninit_shared.cu:8)");
    assert_has(r.err, "thread (0,0,0) reads it at uninit_shared.cu:20, but no thread of the block has written it");
    assert_has(r.err, "a poison value, NaN");
}
#endif

#ifdef CASE_SHARED_OOB
Test(known_wrong, an_inner_loop_one_step_too_far_is_a_shared_out_of_bounds, .timeout = 60) {
    child_result r;
    run_case(32, &r);
    assert_launch_failed(&r);
    assert_has(r.err, "tilelab-emu: shared-out-of-bounds: Mds[0][16] at shared_oob.cu:19 in thread (0,0,0) of block (");
    assert_has(r.err, "index 16 of dimension 2 is outside 0..15 of __shared__ float Mds[16][16] (shared_oob.cu:8)");
}

Test(known_wrong, shared_bounds_are_checked_without_race_checking_too, .timeout = 60) {
    tl_emu_set_race_check(0);
    child_result r;
    run_case(32, &r);
    assert_launch_failed(&r);
    assert_has(r.err, "tilelab-emu: shared-out-of-bounds: Mds[0][16]");
}
#endif
