/* tma.h: lab 07's Hopper copy-engine operations (kit-owned; do not edit). Included by asynccopy.cu.
 *
 * The student file may hold no inline assembly (the grader's policy), so the few PTX instructions
 * that CUDA C has no function for live here, one small function each, named after the PTX they
 * issue. Everything that decides the lesson (which box, which coordinates, which barrier, which
 * parity, when to fence, when to reuse a stage) stays in the student's code.
 *
 *   tl_mbar_init(bar, count)          mbarrier.init: count arrivals complete a phase
 *   tl_mbar_init_fence()              fence.mbarrier_init: the inits visible to the copy engine
 *   tl_mbar_expect_tx(bar, bytes)     mbarrier.arrive.expect_tx: this thread arrives and announces
 *                                     bytes that copies will deliver to this phase (the transaction count)
 *   tl_tma_load_2d(dst, map, bar, x, y)  cp.async.bulk.tensor.2d: one box of the tensor map, whose
 *                                     first element is column x, row y (either may be out of bounds:
 *                                     those elements arrive as 0), into shared memory at dst;
 *                                     complete_tx on bar when it has landed
 *   tl_mbar_wait(bar, parity)         spins on mbarrier.try_wait.parity until the phase with this
 *                                     parity (0, 1, 0, ... for the 1st, 2nd, 3rd ... phase) completed
 *   tl_fence_proxy_async()            fence.proxy.async.shared::cta: this thread's accesses to shared
 *                                     memory through the ordinary (generic) proxy are ordered
 *                                     before later copy-engine (async proxy) accesses
 *   tl_get_encode_tiled()             cuTensorMapEncodeTiled from the driver, through the runtime's
 *                                     entry-point query (no -lcuda); NULL when the driver has none
 *
 * Under the emulator (TL_EMULATED) the types exist and every operation stops the launch, named ("TMA:
 * GPU only"); the lab table marks the TMA variants gpu_only, so the emulated harness never runs them.
 */
#ifndef TILELAB_LAB07_TMA_H
#define TILELAB_LAB07_TMA_H

#ifdef TL_EMULATED
/* The emulated build (common/emu): the copy engine is not emulated. The types the student file names
 * exist, so that it builds as on a GPU; every operation stops the launch with a "not-supported"
 * diagnostic naming it, and tl_get_encode_tiled() finds no encoder. The harness never runs the TMA
 * variants there (the lab table marks them gpu_only: "TMA: GPU only"). */
#include <stdint.h>
#include <cuda_runtime.h>

typedef uint64_t cuuint64_t;
typedef uint32_t cuuint32_t;
typedef int CUresult;
#define CUDA_SUCCESS 0
typedef struct CUtensorMap_st { alignas(64) uint64_t opaque[16]; } CUtensorMap;
typedef enum { CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7 } CUtensorMapDataType;
typedef enum { CU_TENSOR_MAP_INTERLEAVE_NONE = 0 } CUtensorMapInterleave;
typedef enum { CU_TENSOR_MAP_SWIZZLE_NONE = 0 } CUtensorMapSwizzle;
typedef enum { CU_TENSOR_MAP_L2_PROMOTION_NONE = 0, CU_TENSOR_MAP_L2_PROMOTION_L2_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
               CU_TENSOR_MAP_L2_PROMOTION_L2_256B } CUtensorMapL2promotion;
typedef enum { CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0 } CUtensorMapFloatOOBfill;
typedef CUresult (*tl_encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                       const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                       CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
#define __grid_constant__

#define TL_TMA_NO(what) tl_emu::cg_unsupported("the copy engine (TMA: GPU only): " what, __FILE__, __LINE__)
static inline uint32_t tl_smem_addr(const void *p) { return (uint32_t)(uintptr_t)p; }
static inline void tl_mbar_init(uint64_t *, unsigned) { TL_TMA_NO("tl_mbar_init"); }
static inline void tl_mbar_init_fence(void) { TL_TMA_NO("tl_mbar_init_fence"); }
static inline void tl_mbar_expect_tx(uint64_t *, unsigned) { TL_TMA_NO("tl_mbar_expect_tx"); }
static inline void tl_tma_load_2d(void *, const CUtensorMap *, uint64_t *, int, int) { TL_TMA_NO("tl_tma_load_2d"); }
static inline int tl_mbar_test(uint64_t *, unsigned) { TL_TMA_NO("tl_mbar_test"); }
static inline void tl_mbar_wait(uint64_t *, unsigned) { TL_TMA_NO("tl_mbar_wait"); }
static inline void tl_fence_proxy_async(void) { TL_TMA_NO("tl_fence_proxy_async"); }
static inline tl_encode_tiled_fn tl_get_encode_tiled(void) { return NULL; }
#else

#include <stdint.h>
#include <cuda.h>            /* CUtensorMap and its enums (types only: nothing links against libcuda) */
#include <cudaTypedefs.h>    /* PFN_cuTensorMapEncodeTiled_v12000 */
#include <cuda_runtime.h>

typedef PFN_cuTensorMapEncodeTiled_v12000 tl_encode_tiled_fn;

/* The copy-engine instructions exist from sm_90 on. Built for an older target (the kit's default
 * gpu_archs include 75 and 80), each operation traps: the launchers never start the TMA kernel on a
 * GPU older than 9.0 (they fall back to the cp.async kernel). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define TL_TMA_ASM(...) __trap()
#else
#define TL_TMA_ASM(...) asm volatile(__VA_ARGS__)
#endif

static __device__ __forceinline__ uint32_t tl_smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void tl_mbar_init(uint64_t *bar, unsigned count)
{
    TL_TMA_ASM("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(tl_smem_addr(bar)), "r"(count) : "memory");
}

static __device__ __forceinline__ void tl_mbar_init_fence(void)
{
    TL_TMA_ASM("fence.mbarrier_init.release.cluster;" ::: "memory");
}

static __device__ __forceinline__ void tl_mbar_expect_tx(uint64_t *bar, unsigned bytes)
{
    TL_TMA_ASM("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(tl_smem_addr(bar)), "r"(bytes)
                 : "memory");
}

static __device__ __forceinline__ void tl_tma_load_2d(void *dst, const CUtensorMap *map, uint64_t *bar, int x,
                                                      int y)
{
    TL_TMA_ASM("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(tl_smem_addr(dst)),
                 "l"((uint64_t)(uintptr_t)map), "r"(x), "r"(y), "r"(tl_smem_addr(bar))
                 : "memory");
}

static __device__ __forceinline__ int tl_mbar_test(uint64_t *bar, unsigned parity)
{
    uint32_t done = 1;
    TL_TMA_ASM("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(tl_smem_addr(bar)), "r"(parity) : "memory");
    return (int)done;
}

static __device__ __forceinline__ void tl_mbar_wait(uint64_t *bar, unsigned parity)
{
    while (!tl_mbar_test(bar, parity)) {
    }
}

static __device__ __forceinline__ void tl_fence_proxy_async(void)
{
    TL_TMA_ASM("fence.proxy.async.shared::cta;" ::: "memory");
}

/* The driver's cuTensorMapEncodeTiled (CUDA 12.0's signature), looked up once. */
static inline tl_encode_tiled_fn tl_get_encode_tiled(void)
{
    static tl_encode_tiled_fn fn;
    static int looked;
    if (!looked) {
        void *p = NULL;
        enum cudaDriverEntryPointQueryResult q;
        looked = 1;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) ==
                cudaSuccess && q == cudaDriverEntryPointSuccess)
            fn = (tl_encode_tiled_fn)p;
    }
    return fn;
}

#endif /* TL_EMULATED */
#endif
