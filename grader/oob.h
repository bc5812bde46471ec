/* oob.h: kit check's memcheck pass on a GPU (oob.c): one small ragged case per variant under
 * compute-sanitizer memcheck, beside the public cases; a finding fails the variant's public test
 * with a headline naming the out-of-bounds access. */
#ifndef TILELAB_GRADER_OOB_H
#define TILELAB_GRADER_OOB_H

#include "grade.h"

/* Starts the pass (kit check, a GPU lab judged on a GPU, compute-sanitizer found, the build
 * good, TL_CHECK_MEMCHECK not 0): one child process per GPU variant with a public test. */
void tg_oob_start(grun *R, gsub *g);
/* Waits for v's child and adds its result to v's public test: a finding first, and the test
 * failed; otherwise one line saying what ran. Nothing when the pass did not start. */
void tg_oob_collect(grun *R, gsub *g, const tl_lab_variant *v, tres *tr);
/* The public size the pass runs for v (index in R->sizes), or -1. */
int  tg_oob_pick_case(const grun *R, const tl_lab_variant *v);
/* The headline for a sanitizer report at size m x k x n: the first access error's kind, matrix,
 * row and column, file and line (and that line of the student's file, read from R->root/labs). */
void tg_oob_explain(const char *report, const grun *R, int m, int k, int n, tg_buf *head);
/* The same report as a verdict (kind sanitizer, pattern out-of-bounds: access, matrix, row, column,
 * file, line, thread, block; the headline as detail). */
void tg_oob_verdict(const char *report, const grun *R, int m, int k, int n, tl_verdict *v);
/* compute-sanitizer's report lines ("========= ..."), at most 30, indented, for people. */
void tg_sanitizer_lines(const tg_buf *cap, tg_buf *out);
/* Its first error as a verdict: kind sanitizer, pattern the tool, the error's line as detail and
 * the count of errors it reports. */
void tg_sanitizer_verdict(const tg_buf *cap, const char *tool, tl_verdict *v);

#endif
