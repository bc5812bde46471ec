/* speed.c: the kernel ladder: every GPU lab's reference kernels, the kit's own rungs (ladder.cu) and
 * cuBLAS in one program, so one run times them on the same inputs, the same GPU and the same clocks
 * (instructor/lecturer tool, not a lab).
 *
 * Build:  part of the instructor edition (solutions/) when CUDA is on: build/solutions/speed/speed-ref
 * Run:    build/solutions/speed/speed-ref                          Width 4096, every rung
 *         build/solutions/speed/speed-ref --sizes 2049,4096 --records speed.csv
 * The lab binaries' options all work (--variants, --reps, --repeat, ...): it is one more tl_lab.
 *
 * How a lab joins, with nothing to edit here: solutions/speed/meson.build compiles each GPU lab's
 * own lab.c (from the lab list, labs/meson.build) with `-Dmain=tl_speed_lab_NN -Dtl_lab_run=
 * tl_speed_collect` and links it with the lab's reference units; TL_SPEED_LABS lists them as
 * X(NN). At start-up each renamed main hands its code array to tl_speed_collect instead of running,
 * and the ladder's order and facts come from the lab table (tl_ladder, common/labtable.c): the
 * labs' variants in table order, the kit's rungs where the table places them, cuBLAS last.
 */
#include <string.h>

#include "tilelab.h"

/* ladder.cu: the kit's own rungs, already in the harness's launcher shape. */
int launch_ladder_naive_rows(const float *, const float *, float *, int, int, int, const void *);
int launch_ladder_naive_ldcg(const float *, const float *, float *, int, int, int, const void *);
int launch_ladder_tiled32_conflict(const float *, const float *, float *, int, int, int, const void *);
int launch_ladder_tiled32_pad(const float *, const float *, float *, int, int, int, const void *);

static const tl_lab_code kit_rungs[] = {
    {"naive_rows", .gpu = launch_ladder_naive_rows},
    {"naive_ldcg", .gpu = launch_ladder_naive_ldcg},
    {"tiled32_conflict", .gpu = launch_ladder_tiled32_conflict},
    {"tiled32_pad", .gpu = launch_ladder_tiled32_pad},
};

/* The labs' code, as their lab.c hand it over (tl_speed_collect). */
#define MAX_CODE 64
static tl_lab_code collected[MAX_CODE];
static int ncollected;
static void (*collected_preamble)(FILE *out);

int tl_speed_collect(const char *id, const tl_lab_code *code, int ncode, void (*preamble)(FILE *out),
                     int argc, char **argv);
int tl_speed_collect(const char *id, const tl_lab_code *code, int ncode, void (*preamble)(FILE *out),
                     int argc, char **argv)
{
    (void)id; (void)argc; (void)argv;
    for (int i = 0; i < ncode && ncollected < MAX_CODE; ++i)
        collected[ncollected++] = code[i];
    if (preamble && !collected_preamble)
        collected_preamble = preamble;
    return 0;
}

#define X(NN) int tl_speed_lab_##NN(int argc, char **argv);
TL_SPEED_LABS
#undef X

static const tl_lab_code *code_of(const char *name)
{
    for (size_t i = 0; i < sizeof kit_rungs / sizeof kit_rungs[0]; ++i)
        if (strcmp(kit_rungs[i].variant, name) == 0)
            return &kit_rungs[i];
    for (int i = 0; i < ncollected; ++i)
        if (strcmp(collected[i].variant, name) == 0 && collected[i].gpu)
            return &collected[i];
    return NULL;
}

int main(int argc, char **argv)
{
    char *none[] = {NULL};
#define X(NN) tl_speed_lab_##NN(0, none);
    TL_SPEED_LABS
#undef X
    const tl_lab_variant *facts[TL_LAB_MAX_VARIANTS * 16];
    static tl_variant rungs[TL_LAB_MAX_VARIANTS * 16];
    int nfacts = tl_ladder(facts, NULL, (int)(sizeof facts / sizeof facts[0])), n = 0;
    for (int i = 0; i < nfacts; ++i) {
        const tl_lab_code *c = code_of(facts[i]->name);
        if (c)   /* a lab without a reference here, or cuBLAS not built: not a rung */
            rungs[n++] = (tl_variant){.f = facts[i], .gpu = c->gpu, .ctx = c->ctx};
    }
    const tl_lab lab = {
        .id = "speed",
        .name = "speed",
        .title = "the kernel ladder: every GPU lab's reference, the kit's rungs and cuBLAS",
        .variants = rungs,
        .nvariants = n,
        .default_sizes = "4096",
        .preamble = collected_preamble,
    };
    return tl_lab_main(&lab, argc, argv);
}
