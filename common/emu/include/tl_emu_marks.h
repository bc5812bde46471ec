/* tl_emu_marks.h: the emulator's marks that the lab harness (common/driver.c, C) looks for in P, beside
 * TL_EMU_UNINIT_MARK (tl_emu_api.h). Not force-included: only the harness and the runtime read it.
 *
 * TL_EMU_PENDING_MARK: what a cp.async copy's destination holds from the copy's issue until the wait
 * that covers its group lands it (common/emu/src/pipeline.cpp): a quiet NaN with these bits (under
 * TL_EMU_UNINIT_MASK; no FPU produces them) and the copy's line in the low 20 bits (TL_EMU_UNINIT_LINE).
 * x86 keeps it through +, * and fma: a float of P whose bits, sign aside, match was computed from a
 * stage read before its copy landed (the harness names it: a race, with the line). */
#ifndef TL_EMU_MARKS_H
#define TL_EMU_MARKS_H
#define TL_EMU_PENDING_MARK 0x7FE00000u
#endif
