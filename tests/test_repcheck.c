/* test_repcheck.c: the decision whether a timed GPU repetition did the whole work (common/repcheck.h,
 * issue 24 item 4). The GPU timer cannot run here; its decision can, on the P a skipping, a
 * replaying and an honest launcher would leave. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "param.h"
#include "repcheck.h"
#include "tilelab.h"

#define RM 4
#define RN 5
#define CNT (RM * RN)

static float poison(void)
{
    uint32_t b = TL_POISON_BITS;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* the checked run's P: a product of small integers' sums, with a zero and a negative */
static void base_p(float *b)
{
    for (int i = 0; i < CNT; ++i)
        b[i] = (float)(i - 3) * 1.25f;
}

Test(repcheck, scale_alternates_and_depends_on_the_seed)
{
    for (unsigned seed = 0; seed < 4; ++seed)
        for (int r = 0; r < 10; ++r) {
            float s = tl_rep_scale(seed, r);
            cr_assert(s == 1.0f || s == 2.0f);
            cr_assert(s != tl_rep_scale(seed, r + 1), "neighbouring repetitions share a scale");
        }
    cr_assert(tl_rep_scale(0, 0) != tl_rep_scale(1, 0), "the seed decides where the alternation starts");
}

Test(repcheck, honest_repetition_passes_at_either_scale)
{
    float b[CNT], g[CNT];
    base_p(b);
    for (int s = 1; s <= 2; ++s) {
        for (int i = 0; i < CNT; ++i)
            g[i] = b[i] * (float)s;
        char why[300] = "";
        cr_assert_eq(tl_rep_check(b, g, CNT, RN, (float)s, TL_POISON_BITS, 0, why, sizeof why), TL_REP_OK);
    }
}

Test(repcheck, rounding_of_another_summation_order_passes)
{
    float b[CNT], g[CNT];
    base_p(b);
    for (int i = 0; i < CNT; ++i)
        g[i] = nextafterf(b[i] * 2.0f, INFINITY);   /* one ulp off: an atomic split-k's order */
    cr_assert_eq(tl_rep_check(b, g, CNT, RN, 2.0f, TL_POISON_BITS, 0, NULL, 0), TL_REP_OK);
}

Test(repcheck, skipped_launch_leaves_p_unwritten)
{
    float b[CNT], g[CNT];
    base_p(b);
    for (int i = 0; i < CNT; ++i)
        g[i] = poison();
    char why[400] = "";
    cr_assert_eq(tl_rep_check(b, g, CNT, RN, 1.0f, TL_POISON_BITS, 2, why, sizeof why), TL_REP_UNWRITTEN);
    cr_assert(strstr(why, "repetition 3 left P unwritten"), "%s", why);
    cr_assert(strstr(why, "20 of 20"), "%s", why);
}

Test(repcheck, partly_skipped_work_names_the_first_unwritten_element)
{
    float b[CNT], g[CNT];
    base_p(b);
    for (int i = 0; i < CNT; ++i)
        g[i] = i >= 7 ? poison() : b[i];   /* the grid covered only the first rows */
    char why[400] = "";
    cr_assert_eq(tl_rep_check(b, g, CNT, RN, 1.0f, TL_POISON_BITS, 0, why, sizeof why), TL_REP_UNWRITTEN);
    cr_assert(strstr(why, "row 1, column 2"), "%s", why);
}

Test(repcheck, remembered_answer_is_wrong_on_a_scaled_repetition)
{
    float b[CNT];
    base_p(b);
    char why[400] = "";
    /* the replayed answer is the checked one; this repetition's M was doubled */
    cr_assert_eq(tl_rep_check(b, b, CNT, RN, 2.0f, TL_POISON_BITS, 1, why, sizeof why), TL_REP_WRONG);
    cr_assert(strstr(why, "repetition 2's P is not the product of its inputs"), "%s", why);
    /* and a doubled answer replayed on an unscaled repetition */
    float g[CNT];
    for (int i = 0; i < CNT; ++i)
        g[i] = 2.0f * b[i];
    cr_assert_eq(tl_rep_check(b, g, CNT, RN, 1.0f, TL_POISON_BITS, 2, NULL, 0), TL_REP_WRONG);
}

Test(repcheck, a_nan_that_is_not_the_poison_is_wrong)
{
    float b[CNT], g[CNT];
    base_p(b);
    for (int i = 0; i < CNT; ++i)
        g[i] = b[i];
    g[5] = nanf("");   /* computed from a NaN, not left unwritten */
    cr_assert_eq(tl_rep_check(b, g, CNT, RN, 1.0f, TL_POISON_BITS, 0, NULL, 0), TL_REP_WRONG);
}

Test(repcheck, scaling_by_two_is_exact_for_any_summation_order)
{
    /* the premise the timer rests on: (2M)N == 2(MN) bit for bit, with FMA or without */
    float m[3] = {0.1f, -3.7f, 1e-3f}, n[3] = {7.3f, 0.33f, -12.5f};
    float a = 0, a2 = 0, f = 0, f2 = 0;
    for (int i = 0; i < 3; ++i) {
        a += m[i] * n[i];
        a2 += (2.0f * m[i]) * n[i];
        f = fmaf(m[2 - i], n[2 - i], f);
        f2 = fmaf(2.0f * m[2 - i], n[2 - i], f2);
    }
    cr_assert(a2 == 2.0f * a && f2 == 2.0f * f);
}
