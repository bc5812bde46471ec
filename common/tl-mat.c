/* tl-mat: make and inspect the kit's matrix files (common/CONTRACTS.md section 3).
 *   tl-mat info FILE                      validate FILE and print its shape and a summary
 *   tl-mat gen ROWS COLS SEED FILE        write a seeded random matrix (values in [-1, 1])
 * Exit 0 ok, 2 bad usage or a malformed file (the message names the file and the problem). */
#include <math.h>
#include <string.h>

#include "tilelab.h"

static int usage(FILE *out, int rc)
{
    fprintf(out, "usage: tl-mat info FILE\n       tl-mat gen ROWS COLS SEED FILE\n");
    return rc;
}

int main(int argc, char **argv)
{
    char err[512];
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return usage(stdout, 0);
    if (argc == 3 && strcmp(argv[1], "info") == 0) {
        tl_matrix m;
        if (tl_matfile_read(argv[2], &m, 1, err, sizeof err) != 0) {
            fprintf(stderr, "tl-mat: %s\n", err);
            return TL_EXIT_USAGE;
        }
        size_t n = tl_matrix_count(&m), bad = 0;
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; ++i) {
            if (!isfinite(m.data[i])) { bad++; continue; }
            lo = fmin(lo, m.data[i]);
            hi = fmax(hi, m.data[i]);
        }
        printf("%s: %d x %d float32, min %g, max %g, %zu NaN/Inf\n", argv[2], m.rows, m.cols, lo, hi, bad);
        tl_matrix_free(&m);
        return 0;
    }
    if (argc == 6 && strcmp(argv[1], "gen") == 0) {
        long r, c;
        uint64_t seed;
        if (tl_parse_int(argv[2], 1, TL_MAX_DIM, &r) || tl_parse_int(argv[3], 1, TL_MAX_DIM, &c)) {
            fprintf(stderr, "tl-mat gen: ROWS and COLS must be integers from 1 to %d\n", TL_MAX_DIM);
            return TL_EXIT_USAGE;
        }
        if (tl_parse_u64(argv[4], &seed)) {
            fprintf(stderr, "tl-mat gen: SEED must be a non-negative integer\n");
            return TL_EXIT_USAGE;
        }
        tl_matrix m;
        if (tl_matrix_alloc(&m, "M", (int)r, (int)c) != 0) {
            fprintf(stderr, "tl-mat gen: out of memory for %ld x %ld\n", r, c);
            return TL_EXIT_FAIL;
        }
        tl_matrix_fill_random(&m, seed, 1);
        int rc = tl_matfile_write(argv[5], &m, err, sizeof err);
        tl_matrix_free(&m);
        if (rc) {
            fprintf(stderr, "tl-mat: %s\n", err);
            return TL_EXIT_USAGE;
        }
        return 0;
    }
    /* one line naming what is wrong and the form that is right (never the usage after an error) */
    if (argc < 2)
        fprintf(stderr, "tl-mat: give a command: info FILE, or gen ROWS COLS SEED FILE (--help)\n");
    else if (strcmp(argv[1], "info") == 0)
        fprintf(stderr, "tl-mat info takes one FILE, got %d arguments: info FILE (--help)\n", argc - 2);
    else if (strcmp(argv[1], "gen") == 0)
        fprintf(stderr, "tl-mat gen takes ROWS COLS SEED FILE, got %d arguments (--help)\n", argc - 2);
    else
        fprintf(stderr, "tl-mat: unknown command '%.100s': info FILE, or gen ROWS COLS SEED FILE (--help)\n", argv[1]);
    return TL_EXIT_USAGE;
}
