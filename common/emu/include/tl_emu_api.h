/* tl_emu_api.h: the CUDA runtime types and calls that tilelab's emulation mode provides, in C.
 *
 * Part of tilelab's emulation mode (common/emu/README.md). C and C++ both include this file; the
 * C++-only parts (fibers, __shared__ views, kernel launch) are in tl_emu.h, which includes this one.
 * The names and numeric values follow CUDA 13's driver_types.h so that unchanged code compiles and
 * prints the same error codes; only what tilelab's labs and harness use is provided.
 */
#ifndef TL_EMU_API_H
#define TL_EMU_API_H

/* Only the compiler's own <stddef.h>: a C file that defines _POSIX_C_SOURCE or _GNU_SOURCE before its
 * first include must still get them, and this header is force-included ahead of that file. */
#include <stddef.h>

#ifndef TL_EMULATED
#define TL_EMULATED 1
#endif

#define CUDART_VERSION 13000
#define TL_EMU_VERSION 1
/* The value of a float a kernel declares without one (tl_emu::uninit_f): a quiet NaN with these bits
 * (no FPU produces them: theirs are 0x7FC00000, 0xFFC00000, 0x7FFFFFFF) and the declaration's line in
 * the low 20 bits. A float of P whose bits, sign aside, match the mark was computed from such a local. */
#define TL_EMU_UNINIT_MARK 0x7FD00000u
#define TL_EMU_UNINIT_MASK 0x7FF00000u
#define TL_EMU_UNINIT_LINE 0x000FFFFFu
/* In the line bits of a mark from a local array declared without values (tl_emu::uninit_fill): the
 * array flag, and the flag of an array of two or more dimensions (a tile declared without __shared__);
 * the declaration's line is in the bits below them. */
#define TL_EMU_UNINIT_ARRAY 0x00080000u
#define TL_EMU_UNINIT_ARRAY2D 0x00040000u
#define TL_EMU_UNINIT_ALINE 0x0003FFFFu

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors (values as in CUDA 13) -------------------------------------------------------- */
typedef enum cudaError {
    cudaSuccess                    = 0,
    cudaErrorInvalidValue          = 1,
    cudaErrorMemoryAllocation      = 2,
    cudaErrorInitializationError   = 3,
    cudaErrorInvalidConfiguration  = 9,
    cudaErrorInvalidPitchValue     = 12,
    cudaErrorInvalidSymbol         = 13,
    cudaErrorInvalidDevicePointer  = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver    = 35,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice              = 100,
    cudaErrorInvalidDevice         = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady              = 600,
    cudaErrorIllegalAddress        = 700,
    cudaErrorLaunchOutOfResources  = 701,
    cudaErrorAssert                = 710,
    cudaErrorLaunchFailure         = 719,
    cudaErrorNotSupported          = 801,
    cudaErrorUnknown               = 999
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost     = 0,
    cudaMemcpyHostToDevice   = 1,
    cudaMemcpyDeviceToHost   = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault        = 4
} cudaMemcpyKind;

typedef enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize    = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
} cudaFuncAttribute;

typedef enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56,
    cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58,
    cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrMpsEnabled = 133,
    cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138,
    cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
} cudaDeviceAttr;

typedef struct CUuuid_st { char bytes[16]; } cudaUUID_t;

/* The fields of CUDA 13's cudaDeviceProp, in its order. */
struct cudaDeviceProp {
    char         name[256];
    cudaUUID_t   uuid;
    char         luid[8];
    unsigned int luidDeviceNodeMask;
    size_t       totalGlobalMem;
    size_t       sharedMemPerBlock;
    int          regsPerBlock;
    int          warpSize;
    size_t       memPitch;
    int          maxThreadsPerBlock;
    int          maxThreadsDim[3];
    int          maxGridSize[3];
    size_t       totalConstMem;
    int          major;
    int          minor;
    size_t       textureAlignment;
    size_t       texturePitchAlignment;
    int          multiProcessorCount;
    int          integrated;
    int          canMapHostMemory;
    int          maxTexture1D;
    int          maxTexture1DMipmap;
    int          maxTexture2D[2];
    int          maxTexture2DMipmap[2];
    int          maxTexture2DLinear[3];
    int          maxTexture2DGather[2];
    int          maxTexture3D[3];
    int          maxTexture3DAlt[3];
    int          maxTextureCubemap;
    int          maxTexture1DLayered[2];
    int          maxTexture2DLayered[3];
    int          maxTextureCubemapLayered[2];
    int          maxSurface1D;
    int          maxSurface2D[2];
    int          maxSurface3D[3];
    int          maxSurface1DLayered[2];
    int          maxSurface2DLayered[3];
    int          maxSurfaceCubemap;
    int          maxSurfaceCubemapLayered[2];
    size_t       surfaceAlignment;
    int          concurrentKernels;
    int          ECCEnabled;
    int          pciBusID;
    int          pciDeviceID;
    int          pciDomainID;
    int          tccDriver;
    int          asyncEngineCount;
    int          unifiedAddressing;
    int          memoryBusWidth;
    int          l2CacheSize;
    int          persistingL2CacheMaxSize;
    int          maxThreadsPerMultiProcessor;
    int          streamPrioritiesSupported;
    int          globalL1CacheSupported;
    int          localL1CacheSupported;
    size_t       sharedMemPerMultiprocessor;
    int          regsPerMultiprocessor;
    int          managedMemory;
    int          isMultiGpuBoard;
    int          multiGpuBoardGroupID;
    int          hostNativeAtomicSupported;
    int          pageableMemoryAccess;
    int          concurrentManagedAccess;
    int          computePreemptionSupported;
    int          canUseHostPointerForRegisteredMem;
    int          cooperativeLaunch;
    size_t       sharedMemPerBlockOptin;
    int          pageableMemoryAccessUsesHostPageTables;
    int          directManagedMemAccessFromHost;
    int          maxBlocksPerMultiProcessor;
    int          accessPolicyMaxWindowSize;
    size_t       reservedSharedMemPerBlock;
    int          hostRegisterSupported;
    int          sparseCudaArraySupported;
    int          hostRegisterReadOnlySupported;
    int          timelineSemaphoreInteropSupported;
    int          memoryPoolsSupported;
    int          gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int          gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int          deferredMappingCudaArraySupported;
    int          ipcEventSupported;
    int          clusterLaunch;
    int          unifiedFunctionPointers;
    int          deviceNumaConfig;
    int          deviceNumaId;
    int          mpsEnabled;
    int          hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int          hostNumaMultinodeIpcSupported;
    int          reserved[56];
};
typedef struct cudaDeviceProp cudaDeviceProp;

struct cudaFuncAttributes {
    size_t sharedSizeBytes;           /* static __shared__ bytes (from the rewrite; see README) */
    size_t constSizeBytes;
    size_t localSizeBytes;
    int    maxThreadsPerBlock;
    int    numRegs;                   /* a model value: the emulator cannot know registers */
    int    ptxVersion;
    int    binaryVersion;
    int    cacheModeCA;
    int    maxDynamicSharedSizeBytes;
    int    preferredShmemCarveout;
    int    clusterDimMustBeSet;
    int    requiredClusterWidth;
    int    requiredClusterHeight;
    int    requiredClusterDepth;
    int    clusterSchedulingPolicyPreference;
    int    nonPortableClusterSizeAllowed;
    int    reserved[16];
};
typedef struct cudaFuncAttributes cudaFuncAttributes;

typedef struct tl_emu_event  *cudaEvent_t;
typedef struct tl_emu_stream *cudaStream_t;

/* ---- the runtime calls ---------------------------------------------------------------------- */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFreeHost(void *ptr);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);

/* Streams are accepted and ignored (every launch and copy finishes before it returns). */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaEventQuery(cudaEvent_t event);
/* Unified memory: a cudaMalloc buffer (guard pages and all) that host code may also touch. */
cudaError_t tl_emu_malloc_managed(void **devPtr, size_t size, size_t elem_size, const char *name, const char *file,
                                  int line);
cudaError_t cudaDeviceSetCacheConfig(int config);
cudaError_t cudaDeviceSetSharedMemConfig(int config);
enum { cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100, cudaSharedmemCarveoutMaxL1 = 0 };
enum { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum { cudaStreamDefault = 0, cudaStreamNonBlocking = 1, cudaMemAttachGlobal = 1, cudaMemAttachHost = 2 };
#define cudaStreamPerThread ((cudaStream_t)0)
#define cudaStreamLegacy ((cudaStream_t)0)

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetCacheConfig(const void *func, int config);
/* The block size that gives the most resident threads per SM under the model (the largest such), and
 * the grid that fills the device with it. */
cudaError_t tl_emu_max_potential_block_size(int *minGridSize, int *blockSize, const void *func, size_t dynamicSMemSize,
                                            int blockSizeLimit);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);

/* ---- tilelab-emu's own calls ----------------------------------------------------------------- */
/* Copies the first diagnostic of the most recent launch that had any (or the most recent diagnostic of
 * a memory call such as cudaMemcpy, if that came later) into buf, NUL-terminated and truncated to n-1
 * bytes; returns its full length, 0 when there has been none since start or cudaDeviceReset(). */
int  tl_emu_last_diagnostic(char *buf, size_t n);
/* The same diagnostic as a verdict (common/verdict.h, CONTRACTS.md section 10): 1 and *v set, or 0. */
struct tl_verdict;
int  tl_emu_last_verdict(struct tl_verdict *v);
/* Writes v on the verdict channel (TL_EMU_VERDICTS): the emulated harness's own findings (P read
 * before written, an uninitialised local, an order-dependent result) travel with the emulator's. */
void tl_emu_write_verdict(const struct tl_verdict *v);
/* The __shared__ arrays that kernels converted to plain pointers since the last reset (a C or
 * reinterpret_cast of the array to float (*)[T], a float * taken from it): accesses through such a
 * pointer are bounds- and race-checked by no one, so an order-dependent result names them. Writes
 * "NAME (__shared__ TYPE, declared at FILE:LINE) through a plain pointer made at FILE:LINE" (';' between arrays)
 * into buf; returns the number of arrays. */
int  tl_emu_shared_escapes(char *buf, size_t n);
void tl_emu_shared_escapes_reset(void);
/* Order in which the threads of a block run between barriers: 0 forward, 1 reverse, 2 random
 * (seeded; each block gets its own permutation from seed and block index). Env: TL_EMU_ORDER. */
void tl_emu_set_order(int mode, unsigned seed);
/* Shadow-state checks of __shared__ memory (races and reads of unwritten elements): on by default;
 * env TL_EMU_RACECHECK=0 turns them off. Bounds and barrier checks are always on. */
void tl_emu_set_race_check(int on);
int tl_emu_race_check(void);               /* 1 when race checking is on (what the next launch does) */
/* 1: count every access of a __shared__ element in tl_emu_counters (default 0; TL_EMU_COUNT_SHARED=1). */
void tl_emu_set_count_shared(int on);
/* Worker threads that run blocks (default: the number of cores; env TL_EMU_THREADS). */
void tl_emu_set_threads(int n);
int  tl_emu_threads(void);
/* The model GPU's name, e.g. "H100 SXM (emulated)" (env TL_EMU_MODEL=h100|h200|a100|l40s|t4). */
const char *tl_emu_model_name(void);

/* Ends the failed state that a kernel diagnostic leaves (every call returns cudaErrorLaunchFailure
 * until cudaDeviceReset) without freeing any buffer, and forgets the diagnostic: the harness calls it
 * once it has read tl_emu_last_diagnostic(), so that the next case is judged on a working device. */
void tl_emu_recover(void);
/* While on, printf from kernels prints nothing (the harness's re-runs of a case in other thread
 * orders, so that each thread's printf appears once). */
void tl_emu_mute_kernel_output(int on);

/* What the kernels did, counted by the emulator: totals since the start or tl_emu_counters_reset().
 * Global loads and stores are the subscripts of a kernel's pointer parameters (p[i] read, p[i] = v
 * written, p[i] += v both); accesses through other pointers are not counted. Shared loads and stores
 * are every access of a __shared__ element, counted only while tl_emu_set_count_shared(1) (or
 * TL_EMU_COUNT_SHARED=1) is in effect: counting every access costs 40% of a tiled kernel's time. */
typedef struct tl_emu_counters {
    unsigned long long launches;            /* kernels that ran (invalid launches are not counted) */
    unsigned long long blocks, threads;     /* blocks run and their threads */
    unsigned long long global_loads, global_stores;
    unsigned long long shared_loads, shared_stores;
    unsigned long long unchecked_launches;  /* launches that ran with race checking off */
    unsigned long long host_round_trips;    /* while the device is guarded (tl_emu_guard_device):
                                             * writes to the device (kernel launches, copies to it,
                                             * memsets, symbol copies) that came after device data
                                             * reached the host (a copy to the host) */
} tl_emu_counters;
void tl_emu_counters_get(tl_emu_counters *c);
/* The harness's bracket around a student's launcher (on = 1 before the call, 0 after): while on, the
 * device behaves as a GPU does for host code: the data of every cudaMalloc buffer is out of the host's
 * reach (no access: a read or write by host code stops the program with the reason) except inside
 * kernels and the runtime's own copies and memsets; and a write to the device after device data
 * reached the host (a copy to the host before the launcher's last kernel) counts in
 * host_round_trips. Returns whether it was on before. A control: out of a student file's reach. */
int tl_emu_guard_device(int on);
void tl_emu_counters_reset(void);
/* 1 in a program built to count every access (tl_emu_count_dep: an instrumented file's constructor
 * calls __tsan_init); 0 in a correctness build, whose global counts see only the subscripts of a
 * kernel's pointer parameters and are not to be judged (README.md, "Work counters"). */
int tl_emu_counts_accesses(void);

/* What the cudaMalloc macro calls: name is the pointer expression as written, for diagnostics. */
cudaError_t tl_emu_malloc(void **devPtr, size_t size, size_t elem_size, const char *name,
                          const char *file, int line);

#ifdef __cplusplus
} /* extern "C" */
#endif

#ifndef __cplusplus
/* In C, name the buffer after the expression the caller wrote: cudaMalloc((void **)&d_M, n) -> "d_M". */
#define cudaMalloc(p, n) tl_emu_malloc((void **)(p), (n), 0, #p, __FILE__, __LINE__)
#define cudaMallocManaged(p, n, ...) tl_emu_malloc_managed((void **)(p), (n), 0, #p, __FILE__, __LINE__)
#endif

#endif /* TL_EMU_API_H */
