/* occupancy.c, known wrong (tests/wrong/05/zero_regs_divide.c): no case for a kernel with 0 registers: regs_per_warp is 0 and the division by it traps (SIGFPE).
 * The rest is the reference solution. tests/wrong/manifest.tsv says how it must fail. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lab.h"

#define TL_OCC_NO_LIMIT INT_MAX   /* a resource the kernel does not use limits nothing */

static int round_up(int x, int unit)
{
    return unit > 0 ? (x + unit - 1) / unit * unit : x;
}

int tl_occupancy(const tl_occ_device *d, const tl_occ_kernel *k, tl_occ_result *r)
{
    memset(r, 0, sizeof *r);
    int T = k->threads_per_block;
    if (T < 1 || T > d->max_threads_per_block) {
        snprintf(r->why, sizeof r->why, "%d threads per block: this GPU takes 1 to %d", T,
                 d->max_threads_per_block);
        return -1;
    }
    if (k->regs_per_thread < 0 || k->regs_per_thread > d->max_regs_per_thread) {
        snprintf(r->why, sizeof r->why, "%d registers per thread: at most %d", k->regs_per_thread,
                 d->max_regs_per_thread);
        return -1;
    }
    int warps = (T + d->warp_size - 1) / d->warp_size;   /* a block holds whole warps */

    /* Threads and warps. */
    r->by_threads = d->max_threads_per_sm / T;
    r->by_warps = d->max_warps_per_sm / warps;
    r->by_blocks = d->max_blocks_per_sm;

    /* Registers: each warp gets regs x 32 rounded up to the allocation unit, from one of the
     * register file's partitions; a partition holds whole warps only. */
    r->regs_per_warp = round_up(k->regs_per_thread * d->warp_size, d->reg_alloc_unit);
    {   /* BUG: 0 registers per thread make regs_per_warp 0, divided by below */
        /* The hardware checks a block against regs_per_block as if its warps were spread over
         * all partitions evenly (cuda_occupancy.h). */
        int parts = d->reg_partitions > 0 ? d->reg_partitions : 1;
        if ((long)r->regs_per_warp * round_up(warps, parts) > d->regs_per_block) {
            snprintf(r->why, sizeof r->why, "%d registers per thread x %d threads exceed the %d "
                     "registers one block may hold", k->regs_per_thread, T, d->regs_per_block);
            return -1;
        }
        volatile int rpw = r->regs_per_warp;  // BUG: differs from the solution here (the header says how)
        int warps_per_part = d->regs_per_sm / parts / rpw;
        r->by_registers = warps_per_part * parts / warps;
    }

    /* Shared memory: what the kernel asks for plus the driver's reserve, rounded up. The
     * reserve counts for every block, also one that declares no shared memory. */
    int want = k->smem_per_block + d->smem_reserved_per_block;
    r->smem_alloc = round_up(want, d->smem_alloc_unit);
    if (k->smem_per_block < 0 || k->smem_per_block > d->smem_per_block) {
        snprintf(r->why, sizeof r->why, "%d bytes of shared memory per block: at most %d",
                 k->smem_per_block, d->smem_per_block);
        return -1;
    }
    r->by_smem = r->smem_alloc > 0 ? d->smem_per_sm / r->smem_alloc : TL_OCC_NO_LIMIT;

    /* The smallest wins; on a tie the first in tl_occ_limit's order is named. */
    int lim[5] = {r->by_threads, r->by_warps, r->by_blocks, r->by_registers, r->by_smem};
    r->limit = TL_OCC_THREADS;
    r->blocks_per_sm = lim[0];
    for (int i = 1; i < 5; ++i)
        if (lim[i] < r->blocks_per_sm) {
            r->blocks_per_sm = lim[i];
            r->limit = (tl_occ_limit)i;
        }
    r->active_warps = r->blocks_per_sm * warps;
    r->occupancy = (double)r->active_warps / d->max_warps_per_sm;
    return 0;
}
