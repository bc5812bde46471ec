/* labs.c: the grader's table of labs (see labs.h). The rubric here and grader/rubric.md hold the
 * same numbers; tests/test_grader.c fails when they drift apart. Public sizes must equal the
 * lab's default_sizes in labs/NN-name/lab.c (the same test runs `labNN --help` and compares). */
#include <string.h>

#include "labs.h"

const tg_lab tg_labs[] = {
    {
        .id = "01", .dir = "01-cpu-baseline",
        .title = "CPU baseline: the triple loop, memory order, cache blocking",
        .files = {"gmm.c", NULL},
        .target = "lab01", .binary = "labs/01-cpu-baseline/lab01",
        .ref_target = "lab01-ref", .ref_binary = "solutions/01-cpu-baseline/lab01-ref",
        .gpu = 0,
        .public_sizes = "1,2,17,64,100,128,255,300,512",
        .hidden_count = 4, .hidden_min = 3, .hidden_max = 400, .hidden_ragged = 1,
        .case_limit_s = 5.0,
        .variants = {{"cpu_ijk", 0, 1, 0}, {"cpu_ikj", 0, 1, 0}, {"cpu_blocked", 32, 1, 0},
                     {"cpu_blocked64", 64, 1, 0}},
        .nvariants = 4,
        .tests = {
            {"GMM_CPU (cpu_ijk), public sizes", TG_CORRECT_PUBLIC, "cpu_ijk", 20},
            {"GMM_CPU (cpu_ijk), hidden sizes", TG_CORRECT_HIDDEN, "cpu_ijk", 10},
            {"GMM_CPU_ikj (cpu_ikj), public sizes", TG_CORRECT_PUBLIC, "cpu_ikj", 20},
            {"GMM_CPU_ikj (cpu_ikj), hidden sizes", TG_CORRECT_HIDDEN, "cpu_ikj", 10},
            {"GMM_CPU_blocked Block 32 (cpu_blocked), public sizes", TG_CORRECT_PUBLIC, "cpu_blocked", 15},
            {"GMM_CPU_blocked Block 32 (cpu_blocked), hidden sizes", TG_CORRECT_HIDDEN, "cpu_blocked", 10},
            {"GMM_CPU_blocked Block 64 (cpu_blocked64), public sizes", TG_CORRECT_PUBLIC, "cpu_blocked64", 10},
            {"GMM_CPU_blocked Block 64 (cpu_blocked64), hidden sizes", TG_CORRECT_HIDDEN, "cpu_blocked64", 5},
        },
        .ntests = 8,
    },
    {
        .id = "02", .dir = "02-naive-kernel",
        .title = "The naive kernel: one thread per output element",
        .files = {"naive.cu", NULL},
        .target = "lab02", .binary = "labs/02-naive-kernel/lab02",
        .ref_target = "lab02-ref", .ref_binary = "solutions/02-naive-kernel/lab02-ref",
        .emu_target = "lab02-emu", .emu_binary = "labs/02-naive-kernel/lab02-emu",
        .gpu = 1,
        .public_sizes = "1,17,64,100,256,1000,1024",
        .hidden_count = 4, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1,
        .safety_sizes = "17,64", .speed_size = "2048", .speed_variant = "naive",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        .variants = {{"naive", 16, 1, 0}},
        .nvariants = 1,
        .tests = {
            {"MatrixMulKernel (naive), public sizes", TG_CORRECT_PUBLIC, "naive", 35},
            {"MatrixMulKernel (naive), hidden sizes", TG_CORRECT_HIDDEN, "naive", 25},
            {"memory safety (memcheck)", TG_MEMCHECK, "naive", 15},
            {"speed against the reference (naive)", TG_SPEED, "naive", 25},
        },
        .ntests = 4,
    },
    {
        .id = "03", .dir = "03-tiled-kernel",
        .title = "The tiled kernel: shared memory, phases, __syncthreads",
        .files = {"tiled.cu", NULL},
        .target = "lab03", .binary = "labs/03-tiled-kernel/lab03",
        .ref_target = "lab03-ref", .ref_binary = "solutions/03-tiled-kernel/lab03-ref",
        .emu_target = "lab03-emu", .emu_binary = "labs/03-tiled-kernel/lab03-emu",
        .gpu = 1,
        .public_sizes = "32,64,256,512,1024",
        .hidden_count = 4, .hidden_min = 32, .hidden_max = 1536, .hidden_multiple = 32,
        .safety_sizes = "32,64", .speed_size = "2048", .speed_variant = "tiled32",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        .variants = {{"tiled16", 16, 1, 16}, {"tiled32", 32, 1, 32}},
        .nvariants = 2,
        .tests = {
            {"tiled kernel TILE_WIDTH 16 (tiled16), public sizes", TG_CORRECT_PUBLIC, "tiled16", 15},
            {"tiled kernel TILE_WIDTH 16 (tiled16), hidden sizes", TG_CORRECT_HIDDEN, "tiled16", 10},
            {"tiled kernel TILE_WIDTH 32 (tiled32), public sizes", TG_CORRECT_PUBLIC, "tiled32", 15},
            {"tiled kernel TILE_WIDTH 32 (tiled32), hidden sizes", TG_CORRECT_HIDDEN, "tiled32", 10},
            {"no shared-memory races (racecheck, tiled16)", TG_RACECHECK, "tiled16", 15},
            {"memory safety (memcheck, tiled32)", TG_MEMCHECK, "tiled32", 10},
            {"speed against the reference (tiled32)", TG_SPEED, "tiled32", 25},
        },
        .ntests = 7,
    },
    {
        .id = "04", .dir = "04-boundary-handling",
        .title = "Boundary handling: any size, rectangular matrices",
        .files = {"boundary.cu", NULL},
        .target = "lab04", .binary = "labs/04-boundary-handling/lab04",
        .ref_target = "lab04-ref", .ref_binary = "solutions/04-boundary-handling/lab04-ref",
        .emu_target = "lab04-emu", .emu_binary = "labs/04-boundary-handling/lab04-emu",
        .gpu = 1,
        .public_sizes = "1,17,100,255,1000,1024",
        .hidden_count = 5, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1, .hidden_rect = 1,
        .safety_sizes = "17,45", .speed_size = "2000", .speed_variant = "boundary32",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        .variants = {{"boundary16", 16, 1, 0}, {"boundary32", 32, 1, 0}, {"rect16", 16, 0, 0}},
        .nvariants = 3,
        .tests = {
            {"boundary kernel TILE 16 (boundary16), public sizes", TG_CORRECT_PUBLIC, "boundary16", 10},
            {"boundary kernel TILE 16 (boundary16), hidden sizes", TG_CORRECT_HIDDEN, "boundary16", 10},
            {"boundary kernel TILE 32 (boundary32), public sizes", TG_CORRECT_PUBLIC, "boundary32", 10},
            {"boundary kernel TILE 32 (boundary32), hidden sizes", TG_CORRECT_HIDDEN, "boundary32", 10},
            {"rectangular kernel (rect16), public sizes", TG_CORRECT_PUBLIC, "rect16", 10},
            {"rectangular kernel (rect16), hidden ragged and rectangular sizes", TG_CORRECT_HIDDEN, "rect16", 15},
            {"no shared-memory races (racecheck, rect16)", TG_RACECHECK, "rect16", 10},
            {"memory safety at ragged edges (memcheck, rect16)", TG_MEMCHECK, "rect16", 10},
            {"speed against the reference (boundary32)", TG_SPEED, "boundary32", 15},
        },
        .ntests = 9,
    },
    {
        .id = "05", .dir = "05-occupancy-study",
        .title = "Occupancy: a calculator, then a measured sweep",
        .files = {"occupancy.c", "sweep.cu", NULL},
        .target = "lab05", .binary = "labs/05-occupancy-study/lab05",
        .ref_target = "lab05-ref", .ref_binary = "solutions/05-occupancy-study/lab05-ref",
        .emu_target = "lab05-emu", .emu_binary = "labs/05-occupancy-study/lab05-emu",
        .gpu = 1,
        .public_sizes = "256,1024",
        .hidden_count = 2, .hidden_min = 64, .hidden_max = 1024, .hidden_multiple = 32,
        .safety_sizes = "64", .speed_size = NULL, .speed_variant = NULL,
        .case_limit_s = 30.0, .sanitizer_limit_s = 120.0,
        .variants = {{"sweep_t16", 16, 1, 16}},
        .nvariants = 1,
        .tests = {
            {"occupancy calculator against the device tables (part A)", TG_CALC, NULL, 50},
            {"sweep kernel (sweep_t16), public sizes", TG_CORRECT_PUBLIC, "sweep_t16", 30},
            {"sweep kernel (sweep_t16), hidden sizes", TG_CORRECT_HIDDEN, "sweep_t16", 20},
        },
        .ntests = 3,
    },
};
const int tg_nlabs = (int)(sizeof tg_labs / sizeof tg_labs[0]);

const tg_lab *tg_lab_find(const char *id)
{
    if (!id || !*id)
        return NULL;
    for (int i = 0; i < tg_nlabs; ++i) {
        const tg_lab *l = &tg_labs[i];
        if (strcmp(id, l->id) == 0 || strcmp(id, l->dir) == 0)
            return l;
        if (id[1] == '\0' && l->id[0] == '0' && id[0] == l->id[1])   /* "1" for "01" */
            return l;
    }
    return NULL;
}

const tg_variant *tg_variant_find(const tg_lab *lab, const char *name)
{
    for (int i = 0; i < lab->nvariants; ++i)
        if (strcmp(lab->variants[i].name, name) == 0)
            return &lab->variants[i];
    return NULL;
}

double tg_lab_points(const tg_lab *lab)
{
    double s = 0;
    for (int i = 0; i < lab->ntests; ++i)
        s += lab->tests[i].points;
    return s;
}

int tg_is_student_file(const tg_lab *lab, const char *name)
{
    for (int i = 0; i < TG_MAX_FILES && lab->files[i]; ++i)
        if (strcmp(lab->files[i], name) == 0)
            return 1;
    return 0;
}

double tg_speed_credit(double ratio)
{
    if (!(ratio > 0))
        return 0;
    if (ratio <= TG_SPEED_FULL)
        return 1.0;
    if (ratio >= TG_SPEED_ZERO)
        return 0.0;
    return (TG_SPEED_ZERO - ratio) / (TG_SPEED_ZERO - TG_SPEED_FULL);
}
