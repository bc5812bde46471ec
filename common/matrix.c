/* matrix.c: host matrices in allocations of their own, with canaries on both sides. */
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"

static float canary_value(void)
{
    float f;
    uint32_t bits = TL_CANARY_BITS;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static int is_canary(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits == TL_CANARY_BITS;
}

int tl_matrix_alloc(tl_matrix *m, const char *name, int rows, int cols)
{
    if (tl_matrix_alloc_unfilled(m, name, rows, cols) != 0)
        return -1;
    tl_matrix_poison(m);
    return 0;
}

int tl_matrix_alloc_unfilled(tl_matrix *m, const char *name, int rows, int cols)
{
    memset(m, 0, sizeof *m);
    if (rows < 1 || cols < 1 || rows > TL_MAX_DIM || cols > TL_MAX_DIM)
        return -1;
    size_t count = (size_t)rows * (size_t)cols;
    size_t total = count + 2 * (size_t)TL_GUARD_FLOATS;
    m->base = malloc(total * sizeof(float));
    if (!m->base)
        return -1;
    m->rows = rows;
    m->cols = cols;
    m->data = m->base + TL_GUARD_FLOATS;
    snprintf(m->name, sizeof m->name, "%s", name ? name : "?");
    float c = canary_value();
    for (size_t i = 0; i < TL_GUARD_FLOATS; ++i) {
        m->base[i] = c;
        m->data[count + i] = c;
    }
    return 0;
}

void tl_matrix_free(tl_matrix *m)
{
    free(m->base);
    memset(m, 0, sizeof *m);
}

size_t tl_matrix_count(const tl_matrix *m)
{
    return (size_t)m->rows * (size_t)m->cols;
}

void tl_matrix_poison(tl_matrix *m)
{
    size_t count = tl_matrix_count(m);
    /* Bits no FPU computes, so the checker can tell "never written" from a computed NaN. */
    uint32_t bits = TL_POISON_BITS;
    for (size_t i = 0; i < count; ++i)
        memcpy(&m->data[i], &bits, sizeof bits);
}

static int is_constant(const tl_matrix *m)
{
    size_t count = tl_matrix_count(m);
    for (size_t i = 1; i < count; ++i)
        if (m->data[i] != m->data[0])
            return 0;
    return 1;
}

static int is_symmetric(const tl_matrix *m)
{
    if (m->rows != m->cols)
        return 0;
    for (int i = 0; i < m->rows; ++i)
        for (int j = i + 1; j < m->cols; ++j)
            if (m->data[(size_t)i * m->cols + j] != m->data[(size_t)j * m->cols + i])
                return 0;
    return 1;
}

void tl_matrix_fill_random(tl_matrix *m, uint64_t seed, uint64_t stream)
{
    size_t count = tl_matrix_count(m);
    tl_rng r;
    tl_rng_seed(&r, seed, stream);
    for (;;) {
        for (size_t i = 0; i < count; ++i)
            m->data[i] = tl_rng_unit(&r);
        /* A 1x1 matrix is trivially "constant" and "symmetric": nothing to redraw. */
        if (count == 1 || (!is_constant(m) && !is_symmetric(m)))
            return;
    }
}

/* Each element to the nearest BF16 value (8 significant bits; ties to even), kept as a float. */
void tl_matrix_round_bf16(tl_matrix *m)
{
    size_t count = tl_matrix_count(m);
    for (size_t i = 0; i < count; ++i) {
        uint32_t b;
        memcpy(&b, &m->data[i], sizeof b);
        if ((b & 0x7F800000u) != 0x7F800000u) {   /* finite: inputs are in [-1, 1] */
            b += 0x7FFFu + ((b >> 16) & 1u);
            b &= 0xFFFF0000u;
        }
        memcpy(&m->data[i], &b, sizeof b);
    }
}

int tl_matrix_guards_broken(const tl_matrix *m, const char **where)
{
    size_t count = tl_matrix_count(m);
    int before = 0, after = 0;
    for (size_t i = 0; i < TL_GUARD_FLOATS; ++i) {
        before += !is_canary(m->base[i]);
        after += !is_canary(m->data[count + i]);
    }
    if (where)
        *where = before && after ? "before and after" : before ? "before" : after ? "after" : "";
    return before + after;
}
