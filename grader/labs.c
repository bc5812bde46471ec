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
            {"GMM_CPU_blocked Block 32 (cpu_blocked), public sizes", TG_CORRECT_PUBLIC, "cpu_blocked", 10},
            {"GMM_CPU_blocked Block 32 (cpu_blocked), hidden sizes", TG_CORRECT_HIDDEN, "cpu_blocked", 10},
            {"GMM_CPU_blocked Block 64 (cpu_blocked64), public sizes", TG_CORRECT_PUBLIC, "cpu_blocked64", 10},
            {"GMM_CPU_blocked Block 64 (cpu_blocked64), hidden sizes", TG_CORRECT_HIDDEN, "cpu_blocked64", 5},
            {"policy: no network, processes, files or asm (gmm.c)", TG_POLICY, NULL, 5},
        },
        .ntests = 9,
    },
    {
        .id = "02", .dir = "02-naive-kernel",
        .title = "The naive kernel: one thread per output element",
        .files = {"naive.cu", NULL},
        .target = "lab02", .binary = "labs/02-naive-kernel/lab02",
        .ref_target = "lab02-ref", .ref_binary = "solutions/02-naive-kernel/lab02-ref",
        .emu_target = "lab02-emu", .emu_binary = "labs/emulated/lab02-emu",
        .gpu = 1,
        .public_sizes = "1,15,17,100,255,256,1000,1024,4096",
        .hidden_count = 4, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1,
        .safety_sizes = "17,64", .speed_size = "2048", .speed_variant = "naive",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        .variants = {{"naive", 16, 1, 0}},          /* cublas: kit code, not graded */
        .nvariants = 1,
        .tests = {
            {"MatrixMulKernel (naive), public sizes", TG_CORRECT_PUBLIC, "naive", 35},
            {"MatrixMulKernel (naive), hidden sizes", TG_CORRECT_HIDDEN, "naive", 25},
            {"memory safety (memcheck, naive)", TG_MEMCHECK, "naive", 15},
            {"speed against the reference (naive)", TG_SPEED, "naive", 20},
            {"policy: no network, processes, files or asm (naive.cu)", TG_POLICY, NULL, 5},
        },
        .ntests = 5,
    },
    {
        .id = "03", .dir = "03-tiled-kernel",
        .title = "The tiled kernel: shared memory, phases, __syncthreads",
        .files = {"tiled.cu", NULL},
        .target = "lab03", .binary = "labs/03-tiled-kernel/lab03",
        .ref_target = "lab03-ref", .ref_binary = "solutions/03-tiled-kernel/lab03-ref",
        .emu_target = "lab03-emu", .emu_binary = "labs/emulated/lab03-emu",
        .gpu = 1,
        .public_sizes = "16,32,48,64,256,512,1024,2048,4096",
        .hidden_count = 4, .hidden_min = 32, .hidden_max = 1536, .hidden_multiple = 32,
        .safety_sizes = "32,64", .speed_size = "2048", .speed_variant = "tiled32",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        .variants = {{"tiled16", 16, 1, 16}, {"tiled32", 32, 1, 32}},   /* cublas: kit code */
        .nvariants = 2,
        .tests = {
            {"tiled kernel TILE_WIDTH 16 (tiled16), public sizes", TG_CORRECT_PUBLIC, "tiled16", 15},
            {"tiled kernel TILE_WIDTH 16 (tiled16), hidden sizes", TG_CORRECT_HIDDEN, "tiled16", 10},
            {"tiled kernel TILE_WIDTH 32 (tiled32), public sizes", TG_CORRECT_PUBLIC, "tiled32", 15},
            {"tiled kernel TILE_WIDTH 32 (tiled32), hidden sizes", TG_CORRECT_HIDDEN, "tiled32", 10},
            {"no shared-memory races (racecheck, tiled16)", TG_RACECHECK, "tiled16", 15},
            {"memory safety (memcheck, tiled32)", TG_MEMCHECK, "tiled32", 10},
            {"speed against the reference (tiled32)", TG_SPEED, "tiled32", 20},
            {"policy: no network, processes, files or asm (tiled.cu)", TG_POLICY, NULL, 5},
        },
        .ntests = 8,
    },
    {
        .id = "04", .dir = "04-boundary-handling",
        .title = "Boundary handling: any size, rectangular matrices",
        .files = {"boundary.cu", NULL},
        .target = "lab04", .binary = "labs/04-boundary-handling/lab04",
        .ref_target = "lab04-ref", .ref_binary = "solutions/04-boundary-handling/lab04-ref",
        .emu_target = "lab04-emu", .emu_binary = "labs/emulated/lab04-emu",
        .gpu = 1,
        .public_sizes = "1,15,17,31,33,97,257,1000,1023,1025,"
                        "1x1x1,1x300x1,300x1x300,1000x17x3,33x1025x65,17x33x49,4096x64x8,8x64x4096,"
                        "2000x3x2000",
        .hidden_count = 5, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1, .hidden_rect = 1,
        .safety_sizes = "17,45,33x17x9", .speed_size = "2048", .speed_variant = "boundary32",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        .variants = {{"boundary16", 16, 1, 0}, {"boundary32", 32, 1, 0}, {"rect16", 16, 0, 0},
                     {"rect32", 32, 0, 0}},
        .nvariants = 4,
        .tests = {
            {"boundary kernel TILE 16 (boundary16), public sizes", TG_CORRECT_PUBLIC, "boundary16", 8},
            {"boundary kernel TILE 16 (boundary16), hidden sizes", TG_CORRECT_HIDDEN, "boundary16", 7},
            {"boundary kernel TILE 32 (boundary32), public sizes", TG_CORRECT_PUBLIC, "boundary32", 8},
            {"boundary kernel TILE 32 (boundary32), hidden sizes", TG_CORRECT_HIDDEN, "boundary32", 7},
            {"rectangular kernel TILE 16 (rect16), public sizes", TG_CORRECT_PUBLIC, "rect16", 8},
            {"rectangular kernel TILE 16 (rect16), hidden ragged and rectangular sizes", TG_CORRECT_HIDDEN, "rect16", 10},
            {"rectangular kernel TILE 32 (rect32), public sizes", TG_CORRECT_PUBLIC, "rect32", 8},
            {"rectangular kernel TILE 32 (rect32), hidden ragged and rectangular sizes", TG_CORRECT_HIDDEN, "rect32", 10},
            {"no shared-memory races (racecheck, rect16)", TG_RACECHECK, "rect16", 7},
            {"memory safety at ragged edges (memcheck, rect32)", TG_MEMCHECK, "rect32", 7},
            {"speed against the reference (boundary32)", TG_SPEED, "boundary32", 15},
            {"policy: no network, processes, files or asm (boundary.cu)", TG_POLICY, NULL, 5},
        },
        .ntests = 12,
    },
    {
        /* Lab 05 has its own main (no --serve): part A is graded through the program's own
         * summary lines, run in the sandbox on the pristine build (rubric.md: a stated limit). */
        .id = "05", .dir = "05-occupancy-study",
        .title = "Occupancy: a calculator, then a measured sweep",
        .files = {"occupancy.c", NULL},               /* sweep.cu and devices.c are the kit's */
        .target = "lab05", .binary = "labs/05-occupancy-study/lab05",
        .ref_target = "lab05-ref", .ref_binary = "solutions/05-occupancy-study/lab05-ref",
        .gpu = 1,
        .public_sizes = NULL,
        .case_limit_s = 60.0, .sanitizer_limit_s = 120.0,
        .nvariants = 0,
        .tests = {
            {"occupancy calculator on known answers (part A, lab05 --calc)", TG_CALC, NULL, 60},
            {"occupancy calculator against the CUDA API (part A on the GPU)", TG_CALC_API, NULL, 35},
            {"policy: no network, processes, files or asm (occupancy.c)", TG_POLICY, NULL, 5},
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
