/* test_oob.c: kit check's memcheck headline (grader/oob.c): compute-sanitizer's report of an
 * out-of-bounds access turned into the matrix, row, column, file and line, from the transcripts in
 * tests/oob/ (taken on an H100 by tests/gpu/kit-check-oob.sh). Needs no GPU. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "labtable.h"
#include "oob.h"
#include "util.h"

static char *slurp(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TL_SOURCE_ROOT, rel);
    size_t len;
    char *s = tg_read_file(path, 1 << 20, &len);
    cr_assert(s, "cannot read %s", path);
    return s;
}

/* A kit whose student file for lab NN is tests/wrong/FILE, as kit check sees it. */
static void kit_with(grun *R, const char *lab, const char *wrong)
{
    static tg_opts O;   /* the options (const to the grader's parts: filled here) */
    memset(R, 0, sizeof *R);
    memset(&O, 0, sizeof O);
    R->opt = &O;
    R->lab = tl_lab_find(lab);
    cr_assert(R->lab);
    snprintf(O.root, sizeof O.root, "/tmp/test-oob-%ld", (long)getpid());
    char dir[PATH_MAX + 64], to[PATH_MAX + 128], from[1024], err[300];
    snprintf(dir, sizeof dir, "%s/labs/%s", R->opt->root, R->lab->dir);
    cr_assert_eq(tg_mkdirs(dir, 0755), 0);
    snprintf(to, sizeof to, "%s/%s", dir, R->lab->files[0]);
    snprintf(from, sizeof from, "%s/tests/wrong/%s", TL_SOURCE_ROOT, wrong);
    cr_assert_eq(tg_copy_file(from, to, err, sizeof err), 0, "%s", err);
}

static void expect_in(const char *text, const char *want)
{
    cr_assert(strstr(text, want), "expected \"%s\" in the headline:\n%s", want, text);
}

Test(oob, square_read_past_M_is_named_from_the_kernels_parameters, .timeout = 10)
{
    grun R;
    kit_with(&R, "04", "04/read-then-guard.cu");
    char *rep = slurp("tests/oob/memcheck-04-read-then-guard.txt");
    tg_buf head = {0};
    tg_oob_explain(rep, &R, 15, 15, 15, &head);
    /* M, N and P are all 15 x 15: the matrix comes from the line, which indexes Md (parameter 1) */
    expect_in(head.s, "out-of-bounds read of M at row 15, column 0 (M is 15 x 15: 1 float past its end)");
    expect_in(head.s, "in boundary.cu:47, thread (15,14,0) of block (0,0,0)");
    expect_in(head.s, "float m_elem = Md[Row * Width + ph * TILE_WIDTH + tx];");
    expect_in(head.s, "test the index before the load");
    /* the same facts as a verdict (CONTRACTS.md section 10) */
    tl_verdict v;
    tg_oob_verdict(rep, &R, 15, 15, 15, &v);
    cr_assert_eq(v.kind, TL_V_SANITIZER);
    cr_assert_str_eq(v.pattern, "out-of-bounds");
    cr_assert_str_eq(v.access, "read");
    cr_assert_str_eq(v.matrix, "M");
    cr_assert_eq(v.row, 15);
    cr_assert_eq(v.column, 0);
    cr_assert_str_eq(v.file, "boundary.cu");
    cr_assert_eq(v.line, 47);
    cr_assert(v.have_thread && v.thread[0] == 15 && v.thread[1] == 14 && v.block[0] == 0, "thread and block");
    tg_rmtree(R.opt->root);
    tg_buf_free(&head);
    free(rep);
}

Test(oob, rectangular_read_is_named_by_the_allocations_size, .timeout = 10)
{
    grun R;
    kit_with(&R, "04", "04/read-then-guard.cu");
    /* 17 x 33 x 49: N is 33 x 49 = 1617 floats = 6,468 bytes (the sanitizer groups the digits) */
    const char *rep =
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at MatrixMulKernelRect(float *, float *, float *, int, int, int)+0x2a0 in boundary.cu:48\n"
        "=========     by thread (3,2,0) in block (3,2,0)\n"
        "=========     Access to 0x7f0000001950 is out of bounds\n"
        "=========     and is 12 bytes after the nearest allocation at 0x7f0000000000 of size 6,468 bytes\n"
        "=========\n";
    tg_buf head = {0};
    tg_oob_explain(rep, &R, 17, 33, 49, &head);
    expect_in(head.s, "out-of-bounds read of N at row 33, column 3 (N is 33 x 49: 4 floats past its end)");
    tg_rmtree(R.opt->root);
    tg_buf_free(&head);
}

Test(oob, an_error_that_is_no_access_is_quoted, .timeout = 10)
{
    grun R;
    kit_with(&R, "04", "04/read-then-guard.cu");
    const char *rep = "========= COMPUTE-SANITIZER\n"
                      "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\"\n"
                      "========= ERROR SUMMARY: 1 error\n";
    tg_buf head = {0};
    tg_oob_explain(rep, &R, 15, 15, 15, &head);
    expect_in(head.s, "compute-sanitizer memcheck found an error: Program hit cudaErrorLaunchFailure");
    tg_rmtree(R.opt->root);
    tg_buf_free(&head);
}

Test(oob, the_case_is_the_smallest_ragged_public_size_of_each_variant, .timeout = 10)
{
    static grun R;
    static tg_opts O;
    memset(&R, 0, sizeof R);
    R.opt = &O;
    R.lab = tl_lab_find("04");
    tl_sizes list;
    char err[300];
    cr_assert_eq(tl_parse_sizes(R.lab->public_sizes, &list, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < list.count; ++i)
        cr_assert_geq(tg_add_size(&R, list.m[i], list.k[i], list.n[i], 0), 0);
    struct { const char *v; int m, k, n; } want[] = {
        {"boundary16", 15, 15, 15}, {"boundary32", 15, 15, 15}, {"rect16", 17, 33, 49}, {"rect32", 17, 33, 49}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
        int si = tg_oob_pick_case(&R, tl_lab_variant_find(R.lab, want[i].v));
        cr_assert_geq(si, 0, "%s: no case", want[i].v);
        const gsize *s = &R.run.sizes[si];
        cr_assert(s->m == want[i].m && s->k == want[i].k && s->n == want[i].n, "%s: %dx%dx%d, expected %dx%dx%d",
                  want[i].v, s->m, s->k, s->n, want[i].m, want[i].k, want[i].n);
    }
}

Test(oob, lab_03_takes_its_smallest_size_per_tile_width, .timeout = 10)
{
    static grun R;
    static tg_opts O;
    memset(&R, 0, sizeof R);
    R.opt = &O;
    R.lab = tl_lab_find("03");
    tl_sizes list;
    char err[300];
    cr_assert_eq(tl_parse_sizes(R.lab->public_sizes, &list, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < list.count; ++i)
        cr_assert_geq(tg_add_size(&R, list.m[i], list.k[i], list.n[i], 0), 0);
    /* no ragged size fits lab 03 (multiples of the tile): the smallest each variant accepts */
    int a = tg_oob_pick_case(&R, tl_lab_variant_find(R.lab, "tiled16"));
    int b = tg_oob_pick_case(&R, tl_lab_variant_find(R.lab, "tiled32"));
    cr_assert(a >= 0 && R.run.sizes[a].m == 16, "tiled16: size %d, expected 16", a >= 0 ? R.run.sizes[a].m : -1);
    cr_assert(b >= 0 && R.run.sizes[b].m == 32, "tiled32: size %d, expected 32", b >= 0 ? R.run.sizes[b].m : -1);
}
