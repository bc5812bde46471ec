/* tests/bench/libclang-prelude.h: force-included after tl_emu.h for the libclang trial
 * (libclang-trial.py): the emulator's shim headers declare the runtime (dim3, threadIdx, cudaMalloc...)
 * for the host compiler and define the CUDA qualifiers away; this turns the qualifiers back into
 * clang's CUDA attributes and declares what a launch and a barrier need, so that clang's AST holds
 * them. Not a header set for CUDA code: the shim's functions stay host functions, which device code
 * may not call (most of the trial's errors); `#pragma clang force_cuda_host_device` over the shim
 * fails on libstdc++ ("CUDA device code does not support variadic functions"). */
#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __constant__
#undef __managed__
#undef __syncthreads
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
extern "C" __attribute__((device)) void __syncthreads(void);
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void *stream = 0);
