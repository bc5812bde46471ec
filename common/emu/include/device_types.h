/* device_types.h: tilelab emulation mode shim, so that code including CUDA's header names builds as under nvcc;
 * what it declares is in tl_emu.h (common/emu/README.md). */
#include "tl_emu.h"
