/* api.cpp: the device model and the CUDA runtime calls that are not about memory or launches.
 *
 * The model GPU's limits are sm_90's (H100/H200) or sm_80's (A100) as NVIDIA documents them
 * (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability"); its name always
 * says "(emulated)" so that no record or plot can mistake it for a measurement.
 */
#include "internal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace tl_emu {

static const Model MODELS[] = {
    {"h100", "H100 SXM (emulated)", 9, 0, 132, 1024, 2048, 32, 1024, 1024, 64, 2147483647, 65535, 65535,
     233472, 49152, 232448, 1024, 65536, 65536, 255, 50 * 1024 * 1024, 1980000, 2619000, 5120, 85520809984ull},
    {"h200", "H200 SXM (emulated)", 9, 0, 132, 1024, 2048, 32, 1024, 1024, 64, 2147483647, 65535, 65535,
     233472, 49152, 232448, 1024, 65536, 65536, 255, 50 * 1024 * 1024, 1980000, 3201000, 6144, 150754820096ull},
    {"a100", "A100 SXM (emulated)", 8, 0, 108, 1024, 2048, 32, 1024, 1024, 64, 2147483647, 65535, 65535,
     167936, 49152, 166912, 1024, 65536, 65536, 255, 40 * 1024 * 1024, 1410000, 1215000, 5120, 42298834944ull},
    /* Two more real GPUs for lab 02's device query, whose model the grader draws per run (issue 24:
     * facts typed in as constant text must fail): deviceQuery's figures of an L40S (sm_89) and a
     * T4 (sm_75). Their kernels still run with sm_90's semantics: only the facts differ. */
    {"l40s", "L40S (emulated)", 8, 9, 142, 1024, 1536, 24, 1024, 1024, 64, 2147483647, 65535, 65535,
     102400, 49152, 101376, 1024, 65536, 65536, 255, 96 * 1024 * 1024, 2520000, 9001000, 384, 47697362944ull},
    {"t4", "T4 (emulated)", 7, 5, 40, 1024, 1024, 16, 1024, 1024, 64, 2147483647, 65535, 65535,
     65536, 49152, 65536, 0, 65536, 65536, 255, 4 * 1024 * 1024, 1590000, 5001000, 256, 15655829504ull},
};

/* TL_EMU_MODEL=KEY, or KEY:N (the grader's draw for lab 02's device query, issue 24 item 5): boards
 * of one name report different clocks (application clocks set below the boost clock, in 15 MHz
 * steps; the memory clock of another memory part), so with N the model's SM clock is lowered by
 * 15 MHz x (N mod 9) and its memory clock by 1 MHz x (N / 9 mod 7): a table of the models' facts
 * keyed on the name does not match them, a program that asks the device does. */
const Model &model(void) {
    static Model drawn;
    static const Model *m = [] {
        const char *e = getenv("TL_EMU_MODEL");
        if (!e || !*e) return &MODELS[0];
        const char *colon = strchr(e, ':');
        size_t kl = colon ? (size_t)(colon - e) : strlen(e);
        for (const Model &x : MODELS) {
            if (strlen(x.key) != kl || strncmp(e, x.key, kl) != 0) continue;
            if (!colon) return &x;
            char *end = nullptr;
            unsigned long long n = strtoull(colon + 1, &end, 10);
            if (!colon[1] || *end) break;
            drawn = x;
            drawn.clock_khz -= 15000 * (int)(n % 9);
            drawn.mem_clock_khz -= 1000 * (int)(n / 9 % 7);
            return (const Model *)&drawn;
        }
        fprintf(stderr, "tilelab-emu: TL_EMU_MODEL='%s' is not h100, h200, a100, l40s or t4; using h100 (KEY:N "
                "also draws the board's clocks)\n", e);
        return &MODELS[0];
    }();
    return *m;
}

} /* namespace tl_emu */

using namespace tl_emu;

extern "C" const char *tl_emu_model_name(void) { return model().name; }

static cudaError_t check_dev(int d) { return d == 0 ? cudaSuccess : set_error(cudaErrorInvalidDevice); }

extern "C" cudaError_t cudaGetDeviceCount(int *count) {
    init();
    if (!count) return set_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}
extern "C" cudaError_t cudaSetDevice(int device) { init(); return check_dev(device); }
extern "C" cudaError_t cudaGetDevice(int *device) {
    if (!device) return set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
    init();
    if (!p) return set_error(cudaErrorInvalidValue);
    if (check_dev(device)) return cudaErrorInvalidDevice;
    const Model &m = model();
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", m.name);
    memcpy(p->uuid.bytes, "tilelab-emu-gpu0", 16);
    p->totalGlobalMem = m.global_bytes;
    p->sharedMemPerBlock = m.smem_block;
    p->regsPerBlock = m.regs_block;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = m.max_threads_block;
    p->maxThreadsDim[0] = m.max_block_x; p->maxThreadsDim[1] = m.max_block_y; p->maxThreadsDim[2] = m.max_block_z;
    p->maxGridSize[0] = m.max_grid_x; p->maxGridSize[1] = m.max_grid_y; p->maxGridSize[2] = m.max_grid_z;
    p->totalConstMem = 65536;
    p->major = m.major; p->minor = m.minor;
    p->textureAlignment = 512; p->texturePitchAlignment = 32; p->surfaceAlignment = 512;
    p->multiProcessorCount = m.sms;
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->ECCEnabled = 1;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = m.bus_bits;
    p->l2CacheSize = m.l2_bytes;
    p->maxThreadsPerMultiProcessor = m.max_threads_sm;
    p->globalL1CacheSupported = 1; p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = m.smem_sm;
    p->regsPerMultiprocessor = m.regs_sm;
    p->managedMemory = 1;
    p->computePreemptionSupported = 1;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = m.smem_block_optin;
    p->maxBlocksPerMultiProcessor = m.max_blocks_sm;
    p->reservedSharedMemPerBlock = m.smem_reserved_block;
    p->hostNumaId = -1; p->deviceNumaId = -1;
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr attr, int device) {
    init();
    if (!v) return set_error(cudaErrorInvalidValue);
    if (check_dev(device)) return cudaErrorInvalidDevice;
    const Model &m = model();
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = m.max_threads_block; break;
    case cudaDevAttrMaxBlockDimX: *v = m.max_block_x; break;
    case cudaDevAttrMaxBlockDimY: *v = m.max_block_y; break;
    case cudaDevAttrMaxBlockDimZ: *v = m.max_block_z; break;
    case cudaDevAttrMaxGridDimX: *v = m.max_grid_x; break;
    case cudaDevAttrMaxGridDimY: *v = m.max_grid_y; break;
    case cudaDevAttrMaxGridDimZ: *v = m.max_grid_z; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)m.smem_block; break;
    case cudaDevAttrTotalConstantMemory: *v = 65536; break;
    case cudaDevAttrWarpSize: *v = 32; break;
    case cudaDevAttrMaxPitch: *v = 2147483647; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = m.regs_block; break;
    case cudaDevAttrClockRate: *v = m.clock_khz; break;
    case cudaDevAttrMultiProcessorCount: *v = m.sms; break;
    case cudaDevAttrMemoryClockRate: *v = m.mem_clock_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = m.bus_bits; break;
    case cudaDevAttrL2CacheSize: *v = m.l2_bytes; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = m.max_threads_sm; break;
    case cudaDevAttrComputeCapabilityMajor: *v = m.major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = m.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)m.smem_sm; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = m.regs_sm; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)m.smem_block_optin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = m.max_blocks_sm; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)m.smem_reserved_block; break;
    case cudaDevAttrUnifiedAddressing: case cudaDevAttrConcurrentKernels: case cudaDevAttrManagedMemory:
    case cudaDevAttrCanMapHostMemory: case cudaDevAttrGlobalL1CacheSupported: case cudaDevAttrLocalL1CacheSupported:
    case cudaDevAttrEccEnabled: case cudaDevAttrCooperativeLaunch:
        *v = 1; break;
    case cudaDevAttrIntegrated: case cudaDevAttrKernelExecTimeout: case cudaDevAttrPciBusId:
    case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId: case cudaDevAttrTccDriver:
    case cudaDevAttrComputeMode: case cudaDevAttrIsMultiGpuBoard:
        *v = 0; break;
    default:
        *v = 0;
        return set_error(cudaErrorInvalidValue);   /* not modelled: say so rather than invent a value */
    }
    return cudaSuccess;
}

extern "C" cudaError_t cudaDriverGetVersion(int *v) { if (!v) return set_error(cudaErrorInvalidValue); *v = CUDART_VERSION; return cudaSuccess; }
extern "C" cudaError_t cudaRuntimeGetVersion(int *v) { if (!v) return set_error(cudaErrorInvalidValue); *v = CUDART_VERSION; return cudaSuccess; }

extern "C" cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    init();
    if (!free_bytes || !total_bytes) return set_error(cudaErrorInvalidValue);
    size_t total = model().global_bytes, used = allocated_bytes();
    *total_bytes = total;
    *free_bytes = used > total ? 0 : total - used;
    return cudaSuccess;
}

/* Launches finish before they return, so there is nothing to wait for: only errors to report. */
extern "C" cudaError_t cudaDeviceSynchronize(void) { init(); return set_error(sticky_error()); }
extern "C" cudaError_t cudaDeviceReset(void) {
    init();
    free_all_allocations();
    clear_errors();
    clear_diagnostics();
    return cudaSuccess;
}
extern "C" cudaError_t cudaGetLastError(void) {
    cudaError_t sticky = sticky_error();
    if (sticky) return sticky;                   /* a failed kernel stays failed, as on a GPU */
    cudaError_t e = cudaPeekAtLastError();
    clear_errors();
    return e;
}

/* ---- error names and strings (CUDA 13's wording) ----------------------------------------------- */
struct ErrText { cudaError_t e; const char *name, *text; };
static const ErrText ERRS[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
extern "C" const char *cudaGetErrorString(cudaError_t e) {
    for (const ErrText &t : ERRS) if (t.e == e) return t.text;
    return "unrecognized error code";
}
extern "C" const char *cudaGetErrorName(cudaError_t e) {
    for (const ErrText &t : ERRS) if (t.e == e) return t.name;
    return "cudaErrorUnknown";
}

/* ---- events and streams: host clock (launches are synchronous) ---------------------------------- */
struct tl_emu_event { struct timespec t; int recorded; };
struct tl_emu_stream { int unused; };

extern "C" cudaError_t cudaEventCreate(cudaEvent_t *e) {
    init();
    if (!e) return set_error(cudaErrorInvalidValue);
    *e = (cudaEvent_t)calloc(1, sizeof(struct tl_emu_event));
    return *e ? cudaSuccess : set_error(cudaErrorMemoryAllocation);
}
extern "C" cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
    if (!e) return set_error(cudaErrorInvalidResourceHandle);
    clock_gettime(CLOCK_MONOTONIC, &e->t);
    e->recorded = 1;
    return cudaSuccess;
}
extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    return e ? set_error(sticky_error()) : set_error(cudaErrorInvalidResourceHandle);
}
extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
    if (!ms || !a || !b) return set_error(cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded) return set_error(cudaErrorInvalidResourceHandle);
    *ms = (float)((double)(b->t.tv_sec - a->t.tv_sec) * 1e3 + (double)(b->t.tv_nsec - a->t.tv_nsec) * 1e-6);
    return cudaSuccess;
}
extern "C" cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return cudaSuccess; }
extern "C" cudaError_t cudaStreamCreate(cudaStream_t *s) {
    if (!s) return set_error(cudaErrorInvalidValue);
    *s = (cudaStream_t)calloc(1, sizeof(struct tl_emu_stream));
    return cudaSuccess;
}
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t) { return set_error(sticky_error()); }
extern "C" cudaError_t cudaStreamDestroy(cudaStream_t s) { free(s); return cudaSuccess; }

/* ---- kernels: attributes and occupancy ------------------------------------------------------------ */
extern "C" cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func) {
    init();
    if (!a || !func) return set_error(cudaErrorInvalidValue);
    KernelInfo *k = kernel_info(func, nullptr);
    if (!k) return set_error(cudaErrorInvalidDeviceFunction);
    const Model &m = model();
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = k->static_smem;
    a->maxThreadsPerBlock = m.max_threads_block;
    a->numRegs = NUM_REGS_MODEL;
    a->ptxVersion = a->binaryVersion = m.major * 10 + m.minor;
    a->maxDynamicSharedSizeBytes = k->max_dyn_smem >= 0 ? k->max_dyn_smem : (int)(m.smem_block - k->static_smem);
    a->preferredShmemCarveout = k->carveout;
    return cudaSuccess;
}

extern "C" cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
    init();
    KernelInfo *k = func ? kernel_info(func, nullptr) : nullptr;
    if (!k) return set_error(cudaErrorInvalidDeviceFunction);
    const Model &m = model();
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value + k->static_smem > m.smem_block_optin) return set_error(cudaErrorInvalidValue);
        k->max_dyn_smem = value;
    } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < -1 || value > 100) return set_error(cudaErrorInvalidValue);
        k->carveout = value;
    } else {
        return set_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

extern "C" cudaError_t cudaFuncSetCacheConfig(const void *func, int config) {
    init();
    if (!func || !kernel_info(func, nullptr)) return set_error(cudaErrorInvalidDeviceFunction);
    if (config < 0 || config > 3) return set_error(cudaErrorInvalidValue);
    return cudaSuccess;
}
extern "C" cudaError_t cudaDeviceSetCacheConfig(int config) {
    return config < 0 || config > 3 ? set_error(cudaErrorInvalidValue) : cudaSuccess;
}
extern "C" cudaError_t cudaDeviceSetSharedMemConfig(int config) {
    return config < 0 || config > 2 ? set_error(cudaErrorInvalidValue) : cudaSuccess;
}
extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) {
    (void)flags;
    return cudaStreamCreate(s);
}
extern "C" cudaError_t cudaStreamQuery(cudaStream_t) { return set_error(sticky_error()); }
extern "C" cudaError_t cudaEventQuery(cudaEvent_t e) { return e ? set_error(sticky_error()) : set_error(cudaErrorInvalidResourceHandle); }

/* Resident blocks per SM from the model's limits, the way the hardware allocates them: warps,
 * blocks, registers (per warp, in units of 256) and shared memory (plus 1 KiB reserved per block,
 * in units of 128 bytes). Registers come from NUM_REGS_MODEL: the emulator cannot know them. */
extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int blockSize,
                                                                     size_t dynamicSMemSize) {
    init();
    if (!n || blockSize <= 0) return set_error(cudaErrorInvalidValue);
    KernelInfo *k = func ? kernel_info(func, nullptr) : nullptr;
    if (!k) return set_error(cudaErrorInvalidDeviceFunction);
    const Model &m = model();
    *n = 0;
    if (blockSize > m.max_threads_block) return cudaSuccess;
    int warps = (blockSize + 31) / 32;
    int by_warps = (m.max_threads_sm / 32) / warps;
    int by_blocks = m.max_blocks_sm;
    int regs_per_warp = ((NUM_REGS_MODEL * 32) + 255) / 256 * 256;
    int by_regs = (m.regs_sm / regs_per_warp) / warps;
    size_t smem = k->static_smem + dynamicSMemSize;
    int by_smem = by_blocks;
    if (smem > m.smem_block_optin) by_smem = 0;
    else if (smem > 0) {
        size_t per_block = (smem + m.smem_reserved_block + 127) / 128 * 128;
        by_smem = (int)(m.smem_sm / per_block);
    }
    int r = by_warps;
    if (by_blocks < r) r = by_blocks;
    if (by_regs < r) r = by_regs;
    if (by_smem < r) r = by_smem;
    *n = r;
    return cudaSuccess;
}

extern "C" cudaError_t tl_emu_max_potential_block_size(int *minGridSize, int *blockSize, const void *func,
                                                       size_t dynamicSMemSize, int blockSizeLimit) {
    init();
    if (!minGridSize || !blockSize) return set_error(cudaErrorInvalidValue);
    if (!func || !kernel_info(func, nullptr)) return set_error(cudaErrorInvalidDeviceFunction);
    const Model &m = model();
    int limit = blockSizeLimit > 0 && blockSizeLimit < m.max_threads_block ? blockSizeLimit : m.max_threads_block;
    int best = 0, best_bs = 0, best_blocks = 0;
    for (int bs = 32; bs <= limit; bs += 32) {
        int n = 0;
        cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, func, bs, dynamicSMemSize);
        if (e) return e;
        if (n * bs >= best) { best = n * bs; best_bs = bs; best_blocks = n; }
    }
    if (best == 0) return set_error(cudaErrorInvalidValue);
    *blockSize = best_bs;
    *minGridSize = best_blocks * m.sms;
    return cudaSuccess;
}
