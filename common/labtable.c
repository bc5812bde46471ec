/* labtable.c: the labs' facts, one entry per lab (labtable.h says who reads them). The public sizes,
 * the variants' constraints, the rubric's tests and points, the hidden-size rules and the limits
 * live here and nowhere else: grader/rubric.md is written from this file (tl-lab rubric) and a
 * test fails when the two differ. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "labtable.h"

/* Build paths follow from the id and the folder (labs/meson.build, solutions/meson.build,
 * labs/emulated/meson.build name the programs the same way). */
#define TL_LAB_BUILDS(ID, DIR) \
    .id = ID, .dir = DIR, .binary = "labs/" DIR "/lab" ID, .ref_binary = "solutions/" DIR "/lab" ID "-ref"
#define TL_LAB_EMULATED(ID) \
    .emu_target = "lab" ID "-emu", .emu_binary = "labs/emulated/lab" ID "-emu", \
    .emu_ref_binary = "labs/emulated/lab" ID "-ref-emu"
/* A lab's variants and rubric tests, counted by the compiler: no count is kept by hand. */
#define TL_VARIANTS(...) \
    .variants = {__VA_ARGS__}, .nvariants = (int)(sizeof (tl_lab_variant[]){__VA_ARGS__} / sizeof(tl_lab_variant))
#define TL_TESTS(...) \
    .tests = {__VA_ARGS__}, .ntests = (int)(sizeof (tl_lab_test[]){__VA_ARGS__} / sizeof(tl_lab_test))
#define TL_POLICY_TEST(FILE) \
    {.name = "policy: no network, processes, files or asm (" FILE ")", .kind = TL_TEST_POLICY, .points = 5}

#define TL_LAB03_HINT "the tiled kernel of lab 03 needs Width a multiple of TILE_WIDTH; lab 04 handles any size"
#define TL_LAB04_HINT "MatrixMulKernel takes one Width; the rect variants take m x k x n"

const tl_lab_variant tl_yardstick_cublas = {
    .name = "cublas", .what = "cuBLAS SGEMM (FP32), the yardstick (kit code)", .on_gpu = 1,
};

const tl_lab_info tl_labs[] = {
    {
        TL_LAB_BUILDS("01", "01-cpu-baseline"),
        .title = "CPU baseline: the triple loop, memory order, cache blocking",
        .writes = "`GMM_CPU`, the i-k-j loop order, a cache-blocked version",
        .files = {"gmm.c", NULL},
        .gpu = 0,
        .public_sizes = "1,2,17,64,100,128,255,300,512",
        .hidden_count = 4, .hidden_min = 3, .hidden_max = 400, .hidden_ragged = 1,
        .case_limit_s = 5.0,
        TL_VARIANTS(
            {.name = "cpu_ijk", .what = "GMM_CPU: the lecture's i-j-k triple loop", .square_only = 1,
             .max_time_size = 1024},
            {.name = "cpu_ikj", .what = "GMM_CPU_ikj: i-k-j order, memory-order inner loop", .square_only = 1,
             .max_time_size = 2048},
            {.name = "cpu_blocked", .what = "GMM_CPU_blocked, Block 32", .tile = 32, .square_only = 1,
             .max_time_size = 2048},
            {.name = "cpu_blocked64", .what = "GMM_CPU_blocked, Block 64", .tile = 64, .square_only = 1,
             .max_time_size = 2048}
        ),
        TL_TESTS(
            {.name = "GMM_CPU (cpu_ijk), public sizes", .kind = TL_TEST_PUBLIC, .variant = "cpu_ijk",
             .points = 20},
            {.name = "GMM_CPU (cpu_ijk), hidden sizes", .kind = TL_TEST_HIDDEN, .variant = "cpu_ijk",
             .points = 10},
            {.name = "GMM_CPU_ikj (cpu_ikj), public sizes", .kind = TL_TEST_PUBLIC, .variant = "cpu_ikj",
             .points = 20},
            {.name = "GMM_CPU_ikj (cpu_ikj), hidden sizes", .kind = TL_TEST_HIDDEN, .variant = "cpu_ikj",
             .points = 10},
            {.name = "GMM_CPU_blocked Block 32 (cpu_blocked), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "cpu_blocked", .points = 10, .what = "incl. partial last blocks"},
            {.name = "GMM_CPU_blocked Block 32 (cpu_blocked), hidden sizes", .kind = TL_TEST_HIDDEN,
             .variant = "cpu_blocked", .points = 10},
            {.name = "GMM_CPU_blocked Block 64 (cpu_blocked64), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "cpu_blocked64", .points = 10},
            {.name = "GMM_CPU_blocked Block 64 (cpu_blocked64), hidden sizes", .kind = TL_TEST_HIDDEN,
             .variant = "cpu_blocked64", .points = 5},
            TL_POLICY_TEST("gmm.c")
        ),
        .rubric_notes =
            "The solution needs 0.2 s for 512 on the build machine; memory 1 GiB per case.\n"
            "No speed test: CPU timings on shared grading machines are too noisy to grade; the lab's own\n"
            "table (`./kit check 01`, `lab01 --records`) is for the student's report.\n",
    },
    {
        TL_LAB_BUILDS("02", "02-naive-kernel"), TL_LAB_EMULATED("02"),
        .title = "The naive kernel: one thread per output element",
        .writes = "one thread per element of P, the launch, a device query",
        .files = {"naive.cu", NULL},
        .gpu = 1,
        /* Non-multiples of 16 on both sides of a block edge, then 4096 for speed. */
        .public_sizes = "1,15,17,100,255,256,1000,1024,4096",
        .yardstick = "cublas",
        .hidden_count = 4, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1,
        .safety_sizes = "17,64", .speed_size = "2048",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        TL_VARIANTS(
            {.name = "naive", .what = "MatrixMulKernel: one thread per element of P, 16x16 blocks", .on_gpu = 1,
             .tile = 16, .square_only = 1,
             .refuse_hint = "this kernel takes one Width; rectangular products are lab 04's"}
        ),
        TL_TESTS(
            {.name = "MatrixMulKernel (naive), public sizes", .kind = TL_TEST_PUBLIC, .variant = "naive",
             .points = 30},
            {.name = "MatrixMulKernel (naive), hidden sizes", .kind = TL_TEST_HIDDEN, .variant = "naive",
             .points = 20},
            {.name = "memory safety (memcheck, naive)", .kind = TL_TEST_MEMCHECK, .variant = "naive",
             .points = 15},
            {.name = "speed against the reference (naive)", .kind = TL_TEST_SPEED, .variant = "naive",
             .points = 20},
            /* Task 3: every fact of the fixed format (common/devfacts.h) against the kit's own query. */
            {.name = "device query (print_device_facts)", .kind = TL_TEST_DEVFACTS, .points = 10},
            TL_POLICY_TEST("naive.cu")
        ),
        .rubric_notes =
            "The device query's lines (`device: ...`, `sms: 132`, ..., `peak bandwidth: 3352.3 GB/s`; the format\n"
            "is in `labs/02-naive-kernel/README.md`) are read from what `print_device_facts` writes to its FILE*,\n"
            "never from the program's stdout; other lines are ignored; each wrong or missing fact is named with\n"
            "its likely cause (the factor 2 of double data rate, per block for per SM, MHz labelled kHz). Without\n"
            "a GPU and without an emulated build the test is not graded. `./kit check 02` runs it.\n",
        /* the naive kernel loads 2 elements per multiply-add; half of that is the least allowed */
        .work = {.kernel = 1, .min_loads_per_fma = 1.0},
    },
    {
        TL_LAB_BUILDS("03", "03-tiled-kernel"), TL_LAB_EMULATED("03"),
        .title = "The tiled kernel: shared memory, phases, __syncthreads",
        .writes = "the shared-memory tiled kernel, TILE_WIDTH 16 and 32",
        .files = {"tiled.cu", NULL},
        .gpu = 1,
        /* One tile, a few tiles, many phases; 16 and 48 are refused by tiled32 by design. */
        .public_sizes = "16,32,48,64,256,512,1024,2048,4096",
        /* Three checked runs per case: a missing __syncthreads rarely gives the same bits twice. */
        .repeat = 3,
        .yardstick = "cublas",
        .hidden_count = 4, .hidden_min = 32, .hidden_max = 1536, .hidden_multiple = 32,
        .safety_sizes = "32,64", .speed_size = "2048",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        TL_VARIANTS(
            {.name = "tiled16", .what = "tiled MatrixMulKernel, TILE_WIDTH 16", .on_gpu = 1, .tile = 16,
             .square_only = 1, .multiple_of = 16, .refuse_hint = TL_LAB03_HINT},
            {.name = "tiled32", .what = "tiled MatrixMulKernel, TILE_WIDTH 32", .on_gpu = 1, .tile = 32,
             .square_only = 1, .multiple_of = 32, .refuse_hint = TL_LAB03_HINT}
        ),
        TL_TESTS(
            {.name = "tiled kernel TILE_WIDTH 16 (tiled16), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "tiled16", .points = 15},
            {.name = "tiled kernel TILE_WIDTH 16 (tiled16), hidden sizes", .kind = TL_TEST_HIDDEN,
             .variant = "tiled16", .points = 10},
            {.name = "tiled kernel TILE_WIDTH 32 (tiled32), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "tiled32", .points = 15},
            {.name = "tiled kernel TILE_WIDTH 32 (tiled32), hidden sizes", .kind = TL_TEST_HIDDEN,
             .variant = "tiled32", .points = 10},
            {.name = "no shared-memory races (racecheck, tiled16)", .kind = TL_TEST_RACECHECK,
             .variant = "tiled16", .points = 15},
            {.name = "memory safety (memcheck, tiled32)", .kind = TL_TEST_MEMCHECK, .variant = "tiled32",
             .points = 10},
            {.name = "speed against the reference (tiled32)", .kind = TL_TEST_SPEED, .variant = "tiled32",
             .points = 20},
            TL_POLICY_TEST("tiled.cu")
        ),
        /* The lecture's kernel loads exactly the tiled count; lab 02's loads T/2 times more. */
        .work = {.kernel = 1, .tiled = 1, .tolerance = 1.5},
    },
    {
        TL_LAB_BUILDS("04", "04-boundary-handling"), TL_LAB_EMULATED("04"),
        .title = "Boundary handling: any size, rectangular matrices",
        .writes = "the tiled kernel for any size, then rectangular",
        .files = {"boundary.cu", NULL},
        .gpu = 1,
        /* Square: 1, T-1 and T+1 for both tile widths, primes, around 1024. Rectangular (refused
         * by the square variants by design): vectors, outer products, tall and skinny shapes. */
        .public_sizes = "1,15,17,31,33,97,257,1000,1023,1025,"
                        "1x1x1,1x300x1,300x1x300,1000x17x3,33x1025x65,17x33x49,4096x64x8,8x64x4096,"
                        "2000x3x2000",
        .repeat = 3,
        .hidden_count = 5, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1, .hidden_rect = 1,
        .safety_sizes = "17,45,33x17x9", .speed_size = "2048",
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        TL_VARIANTS(
            {.name = "boundary16", .what = "MatrixMulKernel for any Width, TILE_WIDTH 16", .on_gpu = 1,
             .tile = 16, .square_only = 1, .refuse_hint = TL_LAB04_HINT},
            {.name = "boundary32", .what = "MatrixMulKernel for any Width, TILE_WIDTH 32", .on_gpu = 1,
             .tile = 32, .square_only = 1, .refuse_hint = TL_LAB04_HINT},
            {.name = "rect16", .what = "MatrixMulKernelRect, m x k x n, TILE_WIDTH 16", .on_gpu = 1, .tile = 16,
             .off_ladder = 1},
            {.name = "rect32", .what = "MatrixMulKernelRect, m x k x n, TILE_WIDTH 32", .on_gpu = 1, .tile = 32,
             .off_ladder = 1}
        ),
        TL_TESTS(
            {.name = "boundary kernel TILE 16 (boundary16), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "boundary16", .points = 8},
            {.name = "boundary kernel TILE 16 (boundary16), hidden sizes", .kind = TL_TEST_HIDDEN,
             .variant = "boundary16", .points = 7},
            {.name = "boundary kernel TILE 32 (boundary32), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "boundary32", .points = 8},
            {.name = "boundary kernel TILE 32 (boundary32), hidden sizes", .kind = TL_TEST_HIDDEN,
             .variant = "boundary32", .points = 7},
            {.name = "rectangular kernel TILE 16 (rect16), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "rect16", .points = 8},
            {.name = "rectangular kernel TILE 16 (rect16), hidden ragged and rectangular sizes",
             .kind = TL_TEST_HIDDEN, .variant = "rect16", .points = 10},
            {.name = "rectangular kernel TILE 32 (rect32), public sizes", .kind = TL_TEST_PUBLIC,
             .variant = "rect32", .points = 8},
            {.name = "rectangular kernel TILE 32 (rect32), hidden ragged and rectangular sizes",
             .kind = TL_TEST_HIDDEN, .variant = "rect32", .points = 10},
            {.name = "no shared-memory races (racecheck, rect16)", .kind = TL_TEST_RACECHECK,
             .variant = "rect16", .points = 7},
            {.name = "memory safety at ragged edges (memcheck, rect32)", .kind = TL_TEST_MEMCHECK,
             .variant = "rect32", .points = 7},
            {.name = "speed against the reference (boundary32)", .kind = TL_TEST_SPEED, .variant = "boundary32",
             .points = 15},
            TL_POLICY_TEST("boundary.cu")
        ),
        .work = {.kernel = 1, .tiled = 1, .tolerance = 1.5},
    },
    {
        /* Lab 05 has its own main; its --serve answers one occupancy question per line (lab.h). The
         * grader asks the student's calculator and compares with its own answers (known.c, and the
         * reference calculator compiled into tl-grade for the hidden configurations). */
        TL_LAB_BUILDS("05", "05-occupancy-study"),
        .title = "Occupancy: a calculator, then a measured sweep",
        .writes = "an occupancy calculator in C, a measured sweep",
        .checked_on = "CPU part anywhere, sweep on GPU",
        .files = {"occupancy.c", NULL},               /* sweep.cu and devices.c are the kit's */
        /* devices.c's devices and names (lab.h offers them); never known.c's answers */
        .kit_calls = "tl_occ_fermi tl_occ_t4 tl_occ_a100 tl_occ_rtx3090 tl_occ_h100 tl_occ_devices "
                     "tl_occ_limit_name tl_occ_describe",
        .gpu = 1,
        .own_main = 1, .own_main_size = 2048,
        .case_limit_s = 60.0, .sanitizer_limit_s = 120.0,
        TL_TESTS(
            {.name = "occupancy calculator on known and hidden configurations", .kind = TL_TEST_CALC,
             .points = 60,
             .what = "`lab05 --serve`, any machine: the known configurations of `known.c` and hidden ones from the " "secret seed (every GPU of `devices.c`, carve-out steps, 0 registers, register granularity, " "per-block refusals), each answer compared with the grader's own; points x right/asked"},
            {.name = "occupancy calculator against the CUDA API (part A on the GPU)", .kind = TL_TEST_CALC_API,
             .points = 35,
             .what = "on a GPU: the sweep kernels' configurations (13 block sizes x 8 amounts of dynamic shared " "memory), `cudaOccupancyMaxActiveBlocksPerMultiprocessor` asked by the kit's own build, the " "student's calculator through `lab05 --serve`; points x agreeing/asked; not graded without a GPU"},
            TL_POLICY_TEST("occupancy.c")
        ),
        .rubric_intro =
            "The student file is `occupancy.c` (`sweep.cu`, `devices.c` and `known.c` are the kit's and are\n"
            "never taken from a submission). The grader runs the student's `lab05 --serve` in the sandbox and\n"
            "asks the calculator one configuration per line (fd 3), reading one answer per line (fd 4): the\n"
            "blocks per SM, the limit, what each resource allows, registers per warp, shared memory per block,\n"
            "active warps and occupancy. Every answer is compared with the grader's own; what the program\n"
            "prints is shown, never counted.\n",
        .rubric_notes =
            "A configuration is right when every field agrees (occupancy to 1e-9) or both refuse. The reason\n"
            "for a wrong one is named: integer division, the allocation granularity, the registers-per-block\n"
            "refusal, a division by zero on a 0-register kernel (a crash: the session is started again for\n"
            "the next configuration, at most 64 times), constants written in where `devices.c` differs. An\n"
            "answer has 5 s. The skeleton refuses everything and is right only on the refused known\n"
            "configurations. `./kit check 05` asks the known configurations only; the part B sweep is kit\n"
            "code, run by `./kit check 05` on a GPU, and is not graded.\n",
    },
    {
        TL_LAB_BUILDS("06", "06-register-tiling"), TL_LAB_EMULATED("06"),
        .title = "Register tiling and thread coarsening, toward cuBLAS speed",
        .writes = "1-D coarsening, 2-D register tiling, the speed step",
        .files = {"regtile.cu", NULL},
        .gpu = 1,
        /* Ragged around the block tiles (64, 128) and the phase (8, 16); k not a multiple of 4 (the
         * float4 fallback); vectors, outer products, thin and tall shapes; then 2048 for speed.
         * 128 and 256 are multiples of every block tile that run emulated: a kernel right only on
         * multiples (most real register-tiled kernels) is told so, with their share of the points. */
        .public_sizes = "1,7,63,65,127,128,129,256,257,1000,1023,"
                        "1x1x1,1x300x1,300x1x300,1000x17x3,33x1025x65,130x7x129,129x130x131,"
                        "4096x64x8,8x64x4096,2000x3x2000,256x1022x254,2048",
        .repeat = 3,
        .yardstick = "cublas",
        .hidden_count = 4, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1, .hidden_rect = 1,
        .safety_sizes = "65,129x130x131,33x17x9", .speed_size = "2048",
        .case_limit_s = 20.0, .sanitizer_limit_s = 180.0,
        /* tile = the block tile's side, so that failure reports name the block tiles of P. */
        TL_VARIANTS(
            {.name = "coarse1d", .what = "(a) 1-D coarsening: 64x64 block tile, 8 outputs a thread in a column",
             .on_gpu = 1, .tile = 64, .max_shared_per_fma = 1.5},
            {.name = "regtile", .what = "(b) 2-D register tiling: 128x128 block tile, 8x8 outputs a thread",
             .on_gpu = 1, .tile = 128, .max_shared_per_fma = 0.5},
            {.name = "warptile", .what = "(c) float4 loads, transposed M tile, warp tiling, double buffering",
             .on_gpu = 1, .tile = 128}
        ),
        TL_TESTS(
            {.name = "1-D coarsening (coarse1d), public sizes", .kind = TL_TEST_PUBLIC, .variant = "coarse1d",
             .points = 8},
            {.name = "1-D coarsening (coarse1d), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "coarse1d", .points = 7},
            {.name = "2-D register tiling (regtile), public sizes", .kind = TL_TEST_PUBLIC, .variant = "regtile",
             .points = 10},
            {.name = "2-D register tiling (regtile), hidden ragged and rectangular sizes",
             .kind = TL_TEST_HIDDEN, .variant = "regtile", .points = 8},
            {.name = "speed step (warptile), public sizes", .kind = TL_TEST_PUBLIC, .variant = "warptile",
             .points = 12, .what = "incl. k and n not multiples of 4 (the scalar fallback)"},
            {.name = "speed step (warptile), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "warptile", .points = 10},
            {.name = "no shared-memory races (racecheck, warptile)", .kind = TL_TEST_RACECHECK,
             .variant = "warptile", .points = 10},
            {.name = "memory safety at ragged edges (memcheck, warptile)", .kind = TL_TEST_MEMCHECK,
             .variant = "warptile", .points = 8},
            /* Measured on an H100 (2026-11-22, labs/06-register-tiling/README.md), as time ratios to
             * the reference: warptile with BK 8 1.11 (full), regtile capped at 128 registers 1.56
             * (0.5), regtile 2.0 (0.25), coarse1d 2.7 (0). */
            {.name = "speed against the reference (warptile)", .kind = TL_TEST_SPEED, .variant = "warptile",
             .points = 22, .tiers = {{1.15, 1.0}, {1.35, 0.75}, {1.75, 0.5}, {2.5, 0.25}}},
            TL_POLICY_TEST("regtile.cu")
        ),
        /* the block tile (the variant's tile) reused from shared memory, and (a) and (b) reuse a
         * register tile (each variant's max_shared_per_fma); counted by the emulator's runtime */
        .work = {.kernel = 1, .tiled = 1, .tolerance = 1.5, .staged_unjudged = 1},
        .rubric_notes =
            "Speed is graded in tiers on the time ratio student / reference at 2048, both measured on the same\n"
            "GPU in the same grading run: what each tier means in kernels (measured on an H100, 2026-11-22):\n"
            "full credit reaches the reference's step (c) within 15% (the same kernel with BK 8 is at 1.11);\n"
            "0.5 is a 2-D register tile that fits 128 registers (1.56); 0.25 is step (b) as written (2.0).\n",
    },
    {
        TL_LAB_BUILDS("07", "07-async-copies"), TL_LAB_EMULATED("07"),
        .title = "Asynchronous tile copies: cp.async stages, TMA tiles, the order of blocks",
        .writes = "cp.async stages with zero fill, TMA tiles (tensor maps, mbarriers), a grouped block order",
        .files = {"asynccopy.cu", NULL},
        .gpu = 1,
        /* Ragged around the block tile (128) and the phase (32); k or n not a multiple of 4 (the
         * scalar copies of (a); (b) and (c) fall back to (a): the copy engine needs 16-byte row
         * pitches); fewer phases than stages (k 1..64); thin and tall shapes; then 2048. Emulated:
         * part (a), cp.async with a GPU's semantics (common/emu/src/pipeline.cpp); the copy engine is
         * not emulated: tma and grouped are gpu_only. */
        .public_sizes = "1,7,63,65,127,129,257,1000,1023,"
                        "1x1x1,1x300x1,300x1x300,1000x17x3,33x1025x65,130x7x129,129x130x131,"
                        "128x32x128,136x48x260,4096x64x8,8x64x4096,2000x3x2000,256x1022x254,1024x1024x4100,2048",
        .repeat = 3,
        .yardstick = "cublas",
        .hidden_count = 4, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1, .hidden_rect = 1,
        .safety_sizes = "65,129x130x131,132x36x260", .speed_size = "4096",
        .case_limit_s = 20.0, .sanitizer_limit_s = 180.0,
        TL_VARIANTS(
            {.name = "cpasync", .what = "(a) lab 06's warp tile fed by a 4-stage cp.async pipeline, zero fill at the edges",
             .on_gpu = 1, .tile = 128},
            {.name = "tma", .what = "(b) TMA tiles: one thread copies whole boxes, mbarrier stages (sm_90; GPU only)",
             .on_gpu = 1, .tile = 128, .gpu_only = "TMA"},
            {.name = "grouped", .what = "(c) (b) with a grouped, L2-aware block order", .on_gpu = 1, .tile = 128,
             .gpu_only = "TMA"}
        ),
        TL_TESTS(
            {.name = "cp.async stages (cpasync), public sizes", .kind = TL_TEST_PUBLIC, .variant = "cpasync",
             .points = 12, .what = "incl. k and n not multiples of 4 and fewer phases than stages"},
            {.name = "cp.async stages (cpasync), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "cpasync", .points = 9},
            {.name = "TMA tiles (tma), public sizes", .kind = TL_TEST_PUBLIC, .variant = "tma", .points = 12,
             .what = "GPU only"},
            {.name = "TMA tiles (tma), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "tma", .points = 8, .what = "GPU only"},
            {.name = "grouped block order (grouped), public sizes", .kind = TL_TEST_PUBLIC, .variant = "grouped",
             .points = 8, .what = "every tile of P written once"},
            {.name = "grouped block order (grouped), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "grouped", .points = 6},
            {.name = "no shared-memory races (racecheck, cpasync)", .kind = TL_TEST_RACECHECK,
             .variant = "cpasync", .points = 10},
            {.name = "memory safety at ragged edges (memcheck, cpasync)", .kind = TL_TEST_MEMCHECK,
             .variant = "cpasync", .points = 8},
            /* Measured on an H100 (2026-11-26, tests/gpu/lab07-results/h100-2026-11-26-final-*), as
             * time ratios to the reference at 4096: TMA with BK 16 and 4 stages 1.02, the cp.async
             * pipeline at 1 block/SM 1.08 (full), cp.async at 2 blocks/SM (128 registers) 1.20 (0.75),
             * lab 06's warptile 1.08. */
            {.name = "speed against the reference (grouped)", .kind = TL_TEST_SPEED, .variant = "grouped",
             .points = 22, .tiers = {{1.10, 1.0}, {1.25, 0.75}, {1.5, 0.5}, {2.0, 0.25}}},
            TL_POLICY_TEST("asynccopy.cu")
        ),
        /* Part (a), counted by the emulator at the copies: each element of M and N copied once per
         * block row or column of 128, 2/128 = 1/64 global loads per multiply-add where 128 divides
         * the sizes (the zero-filled pieces read nothing). */
        .work = {.kernel = 1, .tiled = 1, .tolerance = 1.5, .copies = 1},
        .rubric_notes =
            "Speed is graded in tiers on the time ratio student / reference at 4096, both measured on the same\n"
            "GPU in the same grading run: what each tier means in kernels (measured on an H100, 2026-11-26):\n"
            "full credit is within 10% of the reference (TMA tiles with BK 16: 1.02; a cp.async pipeline at one\n"
            "block per SM: 1.08); 0.75 is the cp.async pipeline at 128 registers (1.20).\n"
            "Without a GPU, part (a) is graded emulated (cp.async with a GPU's semantics: a stage read before its\n"
            "copy landed is a race); the TMA tests (tma, grouped) are GPU only: not graded there, no points; the\n"
            "TMA variants need an sm_90 GPU (on an older one they run part (a)).\n",
    },
    {
        TL_LAB_BUILDS("08", "08-tensor-cores"), TL_LAB_EMULATED("08"),
        .title = "Tensor cores: the tile of a tile, from WMMA to wgmma, with precision measured",
        .writes = "WMMA (TF32, BF16), mma.sync with ldmatrix and a swizzle, wgmma fed by TMA",
        .files = {"wmma.cu", "mma.cu", "wgmma.cu", NULL},
        .gpu = 1,
        /* Inputs on the BF16 grid (rounding them to BF16 or TF32 is exact), so that the FP32 bound
         * judges the accumulation; ragged around the fragments (16, 8), the staged tiles (32, 64,
         * 128, 256) and k not a multiple of 8 (the zero padding of the BF16 copies). */
        .inputs_bf16 = 1,
        .public_sizes = "1,7,17,64,129,1000x17x3,33x1025x65,130x7x129,257x129x383,4096x64x8,1023,2048",
        .repeat = 3,
        .yardstick = "cublas",
        .hidden_count = 4, .hidden_min = 2, .hidden_max = 1500, .hidden_ragged = 1, .hidden_rect = 1,
        .safety_sizes = "65,129x130x131,33x17x9", .speed_size = "4096",
        .case_limit_s = 20.0, .sanitizer_limit_s = 180.0,
        TL_VARIANTS(
            {.name = "wmma_tf32",
             .what = "(a) WMMA m16n16k8 TF32, FP32 accumulation, 128x128 block tile staged in shared memory",
             .on_gpu = 1, .tile = 128},
            {.name = "wmma_bf16", .what = "(a) WMMA m16n16k16 BF16, FP32 accumulation, 128x128 block tile",
             .on_gpu = 1, .tile = 128},
            {.name = "mma_bf16", .what = "(b) mma.sync m16n8k16 BF16 through ldmatrix, swizzled 128x64 tiles",
             .on_gpu = 1, .tile = 128, .gpu_only = "mma.sync"},
            {.name = "wgmma_bf16",
             .what = "(c) wgmma m64n256k16 fed by TMA, mbarrier pipeline, producer + 2 consumer warpgroups",
             .on_gpu = 1, .tile = 128, .gpu_only = "wgmma (sm_90a)"}
        ),
        TL_TESTS(
            {.name = "WMMA TF32 (wmma_tf32), public sizes", .kind = TL_TEST_PUBLIC, .variant = "wmma_tf32",
             .points = 10},
            {.name = "WMMA TF32 (wmma_tf32), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "wmma_tf32", .points = 6},
            {.name = "WMMA BF16 (wmma_bf16), public sizes", .kind = TL_TEST_PUBLIC, .variant = "wmma_bf16",
             .points = 10},
            {.name = "WMMA BF16 (wmma_bf16), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "wmma_bf16", .points = 6},
            {.name = "mma.sync + ldmatrix (mma_bf16), public sizes", .kind = TL_TEST_PUBLIC, .variant = "mma_bf16",
             .points = 10},
            {.name = "mma.sync + ldmatrix (mma_bf16), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "mma_bf16", .points = 6},
            {.name = "wgmma + TMA (wgmma_bf16), public sizes", .kind = TL_TEST_PUBLIC, .variant = "wgmma_bf16",
             .points = 12},
            {.name = "wgmma + TMA (wgmma_bf16), hidden ragged and rectangular sizes", .kind = TL_TEST_HIDDEN,
             .variant = "wgmma_bf16", .points = 8},
            {.name = "no shared-memory races (racecheck, wmma_bf16)", .kind = TL_TEST_RACECHECK,
             .variant = "wmma_bf16", .points = 6},
            {.name = "memory safety at ragged edges (memcheck, mma_bf16)", .kind = TL_TEST_MEMCHECK,
             .variant = "mma_bf16", .points = 6},
            /* Measured on an H100 (2026-11-26, tests/gpu/lab08-results/h100-summary-2026-11-26-run6.txt,
             * "KIT TIMING OF THE SWEEP"), as time ratios to the reference at 4096 in the kit's timing (the
             * kit's BF16 conversion in every run, as the speed test times it; two passes): the reference
             * without setmaxnreg 1.00, with 3 stages 1.02 (full); a 128-wide tile 1.08, one consumer
             * warpgroup (64 x 256) 1.10, 128-wide with 6 stages 1.13, 2 stages 1.14-1.16 (0.75); part (b)'s
             * mma.sync kernel 2.07-2.10 (0.25); WMMA 6.3 (0). Each bound sits above its tier's slowest
             * kernel by 4-10% (the passes differ by up to 1.7%); 0.5 is the geometric middle between
             * the 0.75 and 0.25 bounds, where no measured kernel falls. */
            {.name = "speed against the reference (wgmma_bf16)", .kind = TL_TEST_SPEED, .variant = "wgmma_bf16",
             .points = 15, .tiers = {{1.06, 1.0}, {1.20, 0.75}, {1.6, 0.5}, {2.3, 0.25}}},
            TL_POLICY_TEST("wmma.cu, mma.cu, wgmma.cu")
        ),
        /* Part (a), counted by the emulator: the 128 x 128 block tile staged in shared memory, each
         * element of M and N loaded once per block row or column of 128, 2/128 = 1/64 global loads per
         * multiply-add where 128 divides the sizes; a fragment loaded from global memory (no staging)
         * loads the warp tile's operands only (3/64 for a 64 x 32 warp tile): not tiled. Counted per
         * warp: a fragment's elements are read once by the warp, as on the GPU (common/emu mma.h).
         * The shared side is not judged: fragments are loaded through pointers (load_matrix_sync) and
         * BF16 tiles are of a struct type, which the counters see in other units (lab 06 likewise).
         * Parts (b) and (c) are gpu_only: named, not counted (as lab 07's TMA). */
        .work = {.kernel = 1, .tiled = 1, .tolerance = 1.5, .staged_unjudged = 1, .fragments = 1},
        .rubric_notes =
            "Lab 08's inputs are drawn on the BF16 grid (8 significant bits), so converting them to BF16 or TF32\n"
            "loses nothing and every variant is judged by the FP32 accumulation bound: a kernel that accumulates\n"
            "in BF16, or stores P rounded to BF16, fails. mma_bf16 and wgmma_bf16 run on a GPU only (wgmma on\n"
            "sm_90 only); emulated, they are named and not graded. Speed: the time ratio student / reference\n"
            "at 4096 on the same GPU, BF16 conversion by the kit included in both, in tiers: what each tier\n"
            "means in kernels (measured on an H100, 2026-11-26, the kit's timing): full credit is a wgmma\n"
            "pipeline as fast as the reference's (its 256-wide tile with 3 stages: 1.02); 0.75 a smaller tile, one\n"
            "consumer warpgroup or 2 stages (1.08-1.16); 0.25 part (b)'s mma.sync kernel (2.1); WMMA earns 0 (6.3).\n"
            "Part (a)'s work is judged as a 128 x 128 block tile's (at most 1.5 x 2/128 global loads per\n"
            "multiply-add where 128 divides the sizes, counted by the emulator); parts (b) and (c) are not counted.\n",
    },
};
const int tl_nlabs = (int)(sizeof tl_labs / sizeof tl_labs[0]);

/* The kit's own rungs of the kernel ladder (solutions/speed/ladder.cu), square sizes only. */
const tl_lab_variant tl_ladder_rungs[] = {
    {.name = "naive_rows", .what = "ladder: lab 02 with x walking rows (uncoalesced)", .on_gpu = 1, .tile = 16,
     .square_only = 1, .after = NULL},
    {.name = "naive_ldcg", .what = "ladder: lab 02 with __ldcg loads (L2 only, no L1)", .on_gpu = 1, .tile = 16,
     .square_only = 1, .after = "naive"},
    {.name = "tiled32_conflict", .what = "ladder: lab 04 T32, Nd tile transposed (32-way bank conflicts)",
     .on_gpu = 1, .tile = 32, .square_only = 1, .after = "boundary32"},
    {.name = "tiled32_pad", .what = "ladder: the same, rows padded to 33 words (no conflicts)", .on_gpu = 1,
     .tile = 32, .square_only = 1, .after = "tiled32_conflict"},
};
const int tl_nladder_rungs = (int)(sizeof tl_ladder_rungs / sizeof tl_ladder_rungs[0]);

static int ladder_add(const tl_lab_variant **out, const tl_lab_info **lab_of, int n, int max,
                      const tl_lab_variant *v, const tl_lab_info *lab)
{
    if (n < max) {
        out[n] = v;
        if (lab_of)
            lab_of[n] = lab;
    }
    return n + 1;
}

/* Adds the kit's rungs that follow `after` (NULL: those that come first), each followed by its own. */
static int ladder_rungs_after(const tl_lab_variant **out, const tl_lab_info **lab_of, int n, int max,
                              const char *after)
{
    for (int r = 0; r < tl_nladder_rungs; ++r) {
        const char *a = tl_ladder_rungs[r].after;
        if ((a == NULL) != (after == NULL) || (a && strcmp(a, after) != 0))
            continue;
        n = ladder_add(out, lab_of, n, max, &tl_ladder_rungs[r], NULL);
        n = ladder_rungs_after(out, lab_of, n, max, tl_ladder_rungs[r].name);
    }
    return n;
}

int tl_ladder(const tl_lab_variant **out, const tl_lab_info **lab_of, int max)
{
    int n = ladder_rungs_after(out, lab_of, 0, max, NULL);
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        for (int v = 0; l->gpu && v < l->nvariants; ++v) {
            if (!l->variants[v].on_gpu || l->variants[v].off_ladder)
                continue;
            n = ladder_add(out, lab_of, n, max, &l->variants[v], l);
            n = ladder_rungs_after(out, lab_of, n, max, l->variants[v].name);
        }
    }
    n = ladder_add(out, lab_of, n, max, &tl_yardstick_cublas, NULL);
    return n < max ? n : max;
}

const tl_lab_info *tl_lab_find(const char *id)
{
    if (!id || !*id)
        return NULL;
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        if (strcmp(id, l->id) == 0 || strcmp(id, l->dir) == 0)
            return l;
        if (id[1] == '\0' && l->id[0] == '0' && id[0] == l->id[1])   /* "1" for "01" */
            return l;
    }
    return NULL;
}

const tl_lab_variant *tl_lab_variant_find(const tl_lab_info *lab, const char *name)
{
    for (int i = 0; i < lab->nvariants; ++i)
        if (strcmp(lab->variants[i].name, name) == 0)
            return &lab->variants[i];
    return NULL;
}

const tl_lab_variant *tl_variant_any(const char *name, const tl_lab_info **lab)
{
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_variant *v = tl_lab_variant_find(&tl_labs[i], name);
        if (v) {
            if (lab)
                *lab = &tl_labs[i];
            return v;
        }
    }
    if (lab)
        *lab = NULL;
    return strcmp(name, tl_yardstick_cublas.name) == 0 ? &tl_yardstick_cublas : NULL;
}

double tl_lab_points(const tl_lab_info *lab)
{
    double s = 0;
    for (int i = 0; i < lab->ntests; ++i)
        s += lab->tests[i].points;
    return s;
}

int tl_lab_is_student_file(const tl_lab_info *lab, const char *name)
{
    for (int i = 0; i < TL_LAB_MAX_FILES && lab->files[i]; ++i)
        if (strcmp(lab->files[i], name) == 0)
            return 1;
    return 0;
}

const char *tl_lab_speed_variant(const tl_lab_info *lab)
{
    for (int i = 0; i < lab->ntests; ++i)
        if (lab->tests[i].kind == TL_TEST_SPEED)
            return lab->tests[i].variant;
    return NULL;
}

double tl_speed_credit(double ratio)
{
    if (!(ratio > 0))
        return 0;
    if (ratio <= TL_SPEED_FULL)
        return 1.0;
    if (ratio >= TL_SPEED_ZERO)
        return 0.0;
    return (TL_SPEED_ZERO - ratio) / (TL_SPEED_ZERO - TL_SPEED_FULL);
}

double tl_test_speed_credit(const tl_lab_test *t, double ratio)
{
    if (!t || !(t->tiers[0].max_ratio > 0))
        return tl_speed_credit(ratio);
    if (!(ratio > 0))
        return 0;
    for (int i = 0; i < TL_LAB_MAX_TIERS && t->tiers[i].max_ratio > 0; ++i)
        if (ratio <= t->tiers[i].max_ratio)
            return t->tiers[i].credit;
    return 0;
}

/* ------------------------------------------------------------------- the work a case did */

int tl_work_judge(const tl_lab_info *lab, int tile, int m, int k, int n, const tl_work_counts *c,
                  char *headline, size_t hlen, char *figures, size_t flen)
{
    return tl_work_judge_why(lab, tile, m, k, n, c, headline, hlen, figures, flen, NULL);
}

static int judge_counts(const tl_lab_info *lab, int tile, int m, int k, int n, const tl_work_counts *c,
                        char *headline, size_t hlen, char *figures, size_t flen, const char **pattern);

/* The counts' rules first (their figures and reasons are the lab's), then where the data went: a
 * launcher that copied device data to the host and then wrote to the device again (a launch, a copy
 * to the device, a memset) had M and N on the host to compute with, and P's values came from there
 * however faithfully its kernels made the lab's accesses (counts cannot see where a stored value came
 * from: tests/hostile/02/reads_discarded.cu). No lab's launcher needs to: it copies results back, if
 * at all, after its last kernel. */
int tl_work_judge_why(const tl_lab_info *lab, int tile, int m, int k, int n, const tl_work_counts *c,
                      char *headline, size_t hlen, char *figures, size_t flen, const char **pattern)
{
    const char *why_none;
    if (!pattern)
        pattern = &why_none;
    char hb[8], fb[8];
    if (!headline) { headline = hb; hlen = sizeof hb; }
    if (!figures) { figures = fb; flen = sizeof fb; }
    int bad = judge_counts(lab, tile, m, k, n, c, headline, hlen, figures, flen, pattern);
    if (bad || !lab || !lab->work.kernel || !c || !c->host_round_trips)
        return bad;
    snprintf(headline, hlen, "P was computed on the host: the launcher copied device memory to the host and then "
             "wrote to the device %llu time%s (a kernel launch, a copy to the device or a memset) at %d x %d x %d, so "
             "the values it stored could come from the host's own product, not from the kernel's multiply-adds; a "
             "launcher copies results back only after its last kernel (on a GPU the host's work would be inside the "
             "timed launcher)", c->host_round_trips, c->host_round_trips == 1 ? "" : "s", m, k, n);
    *pattern = "p-computed-on-host";
    return 1;
}

static int judge_counts(const tl_lab_info *lab, int tile, int m, int k, int n, const tl_work_counts *c,
                        char *headline, size_t hlen, char *figures, size_t flen, const char **pattern)
{
    const char *why_none;
    if (!pattern)
        pattern = &why_none;
    char hb[8], fb[8];
    if (!headline) { headline = hb; hlen = sizeof hb; }
    if (!figures) { figures = fb; flen = sizeof fb; }
    headline[0] = figures[0] = '\0';
    if (!lab || !lab->work.kernel || !c)
        return 0;
    double fma = (double)m * k * n;
    double pelems = (double)m * n, inputs = (double)m * k + (double)k * n;
    double gpf = c->global_loads / fma, spf = c->shared_loads / fma;
    size_t fl = 0;
    if (!lab->work.tiled || tile <= 0) {
        snprintf(figures, flen, "%llu launch%s; global loads per multiply-add: %.4g%s; stores to P: %llu "
                               "of %.0f", c->launches, c->launches == 1 ? "" : "es", gpf,
                               gpf > 1.5 ? " (both operands of every multiply-add come from global memory: "
                               "lab 03's tiles load each once per tile and use it TILE_WIDTH times)" : "",
                               c->global_stores, pelems);
    } else {
        if (c->global_loads_least && c->global_loads_least < c->global_loads)
            gpf = (double)c->global_loads_least / fma;   /* the "at most" rule's count, shown as judged */
        double tiled = (double)m * k * ((n + tile - 1) / tile) + (double)k * n * ((m + tile - 1) / tile);
        int divides = m % tile == 0 && k % tile == 0 && n % tile == 0;
        fl += (size_t)snprintf(figures, flen, "%llu launch%s; global loads per multiply-add: %.4g", c->launches,
                               c->launches == 1 ? "" : "es", gpf);
        if (fl < flen && divides && fabs(gpf - 2.0 / tile) < 1e-9)
            fl += (size_t)snprintf(figures + fl, flen - fl, " = 2/%d: each element loaded from global memory "
                                   "is used by %d multiply-adds", tile, tile);
        else if (fl < flen && divides)
            fl += (size_t)snprintf(figures + fl, flen - fl, " (a TILE_WIDTH %d kernel: 2/%d = %.4g, each element "
                                   "loaded used by %d multiply-adds)", tile, tile, 2.0 / tile, tile);
        else if (fl < flen)
            fl += (size_t)snprintf(figures + fl, flen - fl, " (a TILE_WIDTH %d kernel at this ragged size: %.4g; "
                                   "2/%d where %d divides every size)", tile, tiled / fma, tile, tile);
        if (fl < flen && lab->work.copies)
            snprintf(figures + fl, flen - fl, " (counted at the cp.async copies)");
        else if (fl < flen)
            snprintf(figures + fl, flen - fl, "; shared loads per multiply-add: %.4g", spf);
    }
    if (c->launches == 0) {
        snprintf(headline, hlen, "host-side computation: no kernel ran at %d x %d x %d; P was computed on the host "
                 "(the lab asks for a kernel, launched by the launcher, to compute it)", m, k, n);
        *pattern = "host-side-computation";
        return 1;
    }
    if (c->unchecked_launches) {
        snprintf(headline, hlen, "the emulator's race checking was switched off for %llu launch%s: a run that "
                 "cannot be checked earns no credit", c->unchecked_launches, c->unchecked_launches == 1 ? "" : "es");
        *pattern = "unchecked-launches";
        return 1;
    }
    if (c->global_loads == 0 && (double)c->global_stores < pelems + inputs) {
        snprintf(headline, hlen, "host-side computation: the kernel%s stored %llu element%s of P's %.0f and loaded "
                 "0 of the %.0f elements of M and N at %d x %d x %d: P was computed elsewhere (the emulator counts "
                 "every access to device memory, however it is written)", c->launches == 1 ? "" : "s",
                 c->global_stores, c->global_stores == 1 ? "" : "s", pelems, inputs, m, k, n);
        *pattern = "host-side-computation";
        return 1;
    }
    if ((!lab->work.copies && (double)c->global_stores < pelems) || (double)c->global_loads < inputs) {
        snprintf(headline, hlen, "P not computed by the kernel%s: %s stored %llu element%s of P's %.0f and loaded "
                 "%llu of the %.0f elements of M and N at %d x %d x %d (the emulator counts every access to device "
                 "memory, however it is written)",
                 c->launches == 1 ? "" : "s", c->launches == 1 ? "it" : "they", c->global_stores,
                 c->global_stores == 1 ? "" : "s", pelems, c->global_loads, inputs, m, k, n);
        *pattern = "p-not-computed-by-kernel";
        return 1;
    }
    if (lab->work.min_loads_per_fma > 0 && k > 1 && gpf < lab->work.min_loads_per_fma) {
        snprintf(headline, hlen, "not the lab's kernel: %.4g global loads per multiply-add at %d x %d x %d, where the "
                 "naive kernel loads 2 (a row of M and a column of N for each element of P; at least %.3g allowed): "
                 "the kernel did not do the multiply-adds from M and N", gpf, m, k, n, lab->work.min_loads_per_fma);
        *pattern = "not-the-labs-kernel";
        return 1;
    }
    if (!lab->work.tiled || tile <= 0)
        return 0;
    /* The register tile's reuse: the bound of this tile width's variants (the smallest given). */
    double v_max_spf = 0;
    for (int i = 0; i < lab->nvariants; ++i)
        if (lab->variants[i].tile == tile && lab->variants[i].max_shared_per_fma > 0 &&
            (v_max_spf == 0 || lab->variants[i].max_shared_per_fma < v_max_spf))
            v_max_spf = lab->variants[i].max_shared_per_fma;
    /* The most a tiled kernel loads: tolerance x the guarded count, or one M and one N element per
     * thread per phase with no guard at all (loads clamped in bounds, or read then masked), which at
     * ragged sizes is more. Where lab 02's kernel would load no more than twice that, this size
     * cannot tell the two apart: not judged (the larger sizes are). */
    double tiled = (double)m * k * ((n + tile - 1) / tile) + (double)k * n * ((m + tile - 1) / tile);
    double padded = 2.0 * tile * tile * ((m + tile - 1) / tile) * ((n + tile - 1) / tile) * ((k + tile - 1) / tile);
    double most = fmax(lab->work.tolerance * tiled, padded);
    double gl = c->global_loads_least && c->global_loads_least < c->global_loads ? (double)c->global_loads_least
                                                                                   : (double)c->global_loads;
    if (2.0 * fma > 2.0 * most && gl > most) {
        snprintf(headline, hlen, "not tiled: %.4g global loads per multiply-add at %d x %d x %d, where a TILE_WIDTH %d "
                 "kernel needs %.4g (at most %.4g allowed): %.0fx the loads, %s", gpf, m, k, n, tile, tiled / fma,
                 most / fma, gl / tiled,
                 gpf > 1.5 ? "as if every multiply-add loaded both operands from global memory (lab 02's kernel)"
                           : "the tiles are not reused TILE_WIDTH times");
        *pattern = "not-tiled";
        return 1;
    }
    /* per multiply-add of the padded block tiles: at a ragged size the edge blocks multiply their
     * zero-filled rows and columns too (k padded to 16, the deepest phase the labs use) */
    double padfma = (double)((m + tile - 1) / tile) * tile * ((n + tile - 1) / tile) * tile * ((k + 15) / 16) * 16;
    double spf_pad = c->shared_loads / padfma;
    if (v_max_spf > 0 && k >= 16 && spf_pad > v_max_spf) {
        snprintf(headline, hlen, "no register tile: %.4g shared loads per multiply-add at %d x %d x %d (%.4g over the "
                 "padded block tiles; at most %.3g allowed): each value read from a shared tile is used about once, "
                 "where the lab's register tile reads a few and reuses them across a thread's outputs (lab 03's "
                 "tiled kernel: 2)", spf, m, k, n, spf_pad, v_max_spf);
        *pattern = "no-register-tile";
        return 1;
    }
    /* every element loaded from M and N is staged: shared stores at least the global loads, less
     * those of P itself (an atomic or a P += reads each element it stores: at most one load per store) */
    if (!lab->work.staged_unjudged &&
        (c->shared_stores + c->global_stores < c->global_loads || (c->shared_loads == 0 && !lab->work.copies))) {
        snprintf(headline, hlen, "not tiled: the tiles are not staged in shared memory at %d x %d x %d (%llu global "
                 "loads, %llu shared stores, %llu shared loads): each element loaded from global memory goes to a "
                 "__shared__ tile, and the multiply-adds read the tiles", m, k, n, c->global_loads,
                 c->shared_stores, c->shared_loads);
        *pattern = "not-staged-in-shared";
        return 1;
    }
    /* The multiply-adds read their operands from the tiles: 2 shared loads each in the lecture's kernel,
     * (a + b) / (a b) with an a x b register tile (8 x 8: 0.25). Far fewer, and the tiles were staged
     * but P did not come from them (a kernel that stages M, N and a P computed elsewhere, then copies
     * it: about 3/Width). Every access is counted at its address, however the source writes it. (The
     * cp.async labs too, since session 9: their stages are read by ordinary shared loads, 0.25 per
     * multiply-add in lab 07's solution, and a decoy that staged by cp.async and copied P scored the
     * solution's marks. Not lab 08, whose fragments are reused in registers far more than a scalar
     * register tile.) */
    /* (an "at least" rule: from the most elements the loads can have read, where only instructions
     * were counted: the GPU's counters, where LDS.128 reads 4 floats; lab 06's warp tile reads 0.0625
     * instructions per multiply-add there, 0.25 elements) */
    /* (and per multiply-add of the product itself, not of the padded tiles: at a ragged size a kernel
     * may skip the zero-filled edges, 1000 x 17 x 3 with T = 32 pads ten times over; the lecture's
     * kernel reads 2 here at any size, the staged decoy 0.047) */
    double spf_most = (c->shared_loads_most ? (double)c->shared_loads_most : (double)c->shared_loads) / fma;
    if (!lab->work.fragments && k >= 16 && spf_most < TL_WORK_MIN_SHARED_PER_FMA) {
        snprintf(headline, hlen, "P not computed from the tiles: %.4g shared loads per multiply-add at %d x %d x %d "
                 "(at least %.3g needed%s): the lecture's tiled kernel reads both "
                 "operands of every multiply-add from the tiles (2), a register tile reads fewer but reuses them "
                 "(8 x 8: 0.25); so few means P came from somewhere else", spf, m, k, n,
                 TL_WORK_MIN_SHARED_PER_FMA, c->shared_loads_most ? ", counting each vector load at its width" : "");
        *pattern = "not-computed-from-tiles";
        return 1;
    }
    /* The same per staged element (emulated counts, in elements; the GPU's counters count
     * instructions of several widths, so not there): at a ragged size the padded tiles' reads
     * inflate the per-multiply-add figure above, a decoy's 2/T to 0.14 at 97^3. */
    if (!lab->work.fragments && !c->shared_loads_most && k >= 16 && m >= tile && n >= tile && c->shared_stores > 0 &&
        (double)c->shared_loads < TL_WORK_MIN_READS_PER_STAGED * (double)c->shared_stores) {
        snprintf(headline, hlen, "P not computed from the tiles: %llu shared loads for %llu elements staged at %d x %d "
                 "x %d, %.3g reads of each (at least %.3g needed): a tile is staged to be reused, the lecture's tiled "
                 "kernel reads each element TILE_WIDTH times and a register tile 16 or more; so few means P came "
                 "from somewhere else", c->shared_loads, c->shared_stores, m, k, n,
                 (double)c->shared_loads / (double)c->shared_stores, TL_WORK_MIN_READS_PER_STAGED);
        *pattern = "not-computed-from-tiles";
        return 1;
    }
    return 0;
}
