/* rng.c: PCG32, the kit's portable generator.
 *
 * Melissa O'Neill's PCG32 (XSH RR variant, pcg-random.org): the state advances by a 64-bit LCG
 * (multiplier 6364136223846793005) and the output is a xorshifted, rotated top half. Only
 * unsigned integer arithmetic, so a (seed, stream) gives the same sequence on every machine
 * and compiler. tests/test_rng.c pins the first outputs of a known seed.
 */
#include "tilelab.h"

void tl_rng_seed(tl_rng *r, uint64_t seed, uint64_t stream)
{
    r->state = 0;
    r->inc = (stream << 1u) | 1u;
    (void)tl_rng_next(r);
    r->state += seed;
    (void)tl_rng_next(r);
}

uint32_t tl_rng_next(tl_rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

float tl_rng_unit(tl_rng *r)
{
    /* 24 random bits -> an integer in [0, 2^24], mapped to [-1, 1] in steps of 2^-23. */
    uint32_t v = tl_rng_next(r) >> 8;          /* 0 .. 2^24 - 1 */
    int32_t  s = (int32_t)v - (1 << 23);       /* -2^23 .. 2^23 - 1 */
    if (s == -(1 << 23) && (tl_rng_next(r) & 1u))
        s = 1 << 23;                           /* reach +1 too, keep the range symmetric */
    return (float)s / (float)(1 << 23);
}
