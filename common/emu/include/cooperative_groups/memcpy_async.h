/* cooperative_groups/memcpy_async.h: tilelab emulation mode shim: cg::memcpy_async, cg::wait and
 * cg::wait_prior are not emulated; a use fails at build, named (an unused include builds). */
#ifndef TL_EMU_CG_MEMCPY_ASYNC_H
#define TL_EMU_CG_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
#define TL_CG_NO_ASYNC(what)                                                                                \
    __attribute__((error("not supported under emulation: " what "; check this kernel on a GPU, or copy "   \
                         "the tile with plain loads and stores followed by a __syncthreads()")))
template <class G, class... A> TL_CG_NO_ASYNC("cg::memcpy_async") void memcpy_async(const G &, A &&...);
template <class G> TL_CG_NO_ASYNC("cg::wait") void wait(const G &);
template <unsigned N, class G> TL_CG_NO_ASYNC("cg::wait_prior") void wait_prior(const G &);
#undef TL_CG_NO_ASYNC
} /* namespace cooperative_groups */
#endif
