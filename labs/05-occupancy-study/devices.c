/* devices.c: the GPUs lab 05's calculator knows (kit-owned). Numbers from the CUDA C
 * Programming Guide's table of compute capabilities and from cuda_occupancy.h (CUDA 13):
 * allocation units, the per-block shared memory reserve, register sub-partitions.
 * Fermi's entry is the lecture's GPU; CUDA 13 no longer builds for it, so it is never
 * compared with the API: it is checked against the lecture's own numbers instead. */
#include "lab.h"

const tl_occ_device tl_occ_fermi = {
    .name = "Fermi (sm_20)", .cc = 20, .warp_size = 32, .max_threads_per_block = 1024,
    .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 8,
    .regs_per_sm = 32768, .regs_per_block = 32768, .max_regs_per_thread = 63,
    .reg_alloc_unit = 64, .reg_partitions = 1,
    .smem_per_sm = 48 * 1024, .smem_per_block = 48 * 1024, .smem_alloc_unit = 128,
    .smem_reserved_per_block = 0,
};

const tl_occ_device tl_occ_t4 = {
    .name = "Turing T4 (sm_75)", .cc = 75, .warp_size = 32, .max_threads_per_block = 1024,
    .max_threads_per_sm = 1024, .max_warps_per_sm = 32, .max_blocks_per_sm = 16,
    .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
    .reg_alloc_unit = 256, .reg_partitions = 4,
    .smem_per_sm = 64 * 1024, .smem_per_block = 64 * 1024, .smem_alloc_unit = 256,
    .smem_reserved_per_block = 0,
};

const tl_occ_device tl_occ_a100 = {
    .name = "Ampere A100 (sm_80)", .cc = 80, .warp_size = 32, .max_threads_per_block = 1024,
    .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
    .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
    .reg_alloc_unit = 256, .reg_partitions = 4,
    .smem_per_sm = 164 * 1024, .smem_per_block = 163 * 1024, .smem_alloc_unit = 128,
    .smem_reserved_per_block = 1024,
};

const tl_occ_device tl_occ_rtx3090 = {
    .name = "Ampere RTX 3090 (sm_86)", .cc = 86, .warp_size = 32, .max_threads_per_block = 1024,
    .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
    .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
    .reg_alloc_unit = 256, .reg_partitions = 4,
    .smem_per_sm = 100 * 1024, .smem_per_block = 99 * 1024, .smem_alloc_unit = 128,
    .smem_reserved_per_block = 1024,
};

const tl_occ_device tl_occ_h100 = {
    .name = "Hopper H100 (sm_90)", .cc = 90, .warp_size = 32, .max_threads_per_block = 1024,
    .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
    .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
    .reg_alloc_unit = 256, .reg_partitions = 4,
    .smem_per_sm = 228 * 1024, .smem_per_block = 227 * 1024, .smem_alloc_unit = 128,
    .smem_reserved_per_block = 1024,
};

const tl_occ_device *const tl_occ_devices[] = {&tl_occ_fermi, &tl_occ_t4, &tl_occ_a100,
                                               &tl_occ_rtx3090, &tl_occ_h100, NULL};

const char *tl_occ_limit_name(tl_occ_limit l)
{
    switch (l) {
    case TL_OCC_THREADS: return "threads";
    case TL_OCC_WARPS: return "warps";
    case TL_OCC_BLOCKS: return "blocks";
    case TL_OCC_REGISTERS: return "registers";
    case TL_OCC_SHARED_MEMORY: return "shared memory";
    }
    return "?";
}
