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

tl_rep_result tl_rep_check(const float *base, const float *got, size_t count, int n, float scale,
                           unsigned poison_bits, int rep, char *why, size_t why_len)
{
    double maxabs = 0;
    for (size_t i = 0; i < count; ++i) {
        double a = fabs((double)base[i]);
        if (a > maxabs && isfinite(a))
            maxabs = a;
    }
    double floor_tol = 1e-3 * scale * maxabs;
    size_t unwritten = 0, wrong = 0, first_unwritten = count, first_wrong = count;
    for (size_t i = 0; i < count; ++i) {
        uint32_t bits;
        memcpy(&bits, &got[i], sizeof bits);
        if (bits == poison_bits) {
            if (!unwritten++)
                first_unwritten = i;
            continue;
        }
        double want = (double)scale * base[i], have = got[i];
        if (!(fabs(have - want) <= 1e-3 * fabs(want) + floor_tol) && !wrong++)
            first_wrong = i;
    }
    if (n < 1)
        n = 1;
    if (unwritten) {
        if (why && why_len)
            snprintf(why, why_len, "the timed runs did not all do the whole work: repetition %d left P "
                     "unwritten (%zu of %zu elements, the first at row %zu, column %zu, still held the "
                     "poison written before it): a launch was skipped", rep + 1, unwritten, count,
                     first_unwritten / (size_t)n, first_unwritten % (size_t)n);
        return TL_REP_UNWRITTEN;
    }
    if (wrong) {
        if (why && why_len)
            snprintf(why, why_len, "the timed runs did not all do the whole work: repetition %d's P is "
                     "not the product of its inputs (%zu of %zu elements, the first at row %zu, column "
                     "%zu; M was multiplied by %g for it): an answer remembered from an earlier run?",
                     rep + 1, wrong, count, first_wrong / (size_t)n, first_wrong % (size_t)n, scale);
        return TL_REP_WRONG;
    }
    return TL_REP_OK;
}
