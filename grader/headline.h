/* headline.h: the first line of a failing correctness test, the most specific reason among its
 * cases (headline.c), before the count of sizes correct (judges.c). */
#ifndef TILELAB_GRADER_HEADLINE_H
#define TILELAB_GRADER_HEADLINE_H

#include <stddef.h>

/* How specific a case's reason is: 0 correct or none, 1 not run, 2 a generic wrong pattern (all
 * wrong, scattered errors, unwritten elements) or the wall-clock limit, 3 a pattern the checker
 * recognised, 4 an error or crash, 5 the emulator's own diagnostic (in reason or, for a program
 * that died, in explain). The first case of the highest rank makes the headline. */
int  tg_headline_rank(const char *reason, const char *explain);
/* The headline for a case of size m x k x n (size: its name, "17" or "17x33x9"): the emulator's
 * diagnostic in the student's terms (an out-of-bounds read of M at row r, column c, file and
 * line), the checker's pattern with its "likely:" line, or the reason as it is. */
void tg_headline_make(const char *reason, const char *explain, const char *size, int m, int k, int n, char *out,
                      size_t len);

#endif
