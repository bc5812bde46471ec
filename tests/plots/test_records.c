/* test_records.c: the records module (common/records.c): its strict reader and its writer, called directly. */
#include "plots_test.h"

#include "tilelab.h" /* records.h and tl_stats */

#include <math.h>

/* ---- field parsers ------------------------------------------------------------------------------ */

Test(records, counts_are_plain_decimal_whole_numbers, .timeout = 10)
{
    long v = -7;
    cr_assert_eq(tl_rec_parse_count("0", &v), 0);
    cr_assert_eq(v, 0);
    cr_assert_eq(tl_rec_parse_count("1024", &v), 0);
    cr_assert_eq(v, 1024, "parsed %ld, expected 1024", v);
    static const char *const bad[] = {"", "-1", "+1", " 1", "1 ", "1x", "1.0", "0x10", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(tl_rec_parse_count(bad[i], &v), -1, "'%s' was taken as a count", bad[i]);
}

Test(records, reals_are_finite_non_negative_numbers, .timeout = 10)
{
    double v = -1;
    static const struct { const char *s; double want; } good[] = {
        {"12.5", 12.5}, {"1.2e3", 1200}, {"0", 0}, {".5", 0.5}, {"1e-3", 0.001}, {"3500", 3500}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cr_assert_eq(tl_rec_parse_real(good[i].s, &v), 0, "'%s' was refused", good[i].s);
        cr_assert_float_eq(v, good[i].want, 1e-12, "'%s' parsed as %g, expected %g", good[i].s, v, good[i].want);
    }
    static const char *const bad[] = {"", "-1", "nan", "NaN", "inf", "0x1p3", "1,5", " 1", "1e999", "fast", "1.2.3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(tl_rec_parse_real(bad[i], &v), -1, "'%s' was taken as a number", bad[i]);
}

Test(records, split_keeps_empty_fields_and_counts_past_the_limit, .timeout = 10)
{
    char line[] = "a,,b";
    char *f[4];
    cr_assert_eq(tl_rec_split(line, f, 4), 3);
    cr_assert_str_eq(f[0], "a");
    cr_assert_str_eq(f[1], "");
    cr_assert_str_eq(f[2], "b");
    char empty[] = "";
    cr_assert_eq(tl_rec_split(empty, f, 4), 1);
    char many[] = "1,2,3,4,5,6";
    cr_assert_eq(tl_rec_split(many, f, 4), 6, "fields beyond the array are still counted");
}

/* ---- whole files -------------------------------------------------------------------------------- */

Test(records, synthetic_dataset_reads_with_its_metadata_and_rows, .timeout = 10)
{
    tl_rec_file f;
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(tl_rec_read(data_path("synthetic.csv"), &f, err, sizeof err), 0, "refused: %s", err);
    cr_assert_str_eq(tl_rec_meta_get(&f, "device"), "synthetic test data (not measured)");
    cr_assert_str_eq(tl_rec_meta_get(&f, "tilelab_records"), "1");
    cr_assert_null(tl_rec_meta_get(&f, "no_such_key"));
    cr_assert_eq(f.nrows, 54, "read %zu rows, expected 54", f.nrows);

    const tl_rec_row *first = &f.rows[0];
    cr_assert_str_eq(first->kind, "gemm");
    cr_assert_str_eq(first->variant, "cpu_ijk");
    cr_assert_eq(first->m, 256);
    cr_assert_eq(first->tile, -1, "an empty whole-number field reads as -1");
    cr_assert(isnan(first->gbps), "an empty real field reads as NaN");
    cr_assert_eq(first->line, 19, "the first row is on line %d, expected 19", first->line);

    size_t fails = 0;
    for (size_t i = 0; i < f.nrows; i++) {
        if (strcmp(f.rows[i].status, "FAIL") == 0) {
            fails++;
            cr_assert(isnan(f.rows[i].gflops) && isnan(f.rows[i].median_ms));
        }
    }
    cr_assert_eq(fails, 1);
    tl_rec_free(&f);
}

/* Write TEXT to a temporary file and read it; returns tl_rec_read's result, message in ERR. */
static int read_text(const char *text, char *err, size_t errlen)
{
    char path[] = "/tmp/tl-records-in-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    tl_rec_file f;
    int rc = tl_rec_read(path, &f, err, errlen);
    if (rc == 0)
        tl_rec_free(&f);
    unlink(path);
    return rc;
}

#define META "# tilelab_records: 3\n# device: synthetic test data (not measured)\n# date: 2026-11-22T03:00:00Z\n"
#define ROW "gemm,02,naive,64,64,64,,,,,,PASS,5,0.01,0.01,0.02,52.4,,,,,,,\n"

Test(records, windows_line_ends_and_trailing_blank_lines_are_accepted, .timeout = 10)
{
    char err[TL_REC_ERRLEN] = "";
    const char *crlf = "# tilelab_records: 3\r\n# device: synthetic test data (not measured)\r\n"
                       "# date: 2026-11-22\r\n" TL_REC_HEADER "\r\n"
                       "gemm,02,naive,64,64,64,,,,,,PASS,5,0.01,0.01,0.02,52.4,,,,,,,\r\n\n\n";
    cr_assert_eq(read_text(crlf, err, sizeof err), 0, "refused: %s", err);
}

Test(records, a_header_without_rows_is_a_valid_empty_file, .timeout = 10)
{
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(read_text(META TL_REC_HEADER "\n", err, sizeof err), 0, "refused: %s", err);
}

static void assert_refused(const char *text, const char *line_tag, const char *phrase)
{
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(read_text(text, err, sizeof err), -1, "accepted a file it should refuse (%s)", phrase);
    assert_contains(err, line_tag, "the message");
    assert_contains(err, phrase, "the message");
}

Test(records, metadata_after_the_header_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\n" ROW "# late: key\n", ":6:", "metadata line after the header");
}

Test(records, a_repeated_metadata_key_is_refused, .timeout = 10)
{
    assert_refused(META "# device: other\n" TL_REC_HEADER "\n" ROW, ":4:", "appears again (first on line 2)");
}

Test(records, a_quoted_field_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\ngemm,02,\"naive\",64,64,64,,,,,,PASS,5,0.01,0.01,0.02,52.4,,,,,,,\n", ":5:",
                   "field 'variant' is quoted");
}

Test(records, a_variant_that_cannot_be_a_file_name_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\ngemm,02,../x,64,64,64,,,,,,PASS,5,0.01,0.01,0.02,52.4,,,,,,,\n", ":5:",
                   "variant '../x' must be");
}

Test(records, a_malformed_metadata_line_is_refused, .timeout = 10)
{
    assert_refused("# tilelab_records: 3\n#device synthetic\n" TL_REC_HEADER "\n" ROW, ":2:", "is not '# key: value'");
}

Test(records, metadata_without_a_header_is_refused, .timeout = 10)
{
    assert_refused(META, ":3:", "no header line after the metadata");
}

Test(records, an_empty_file_is_refused, .timeout = 10)
{
    assert_refused("", ": ", "empty: no metadata, no header");
}

Test(records, a_gemm_row_without_sizes_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\ngemm,02,naive,,64,64,,,,,,PASS,5,0.01,0.01,0.02,52.4,,,,,,,\n", ":5:",
                   "needs m, k and n");
}

Test(records, a_copy_bandwidth_ceiling_without_gbps_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\nceiling,,copy_bandwidth,,,,,,,,,PASS,20,0.74,0.73,0.75,,,,,,,,\n", ":5:",
                   "has no gbps");
}

/* ---- version 2: traffic columns, and the writer and the reader agreeing ------------------------- */

Test(records, a_version_1_file_reads_with_no_traffic, .timeout = 10)
{
    tl_rec_file f;
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(tl_rec_read(data_path("synthetic.csv"), &f, err, sizeof err), 0, "refused: %s", err);
    cr_assert_eq(f.version, 1);
    for (size_t i = 0; i < f.nrows; i++) {
        cr_assert_str_eq(f.rows[i].traffic, "", "row %zu of a version 1 file has traffic '%s'", i, f.rows[i].traffic);
        cr_assert(isnan(f.rows[i].dram_bytes));
    }
    tl_rec_free(&f);
}

Test(records, traffic_that_is_neither_measured_nor_model_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\ntraffic,speed,naive,64,64,64,,,,,,PASS,,,,,,,guess,1,2,3,4,\n", ":5:",
                   "is not 'measured'");
}

Test(records, bytes_without_saying_measured_or_model_are_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\ntraffic,speed,naive,64,64,64,,,,,,PASS,,,,,,,,1,2,3,4,\n", ":5:",
                   "does not say where they come from");
}

Test(records, a_row_with_the_version_1_field_count_in_a_version_3_file_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\ngemm,02,naive,64,64,64,,,,,,PASS,5,0.01,0.01,0.02,52.4,\n", ":5:",
                   "row has 18 fields, expected 24");
}

/* ---- version 3: the limit of a sweep point ------------------------------------------------------- */

Test(records, a_version_2_file_reads_with_no_limit, .timeout = 10)
{
    char hdr[] = TL_REC_HEADER;
    *strrchr(hdr, ',') = '\0';   /* version 2's header: all but the last field */
    char text[1024];
    snprintf(text, sizeof text, "# tilelab_records: 2\n# device: synthetic\n# date: 2026-11-22\n%s\n"
             "sweep,05,sweep_t16_s0k,2048,2048,2048,16,32,2048,1.0,1.0,PASS,5,2.0,1.9,2.1,8000,,,,,,\n", hdr);
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(read_text(text, err, sizeof err), 0, "a version 2 file was refused: %s", err);
}

Test(records, a_sweep_limit_that_is_not_a_resource_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\nsweep,05,sweep_t16_s0k,2048,2048,2048,16,32,2048,1.0,1.0,PASS,5,2.0,1.9,2.1,"
                   "8000,,,,,,,occupancy\n", ":5:", "limit 'occupancy' on a sweep row");
}

Test(records, a_limit_on_a_gemm_row_is_refused, .timeout = 10)
{
    assert_refused(META TL_REC_HEADER "\ngemm,02,naive,64,64,64,,,,,,PASS,5,0.01,0.01,0.02,52.4,,,,,,,registers\n",
                   ":5:", "only sweep rows carry one");
}

Test(records, what_the_writer_writes_the_reader_reads_back, .timeout = 10)
{
    char path[] = "/tmp/tl-records-rt-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    tl_records rec;
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(tl_records_open(&rec, path, NULL, 7, "test", "# extra_key: 1\n", err, sizeof err), 0, "%s", err);
    tl_stats st = {5, 2.0, 1.5, 3.0};
    tl_record_row gemm = {"gemm", "speed", "naive", 64, 64, 64, 16, -1, -1, -1, -1, "PASS", &st, 0.262144, -1,
                          NULL, 0, 0, 0, 0, NULL};
    tl_record_row traffic = {"traffic", "speed", "naive", 64, 64, 64, 16, -1, -1, -1, -1, "PASS", NULL, -1, -1,
                             "measured", 1e6, 2e6, 3e6, 0, NULL};
    tl_record_row sweep = {"sweep", "05", "sweep_rt8_s0k", 64, 64, 64, 128, 128, 16384, 0.25, 0.25, "PASS", &st,
                           0.262144, -1, NULL, -1, -1, -1, -1, "registers"};
    tl_records_row(&rec, &gemm);
    tl_records_row(&rec, &traffic);
    tl_records_row(&rec, &sweep);
    cr_assert_eq(tl_records_close(&rec, err, sizeof err), 0, "%s", err);

    tl_rec_file f;
    cr_assert_eq(tl_rec_read(path, &f, err, sizeof err), 0, "the writer's own file was refused: %s", err);
    cr_assert_eq(f.version, TL_REC_VERSION);
    cr_assert_str_eq(tl_rec_meta_get(&f, "extra_key"), "1");
    cr_assert_eq(f.nrows, 3);
    cr_assert_str_eq(f.rows[0].limit, "");
    cr_assert_str_eq(f.rows[2].limit, "registers", "the sweep row's limit read back as '%s'", f.rows[2].limit);
    cr_assert_str_eq(f.rows[0].traffic, "");
    cr_assert_float_eq(f.rows[0].median_ms, 2.0, 1e-9);
    cr_assert_str_eq(f.rows[1].kind, "traffic");
    cr_assert_str_eq(f.rows[1].traffic, "measured");
    cr_assert_float_eq(f.rows[1].l2_bytes, 2e6, 0.5, "l2_bytes read back as %g", f.rows[1].l2_bytes);
    cr_assert_float_eq(f.rows[1].shared_bytes, 0, 0.5);
    tl_rec_free(&f);
    unlink(path);
}

/* The deck's supplement (tests/gpu/deck-on-device.sh): 'kernel' rows (the n-body bench) read with their
 * size, tile and rate; a PASS kernel row without n is refused by name. */
Test(records, kernel_rows_of_the_deck_supplement_are_read, .timeout = 10)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/plots/data/extra/nvidia-h100-80gb-hbm3-2026-11-26-deck.csv", env_or_die("TL_ROOT"));
    tl_rec_file f;
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(tl_rec_read(path, &f, err, sizeof err), 0, "refused: %s", err);
    size_t kernels = 0;
    for (size_t i = 0; i < f.nrows; i++)
        if (!strcmp(f.rows[i].kind, "kernel")) {
            kernels++;
            cr_assert_gt(f.rows[i].n, 0);
            cr_assert_gt(f.rows[i].tile, 0);
            cr_assert(!isnan(f.rows[i].gflops) && f.rows[i].gflops > 0);
        }
    cr_assert_eq(kernels, 24, "read %zu kernel rows, expected 24 (6 variants x 4 sizes)", kernels);
    tl_rec_free(&f);

    char bad[512];
    snprintf(bad, sizeof bad, "%s/kernel-no-n.csv", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    FILE *fp = fopen(bad, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "# tilelab_records: 3\n# device: synthetic test data (not measured)\n# date: 2026-11-26T00:00:00Z\n"
                "%s\nkernel,,nbody_naive,,,,256,,0,,,PASS,20,1.0,1.0,1.0,100.0,,,,,,,\n", TL_REC_HEADER);
    fclose(fp);
    cr_assert_neq(tl_rec_read(bad, &f, err, sizeof err), 0, "a PASS kernel row without n was read");
    cr_assert(strstr(err, "PASS kernel row for 'nbody_naive' needs n"), "the refusal does not say why: %s", err);
    remove(bad);
}
