/* grader_test_util.h: what the grader's end-to-end suites share (test_grader_class.c, the lab 01
 * class; test_grader_runs.c, the other runs): a shell helper, results.json read through cJSON, and
 * the processes a run left behind. */
#ifndef GRADER_TEST_UTIL_H
#define GRADER_TEST_UTIL_H

#include <cjson/cJSON.h>

/* system() of a printf-style command; its exit code, or 128 + the signal that ended it. */
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* results.json at path, parsed (fails the test when missing or not JSON); student names it. */
cJSON *load_results(const char *path, const char *student);
double number_at(const cJSON *o, const char *key);
const char *string_at(const cJSON *o, const char *key);
/* The score of the tests graded on this machine (tilelab.graded_score) and its maximum (tilelab.max). */
double score_of(const cJSON *js);
double max_of(const cJSON *js);
/* The top output (Gradescope's "output"): the build, the refusal, the evidence, the score line. */
const char *output_of(const cJSON *js);
/* One test of "tests" by name (fails the test when absent). */
const cJSON *test_of(const cJSON *js, const char *name);
/* 1 when any string anywhere in the JSON contains needle. */
int any_text(const cJSON *j, const char *needle);
/* The tests whose status is "failed". */
int count_failed(const cJSON *js);
/* Test 'test' of js passed (or failed), and its output holds needle (when not NULL). */
void assert_test_in(const cJSON *js, const char *student, const char *test, int passed, const char *needle);

/* Processes whose command line holds needle and that belong to the run whose out dir's path ends
 * in scope (the comment in grader_test_util.c says how). */
int processes_running(const char *needle, const char *scope);

#endif
