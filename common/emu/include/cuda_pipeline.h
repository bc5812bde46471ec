/* cuda_pipeline.h: tilelab emulation mode shim: the cp.async primitives (__pipeline_memcpy_async,
 * __pipeline_commit, __pipeline_wait_prior) with a GPU's semantics (common/emu/src/pipeline.cpp): a
 * copy lands when the issuing thread's wait covers its commit group, not at its issue; its zero fill;
 * the waits' counts checked. __pipeline_arrive_on (copies completing on an mbarrier) is not emulated:
 * a use fails at build, named. cuda::memcpy_async and cuda::pipeline (<cuda/pipeline>) are not emulated
 * either (that header does not exist here). Diagnostics name the caller's line (__builtin_FILE/LINE). */
#ifndef TL_EMU_CUDA_PIPELINE_H
#define TL_EMU_CUDA_PIPELINE_H
#include "tl_emu.h"

namespace tl_emu {
void pipe_copy(void *dst, const void *src, size_t size, size_t zfill, const char *file, int line);
void pipe_commit(const char *file, int line);
void pipe_wait_prior(size_t n, const char *file, int line);
} /* namespace tl_emu */

static inline void __pipeline_memcpy_async(void *__restrict__ dst_shared, const void *__restrict__ src_global,
                                           size_t size_and_align, size_t zfill = 0,
                                           const char *tl_file_ = __builtin_FILE(), int tl_line_ = __builtin_LINE()) {
    tl_emu::pipe_copy(dst_shared, src_global, size_and_align, zfill, tl_file_, tl_line_);
}
static inline void __pipeline_commit(const char *tl_file_ = __builtin_FILE(), int tl_line_ = __builtin_LINE()) {
    tl_emu::pipe_commit(tl_file_, tl_line_);
}
static inline void __pipeline_wait_prior(size_t prior, const char *tl_file_ = __builtin_FILE(),
                                         int tl_line_ = __builtin_LINE()) {
    tl_emu::pipe_wait_prior(prior, tl_file_, tl_line_);
}
__attribute__((error("not supported under emulation: __pipeline_arrive_on (cp.async completing on an mbarrier); "
                     "check this kernel on a GPU, or wait with __pipeline_commit and __pipeline_wait_prior, which are "
                     "emulated"))) void __pipeline_arrive_on(uint64_t *bar);
#endif
