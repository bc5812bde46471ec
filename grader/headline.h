/* headline.h: the words of a verdict, made in one place (headline.c): a case's reason line, and
 * the first line of a failing correctness test, the most specific verdict among its cases, before
 * the count of sizes correct (judges.c). */
#ifndef TILELAB_GRADER_HEADLINE_H
#define TILELAB_GRADER_HEADLINE_H

#include <stddef.h>

#include "verdict.h"

/* How specific a verdict is, by its kind (and its pattern): 0 correct or none, 1 not run or not
 * graded, 2 a generic checker pattern (all wrong, scattered errors, unwritten elements) or the
 * wall-clock limit, 3 a pattern the checker recognised, 4 an error, crash or broken answer, or a
 * finding of the emulated harness about P (read before written, an uninitialised local, an
 * order-dependent result), 5 an emulator or sanitizer diagnostic. The first case of the highest
 * rank makes the headline. */
int  tg_headline_rank(const tl_verdict *v);
/* 1 when a verdict names the mistake itself, not its symptom: a pattern the checker recognised
 * (the last partial tile dropped, swapped indices) or a launch the runtime refuses (a grid of 0
 * blocks: the ceiling division). Such a headline goes before the summary "correct at every
 * multiple of the tile, wrong at every ragged size", which explains a symptom (an access out of
 * bounds, a generic wrong result) better than the symptom does. */
int  tg_headline_names_cause(const tl_verdict *v);
/* The headline for a case (size: its name, "17" or "17x33x9"): the emulator's diagnostic in the
 * student's terms (an out-of-bounds read of M at row r, column c, file and line), the checker's
 * pattern with its diagnosis, or the case's reason. */
void tg_headline_make(const tl_verdict *v, const char *size, char *out, size_t len);
/* A case's reason line ("wrong result: loop bound (4/4 wrong)", "no answer within ..."). */
void tg_verdict_words(const tl_verdict *v, char *out, size_t len);
/* The class summary's group of a verdict: its kind and pattern in words ("wrong result: swapped
 * indices", "the emulator: race on __shared__ memory"), nothing of one student's case. */
void tg_verdict_group(const tl_verdict *v, char *out, size_t len);

#endif
