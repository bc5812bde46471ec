/* repcheck.h: did a timed repetition do the whole work? (issue 24 item 4)
 *
 * The GPU timer (device.cu, tl_gpu_case_time) poisons P before every timed repetition and
 * multiplies M by a power of two on some of them, both outside the CUDA-event interval; after
 * the repetition it downloads P and asks tl_rep_check whether P is the checked run's product times
 * that scale. Scaling M by 2 scales every product and every partial sum by 2 exactly in binary
 * floating point (no overflow at the labs' sizes), whatever the kernel's summation order, so the
 * expected P is the checked one times the scale. A launcher that skips a launch leaves the poison
 * (repetition "left P unwritten"); one that replays a remembered answer gives the answer for the
 * other inputs. Pure C, no CUDA: the decision is unit-tested on any machine (tests/test_repcheck.c). */
#ifndef TILELAB_REPCHECK_H
#define TILELAB_REPCHECK_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* The outcome of one repetition's check. */
typedef enum tl_rep_result {
    TL_REP_OK = 0,        /* P is the checked product times the scale                           */
    TL_REP_UNWRITTEN,     /* some element still holds the poison: the launch was skipped (or part) */
    TL_REP_WRONG          /* P is written but is not the product of this repetition's inputs      */
} tl_rep_result;

/* The power of two M is multiplied by on timed repetition rep (0-based), given a seed the timer
 * draws per case: 1 or 2, never the same on two neighbouring repetitions, so a remembered answer is
 * wrong on every other repetition at least. */
float tl_rep_scale(unsigned seed, int rep);

/* Compares got (the repetition's P, count floats) with scale * base (the checked run's P).
 * poison_bits: the bit pattern P was filled with before the repetition. An element is right when
 * |got - scale*base| <= 1e-3 * (|scale*base| + scale*maxabs(base)): loose enough for a kernel whose
 * order of summation varies between runs (atomics), far tighter than a factor of 2 or a stale
 * answer. On a failure, why (if why_len > 0) says what, naming repetition rep + 1 (1-based) and the
 * first wrong element's row and column (n columns). */
tl_rep_result tl_rep_check(const float *base, const float *got, size_t count, int n, float scale,
                           unsigned poison_bits, int rep, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
