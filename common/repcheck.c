/* repcheck.c: the decision whether a timed repetition did the whole work (repcheck.h). */
#include "repcheck.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

float tl_rep_scale(unsigned seed, int rep)
{
    /* alternate, starting where the seed says: neighbours always differ */
    return ((unsigned)rep + (seed & 1u)) % 2u ? 2.0f : 1.0f;
}

tl_rep_result tl_rep_decide(unsigned long long unwritten, unsigned long long first_unwritten,
                            unsigned long long wrong, unsigned long long first_wrong, size_t count,
                            int n, float scale, int rep, char *why, size_t why_len)
{
    unsigned long long cols = n < 1 ? 1 : (unsigned long long)n;
    if (unwritten) {
        if (why && why_len)
            snprintf(why, why_len, "the timed runs did not all do the whole work: repetition %d left P "
                     "unwritten (%llu of %zu elements, the first at row %llu, column %llu, still held the "
                     "poison written before it): a launch was skipped", rep + 1, unwritten, count,
                     first_unwritten / cols, first_unwritten % cols);
        return TL_REP_UNWRITTEN;
    }
    if (wrong) {
        if (why && why_len)
            snprintf(why, why_len, "the timed runs did not all do the whole work: repetition %d's P is "
                     "not the product of its inputs (%llu of %zu elements, the first at row %llu, column "
                     "%llu; M was multiplied by %g for it): an answer remembered from an earlier run, or a "
                     "result that changes from run to run (a race)",
                     rep + 1, wrong, count, first_wrong / cols, first_wrong % cols, scale);
        return TL_REP_WRONG;
    }
    return TL_REP_OK;
}

float tl_rep_tolerance(const float *base, size_t count, float scale)
{
    float maxabs = 0;
    for (size_t i = 0; i < count; ++i) {
        float a = fabsf(base[i]);
        if (a > maxabs && isfinite(a))
            maxabs = a;
    }
    return 1e-3f * scale * maxabs;
}

tl_rep_result tl_rep_check(const float *base, const float *got, size_t count, int n, float scale,
                           unsigned poison_bits, int rep, char *why, size_t why_len)
{
    float tol = tl_rep_tolerance(base, count, scale);
    unsigned long long unwritten = 0, wrong = 0, first_unwritten = 0, first_wrong = 0;
    for (size_t i = 0; i < count; ++i) {
        uint32_t bits;
        memcpy(&bits, &got[i], sizeof bits);
        tl_rep_result r = tl_rep_elem(bits, got[i], scale * base[i], tol, poison_bits);
        if (r == TL_REP_UNWRITTEN && !unwritten++)
            first_unwritten = i;
        else if (r == TL_REP_WRONG && !wrong++)
            first_wrong = i;
    }
    return tl_rep_decide(unwritten, first_unwritten, wrong, first_wrong, count, n, scale, rep, why, why_len);
}
