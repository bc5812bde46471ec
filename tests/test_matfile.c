/* test_matfile.c: the matrix file round-trips, and every malformed file is refused with a
 * message that names the file and the problem. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tilelab.h"

static char dir[] = "/tmp/tl-matfile-XXXXXX";

static void setup(void)
{
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(matfile, .init = setup, .fini = teardown, .timeout = 10);

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static void write_bytes(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* A valid 3x2 float32 file as bytes, for mangling. */
static size_t valid_file(unsigned char *buf)
{
    tl_mat_header h = {1, TL_MAT_F32, 3, 2};
    tl_mat_header_encode(buf, &h);
    float v[6] = {1, -2, 0.5f, 0.25f, -1, 1};
    memcpy(buf + 32, v, sizeof v);   /* this test runs on little-endian machines only */
    return 32 + sizeof v;
}

static void assert_refused(const char *name, const unsigned char *bytes, size_t n, int allow_nonfinite,
                           const char *want)
{
    char path[256], err[512] = "";
    tl_matrix m;
    path_of(path, sizeof path, name);
    write_bytes(path, bytes, n);
    int rc = tl_matfile_read(path, &m, allow_nonfinite, err, sizeof err);
    cr_assert_eq(rc, -1, "%s was accepted", name);
    cr_assert(strstr(err, path) != NULL, "message does not name the file: %s", err);
    cr_assert(strstr(err, want) != NULL, "message lacks '%s': %s", want, err);
}

Test(matfile, round_trip_keeps_every_bit)
{
    tl_matrix a, b;
    char path[256], err[512];
    tl_matrix_alloc(&a, "A", 17, 5);
    tl_matrix_fill_random(&a, 3, 1);
    path_of(path, sizeof path, "a.mat");
    cr_assert_eq(tl_matfile_write(path, &a, err, sizeof err), 0, "%s", err);
    cr_assert_eq(access(path, F_OK), 0);
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    cr_assert_neq(access(tmp, F_OK), 0, "the temporary file was left behind");
    cr_assert_eq(tl_matfile_read(path, &b, 0, err, sizeof err), 0, "%s", err);
    cr_assert_eq(b.rows, 17);
    cr_assert_eq(b.cols, 5);
    cr_assert_eq(memcmp(a.data, b.data, sizeof(float) * 85), 0);
    tl_matrix_free(&a);
    tl_matrix_free(&b);
}

Test(matfile, reads_float64_payloads)
{
    unsigned char buf[32 + 16];
    tl_mat_header h = {1, TL_MAT_F64, 1, 2};
    tl_mat_header_encode(buf, &h);
    double v[2] = {0.5, -0.75};
    memcpy(buf + 32, v, sizeof v);
    char path[256], err[512];
    path_of(path, sizeof path, "d.mat");
    write_bytes(path, buf, sizeof buf);
    tl_matrix m;
    cr_assert_eq(tl_matfile_read(path, &m, 0, err, sizeof err), 0, "%s", err);
    cr_assert_float_eq(m.data[1], -0.75f, 0);
    tl_matrix_free(&m);
}

Test(matfile, refuses_a_truncated_header)
{
    unsigned char buf[64];
    valid_file(buf);
    assert_refused("short.mat", buf, 20, 0, "truncated header");
}

Test(matfile, refuses_a_truncated_payload)
{
    unsigned char buf[64];
    size_t n = valid_file(buf);
    assert_refused("cut.mat", buf, n - 3, 0, "truncated");
}

Test(matfile, refuses_a_wrong_magic)
{
    unsigned char buf[64];
    size_t n = valid_file(buf);
    buf[0] = 'X';
    assert_refused("magic.mat", buf, n, 0, "wrong magic");
}

Test(matfile, refuses_an_unknown_version)
{
    unsigned char buf[64];
    size_t n = valid_file(buf);
    buf[8] = 7;
    assert_refused("version.mat", buf, n, 0, "version 7");
}

Test(matfile, refuses_an_unknown_element_type)
{
    unsigned char buf[64];
    size_t n = valid_file(buf);
    buf[12] = 9;
    assert_refused("type.mat", buf, n, 0, "element type 9");
}

Test(matfile, refuses_zero_dimensions)
{
    unsigned char buf[64];
    size_t n = valid_file(buf);
    memset(buf + 16, 0, 8);
    assert_refused("zero.mat", buf, n, 0, "header says 0 x 2");
}

Test(matfile, refuses_dimensions_that_do_not_match_the_size)
{
    unsigned char buf[128];
    size_t n = valid_file(buf);
    memset(buf + n, 0, 8);   /* two floats too many */
    assert_refused("extra.mat", buf, n + 8, 0, "do not match the size");
}

Test(matfile, refuses_nan_and_inf_where_not_allowed)
{
    unsigned char buf[64];
    size_t n = valid_file(buf);
    float nan = NAN, inf = INFINITY;
    memcpy(buf + 32 + 4 * 4, &nan, 4);
    assert_refused("nan.mat", buf, n, 0, "element (2, 0) is NaN");
    valid_file(buf);
    memcpy(buf + 32 + 4, &inf, 4);
    assert_refused("inf.mat", buf, n, 0, "element (0, 1) is Inf");
}

Test(matfile, accepts_nan_when_the_caller_allows_it)
{
    unsigned char buf[64];
    size_t n = valid_file(buf);
    float nan = NAN;
    memcpy(buf + 32, &nan, 4);
    char path[256], err[512];
    path_of(path, sizeof path, "nan-ok.mat");
    write_bytes(path, buf, n);
    tl_matrix m;
    cr_assert_eq(tl_matfile_read(path, &m, 1, err, sizeof err), 0, "%s", err);
    cr_assert(isnan(m.data[0]));
    tl_matrix_free(&m);
}

Test(matfile, refuses_a_missing_file_by_name)
{
    char path[256], err[512];
    tl_matrix m;
    path_of(path, sizeof path, "nope.mat");
    cr_assert_eq(tl_matfile_read(path, &m, 0, err, sizeof err), -1);
    cr_assert(strstr(err, "nope.mat") && strstr(err, "cannot open"), "%s", err);
}

/* A file of rows x cols floats (element i is i / 8, all finite) beyond the reader's 1 MiB reads, for
 * the large-payload path (a little-endian host reads F32 payloads in place: issue 29). */
static unsigned char *big_file(int rows, int cols, size_t *n)
{
    size_t count = (size_t)rows * cols;
    *n = 32 + 4 * count;
    unsigned char *buf = malloc(*n);
    cr_assert_not_null(buf);
    tl_mat_header h = {1, TL_MAT_F32, (uint64_t)rows, (uint64_t)cols};
    tl_mat_header_encode(buf, &h);
    for (size_t i = 0; i < count; ++i) {
        float v = (float)i / 8;
        memcpy(buf + 32 + 4 * i, &v, 4);
    }
    return buf;
}

Test(matfile, reads_a_payload_larger_than_one_read_exactly)
{
    size_t n;
    unsigned char *buf = big_file(700, 701, &n);   /* 1.9 MB: two reads of 1 MiB, the second short */
    char path[256], err[512];
    path_of(path, sizeof path, "big.mat");
    write_bytes(path, buf, n);
    tl_matrix m;
    cr_assert_eq(tl_matfile_read(path, &m, 0, err, sizeof err), 0, "%s", err);
    cr_assert_eq(m.rows, 700);
    cr_assert_eq(m.cols, 701);
    cr_assert_eq(memcmp(m.data, buf + 32, n - 32), 0, "the elements differ from the file's");
    tl_matrix_free(&m);
    free(buf);
}

Test(matfile, names_a_nan_past_the_first_read)
{
    size_t n;
    unsigned char *buf = big_file(700, 701, &n);
    float nan = NAN;
    size_t at = 500 * 701 + 3;                     /* past the first MiB (262,144 elements) */
    memcpy(buf + 32 + 4 * at, &nan, 4);
    assert_refused("big-nan.mat", buf, n, 0, "element (500, 3) is NaN");
    free(buf);
}

/* Cut short: a NaN in a whole 4 KiB block before the cut is named, as the block reader named it;
 * one in the block the cut falls in is not (the file is "truncated"), and the bytes that did
 * follow are counted the same way. */
Test(matfile, a_cut_payload_is_judged_block_by_block)
{
    size_t n;
    unsigned char *buf = big_file(700, 701, &n);
    size_t cut = 32 + 300000 * 4 + 100;            /* in the second MiB, 100 bytes into an element run */
    float nan = NAN;
    size_t early = (300000 * 4 / 4096) * 4096 / 4 - 10;   /* in the last whole block before the cut */
    memcpy(buf + 32 + 4 * early, &nan, 4);
    char want[64];
    snprintf(want, sizeof want, "element (%zu, %zu) is NaN", early / 701, early % 701);
    assert_refused("cut-nan-early.mat", buf, cut, 0, want);
    free(buf);
    buf = big_file(700, 701, &n);
    memcpy(buf + 32 + 4 * 300000, &nan, 4);        /* in the block the cut falls in */
    assert_refused("cut-nan-late.mat", buf, cut, 0, "truncated");
    free(buf);
    buf = big_file(700, 701, &n);
    assert_refused("cut.mat", buf, cut, 0, "but only 1200100 bytes of data follow");
    free(buf);
}
