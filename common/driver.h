/* driver.h: the lab driver's parts, for its own files only (driver.c: the cases, the watchdog and
 * main; drivercli.c: the command line and the variants' size rules; driverserve.c: the grader's
 * --serve channel). Not part of the harness's API (tilelab.h is); every name is tl_drv_ so that a
 * student's symbol cannot meet one. */
#ifndef TILELAB_DRIVER_H
#define TILELAB_DRIVER_H

#include <stdint.h>
#include <stdio.h>

#include "tilelab.h"
#include "verdict.h"

typedef tl_lab_opts opts;       /* the lab program's options (tilelab.h: cli.c reads them) */

/* drivercli.c */
void tl_drv_usage(const tl_lab *lab, FILE *out);
int  tl_drv_parse(const tl_lab *lab, int argc, char **argv, opts *o, int *done);
const tl_variant *tl_drv_find_variant(const tl_lab *lab, const char *name, size_t len);
int  tl_drv_select_variants(const tl_lab *lab, const char *list, const tl_variant **sel);
void tl_drv_size_str(char *buf, size_t len, int m, int k, int n);
/* Why a variant refuses a size (NULL: it accepts it). */
const char *tl_drv_refusal(const tl_variant *v, int m, int k, int n, char *buf, size_t len);

/* driver.c: one CPU variant's run and its host timing; one GPU variant's checked run(s). */
typedef struct cpu_ctx {
    const tl_variant *v;
    const tl_matrix *M, *N;
    tl_matrix *P;
} cpu_ctx;
void tl_drv_run_cpu_once(const cpu_ctx *c);
void tl_drv_time_cpu(const cpu_ctx *c, double first_ms, int reps, tl_stats *st);
/* Under emulation, 1 when this program counts every access (its labNN-emu-count build) and its
 * work counts may be judged; 0 in the correctness build and on a GPU. */
int  tl_drv_counts_work(void);
int  tl_drv_gpu_run(tl_gpu_case *gc, const tl_variant *v, tl_matrix *P, unsigned seed, tl_work_counts *wc,
                    tl_verdict *vd, char *err, size_t errlen);

/* driverserve.c: the grader's channel on fds 3 and 4 (CONTRACTS.md section 2). */
int  tl_drv_serve(const tl_lab *lab, const tl_device_info *dev, const opts *o);

#endif
