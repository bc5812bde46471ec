/* verdict_read.h: the grader's side of the verdict (common/verdict.h, CONTRACTS.md section 10):
 * read from JSON with cJSON, and the same object as a cJSON tree for results.json (made by the one
 * writer, tl_verdict_json, then parsed: one schema, one writer). */
#ifndef TILELAB_GRADER_VERDICT_READ_H
#define TILELAB_GRADER_VERDICT_READ_H

#include <stddef.h>

#include "verdict.h"

struct cJSON;
/* A verdict from a cJSON object: 0 read, -1 not a verdict (no known "kind"; a string field that
 * is not a string, a number that is not one). Unknown keys are ignored; absent ones stay unset. */
int tg_verdict_from_cjson(const struct cJSON *o, tl_verdict *v);
/* The same from len bytes of JSON text (one object, surrounding white space allowed). */
int tg_verdict_parse(const char *json, size_t len, tl_verdict *v);
/* A new cJSON object of v (NULL out of memory). */
struct cJSON *tg_verdict_to_cjson(const tl_verdict *v);

#endif
