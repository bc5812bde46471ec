/* cooperative_groups/scan.h: tilelab emulation mode shim: cg::inclusive_scan and cg::exclusive_scan are
 * not emulated; a use fails at build, named (an unused include builds). */
#ifndef TL_EMU_CG_SCAN_H
#define TL_EMU_CG_SCAN_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
#define TL_CG_NO_SCAN(what)                                                                                 \
    __attribute__((error("not supported under emulation: " what "; check this kernel on a GPU, or scan "   \
                         "with tile.shfl_up() in a loop, which is emulated")))
template <class G, class T, class... Op> TL_CG_NO_SCAN("cg::inclusive_scan") T inclusive_scan(const G &, T, Op...);
template <class G, class T, class... Op> TL_CG_NO_SCAN("cg::exclusive_scan") T exclusive_scan(const G &, T, Op...);
#undef TL_CG_NO_SCAN
} /* namespace cooperative_groups */
#endif
