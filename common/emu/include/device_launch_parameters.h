/* device_launch_parameters.h: tilelab emulation mode shim; the emulated runtime is in tl_emu.h (common/emu/README.md). */
#include "tl_emu.h"
