/* devfacts.h: lab 02's device query as a judged test: the fixed line format of
 * print_device_facts(FILE*), its parser, and the comparison with the kit's own query of the
 * device (device.cu's tl_device_facts; `tl-device --facts`, or `tl-device-emu --facts` under
 * emulation). The lab program (driver.c) and the grader (grader/devquery.c) both judge with
 * tl_facts_compare, so ./kit check, the lab program and a grading run say the same words.
 *
 * The format, one fact a line, "KEY: VALUE[ UNIT]" (labs/02-naive-kernel/README.md shows it):
 *   device: NVIDIA H100 80GB HBM3          compute capability: 9.0
 *   sms: 132                               max threads per block: 1024
 *   max threads per sm: 2048               max blocks per sm: 32
 *   shared memory per block: 49152 B       shared memory per sm: 233472 B
 *   registers per block: 65536             registers per sm: 65536
 *   sm clock: 1980000 kHz                  memory clock: 2619000 kHz
 *   memory bus width: 5120 bits            peak bandwidth: 3352.3 GB/s
 * Keys are matched without regard to case; other lines are ignored; the first line of a key
 * counts. Every value must equal the kit's, except the peak bandwidth (2 x memory clock x bus
 * width / 8), which may differ by TL_FACTS_BW_TOL (its rounding when printed). */
#ifndef TILELAB_DEVFACTS_H
#define TILELAB_DEVFACTS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TL_FACT_DEVICE, TL_FACT_CC, TL_FACT_SMS, TL_FACT_THREADS_BLOCK, TL_FACT_THREADS_SM,
    TL_FACT_BLOCKS_SM, TL_FACT_SMEM_BLOCK, TL_FACT_SMEM_SM, TL_FACT_REGS_BLOCK, TL_FACT_REGS_SM,
    TL_FACT_SM_CLOCK, TL_FACT_MEM_CLOCK, TL_FACT_BUS, TL_FACT_BANDWIDTH,
    TL_FACT_COUNT
};

#define TL_FACTS_BW_TOL 0.005   /* relative tolerance of the peak bandwidth (0.5%)         */
#define TL_FACTS_MAX_TEXT 65536 /* the most of print_device_facts' output that is read      */
#define TL_FACTS_OPTIN_KEY "shared memory per block (opt-in)"   /* not judged: read for a hint */

typedef struct tl_fact_def {
    const char *key;      /* "sms"                                                          */
    const char *unit;     /* "kHz", "B", "bits", "GB/s", or NULL                            */
    const char *source;   /* where CUDA keeps it: "cudaDeviceProp.multiProcessorCount"      */
} tl_fact_def;
extern const tl_fact_def tl_fact_defs[TL_FACT_COUNT];

typedef struct tl_facts {
    int    have[TL_FACT_COUNT];       /* the fact's line was there                          */
    double num[TL_FACT_COUNT];        /* its number (compute capability: major + minor / 10) */
    int    cc_major, cc_minor;
    char   unit[TL_FACT_COUNT][16];   /* the unit as printed ("" none)                      */
    char   name[256];                 /* TL_FACT_DEVICE                                     */
    size_t smem_optin;                /* the kit's query only: for a hint, never compared   */
} tl_facts;

/* The kit's own query (device.cu, emulated or not): 0, or -1 with why (no usable device). */
int  tl_device_facts(tl_facts *f, char *why, size_t whylen);
/* Fills the peak bandwidth from the memory clock and bus width (the lecture's formula). */
void tl_facts_derive(tl_facts *f);
/* Writes f in the format above (the solution's output; `tl-device --facts`). */
void tl_facts_print(const tl_facts *f, FILE *out);
/* Reads the format from text (any other lines ignored). Returns the number of facts found. */
int  tl_facts_parse(const char *text, size_t len, tl_facts *f);

/* One comparison: per fact "" when right, else why ("peak bandwidth 1676.2 GB/s, expected
 * 3352.3 GB/s: the factor 2 for double data rate?"). */
typedef struct tl_facts_verdict {
    int  right, asked, found;
    char why[TL_FACT_COUNT][320];
} tl_facts_verdict;
void tl_facts_compare(const tl_facts *want, const tl_facts *got, tl_facts_verdict *v);
/* The one-line summary: "14 of 14 device facts right", or which are wrong and why. */
void tl_facts_headline(const tl_facts_verdict *v, char *buf, size_t len);
/* The headline, then one indented line per wrong or missing fact. */
void tl_facts_explain(const tl_facts_verdict *v, FILE *out, const char *indent);

/* labfacts.c (linked into the lab programs with driver.c, not into tl-grade). */
/* 1 when the lab's table has a device-query test (TL_TEST_DEVFACTS). */
int   tl_facts_judged(const char *lab_id);
/* What preamble writes to the FILE* it is given (at most TL_FACTS_MAX_TEXT bytes), malloc'ed. */
char *tl_facts_capture(void (*preamble)(FILE *out), size_t *len);
/* The lab program's own check against tl_device_facts: prints PASS (unless quiet) or FAIL with
 * each wrong fact; returns 1 when a fact is wrong. */
int   tl_facts_check(const char *text, size_t len, int quiet);

#ifdef __cplusplus
}
#endif
#endif
