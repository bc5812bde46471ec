/* known.c: lab 05's judging (kit-owned): the known configurations with their answers, the
 * request and answer lines of `lab05 --serve` (fd 3 in, fd 4 out), and the comparison of an answer
 * with the reference that names what is wrong. lab.c (--calc, --serve) and the grader (tl-grade,
 * which holds the reference calculator itself) both use it, so both say the same thing.
 *
 * The answers below were computed by the reference solution and are kept equal to it by
 * tests/test_occupancy.c; each case's note is what it teaches (the README discusses them). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

/* device, carve-out (0: the device's largest), {threads, registers, shared bytes}, note,
 * rc, blocks, limit, {by threads, warps, blocks, registers, shared memory}, registers per warp,
 * shared memory per block after rounding, active warps. */
const tl_occ_known tl_occ_known_cases[] = {
    {&tl_occ_a100, 0, {256, 32, 2048},
     "lecture, Ampere TILE 16: threads allow 8; shared memory 54 (the lecture's 82 ignores the 1 KiB reserve)",
     0, 8, 0, {8, 8, 32, 8, 54}, 1024, 3072, 64},
    {&tl_occ_a100, 0, {1024, 32, 8192},
     "lecture, Ampere TILE 32: threads allow 2; shared memory 18 (lecture: 20)",
     0, 2, 0, {2, 2, 32, 2, 18}, 1024, 9216, 64},
    {&tl_occ_fermi, 0, {256, 20, 2048},
     "lecture, Fermi TILE 16: 6 blocks, not 8: 1536 threads per SM",
     0, 6, 0, {6, 6, 8, 6, 24}, 640, 2048, 48},
    {&tl_occ_fermi, 0, {1024, 20, 8192},
     "lecture, Fermi TILE 32: 1 block, not 2 or 6: 1536 threads per SM; occupancy 32 of 48 warps",
     0, 1, 0, {1, 1, 8, 1, 6}, 640, 8192, 32},
    {&tl_occ_fermi, 0, {256, 36, 2048},
     "Fermi, 36 registers: 1152 per warp, 28 warps fit: 3 blocks",
     0, 3, 3, {6, 6, 8, 3, 24}, 1152, 2048, 24},
    {&tl_occ_fermi, 0, {128, 21, 0},
     "Fermi, 21 registers: 672 per warp rounds up to Fermi's unit of 64 (704), not 256: registers allow 11",
     0, 8, 2, {12, 12, 8, 11, TL_OCC_NO_LIMIT}, 704, 0, 32},
    {&tl_occ_fermi, 0, {256, 4, 0},
     "Fermi, 4 registers: 6 blocks of 8 warps: 48 of 48 warps, occupancy 100%",
     0, 6, 0, {6, 6, 8, 32, TL_OCC_NO_LIMIT}, 128, 0, 48},
    {&tl_occ_fermi, 0, {192, 4, 0},
     "Fermi, 192 threads: 8 blocks of 6 warps = 48 warps, occupancy 100%",
     0, 8, 0, {8, 8, 8, 42, TL_OCC_NO_LIMIT}, 128, 0, 48},
    {&tl_occ_fermi, 0, {160, 8, 0},
     "Fermi, 160 threads: 8 blocks of 5 warps = 40 of 48 warps: occupancy 83%, a fraction",
     0, 8, 2, {9, 9, 8, 25, TL_OCC_NO_LIMIT}, 256, 0, 40},
    {&tl_occ_fermi, 0, {128, 0, 0},
     "Fermi, a kernel with 0 registers: registers do not limit it (no division by zero)",
     0, 8, 2, {12, 12, 8, TL_OCC_NO_LIMIT, TL_OCC_NO_LIMIT}, 0, 0, 32},
    {&tl_occ_h100, 0, {256, 32, 2048},
     "H100 TILE 16: full occupancy",
     0, 8, 0, {8, 8, 32, 8, 76}, 1024, 3072, 64},
    {&tl_occ_h100, 0, {256, 64, 2048},
     "H100, 64 registers: half occupancy",
     0, 4, 3, {8, 8, 32, 4, 76}, 2048, 3072, 32},
    {&tl_occ_h100, 0, {256, 33, 2048},
     "H100, 33 registers: 1056 per warp rounds up to the unit of 256 (1280): 6 blocks, not 7",
     0, 6, 3, {8, 8, 32, 6, 76}, 1280, 3072, 48},
    {&tl_occ_h100, 0, {96, 40, 0},
     "H100, 40 registers, 3-warp blocks: each of the 4 register partitions holds 12 warps of 1280: 16 blocks, not 17",
     0, 16, 3, {21, 21, 32, 16, 228}, 1280, 1024, 48},
    {&tl_occ_h100, 0, {256, 0, 0},
     "H100, a kernel with 0 registers: registers do not limit it (no division by zero)",
     0, 8, 0, {8, 8, 32, TL_OCC_NO_LIMIT, 228}, 0, 1024, 64},
    {&tl_occ_h100, 0, {256, 32, 51200},
     "H100, 48 KiB extra shared memory: 4 blocks",
     0, 4, 4, {8, 8, 32, 8, 4}, 1024, 52224, 32},
    {&tl_occ_h100, 0, {161, 32, 0},
     "H100, 161 threads are 6 warps: warps allow 10 blocks, threads alone 12",
     0, 10, 1, {12, 10, 32, 10, 228}, 1024, 1024, 60},
    {&tl_occ_h100, 0, {32, 16, 0},
     "H100, one-warp blocks: 32 blocks per SM, half occupancy",
     0, 32, 2, {64, 64, 32, 128, 228}, 512, 1024, 32},
    {&tl_occ_h100, 102400, {256, 32, 30000},
     "H100 with a 100 KiB shared-memory carve-out: 30000 + 1024 B round up to 31104: 3 blocks",
     0, 3, 4, {8, 8, 32, 8, 3}, 1024, 31104, 24},
    {&tl_occ_h100, 65536, {128, 32, 16384},
     "H100 with a 64 KiB carve-out: 16 KiB + 1 KiB reserve per block: 3 blocks",
     0, 3, 4, {16, 16, 32, 16, 3}, 1024, 17408, 12},
    {&tl_occ_h100, 0, {1024, 72, 0},
     "H100, 1024 threads x 72 registers: 32 warps x 2304 = 73728 registers, more than the 65536 one block may hold: refused",
     -1, 0, 0, {0, 0, 0, 0, 0}, 0, 0, 0},
    {&tl_occ_t4, 0, {1024, 32, 8192},
     "T4 TILE 32: 1024 threads per SM",
     0, 1, 0, {1, 1, 16, 2, 8}, 1024, 8192, 32},
    {&tl_occ_t4, 0, {256, 32, 2100},
     "T4, 2100 B of shared memory round up to T4's unit of 256 (2304), not 128: shared memory allows 28",
     0, 4, 0, {4, 4, 16, 8, 28}, 1024, 2304, 32},
    {&tl_occ_t4, 0, {1024, 65, 0},
     "T4, 1024 threads x 65 registers: 32 warps x 2304 registers exceed the 65536 one block may hold: refused",
     -1, 0, 0, {0, 0, 0, 0, 0}, 0, 0, 0},
    {&tl_occ_t4, 32768, {256, 32, 12000},
     "T4 with a 32 KiB carve-out: 12000 B round up to 12032: 2 blocks",
     0, 2, 4, {4, 4, 16, 8, 2}, 1024, 12032, 16},
    {&tl_occ_rtx3090, 0, {256, 32, 2048},
     "sm_86 TILE 16: 1536 threads per SM",
     0, 6, 0, {6, 6, 16, 8, 33}, 1024, 3072, 48},
    {&tl_occ_rtx3090, 0, {64, 128, 0},
     "sm_86, 128 registers: 4096 per warp, 4 per partition: 8 blocks of 2 warps",
     0, 8, 3, {24, 24, 16, 8, 100}, 4096, 1024, 16},
    {&tl_occ_a100, 0, {256, 0, 0},
     "A100, 0 registers and no shared memory: the 1 KiB reserve still counts: 8 blocks (threads)",
     0, 8, 0, {8, 8, 32, TL_OCC_NO_LIMIT, 164}, 0, 1024, 64},
    {&tl_occ_h100, 0, {2048, 32, 0},
     "2048 threads in one block: refused",
     -1, 0, 0, {0, 0, 0, 0, 0}, 0, 0, 0},
    {&tl_occ_h100, 0, {256, 32, 240000},
     "234 KiB in one block: refused",
     -1, 0, 0, {0, 0, 0, 0, 0}, 0, 0, 0},
    {&tl_occ_h100, 0, {256, 32, 232000},
     "H100, 232000 B in one block: at most the 227 KiB (232448 B) one block may ask for, so it runs; the "
     "1 KiB reserve is added after the per-block limit (232000 + 1024 round up to 233088 of the SM's 228 KiB): 1 block",
     0, 1, 4, {8, 8, 32, 8, 1}, 1024, 233088, 8},
    {&tl_occ_fermi, 0, {256, 64, 0},
     "64 registers on Fermi (max 63): refused",
     -1, 0, 0, {0, 0, 0, 0, 0}, 0, 0, 0},
};
const int tl_occ_nknown = (int)(sizeof tl_occ_known_cases / sizeof tl_occ_known_cases[0]);

void tl_occ_known_device(const tl_occ_known *c, tl_occ_device *d)
{
    *d = *c->dev;
    if (c->smem_per_sm > 0)
        d->smem_per_sm = c->smem_per_sm;
}

void tl_occ_known_result(const tl_occ_known *c, tl_occ_result *r)
{
    memset(r, 0, sizeof *r);
    r->blocks_per_sm = c->blocks;
    r->limit = c->limit;
    r->by_threads = c->by[0];
    r->by_warps = c->by[1];
    r->by_blocks = c->by[2];
    r->by_registers = c->by[3];
    r->by_smem = c->by[4];
    r->regs_per_warp = c->regs_per_warp;
    r->smem_alloc = c->smem_alloc;
    r->active_warps = c->active_warps;
    r->occupancy = c->rc == 0 ? (double)c->active_warps / c->dev->max_warps_per_sm : 0;
    if (c->rc != 0)
        snprintf(r->why, sizeof r->why, "%s", c->note);   /* the refusal's reason, as the case states it */
}

/* ------------------------------------------------------------------ the wire (fd 3, fd 4) */

int tl_occ_request_line(char *buf, size_t len, const tl_occ_device *d, const tl_occ_kernel *k)
{
    return snprintf(buf, len, "occ %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", d->cc, d->warp_size,
                    d->max_threads_per_block, d->max_threads_per_sm, d->max_warps_per_sm, d->max_blocks_per_sm,
                    d->regs_per_sm, d->regs_per_block, d->max_regs_per_thread, d->reg_alloc_unit,
                    d->reg_partitions, d->smem_per_sm, d->smem_per_block, d->smem_alloc_unit,
                    d->smem_reserved_per_block, k->threads_per_block, k->regs_per_thread, k->smem_per_block);
}

int tl_occ_request_parse(const char *line, tl_occ_device *d, tl_occ_kernel *k)
{
    memset(d, 0, sizeof *d);
    memset(k, 0, sizeof *k);
    int used = 0;
    if (sscanf(line, "occ %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d%n", &d->cc, &d->warp_size,
               &d->max_threads_per_block, &d->max_threads_per_sm, &d->max_warps_per_sm, &d->max_blocks_per_sm,
               &d->regs_per_sm, &d->regs_per_block, &d->max_regs_per_thread, &d->reg_alloc_unit,
               &d->reg_partitions, &d->smem_per_sm, &d->smem_per_block, &d->smem_alloc_unit,
               &d->smem_reserved_per_block, &k->threads_per_block, &k->regs_per_thread, &k->smem_per_block,
               &used) != 18 || used == 0)
        return -1;
    d->name = "served";
    for (int i = 0; tl_occ_devices[i]; ++i)
        if (tl_occ_devices[i]->cc == d->cc)
            d->name = tl_occ_devices[i]->name;
    return d->warp_size > 0 && d->max_warps_per_sm > 0 ? 0 : -1;
}

static void put_int(char *b, size_t l, int v)
{
    if (v == TL_OCC_NO_LIMIT)
        snprintf(b, l, "-");
    else
        snprintf(b, l, "%d", v);
}

int tl_occ_answer_line(char *buf, size_t len, int rc, const tl_occ_result *r)
{
    if (rc != 0) {
        char why[sizeof r->why];
        snprintf(why, sizeof why, "%s", r->why[0] ? r->why : "(no reason given)");
        for (char *p = why; *p; ++p)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        return snprintf(buf, len, "refused %s\n", why);
    }
    char v[5][16];
    put_int(v[0], sizeof v[0], r->by_threads);
    put_int(v[1], sizeof v[1], r->by_warps);
    put_int(v[2], sizeof v[2], r->by_blocks);
    put_int(v[3], sizeof v[3], r->by_registers);
    put_int(v[4], sizeof v[4], r->by_smem);
    return snprintf(buf, len, "ok %d %d %s %s %s %s %s %d %d %d %.17g\n", r->blocks_per_sm, (int)r->limit, v[0], v[1],
                    v[2], v[3], v[4], r->regs_per_warp, r->smem_alloc, r->active_warps, r->occupancy);
}

static int get_int(const char *s, int *v)
{
    if (strcmp(s, "-") == 0) {
        *v = TL_OCC_NO_LIMIT;
        return 0;
    }
    char *end;
    long x = strtol(s, &end, 10);
    if (*end || end == s || x < INT_MIN || x > INT_MAX)
        return -1;
    *v = (int)x;
    return 0;
}

int tl_occ_answer_parse(const char *line, int *rc, tl_occ_result *r)
{
    memset(r, 0, sizeof *r);
    if (strncmp(line, "refused", 7) == 0 && (line[7] == ' ' || line[7] == '\n' || !line[7])) {
        *rc = -1;
        snprintf(r->why, sizeof r->why, "%s", line[7] ? line + 8 : "");
        r->why[strcspn(r->why, "\n")] = '\0';
        return 0;
    }
    char f[11][32];
    double occ;
    int n = sscanf(line, "ok %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %lf", f[0], f[1], f[2], f[3], f[4],
                   f[5], f[6], f[7], f[8], f[9], &occ);
    if (n != 11)
        return -1;
    int v[10];
    for (int i = 0; i < 10; ++i)
        if (get_int(f[i], &v[i]) != 0)
            return -1;
    if (v[1] < TL_OCC_THREADS || v[1] > TL_OCC_SHARED_MEMORY)
        return -1;
    *rc = 0;
    r->blocks_per_sm = v[0];
    r->limit = (tl_occ_limit)v[1];
    r->by_threads = v[2];
    r->by_warps = v[3];
    r->by_blocks = v[4];
    r->by_registers = v[5];
    r->by_smem = v[6];
    r->regs_per_warp = v[7];
    r->smem_alloc = v[8];
    r->active_warps = v[9];
    r->occupancy = occ;
    return 0;
}

/* ------------------------------------------------------------------ comparing two answers */

void tl_occ_describe(char *buf, size_t len, const tl_occ_device *d, const tl_occ_kernel *k)
{
    const tl_occ_device *base = NULL;
    for (int i = 0; tl_occ_devices[i]; ++i)
        if (tl_occ_devices[i]->cc == d->cc)
            base = tl_occ_devices[i];
    char carve[64] = "";
    if (base && base->smem_per_sm != d->smem_per_sm)
        snprintf(carve, sizeof carve, " with a %d KiB shared-memory carve-out", d->smem_per_sm / 1024);
    snprintf(buf, len, "%s%s, %d threads, %d registers, %d B shared", base ? base->name : "a device", carve,
             k->threads_per_block, k->regs_per_thread, k->smem_per_block);
}

static int round_to(long x, int unit)
{
    return unit > 0 ? (int)((x + unit - 1) / unit * unit) : (int)x;
}

static const char *lim_str(int v, char *b, size_t l)
{
    if (v == TL_OCC_NO_LIMIT)
        snprintf(b, l, "no limit (INT_MAX)");
    else
        snprintf(b, l, "%d", v);
    return b;
}

int tl_occ_compare(const tl_occ_device *d, const tl_occ_kernel *k, int want_rc, const tl_occ_result *want,
                   int got_rc, const tl_occ_result *got, char *why, size_t whylen)
{
    int warps = d->warp_size > 0 ? (k->threads_per_block + d->warp_size - 1) / d->warp_size : 1;
    char a[32], b[32];
    if (want_rc != 0 && got_rc != 0)
        return 0;
    if (want_rc != 0) {
        if (strstr(want->why, "one block may hold"))
            snprintf(why, whylen, "must be refused: a block needing more registers than regs_per_block is refused "
                     "(the registers-per-block refusal: its %d warps, rounded up to a multiple of reg_partitions, "
                     "times the registers per warp) [%s]; got %d blocks", warps, want->why, got->blocks_per_sm);
        else
            snprintf(why, whylen, "must be refused (%s); got %d blocks", want->why, got->blocks_per_sm);
        return 1;
    }
    if (got_rc != 0) {
        snprintf(why, whylen, "refused (\"%s\"), but a block can run: expected %d blocks (%s)", got->why,
                 want->blocks_per_sm, tl_occ_limit_name(want->limit));
        return 1;
    }
    /* Registers first: the usual culprits, named by the value a known mistake would give. */
    long raw = (long)k->regs_per_thread * d->warp_size;
    if (got->regs_per_warp != want->regs_per_warp) {
        if (got->regs_per_warp == raw)
            snprintf(why, whylen, "registers per warp %d, expected %d: the register allocation granularity is "
                     "ignored (%d x %d = %ld, rounded up to reg_alloc_unit %d)", got->regs_per_warp,
                     want->regs_per_warp, k->regs_per_thread, d->warp_size, raw, d->reg_alloc_unit);
        else if (got->regs_per_warp == round_to(raw, 256) && d->reg_alloc_unit != 256)
            snprintf(why, whylen, "registers per warp %d, expected %d: the README's 256 is used, but this device's "
                     "reg_alloc_unit is %d (devices.c): read the limits from the tl_occ_device fields",
                     got->regs_per_warp, want->regs_per_warp, d->reg_alloc_unit);
        else
            snprintf(why, whylen, "registers per warp %d, expected %d (%d x %d rounded up to reg_alloc_unit %d)",
                     got->regs_per_warp, want->regs_per_warp, k->regs_per_thread, d->warp_size, d->reg_alloc_unit);
        return 1;
    }
    if (got->by_registers != want->by_registers) {
        if (k->regs_per_thread == 0)
            snprintf(why, whylen, "registers allow %s, expected %s: a kernel with 0 registers is not limited by "
                     "registers (INT_MAX, and no division by zero)", lim_str(got->by_registers, a, sizeof a),
                     lim_str(want->by_registers, b, sizeof b));
        else if (want->regs_per_warp > 0 && got->by_registers == d->regs_per_sm / want->regs_per_warp / warps &&
                 d->reg_partitions > 1)
            snprintf(why, whylen, "registers allow %d, expected %d: the register file's %d partitions are ignored "
                     "(a partition holds whole warps: %d / %d / %d per partition)", got->by_registers,
                     want->by_registers, d->reg_partitions, d->regs_per_sm, d->reg_partitions, want->regs_per_warp);
        else if (d->reg_partitions != 4 && want->regs_per_warp > 0 &&
                 got->by_registers == d->regs_per_sm / 4 / want->regs_per_warp * 4 / warps)
            snprintf(why, whylen, "registers allow %d, expected %d: the README's 4 partitions are used, but this "
                     "device's reg_partitions is %d (devices.c): read the limits from the tl_occ_device fields",
                     got->by_registers, want->by_registers, d->reg_partitions);
        else
            snprintf(why, whylen, "registers allow %s blocks, expected %s", lim_str(got->by_registers, a, sizeof a),
                     lim_str(want->by_registers, b, sizeof b));
        return 1;
    }
    if (got->smem_alloc != want->smem_alloc || got->by_smem != want->by_smem) {
        long ask = (long)k->smem_per_block + d->smem_reserved_per_block;
        if (got->smem_alloc == round_to(ask, 128) && d->smem_alloc_unit != 128)
            snprintf(why, whylen, "shared memory per block %d, expected %d: the README's 128 is used, but this "
                     "device's smem_alloc_unit is %d (devices.c): read the limits from the tl_occ_device fields",
                     got->smem_alloc, want->smem_alloc, d->smem_alloc_unit);
        else if (got->smem_alloc != want->smem_alloc)
            snprintf(why, whylen, "shared memory per block %d, expected %d (%d + the %d B reserve, rounded up to "
                     "smem_alloc_unit %d)", got->smem_alloc, want->smem_alloc, k->smem_per_block,
                     d->smem_reserved_per_block, d->smem_alloc_unit);
        else
            snprintf(why, whylen, "shared memory allows %s blocks, expected %s (smem_per_sm %d / %d)",
                     lim_str(got->by_smem, a, sizeof a), lim_str(want->by_smem, b, sizeof b), d->smem_per_sm,
                     want->smem_alloc);
        return 1;
    }
    static const char *const names[] = {"threads", "warps", "blocks"};
    const int g3[] = {got->by_threads, got->by_warps, got->by_blocks};
    const int w3[] = {want->by_threads, want->by_warps, want->by_blocks};
    for (int i = 0; i < 3; ++i)
        if (g3[i] != w3[i]) {
            snprintf(why, whylen, "%s allow %s blocks, expected %s (max_threads_per_sm %d, max_warps_per_sm %d, "
                     "max_blocks_per_sm %d in devices.c)", names[i], lim_str(g3[i], a, sizeof a),
                     lim_str(w3[i], b, sizeof b), d->max_threads_per_sm, d->max_warps_per_sm, d->max_blocks_per_sm);
            return 1;
        }
    if (got->blocks_per_sm != want->blocks_per_sm || got->limit != want->limit) {
        snprintf(why, whylen, "%d blocks (%s), expected %d (%s): the smallest of the five, and on a tie the first "
                 "in tl_occ_limit's order", got->blocks_per_sm, tl_occ_limit_name(got->limit), want->blocks_per_sm,
                 tl_occ_limit_name(want->limit));
        return 1;
    }
    if (got->active_warps != want->active_warps) {
        snprintf(why, whylen, "%d active warps, expected %d (blocks x %d warps per block)", got->active_warps,
                 want->active_warps, warps);
        return 1;
    }
    if (!(fabs(got->occupancy - want->occupancy) <= 1e-9)) {
        if (got->occupancy == (double)(want->active_warps / d->max_warps_per_sm))
            snprintf(why, whylen, "occupancy %g, expected %.4f: occupancy by integer division (%d / %d in int is "
                     "%d); divide as double", got->occupancy, want->occupancy, want->active_warps,
                     d->max_warps_per_sm, want->active_warps / d->max_warps_per_sm);
        else
            snprintf(why, whylen, "occupancy %g, expected %.4f (active warps %d / max_warps_per_sm %d)",
                     got->occupancy, want->occupancy, want->active_warps, d->max_warps_per_sm);
        return 1;
    }
    return 0;
}
