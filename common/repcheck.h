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

#ifdef __CUDACC__
#define TL_REP_HD __host__ __device__
#else
#define TL_REP_HD
#endif

/* One element's rule, the same on the host (tl_rep_check) and on the GPU (device.cu's check kernel,
 * so the check costs a kernel and a few bytes of download, not a download of P: the grader's
 * wall-clock plausibility test, grader/judges.c, still sees the runs' own time). got_bits: the
 * element's bits; want = scale * the checked element; tol = 1e-3 * scale * maxabs(checked). */
static inline TL_REP_HD tl_rep_result tl_rep_elem(unsigned got_bits, float got, float want, float tol,
                                                  unsigned poison_bits)
{
    if (got_bits == poison_bits)
        return TL_REP_UNWRITTEN;
    float d = got - want, a = want < 0 ? -want : want;
    if (d < 0)
        d = -d;
    return d <= 1e-3f * a + tol ? TL_REP_OK : TL_REP_WRONG;   /* NaN: not <=, so wrong */
}

/* What a repetition's counts mean (0 ok, else the result) and, on a failure, the words: which
 * repetition (rep, 0-based, named 1-based), how many elements of count, the first one's row and
 * column (n columns), the scale M had. */
tl_rep_result tl_rep_decide(unsigned long long unwritten, unsigned long long first_unwritten,
                            unsigned long long wrong, unsigned long long first_wrong, size_t count,
                            int n, float scale, int rep, char *why, size_t why_len);

/* The power of two M is multiplied by on timed repetition rep (0-based), given a seed the timer
 * draws per case: 1 or 2, never the same on two neighbouring repetitions, so a remembered answer is
 * wrong on every other repetition at least. */
float tl_rep_scale(unsigned seed, int rep);

/* 1e-3 * scale * the largest finite |base|: the absolute part of tl_rep_elem's tolerance. */
float tl_rep_tolerance(const float *base, size_t count, float scale);

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
