/* hostile_expected.h: the grade tests/hostile/expected.txt gives a hostile file at a place (the
 * C twin of tests/hostile/expected.sh, same rule). A row is LAB NAME GRADE WHY; GRADE is a word
 * (full or less) for every place, optionally followed by PLACE:WORD items, comma-separated
 * ("less,gpu:full"). Places: "emulated" (a GPU lab graded emulated), "gpu" (ncu reads the counters). */
#ifndef HOSTILE_EXPECTED_H
#define HOSTILE_EXPECTED_H

#include <stddef.h>

/* The grade of lab/name at place into word ("full" or "less"): 1 listed, 0 not listed (then the
 * file must score less), -1 the file cannot be read or a row is malformed (why in word). */
int hostile_expected(const char *file, const char *lab, const char *name, const char *place, char *word, size_t len);

/* Every row of the file checked: a known lab, a grade of full/less words with known places, a
 * hostile file tests/hostile/LAB/NAME.* that exists under root. 0 when all hold, else -1 and the
 * first problem in why. */
int hostile_expected_check(const char *root, char *why, size_t len);

#endif
