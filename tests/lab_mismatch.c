/* lab_mismatch.c: a lab.c that disagrees with the lab table, for test_labtable.c: the driver must
 * refuse it (exit 2) before running anything. argv[1] picks the disagreement. */
#include <string.h>

#include "tilelab.h"

static void nothing(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)M; (void)N; (void)P; (void)m; (void)k; (void)n; (void)ctx;
}

int main(int argc, char **argv)
{
    static const tl_lab_code missing[] = {{"cpu_ijk", .cpu = nothing}};          /* 3 of lab 01's lack code */
    static const tl_lab_code extra[] = {{"cpu_ijk", .cpu = nothing}, {"cpu_ikj", .cpu = nothing},
                                        {"cpu_blocked", .cpu = nothing}, {"cpu_blocked64", .cpu = nothing},
                                        {"cpu_magic", .cpu = nothing}};          /* not in the table */
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "missing") == 0)
        return tl_lab_run("01", missing, 1, NULL, argc - 1, argv + 1);
    if (strcmp(mode, "extra") == 0)
        return tl_lab_run("01", extra, 5, NULL, argc - 1, argv + 1);
    if (strcmp(mode, "own-main") == 0)
        return tl_lab_run("05", missing, 1, NULL, argc - 1, argv + 1);
    return tl_lab_run("99", missing, 1, NULL, argc - 1, argv + 1);
}
