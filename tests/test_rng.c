/* test_rng.c: the generator is PCG32 exactly, deterministic, and fills matrices as promised. */
#include <criterion/criterion.h>
#include <math.h>

#include "tilelab.h"

Test(rng, matches_the_pcg32_reference_sequence, .timeout = 10)
{
    /* pcg32-demo (pcg-random.org) seeds with (42, 54) and prints these first values. */
    static const uint32_t expected[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
    tl_rng r;
    tl_rng_seed(&r, 42u, 54u);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
        uint32_t v = tl_rng_next(&r);
        cr_assert_eq(v, expected[i], "output %zu: got 0x%08x, expected 0x%08x", i, v, expected[i]);
    }
}

Test(rng, same_seed_gives_the_same_matrix_and_another_seed_another, .timeout = 10)
{
    tl_matrix a, b, c;
    cr_assert_eq(tl_matrix_alloc(&a, "A", 37, 53), 0);
    cr_assert_eq(tl_matrix_alloc(&b, "B", 37, 53), 0);
    cr_assert_eq(tl_matrix_alloc(&c, "C", 37, 53), 0);
    tl_matrix_fill_random(&a, 7, 1);
    tl_matrix_fill_random(&b, 7, 1);
    tl_matrix_fill_random(&c, 8, 1);
    cr_assert_eq(memcmp(a.data, b.data, sizeof(float) * 37 * 53), 0, "same seed, different data");
    cr_assert_neq(memcmp(a.data, c.data, sizeof(float) * 37 * 53), 0, "different seeds, same data");
    tl_matrix_fill_random(&c, 7, 2);
    cr_assert_neq(memcmp(a.data, c.data, sizeof(float) * 37 * 53), 0, "different streams, same data");
    tl_matrix_free(&a); tl_matrix_free(&b); tl_matrix_free(&c);
}

Test(rng, a_seed_gives_the_same_values_on_every_machine, .timeout = 10)
{
    /* Pinned: a change here changes every published case. */
    tl_matrix a;
    tl_matrix_alloc(&a, "A", 2, 3);
    tl_matrix_fill_random(&a, TL_DEFAULT_SEED, 1);
    uint64_t h = 1469598103934665603ull;   /* FNV-1a over the bits */
    for (int i = 0; i < 6; ++i) {
        uint32_t bits;
        memcpy(&bits, &a.data[i], 4);
        for (int b = 0; b < 4; ++b) {
            h ^= (bits >> (8 * b)) & 0xff;
            h *= 1099511628211ull;
        }
    }
    cr_assert_eq(h, 0x81c497d9a5086e28ull, "hash 0x%016llx", (unsigned long long)h);
    tl_matrix_free(&a);
}

Test(rng, values_lie_in_minus_one_to_one_and_use_the_whole_range, .timeout = 10)
{
    tl_rng r;
    tl_rng_seed(&r, 1, 1);
    float lo = 2, hi = -2;
    for (int i = 0; i < 200000; ++i) {
        float v = tl_rng_unit(&r);
        cr_assert(v >= -1.0f && v <= 1.0f, "value %g outside [-1, 1]", v);
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
    }
    cr_assert_lt(lo, -0.999f);
    cr_assert_gt(hi, 0.999f);
}

Test(rng, fills_are_neither_constant_nor_symmetric, .timeout = 10)
{
    for (int w = 2; w <= 5; ++w) {
        tl_matrix a;
        tl_matrix_alloc(&a, "A", w, w);
        for (uint64_t seed = 0; seed < 200; ++seed) {
            tl_matrix_fill_random(&a, seed, 1);
            int sym = 1, cons = 1;
            for (int i = 0; i < w; ++i)
                for (int j = 0; j < w; ++j) {
                    sym &= a.data[i * w + j] == a.data[j * w + i];
                    cons &= a.data[i * w + j] == a.data[0];
                }
            cr_assert(!sym && !cons, "seed %llu, %dx%d: symmetric %d constant %d", (unsigned long long)seed, w, w, sym, cons);
        }
        tl_matrix_free(&a);
    }
}

Test(matrix, poison_and_guards_catch_writes_outside, .timeout = 10)
{
    tl_matrix a;
    const char *where;
    tl_matrix_alloc(&a, "P", 4, 4);
    cr_assert(isnan(a.data[0]), "a new matrix is poisoned with NaN");
    cr_assert_eq(tl_matrix_guards_broken(&a, &where), 0);
    a.data[16] = 0.0f;    /* one past the end */
    cr_assert_eq(tl_matrix_guards_broken(&a, &where), 1);
    cr_assert_str_eq(where, "after");
    a.data[-1] = 0.0f;
    cr_assert_eq(tl_matrix_guards_broken(&a, &where), 2);
    cr_assert_str_eq(where, "before and after");
    tl_matrix_free(&a);
}
