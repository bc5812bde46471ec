/* labs.h: the grader's names for the lab table (common/labtable.h), the one source of what the
 * grader, `kit check` and `kit release` know about each lab: the student files (the allow-list: the
 * only files taken from a submission), the builds, the variants the lab program serves, the public
 * and hidden cases and the rubric (points per test). grader/rubric.md is written from the same
 * table (`tl-lab rubric`); tests/meson.build's 'rubric.md is the table's rubric' fails when they
 * differ. Adding a lab: common/CONTRACTS.md section 9. */
#ifndef TILELAB_GRADER_LABS_H
#define TILELAB_GRADER_LABS_H

#include <stddef.h>

#include "labtable.h"

#define TG_MAX_FILES    TL_LAB_MAX_FILES
#define TG_MAX_VARIANTS TL_LAB_MAX_VARIANTS
#define TG_MAX_TESTS    TL_LAB_MAX_TESTS

typedef tl_test_kind   tg_kind;
#define TG_CORRECT_PUBLIC TL_TEST_PUBLIC
#define TG_CORRECT_HIDDEN TL_TEST_HIDDEN
#define TG_RACECHECK      TL_TEST_RACECHECK
#define TG_MEMCHECK       TL_TEST_MEMCHECK
#define TG_SPEED          TL_TEST_SPEED
#define TG_CALC           TL_TEST_CALC
#define TG_CALC_API       TL_TEST_CALC_API
#define TG_POLICY         TL_TEST_POLICY
#define TG_DEVFACTS       TL_TEST_DEVFACTS
/* Run by kit check and --public-only too: the public cases, lab 05's calculator (its known
 * configurations; the hidden ones are asked only in a full grading run) and lab 02's device query. */
#define TG_KIND_PUBLIC(k) ((k) == TG_CORRECT_PUBLIC || (k) == TG_CALC || (k) == TG_CALC_API || (k) == TG_DEVFACTS)

typedef tl_lab_variant tg_variant;
typedef tl_lab_test    tg_test;
typedef tl_lab_info    tg_lab;

#define tg_labs  tl_labs
#define tg_nlabs tl_nlabs

/* labs.c: the grader's names of the table's functions. */
/* "01", "1" or "01-cpu-baseline" -> the lab, or NULL. */
const tg_lab     *tg_lab_find(const char *id);
/* A graded variant by name, or NULL (the kit's cublas yardstick is never one). */
const tg_variant *tg_variant_find(const tg_lab *lab, const char *name);
double            tg_lab_points(const tg_lab *lab);
int               tg_is_student_file(const tg_lab *lab, const char *name);

/* Speed credit for a time ratio student/reference: full up to TG_SPEED_FULL, then linear down to 0
 * at TG_SPEED_ZERO. A test with tiers (lab 06): tl_test_speed_credit(test, ratio). */
#define TG_SPEED_FULL TL_SPEED_FULL
#define TG_SPEED_ZERO TL_SPEED_ZERO
double            tg_speed_credit(double ratio);

#endif
