/* tl_emu_pch.h: the precompiled header of the student's emulated programs (labs/emulated/meson.build):
 * tl_emu.h, which every emulated unit force-includes, parsed once per target instead of once per
 * compile of the student's file (issue 29: GCC's parsing was about three quarters of a counting
 * twin's compile). Same flags as the target's, so the same code; where the PCH cannot be used GCC
 * parses the header as before (-Winvalid-pch says so). */
#include "tl_emu.h"
