/* test_occupancy.c: lab 05's reference calculator, unit by unit, on the CPU.
 *
 * 1. Against NVIDIA's own occupancy model: cuda_occupancy.h (header-only, shipped with the CUDA
 *    toolkit) computes resident blocks from the same device properties. For every modern device
 *    table and thousands of (threads, registers, shared memory) triples the two must agree.
 * 2. The lecture's back-of-envelope numbers, reproduced by turning off what the lecture ignores.
 * Run:  meson test -C build occupancy -v */
#include <criterion/criterion.h>
#include <cuda_occupancy.h>
#include <string.h>

#include "lab.h"

static int nvidia_blocks(const tl_occ_device *d, int threads, int regs, int smem)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    p.computeMajor = d->cc / 10;
    p.computeMinor = d->cc % 10;
    p.maxThreadsPerBlock = d->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = d->max_threads_per_sm;
    p.regsPerBlock = d->regs_per_block;
    p.regsPerMultiprocessor = d->regs_per_sm;
    p.warpSize = d->warp_size;
    p.sharedMemPerBlock = 48 * 1024;
    p.sharedMemPerMultiprocessor = (size_t)d->smem_per_sm;
    p.numSms = 1;
    p.sharedMemPerBlockOptin = (size_t)d->smem_per_block;
    p.reservedSharedMemPerBlock = (size_t)d->smem_reserved_per_block;
    cudaOccFuncAttributes a;
    memset(&a, 0, sizeof a);
    a.maxThreadsPerBlock = d->max_threads_per_block;
    a.numRegs = regs;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;   /* the kit's sweep opts in to large blocks */
    a.maxDynamicSharedSizeBytes = (size_t)d->smem_per_block;
    a.numBlockBarriers = 1;
    cudaOccDeviceState st;
    memset(&st, 0, sizeof st);
    st.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
    cudaOccResult r;
    memset(&r, 0, sizeof r);
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &st, threads, (size_t)smem) != CUDA_OCC_SUCCESS)
        return 0;
    return r.activeBlocksPerMultiprocessor;
}

static void agree_on(const tl_occ_device *d)
{
    static const int regs[] = {0, 16, 24, 32, 33, 40, 48, 64, 65, 96, 128, 168, 200, 255};
    static const int threads[] = {1, 32, 33, 64, 96, 128, 160, 161, 192, 256, 320, 384, 512, 640, 768, 1024};
    static const int smem[] = {0, 1, 512, 2048, 8192, 16384, 49152, 51200, 65536, 102400, 163840, 200000, 232448, 240000};
    int checked = 0;
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; ++i)
        for (size_t j = 0; j < sizeof threads / sizeof threads[0]; ++j)
            for (size_t s = 0; s < sizeof smem / sizeof smem[0]; ++s) {
                tl_occ_kernel k = {threads[j], regs[i], smem[s]};
                tl_occ_result r;
                int mine = tl_occupancy(d, &k, &r) == 0 ? r.blocks_per_sm : 0;
                int theirs = nvidia_blocks(d, threads[j], regs[i], smem[s]);
                cr_assert_eq(mine, theirs, "%s, %d threads, %d registers, %d B shared: calculator %d "
                             "blocks (%s), cuda_occupancy.h %d", d->name, threads[j], regs[i], smem[s],
                             mine, mine ? tl_occ_limit_name(r.limit) : r.why, theirs);
                ++checked;
            }
    cr_assert_gt(checked, 3000);
}

Test(occupancy, agrees_with_cuda_occupancy_h_on_turing) { agree_on(&tl_occ_t4); }
Test(occupancy, agrees_with_cuda_occupancy_h_on_a100) { agree_on(&tl_occ_a100); }
Test(occupancy, agrees_with_cuda_occupancy_h_on_sm86) { agree_on(&tl_occ_rtx3090); }
Test(occupancy, agrees_with_cuda_occupancy_h_on_h100) { agree_on(&tl_occ_h100); }

Test(occupancy, lecture_ampere_numbers_come_back_without_the_reserve)
{
    tl_occ_device d = tl_occ_a100;
    tl_occ_kernel t16 = {256, 32, 2048}, t32 = {1024, 32, 8192};
    tl_occ_result r;
    cr_assert_eq(tl_occupancy(&d, &t16, &r), 0);
    cr_assert_eq(r.by_smem, 54, "real A100, 2 KiB + 1 KiB reserve: %d, expected 54", r.by_smem);
    cr_assert_eq(r.blocks_per_sm, 8);
    cr_assert_eq(r.limit, TL_OCC_THREADS);
    d.smem_reserved_per_block = 0;   /* the lecture's model */
    cr_assert_eq(tl_occupancy(&d, &t16, &r), 0);
    cr_assert_eq(r.by_smem, 82, "lecture: 2 KB per block limits active blocks to 82; got %d", r.by_smem);
    cr_assert_eq(tl_occupancy(&d, &t32, &r), 0);
    cr_assert_eq(r.by_smem, 20, "lecture: 8 KB per block limits active blocks to 20; got %d", r.by_smem);
    cr_assert_eq(r.blocks_per_sm, 2, "lecture: 2048 threads per SM limit blocks to 2; got %d", r.blocks_per_sm);
}

Test(occupancy, fermi_is_limited_by_its_1536_threads)
{
    tl_occ_kernel t16 = {256, 20, 2048}, t32 = {1024, 20, 8192};
    tl_occ_result r;
    cr_assert_eq(tl_occupancy(&tl_occ_fermi, &t16, &r), 0);
    cr_assert_eq(r.blocks_per_sm, 6, "Fermi TILE 16: %d blocks, expected 6 (the lecture says 8)", r.blocks_per_sm);
    cr_assert_eq(r.limit, TL_OCC_THREADS);
    cr_assert_eq(r.by_blocks, 8);
    cr_assert_eq(tl_occupancy(&tl_occ_fermi, &t32, &r), 0);
    cr_assert_eq(r.blocks_per_sm, 1, "Fermi TILE 32: %d blocks, expected 1 (the lecture says 2 or 6)", r.blocks_per_sm);
    cr_assert_float_eq(r.occupancy, 32.0 / 48.0, 1e-12);
}

Test(occupancy, impossible_blocks_are_refused_with_a_reason)
{
    tl_occ_kernel too_many_threads = {2048, 32, 0}, too_many_regs = {256, 64, 0}, too_much_smem = {256, 32, 240000};
    tl_occ_result r;
    cr_assert_eq(tl_occupancy(&tl_occ_h100, &too_many_threads, &r), -1);
    cr_assert(strlen(r.why) > 0);
    cr_assert_eq(tl_occupancy(&tl_occ_fermi, &too_many_regs, &r), -1);
    cr_assert_eq(tl_occupancy(&tl_occ_h100, &too_much_smem, &r), -1);
    cr_assert_eq(r.blocks_per_sm, 0);
}
