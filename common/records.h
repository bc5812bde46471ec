/* records.h: the one records format (common/CONTRACTS.md section 4): its definition, its writer and
 * its reader. Every program that writes results (the lab programs, tl-ceilings, tl-traffic) and every
 * program that reads them (tl-plotprep, hence the charts and the slides) goes through this header.
 *
 * A records file: '# key: value' metadata lines, one header line (TL_REC_HEADER), then rows.
 * Version 2 added five columns (traffic ... shared_bytes), version 3 one (limit: what bounds a
 * lab 05 sweep point's resident blocks); the reader still takes version 1 and 2 files, whose rows
 * then have no traffic or no limit.
 */
#ifndef TL_RECORDS_H
#define TL_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- the format */
#define TL_REC_VERSION 3          /* written by this kit; the reader also takes 1 and 2 */
#define TL_REC_HEADER                                                                              \
    "kind,lab,variant,m,k,n,tile,regs,smem_bytes,occ_calc,occ_api,status,reps,median_ms,min_ms,"   \
    "max_ms,gflops,gbps,traffic,dram_bytes,l2_bytes,l1_bytes,shared_bytes,limit"
#define TL_REC_NFIELDS 24         /* fields of a version 3 row, as in TL_REC_HEADER */
#define TL_REC_NFIELDS_V2 23      /* a version 2 row: the first 23 */
#define TL_REC_NFIELDS_V1 18      /* a version 1 row: the first 18 */
#define TL_REC_ERRLEN 1024        /* room for one error message */

/* ---------------------------------------------------------------- writing */
struct tl_device_info;
struct tl_stats;

typedef struct tl_records {
    FILE *f;
    char  path[1024];
    char  tmp[1040];
} tl_records;

/* One row to write. Fields added at the end stay zero in older initialisers: zero = empty. */
typedef struct tl_record_row {
    const char *kind, *lab, *variant;  /* gemm, ceiling, sweep, traffic, kernel           */
    int    m, k, n, tile;              /* 0: empty field                                    */
    int    regs, smem_bytes;           /* -1: empty                                          */
    double occ_calc, occ_api;          /* < 0: empty                                         */
    const char *status;                /* PASS, FAIL, SKIP                                   */
    const struct tl_stats *stats;      /* NULL: no time                                      */
    double gflops, gbps;               /* < 0: empty                                         */
    const char *traffic;               /* NULL: no traffic; "measured" (GPU counters) or
                                          "model" (the lecture's first-order count)          */
    double dram_bytes, l2_bytes, l1_bytes, shared_bytes; /* with traffic; < 0: empty        */
    const char *limit;                 /* sweep rows: what bounds the resident blocks, one of
                                          threads, warps, blocks, registers, shared; NULL: empty */
} tl_record_row;

extern const char tl_records_header[];

/* Opens path.tmp and writes the metadata; extra is more "# key: value" lines or NULL. */
int  tl_records_open(tl_records *r, const char *path, const struct tl_device_info *dev,
                     uint64_t seed, const char *timing, const char *extra, char *err, size_t errlen);
void tl_records_row(tl_records *r, const tl_record_row *row);
/* Flushes, fsyncs and renames path.tmp to path. 0 ok; on failure path.tmp is removed. */
int  tl_records_close(tl_records *r, char *err, size_t errlen);
const char *tl_build_type(void);

/* ---------------------------------------------------------------- reading */
/* One row. Whole numbers are -1 and reals NaN where the field was empty ("not applicable"). */
typedef struct tl_rec_row {
    char kind[16];    /* gemm, ceiling, sweep, traffic or kernel */
    char lab[32];
    char variant[48]; /* a-z, 0-9 and _ only: it becomes part of a file name */
    long m, k, n, tile, regs, smem_bytes, reps;
    double occ_calc, occ_api;
    char status[8];   /* PASS, FAIL or SKIP */
    double median_ms, min_ms, max_ms, gflops, gbps;
    char traffic[12]; /* "", "measured" or "model" */
    double dram_bytes, l2_bytes, l1_bytes, shared_bytes;
    char limit[12];   /* "", or a sweep row's limit: threads, warps, blocks, registers, shared */
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
    int version;      /* 1 or 2 */
    tl_rec_meta *meta;
    size_t nmeta;
    tl_rec_row *rows;
    size_t nrows;
} tl_rec_file;

/* Read and validate PATH into *OUT. Returns 0, or -1 with a message in ERR ("PATH:LINE: ...; fix").
 * The reader is strict: anything the contract does not allow is refused, so that a chart is never
 * drawn from data that was half understood. */
int tl_rec_read(const char *path, tl_rec_file *out, char *err, size_t errlen);

/* The value of metadata KEY, or NULL when the file has none. */
const char *tl_rec_meta_get(const tl_rec_file *f, const char *key);

void tl_rec_free(tl_rec_file *f);

/* Parsers for one field, exposed for the tests. Both refuse empty text (the caller handles "empty"),
 * signs, spaces, trailing junk, NaN, Inf and overflow. */
int tl_rec_parse_count(const char *s, long *out);  /* decimal whole number >= 0 */
int tl_rec_parse_real(const char *s, double *out); /* finite real >= 0 */

/* Split LINE (modified in place) at commas into at most MAX fields; returns the number of fields. */
size_t tl_rec_split(char *line, char **fields, size_t max);

#ifdef __cplusplus
}
#endif
#endif
