/* occupancy.c: lab 05 part A, an occupancy calculator. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 05     (part A runs on any machine: the calculator against the lecture's
 *                             numbers and known answers; on a GPU also against the CUDA API)
 * Read:   labs/05-occupancy-study/README.md for the rules, the tasks and the questions.
 *
 * Five resources of one SM each allow some number of resident blocks; the smallest wins.
 * Rounding matters: a block holds whole warps, a warp holds registers in units, a block's
 * shared memory is rounded up and the driver reserves some per block. The fields of
 * tl_occ_device (lab.h) say what each limit is. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lab.h"

int tl_occupancy(const tl_occ_device *d, const tl_occ_kernel *k, tl_occ_result *r)
{
    memset(r, 0, sizeof *r);
    /* Task 1: refuse (return -1, r->why says why) a block that cannot run at all: too many
     *         threads, too many registers per thread, too much shared memory per block.
     * Task 2: by_threads, by_warps (a block holds whole warps), by_blocks.
     * Task 3: by_registers: a warp gets regs_per_thread x warp_size registers rounded up to
     *         reg_alloc_unit, from one of reg_partitions equal parts of the register file; a
     *         part holds whole warps. A kernel with 0 registers is not limited (use INT_MAX).
     *         Also refuse a block whose warps, rounded up to a multiple of reg_partitions,
     *         need more than regs_per_block.
     * Task 4: by_smem: smem_per_block + smem_reserved_per_block, rounded up to smem_alloc_unit.
     * Task 5: blocks_per_sm (the smallest; on a tie name the first in tl_occ_limit's order),
     *         limit, active_warps, occupancy. */
    (void)d; (void)k;
    snprintf(r->why, sizeof r->why, "tl_occupancy is not written yet (occupancy.c)");
    return -1;
}
