/* lab.h: lab 05's interfaces (kit-owned; do not edit): the occupancy calculator the student
 * writes (occupancy.c), the device tables (devices.c) and the kit's sweep (sweep.cu). */
#ifndef TILELAB_LAB05_H
#define TILELAB_LAB05_H

#include <limits.h>
#include <stddef.h>

#include "tilelab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one SM of a GPU offers, as the occupancy calculation needs it. */
typedef struct tl_occ_device {
    const char *name;
    int cc;                       /* compute capability x 10: 20, 75, 80, 86, 90            */
    int warp_size;                /* threads per warp: 32                                    */
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_warps_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;              /* 32-bit registers in one SM's register file              */
    int regs_per_block;           /* most registers one block may hold                       */
    int max_regs_per_thread;
    int reg_alloc_unit;           /* registers are given to a warp in multiples of this      */
    int reg_partitions;           /* the register file is split over this many schedulers;
                                     a warp's registers come from one part (4 since Kepler;
                                     1 models Fermi's single file)                           */
    int smem_per_sm;              /* shared memory bytes blocks may use on one SM (the
                                     largest carve-out; the occupancy API assumes it)        */
    int smem_per_block;           /* most bytes one block may ask for (with opt-in)          */
    int smem_alloc_unit;          /* a block's shared memory is rounded up to this           */
    int smem_reserved_per_block;  /* bytes the driver adds to every block (1 KiB on sm_80+)  */
} tl_occ_device;

/* What one kernel launch asks for. */
typedef struct tl_occ_kernel {
    int threads_per_block;
    int regs_per_thread;          /* as compiled: cudaFuncGetAttributes numRegs, ptxas -v    */
    int smem_per_block;           /* static + dynamic shared memory, bytes                   */
} tl_occ_kernel;

/* What limits the number of resident blocks. On a tie the first in this order is named. */
typedef enum tl_occ_limit {
    TL_OCC_THREADS = 0,           /* max threads per SM                                      */
    TL_OCC_WARPS,                 /* max warps per SM (blocks are whole warps)               */
    TL_OCC_BLOCKS,                /* max blocks per SM                                       */
    TL_OCC_REGISTERS,             /* the register file                                       */
    TL_OCC_SHARED_MEMORY          /* shared memory                                           */
} tl_occ_limit;

typedef struct tl_occ_result {
    int    blocks_per_sm;         /* resident blocks: the smallest of the five by_* below    */
    int    active_warps;          /* blocks_per_sm x warps per block                         */
    double occupancy;             /* active_warps / max_warps_per_sm, 0..1                   */
    tl_occ_limit limit;
    /* How many blocks each resource alone would allow (a large number when it does not limit). */
    int    by_threads, by_warps, by_blocks, by_registers, by_smem;
    int    regs_per_warp;         /* registers given to one warp, after rounding             */
    int    smem_alloc;            /* shared memory given to one block, after reserve and rounding */
    char   why[160];              /* when the launch is impossible: which limit it breaks    */
} tl_occ_result;

/* ------------------------------------------------------------- occupancy.c (student) */
/* Fills r for kernel k on device d. Returns 0, or -1 when no block of k can run on d at all
 * (too many threads, registers or shared memory for one block); then r->why says which and
 * r->blocks_per_sm is 0. */
int tl_occupancy(const tl_occ_device *d, const tl_occ_kernel *k, tl_occ_result *r);

/* ------------------------------------------------------------- devices.c (kit) */
/* From NVIDIA's CUDA C Programming Guide (compute capabilities table) and cuda_occupancy.h. */
extern const tl_occ_device tl_occ_fermi;    /* sm_20, the lecture's Fermi (GTX 480 / C2050)  */
extern const tl_occ_device tl_occ_t4;       /* sm_75, Turing T4                              */
extern const tl_occ_device tl_occ_a100;     /* sm_80, Ampere A100, the lecture's Ampere     */
extern const tl_occ_device tl_occ_rtx3090;  /* sm_86, Ampere GeForce                         */
extern const tl_occ_device tl_occ_h100;     /* sm_90, Hopper H100 / H200                     */
extern const tl_occ_device *const tl_occ_devices[];   /* the five above, then NULL           */
const char *tl_occ_limit_name(tl_occ_limit l);

/* ------------------------------------------------------------- known.c (kit) */
#define TL_OCC_NO_LIMIT INT_MAX   /* a resource the kernel does not use limits nothing        */

/* A configuration with its answer (the reference solution's, kept equal by the tests). */
typedef struct tl_occ_known {
    const tl_occ_device *dev;
    int  smem_per_sm;             /* the shared-memory carve-out of this case; 0: the device's */
    tl_occ_kernel k;
    const char *note;             /* what the case teaches                                   */
    int  rc, blocks;
    tl_occ_limit limit;
    int  by[5];                   /* by threads, warps, blocks, registers, shared memory     */
    int  regs_per_warp, smem_alloc, active_warps;
} tl_occ_known;
extern const tl_occ_known tl_occ_known_cases[];
extern const int tl_occ_nknown;
void tl_occ_known_device(const tl_occ_known *c, tl_occ_device *d);   /* its device, carve-out set */
void tl_occ_known_result(const tl_occ_known *c, tl_occ_result *r);   /* its answer as a result    */

/* `lab05 --serve`: one request line on fd 3, one answer line on fd 4, `quit` ends.
 *   request  occ CC WARP MAXTPB MAXTPSM MAXWARPS MAXBLOCKS REGSSM REGSBLOCK MAXREGS REGUNIT
 *                REGPARTS SMEMSM SMEMBLOCK SMEMUNIT SMEMRESERVED THREADS REGS SMEM
 *   answer   ok BLOCKS LIMIT BY_THREADS BY_WARPS BY_BLOCKS BY_REGS BY_SMEM REGS_PER_WARP SMEM_ALLOC
 *               ACTIVE_WARPS OCCUPANCY   (a by_* of INT_MAX as "-"; LIMIT as tl_occ_limit's number)
 *            refused WHY
 * The line functions return snprintf's count; the parsers 0, or -1 for a malformed line. */
int  tl_occ_request_line(char *buf, size_t len, const tl_occ_device *d, const tl_occ_kernel *k);
int  tl_occ_request_parse(const char *line, tl_occ_device *d, tl_occ_kernel *k);
int  tl_occ_answer_line(char *buf, size_t len, int rc, const tl_occ_result *r);
int  tl_occ_answer_parse(const char *line, int *rc, tl_occ_result *r);
/* "Hopper H100 (sm_90) with a 100 KiB shared-memory carve-out, 256 threads, 32 registers, 0 B shared" */
void tl_occ_describe(char *buf, size_t len, const tl_occ_device *d, const tl_occ_kernel *k);
/* Compares an answer (got) with the reference's (want). 0 when they agree; 1 with why naming what
 * differs and, where a known mistake gives exactly that value, the mistake. */
int  tl_occ_compare(const tl_occ_device *d, const tl_occ_kernel *k, int want_rc, const tl_occ_result *want,
                    int got_rc, const tl_occ_result *got, char *why, size_t whylen);

/* ------------------------------------------------------------- sweep.cu (kit) */
#define TL_SWEEP_REG_CAP 24       /* registers per thread of the capped sweep kernels       */

/* The sweep's kernels: lab 03's tiled kernel stamped out for tile widths 8, 16, 32, each as
 * compiled freely and with __maxnreg__ capping its registers; and a register-tiled kernel
 * (16 x 16 threads, each R x R elements of P, R = 2, 4, 8) whose registers, not its threads,
 * limit the resident blocks. Each runs with extra dynamic shared memory (none, 16 KiB, 48 KiB,
 * 100 KiB) that it does not use, to lower the number of resident blocks. */
typedef struct tl_sweep_config {
    char name[32];                /* "sweep_t16_cap_s48k", "sweep_rt8_s0k"                   */
    int  kernel;                  /* index into the kernels                                  */
    int  tile;                    /* side of the square of P one block computes: 8, 16, 32,
                                     and 32, 64, 128 for the register-tiled R = 2, 4, 8     */
    int  threads;                 /* threads per block: tile x tile, or 256 (16 x 16)        */
    int  micro;                   /* side of the square of P one thread computes: 1 or R     */
    int  capped;                  /* 1: registers capped with __maxnreg__(TL_SWEEP_REG_CAP)  */
    int  dyn_smem;                /* extra dynamic shared memory, bytes                      */
} tl_sweep_config;

int  tl_sweep_kernel_count(void);
int  tl_sweep_config_count(void);
void tl_sweep_config_get(int i, tl_sweep_config *c);
/* The GPU's limits as a tl_occ_device (name filled from the device). 0 ok, -1 (err set). */
int  tl_sweep_device(tl_occ_device *d, char *err, size_t errlen);
/* For kernel index kern at block_threads threads and dyn_smem bytes of dynamic shared memory:
 * its registers, static shared memory and largest block (cudaFuncGetAttributes) and the
 * blocks per SM that cudaOccupancyMaxActiveBlocksPerMultiprocessor reports (0 when the API
 * refuses the configuration). 0 ok, -1 (err set). */
int  tl_sweep_api(int kern, int block_threads, int dyn_smem, int *regs, int *static_smem,
                  int *max_threads, int *api_blocks, char *err, size_t errlen);
/* A tl_launch_fn for the harness; ctx points to a tl_sweep_config. Needs m = k = n, a
 * multiple of the config's tile (128 for every kernel of the sweep). */
int  tl_sweep_launch(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx);

#ifdef __cplusplus
}
#endif
#endif
