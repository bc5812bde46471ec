/* lab.c: lab 05's program (kit-owned; the student edits occupancy.c only).
 *
 * Build:  ./kit check 05          (or: meson compile -C build lab05)
 * Run:    build/labs/05-occupancy-study/lab05 --calc     part A on the known answers (known.c; any machine)
 *         build/labs/05-occupancy-study/lab05            part A, then on a GPU: the calculator against
 *                                                        the CUDA API, and the measured sweep (part B)
 *         build/labs/05-occupancy-study/lab05 --size 4096 --records sweep.csv
 *
 * Exit codes: 0 all passed, 1 a check failed (a known answer, an API comparison, a sweep result),
 * 2 bad usage, 77 no usable CUDA device (part A passed, the GPU part was skipped).
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <signal.h>
#include <sys/time.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "answer.h"
#include "lab.h"

/* ------------------------------------------------------------------ part A: known answers */

/* A crash or an endless loop in the calculator names the configuration it was working on: the
 * text is made before each call, so the handlers only write it. */
#define CALC_LIMIT_S 5            /* CPU seconds for one answer (the grader's too); the wall
                                   * clock stops a sleeping one at TL_WALL_BACKSTOP_CPU times it */
static char current_case[512];
static int guard_on;         /* --serve runs without: there the grader sees the signal itself */
static size_t current_len;

static void calc_died(int sig)
{
    static const char fpe[] = "lab05: the calculator crashed with SIGFPE (an integer division by zero) on ";
    static const char segv[] = "lab05: the calculator crashed (SIGSEGV, a bad pointer) on ";
    static const char prof[] = "lab05: the calculator gave no answer within the 5 s CPU-time limit (an endless "
                               "loop?), stopped on ";
    static const char alrm[] = "lab05: the calculator gave no answer within the 25 s wall-clock limit (it sleeps or "
                               "waits, or the machine is heavily loaded), stopped on ";
    const char *m = sig == SIGFPE ? fpe : sig == SIGPROF ? prof : sig == SIGALRM ? alrm : segv;
    size_t l = sig == SIGFPE ? sizeof fpe : sig == SIGPROF ? sizeof prof : sig == SIGALRM ? sizeof alrm : sizeof segv;
    (void)!write(STDOUT_FILENO, m, l - 1);
    (void)!write(STDOUT_FILENO, current_case, current_len);
    _exit(TL_EXIT_FAIL);
}

static void calc_guard(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = calc_died;
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGALRM, &sa, NULL);
    sigaction(SIGPROF, &sa, NULL);
    guard_on = 1;
}

/* tl_occupancy under the guard: the case text is ready for the handlers, the alarm set. */
static int guarded_occupancy(const tl_occ_device *d, const tl_occ_kernel *k, tl_occ_result *r, const char *note)
{
    char desc[256];
    tl_occ_describe(desc, sizeof desc, d, k);
    int l = snprintf(current_case, sizeof current_case, "%s%s%s\n", desc, note ? "\n      case: " : "",
                     note ? note : "");
    current_len = l < 0 ? 0 : (size_t)l < sizeof current_case ? (size_t)l : sizeof current_case - 1;
    fflush(stdout);
    struct itimerval cpu = {{0, 0}, {CALC_LIMIT_S, 0}}, off = {{0, 0}, {0, 0}};
    if (guard_on) {
        setitimer(ITIMER_PROF, &cpu, NULL);
        alarm((unsigned)(CALC_LIMIT_S * TL_WALL_BACKSTOP_CPU));
    }
    int rc = tl_occupancy(d, k, r);
    if (guard_on) {
        setitimer(ITIMER_PROF, &off, NULL);
        alarm(0);
    }
    return rc;
}

/* The known configurations (known.c) against the calculator, each difference explained. */
static int run_calc_cases(int quiet)
{
    int fail = 0;
    if (!quiet)
        printf("\npart A: the calculator on known answers\n  %-24s %7s %5s %7s   %-22s %s\n", "device",
               "threads", "regs", "smem", "blocks (limit)", "");
    for (int i = 0; i < tl_occ_nknown; ++i) {
        const tl_occ_known *c = &tl_occ_known_cases[i];
        tl_occ_device d;
        tl_occ_known_device(c, &d);
        tl_occ_result r, want;
        tl_occ_known_result(c, &want);
        int rc = guarded_occupancy(&d, &c->k, &r, c->note);
        char got[64], why[400];
        if (rc == 0)
            snprintf(got, sizeof got, "%d (%s) %.0f%%", r.blocks_per_sm, tl_occ_limit_name(r.limit), 100 * r.occupancy);
        else
            snprintf(got, sizeof got, "refused");
        int bad = tl_occ_compare(&d, &c->k, c->rc, &want, rc, &r, why, sizeof why);
        fail += bad;
        if (!quiet || bad)
            printf("  %-24s %7d %5d %7d   %-22s %s\n", c->dev->name, c->k.threads_per_block,
                   c->k.regs_per_thread, c->k.smem_per_block, got, bad ? "FAIL" : "ok");
        if (bad) {
            printf("      %s\n      case: %s\n", why, c->note);
            if (rc != 0)
                printf("      tl_occupancy said: %s\n", r.why);
        }
    }
    printf("part A: %d of %d known answers right\n", tl_occ_nknown - fail, tl_occ_nknown);
    return fail;
}

/* --serve: the grader's channel (lab.h, known.c): a request line on fd 3, the answer line on fd 4.
 * The configurations and the verdict are the grader's; this loop only asks the calculator. */
static int serve(void)
{
    FILE *in = fdopen(3, "r");   /* answers leave through answer.c (no stdio the student could define) */
    tl_answer a = {0}, *out = &a;
    struct stat fd4;
    if (!in || fstat(4, &fd4) != 0) {
        fprintf(stderr, "lab05: --serve needs fds 3 (requests) and 4 (answers): it is the grader's mode\n");
        return TL_EXIT_USAGE;
    }
    char line[1024], ans[512];
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, "quit", 4) == 0)
            break;
        tl_occ_device d;
        tl_occ_kernel k;
        tl_occ_result r;
        if (tl_occ_request_parse(line, &d, &k) != 0) {
            tl_answer_printf(out, "error malformed request\n");
        } else {
            int rc = guarded_occupancy(&d, &k, &r, NULL);
            tl_occ_answer_line(ans, sizeof ans, rc, &r);
            tl_answer_printf(out, "%s", ans);
        }
        tl_answer_send(out, 4);
    }
    tl_answer_free(&a);
    return TL_EXIT_OK;
}

/* The lecture's two kernels on every GPU the kit knows: a table to read, not a check. */
static void print_lecture_table(void)
{
    printf("\nthe lecture's tiled kernel (32 registers) on each GPU: blocks per SM, limit, occupancy\n");
    printf("  %-24s %-28s %-28s\n", "device", "TILE_WIDTH 16 (2 KiB)", "TILE_WIDTH 32 (8 KiB)");
    for (int i = 0; tl_occ_devices[i]; ++i) {
        const tl_occ_device *d = tl_occ_devices[i];
        char cell[2][64];
        for (int t = 0; t < 2; ++t) {
            int T = t ? 32 : 16;
            tl_occ_kernel k = {T * T, d->max_regs_per_thread < 32 ? 20 : 32, 2 * T * T * 4};
            tl_occ_result r;
            if (guarded_occupancy(d, &k, &r, NULL) == 0)
                snprintf(cell[t], sizeof cell[t], "%2d %-14s %3.0f%%", r.blocks_per_sm,
                         tl_occ_limit_name(r.limit), 100 * r.occupancy);
            else
                snprintf(cell[t], sizeof cell[t], "refused");
        }
        printf("  %-24s %-28s %-28s\n", d->name, cell[0], cell[1]);
    }
}

/* ------------------------------------------------------------------ part A on a GPU */

static const int block_sizes[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
static const int dyn_sizes[] = {0, 1, 2048, 16 * 1024, 48 * 1024, 100 * 1024, 200 * 1024, 240 * 1024};

/* "sweep_t16_cap" from the kernel's first configuration, "sweep_t16_cap_s0k". */
static const char *kernel_name(int kern)
{
    static char name[32];
    tl_sweep_config c;
    tl_sweep_config_get(kern * (tl_sweep_config_count() / tl_sweep_kernel_count()), &c);
    snprintf(name, sizeof name, "%s", c.name);
    char *cut = strrchr(name, '_');
    if (cut)
        *cut = '\0';
    return name;
}

/* The calculator against cudaOccupancyMaxActiveBlocksPerMultiprocessor for every sweep kernel,
 * block size and amount of dynamic shared memory. Returns the number of disagreements. */
static int compare_with_api(const tl_occ_device *gd, int quiet, int *total)
{
    int bad = 0;
    *total = 0;
    if (!quiet)
        printf("\npart A on %s: the calculator against cudaOccupancyMaxActiveBlocksPerMultiprocessor\n", gd->name);
    for (int kern = 0; kern < tl_sweep_kernel_count(); ++kern) {
        int agree = 0, rows = 0;
        int regs = 0, ssmem = 0, maxt = 0;
        for (size_t b = 0; b < sizeof block_sizes / sizeof block_sizes[0]; ++b)
            for (size_t s = 0; s < sizeof dyn_sizes / sizeof dyn_sizes[0]; ++s) {
                char err[256];
                int api;
                if (tl_sweep_api(kern, block_sizes[b], dyn_sizes[s], &regs, &ssmem, &maxt, &api, err, sizeof err) != 0) {
                    printf("  FAIL: %s\n", err);
                    ++bad;
                    continue;
                }
                if (block_sizes[b] > maxt)
                    continue;   /* above the kernel's own limit: not a question for occupancy */
                tl_occ_device d = *gd;
                tl_occ_kernel k = {block_sizes[b], regs, ssmem + dyn_sizes[s]};
                tl_occ_result r;
                int calc = guarded_occupancy(&d, &k, &r, NULL) == 0 ? r.blocks_per_sm : 0;
                ++rows;
                ++*total;
                if (calc == api) {
                    ++agree;
                } else {
                    ++bad;
                    printf("  MISMATCH kernel %s: %d threads, %d registers, %d + %d B shared: API %d "
                           "blocks, calculator %d (%s)\n", kernel_name(kern), block_sizes[b], regs, ssmem, dyn_sizes[s],
                           api, calc, calc ? tl_occ_limit_name(r.limit) : r.why);
                }
            }
        if (!quiet)
            printf("  kernel %-16s %3d registers, %5d B static shared: %3d of %3d configurations agree\n",
                   kernel_name(kern), regs, ssmem, agree, rows);
    }
    return bad;
}

/* --api-table: what the CUDA API says for every sweep kernel, block size and amount of dynamic
 * shared memory, one line each ("api" + the request's fields + the API's blocks per SM). Kit code
 * only: the grader runs it from a build it trusts and asks the student's calculator the same. */
static int api_table(void)
{
    tl_occ_device gd;
    char err[512];
    if (tl_sweep_device(&gd, err, sizeof err) != 0) {
        fprintf(stderr, "lab05: %s\n", err);
        return TL_EXIT_FAIL;
    }
    for (int kern = 0; kern < tl_sweep_kernel_count(); ++kern)
        for (size_t b = 0; b < sizeof block_sizes / sizeof block_sizes[0]; ++b)
            for (size_t s = 0; s < sizeof dyn_sizes / sizeof dyn_sizes[0]; ++s) {
                int regs = 0, ssmem = 0, maxt = 0, api = 0;
                if (tl_sweep_api(kern, block_sizes[b], dyn_sizes[s], &regs, &ssmem, &maxt, &api, err, sizeof err)) {
                    fprintf(stderr, "lab05: %s\n", err);
                    return TL_EXIT_FAIL;
                }
                if (block_sizes[b] > maxt)
                    continue;
                tl_occ_kernel k = {block_sizes[b], regs, ssmem + dyn_sizes[s]};
                char line[512];
                tl_occ_request_line(line, sizeof line, &gd, &k);
                line[strcspn(line, "\n")] = '\0';
                printf("api %s %d\n", line + 4, api);
            }
    return TL_EXIT_OK;
}

/* ------------------------------------------------------------------ part B: the sweep */

/* The records' name of a limit (column `limit`, common/CONTRACTS.md section 4): one word each. */
static const char *tl_sweep_limit_token(tl_occ_limit l)
{
    switch (l) {
    case TL_OCC_THREADS: return "threads";
    case TL_OCC_WARPS: return "warps";
    case TL_OCC_BLOCKS: return "blocks";
    case TL_OCC_REGISTERS: return "registers";
    case TL_OCC_SHARED_MEMORY: return "shared";
    }
    return NULL;
}

static int run_sweep(const tl_device_info *dev, const tl_occ_device *gd, int W, int reps,
                     tl_records *rec, int quiet)
{
    int fail = 0;
    tl_matrix M, N, P;
    if (tl_matrix_alloc(&M, "M", W, W) || tl_matrix_alloc(&N, "N", W, W) || tl_matrix_alloc(&P, "P", W, W)) {
        printf("part B: out of host memory for Width %d\n", W);
        return 1;
    }
    tl_matrix_fill_random(&M, TL_DEFAULT_SEED, 1);
    tl_matrix_fill_random(&N, TL_DEFAULT_SEED, 2);
    double *ref = malloc(sizeof(double) * (size_t)W * W), *absref = malloc(sizeof(double) * (size_t)W * W);
    tl_reference_gemm(M.data, N.data, ref, absref, W, W, W);
    printf("\npart B: the tiled kernel at Width %d under different budgets (checked, then timed: median of %d, L2 flushed)\n", W, reps);
    printf("  %-24s %4s %7s %5s %7s %9s %8s %6s %-13s %10s\n", "config", "tile", "threads", "regs", "smem",
           "blk calc", "blk API", "occ", "limit", "GFLOP/s");
    (void)dev;
    for (int i = 0; i < tl_sweep_config_count(); ++i) {
        tl_sweep_config c;
        tl_sweep_config_get(i, &c);
        char err[512] = "";
        int regs = 0, ssmem = 0, maxt = 0, api = 0, threads = c.threads;
        if (tl_sweep_api(c.kernel, threads, c.dyn_smem, &regs, &ssmem, &maxt, &api, err, sizeof err) != 0) {
            printf("  %-24s FAIL: %s\n", c.name, err);
            ++fail;
            continue;
        }
        tl_occ_kernel k = {threads, regs, ssmem + c.dyn_smem};
        tl_occ_result r;
        int calc = guarded_occupancy(gd, &k, &r, NULL) == 0 ? r.blocks_per_sm : 0;
        /* The resource that bounds this point, as the calculator names it; recorded only when the
         * calculator agrees with the CUDA API (a calculator that disagrees names nothing). */
        const char *limit = calc > 0 && calc == api ? tl_sweep_limit_token(r.limit) : NULL;
        double occ_calc = (double)calc * ((threads + 31) / 32) / gd->max_warps_per_sm;
        double occ_api = (double)api * ((threads + 31) / 32) / gd->max_warps_per_sm;
        tl_gpu_case gc;
        tl_stats st = {0};
        int rc = tl_gpu_case_alloc(&gc, W, W, W, err, sizeof err);
        if (rc == 0) rc = tl_gpu_case_upload(&gc, &M, &N, err, sizeof err);
        if (rc == 0) rc = tl_gpu_case_run(&gc, tl_sweep_launch, &c, &P, err, sizeof err);
        const char *status = "PASS";
        char reason[256] = "";
        if (rc != 0) {
            status = "FAIL";
            snprintf(reason, sizeof reason, "%s", rc > 0 ? "write outside P" : err);
        } else {
            tl_check_report rep;
            if (tl_check(P.data, ref, absref, W, W, W, c.tile, M.data, N.data, &rep)) {
                status = "FAIL";
                tl_check_reason(&rep, reason, sizeof reason);
            }
        }
        int flushed = 0, timed = 0;
        if (strcmp(status, "PASS") == 0 && strcmp(tl_build_type(), "debug") != 0) {
            if (tl_gpu_case_time(&gc, tl_sweep_launch, &c, TL_WARMUP_RUNS, reps, &P, &st, &flushed, err, sizeof err) == 0)
                timed = 1;
            else {
                status = "FAIL";
                snprintf(reason, sizeof reason, "while timing: %s", err);
            }
        }
        tl_gpu_case_free(&gc);
        fail += strcmp(status, "PASS") != 0;
        char rate[32] = "-";
        if (timed)
            snprintf(rate, sizeof rate, "%.1f", tl_gflops(W, W, W, st.median_ms));
        printf("  %-24s %4d %7d %5d %7d %9d %8d %5.0f%% %-13s %10s%s%s\n", c.name, c.tile, threads, regs,
               ssmem + c.dyn_smem, calc, api, 100 * occ_api, limit ? limit : calc != api ? "calc != API" : "-",
               strcmp(status, "PASS") ? "FAIL" : rate,
               *reason ? "  " : "", reason);
        if (rec) {
            tl_record_row row = {"sweep", "05", c.name, W, W, W, c.tile, regs, ssmem + c.dyn_smem,
                                 occ_calc, occ_api, status, timed ? &st : NULL,
                                 timed ? tl_gflops(W, W, W, st.median_ms) : -1, -1, NULL, -1, -1, -1, -1,
                                 limit};
            tl_records_row(rec, &row);
        }
    }
    (void)quiet;
    free(ref);
    free(absref);
    tl_matrix_free(&M);
    tl_matrix_free(&N);
    tl_matrix_free(&P);
    return fail;
}

/* ------------------------------------------------------------------ main */

static void usage(const tl_lab_info *info, FILE *out)
{
    fprintf(out,
            "usage: lab05 [--calc | --sweep] [--size W] [--reps N] [--records FILE] [--quiet] [--help]\n"
            "lab 05, %s: the calculator is part A, the sweep part B.\n\n"
            "  --calc          part A on the built-in tables only (no GPU needed)\n"
            "  --sweep         part B only (a GPU): the measured sweep, without part A\n"
            "  --serve         the grader's channel: configurations on fd 3, answers on fd 4\n"
            "  --api-table     the CUDA API's blocks per SM for the sweep's configurations (a GPU)\n"
            "  --size W        Width of the sweep's product, a multiple of 128 (default %d)\n"
            "  --reps N        timed runs per configuration, 1..1000 (default %d)\n"
            "  --records FILE  write the sweep as records (kind=sweep, common/CONTRACTS.md)\n"
            "  --quiet         failures and summaries only\n\n"
            "exit codes: 0 all passed, 1 a check failed, 2 bad usage, 77 no usable CUDA device\n"
            "(part A passed, the GPU part skipped)\n", info->title, info->own_main_size, TL_TIMED_RUNS);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"calc", no_argument, NULL, 'c'},     {"size", required_argument, NULL, 's'},
        {"reps", required_argument, NULL, 'r'}, {"records", required_argument, NULL, 'R'},
        {"quiet", no_argument, NULL, 'q'},    {"help", no_argument, NULL, 'h'},
        {"serve", no_argument, NULL, 'S'},    {"api-table", no_argument, NULL, 'A'},
        {"sweep", no_argument, NULL, 'W'},    {NULL, 0, NULL, 0}};
    const tl_lab_info *info = tl_lab_find("05");   /* its title and default size: common/labtable.c */
    int calc_only = 0, serve_mode = 0, api_mode = 0, sweep_only = 0, quiet = 0, W = info->own_main_size, reps = TL_TIMED_RUNS, c;
    const char *records = NULL;
    long v;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': calc_only = 1; break;
        case 'S': serve_mode = 1; break;
        case 'A': api_mode = 1; break;
        case 'W': sweep_only = 1; break;
        case 'q': quiet = 1; break;
        case 'R': records = optarg; break;
        case 's':
            if (tl_parse_int(optarg, 128, 16384, &v) != 0 || v % 128) {
                fprintf(stderr, "lab05: --size '%s': give a multiple of 128 from 128 to 16384 (the "
                        "register-tiled sweep kernel computes 128 x 128 tiles of P)\n", optarg);
                return TL_EXIT_USAGE;
            }
            W = (int)v;
            break;
        case 'r':
            if (tl_parse_int(optarg, 1, 1000, &v) != 0) {
                fprintf(stderr, "lab05: --reps '%s': give an integer from 1 to 1000\n", optarg);
                return TL_EXIT_USAGE;
            }
            reps = (int)v;
            break;
        case 'h': usage(info, stdout); return TL_EXIT_OK;
        default:
            fprintf(stderr, "lab05: unknown option or missing value: '%s'\nrun 'lab05 --help' for the options\n",
                    argv[optind - 1]);
            return TL_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "lab05: unexpected argument '%s'\n", argv[optind]);
        return TL_EXIT_USAGE;
    }
    if (calc_only + serve_mode + api_mode + sweep_only > 1) {
        fprintf(stderr, "lab05: --calc, --sweep, --serve and --api-table are separate modes: give one\n");
        return TL_EXIT_USAGE;
    }
    if (serve_mode)
        return serve();
    calc_guard();
    if (api_mode)
        return api_table();
    printf("lab 05: occupancy, calculated and measured\n");
    int cpu_fail = sweep_only ? 0 : run_calc_cases(quiet);
    if (!quiet && !sweep_only)
        print_lecture_table();
    if (calc_only)
        return cpu_fail ? TL_EXIT_FAIL : TL_EXIT_OK;

    tl_device_info dev;
    if (tl_device_query(&dev) != 0) {
        printf("\nGPU part (calculator against the CUDA API, measured sweep): SKIP: no usable CUDA device: %s\n", dev.why);
        return cpu_fail ? TL_EXIT_FAIL : TL_EXIT_SKIP;
    }
    if (dev.emulated) {
        printf("\nGPU part: SKIP: the emulated GPU has no occupancy to measure\n");
        return cpu_fail ? TL_EXIT_FAIL : TL_EXIT_SKIP;
    }
    tl_occ_device gd;
    char err[512];
    if (tl_sweep_device(&gd, err, sizeof err) != 0) {
        printf("GPU part: FAIL: %s\n", err);
        return TL_EXIT_FAIL;
    }
    int total = 0;
    int api_bad = 0;
    if (!sweep_only) {
        api_bad = compare_with_api(&gd, quiet, &total);
        printf("part A on the GPU: %d of %d configurations agree with the CUDA API\n", total - api_bad, total);
    }

    tl_records rec;
    if (records) {
        char timing[160];
        snprintf(timing, sizeof timing, "cuda-events, median of %d after %d warm-ups, L2 flushed when the inputs fit in it",
                 reps, TL_WARMUP_RUNS);
        if (tl_records_open(&rec, records, &dev, TL_DEFAULT_SEED, timing, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "lab05: %s\n", err);
            return TL_EXIT_USAGE;
        }
    }
    int sweep_fail = run_sweep(&dev, &gd, W, reps, records ? &rec : NULL, quiet);
    if (records && tl_records_close(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "lab05: %s\n", err);
        return TL_EXIT_FAIL;
    }
    printf("\n%s: part A %d wrong, API comparison %d mismatches, sweep %d failed\n",
           cpu_fail || api_bad || sweep_fail ? "FAIL" : "PASS", cpu_fail, api_bad, sweep_fail);
    return cpu_fail || api_bad || sweep_fail ? TL_EXIT_FAIL : TL_EXIT_OK;
}
