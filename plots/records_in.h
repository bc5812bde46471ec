/* records_in.h: read and validate one records file (CONTRACTS.md section 4) for the plots.
 *
 * The reader is strict: anything the contract does not allow is refused with a message of the form
 * "FILE:LINE: what is wrong; how to fix it", so that a chart is never drawn from data that was
 * half understood. Used by tl-plotprep (plotprep.c) and the unit tests in tests/plots/.
 */
#ifndef TL_RECORDS_IN_H
#define TL_RECORDS_IN_H

#include <stddef.h>

#define TL_REC_FORMAT_VERSION "1" /* the only records version this reader knows */
#define TL_REC_NFIELDS 18         /* fields in every row, as in the header below */
#define TL_REC_HEADER                                                                              \
    "kind,lab,variant,m,k,n,tile,regs,smem_bytes,occ_calc,occ_api,status,reps,median_ms,min_ms,"   \
    "max_ms,gflops,gbps"
#define TL_REC_ERRLEN 1024        /* room for one error message */

/* One row. Whole numbers are -1 and reals NaN where the field was empty ("not applicable"). */
typedef struct tl_rec_row {
    char kind[16];    /* gemm, ceiling or sweep */
    char lab[32];
    char variant[48]; /* a-z, 0-9 and _ only: it becomes part of a file name */
    long m, k, n, tile, regs, smem_bytes, reps;
    double occ_calc, occ_api;
    char status[8];   /* PASS, FAIL or SKIP */
    double median_ms, min_ms, max_ms, gflops, gbps;
    int line;         /* where the row stands in its file, for messages */
} tl_rec_row;

typedef struct tl_rec_meta {
    char *key;
    char *value;
    int line;
} tl_rec_meta;

/* One file: its metadata in file order and its rows. Owns all its memory. */
typedef struct tl_rec_file {
    char *path;
    tl_rec_meta *meta;
    size_t nmeta;
    tl_rec_row *rows;
    size_t nrows;
} tl_rec_file;

/* Read and validate PATH into *OUT. Returns 0, or -1 with a message in ERR ("PATH:LINE: ...; fix"). */
int tl_rec_read(const char *path, tl_rec_file *out, char *err, size_t errlen);

/* The value of metadata KEY, or NULL when the file has none. */
const char *tl_rec_meta_get(const tl_rec_file *f, const char *key);

void tl_rec_free(tl_rec_file *f);

/* Parsers for one field, exposed for the tests. Both refuse empty text (the caller handles "empty"),
 * signs, spaces, trailing junk, NaN, Inf and overflow. */
int tl_rec_parse_count(const char *s, long *out); /* decimal whole number >= 0 */
int tl_rec_parse_real(const char *s, double *out); /* finite real >= 0 */

/* Split LINE (modified in place) at commas into at most MAX fields; returns the number of fields. */
size_t tl_rec_split(char *line, char **fields, size_t max);

#endif
