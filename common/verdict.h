/* verdict.h: a verdict as data (CONTRACTS.md section 10). What went wrong in one case, a build, a
 * policy or a sanitizer run, as fields: the kind (who found it), the pattern (what it is, a
 * stable lower-case identifier), where (matrix, row, column, file, line, thread, block) and the
 * counts a headline needs. Producers fill one (the checker, the emulator, the grader's session,
 * the sanitizer adapter, the policy, the build); consumers (headlines, the class summary,
 * results.json) read its fields and never the words printed for people. Words are made from it
 * once, at report time (grader/headline.c, through report.c's escaper).
 *
 * The JSON form is one object on one line, written here (no library: the lab programs and the
 * emulator write it too) and read by the grader with cJSON (grader/verdict_read.c). Both sides
 * follow CONTRACTS.md section 10; tests/test_grader_unit.c checks both directions. */
#ifndef TILELAB_VERDICT_H
#define TILELAB_VERDICT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Who found it. The order is no ranking: grader/headline.c ranks. */
typedef enum tl_verdict_kind {
    TL_V_NONE = 0,     /* no finding: a correct case ("correct")                                */
    TL_V_CHECKER,      /* a wrong product, the checker's pattern ("checker")                    */
    TL_V_EMULATOR,     /* the emulator's diagnostic, its class as pattern ("emulator")          */
    TL_V_SANITIZER,    /* compute-sanitizer's finding (grader/oob.c) ("sanitizer")              */
    TL_V_TIMEOUT,      /* no answer within the wall-clock limit ("timeout")                     */
    TL_V_CRASH,        /* the program ended without answering ("crash")                         */
    TL_V_ERROR,        /* the program answered an error of its own ("error")                    */
    TL_V_PROTOCOL,     /* an answer the wire does not allow ("protocol")                        */
    TL_V_NOT_RUN,      /* not run: an earlier case hit a limit ("not-run")                      */
    TL_V_NOT_GRADED,   /* the grader lacked something: never the student's fault ("not-graded") */
    TL_V_POLICY,       /* the submission breaks a rule of the lab's policy ("policy")           */
    TL_V_BUILD,        /* the submission does not build ("build")                               */
    TL_V_KINDS
} tl_verdict_kind;

#define TL_V_UNSET (-1LL)   /* row, column, index: not known */

typedef struct tl_verdict {
    tl_verdict_kind kind;
    char      pattern[48];     /* "swapped-indices", "global-out-of-bounds", "wall-clock", ...     */
    char      matrix[64];      /* "M", "N", "P", or the buffer or array as the producer names it  */
    char      access[8];       /* "read", "write" ("" not known)                                   */
    long long row, column;     /* of matrix (TL_V_UNSET: not known)                                */
    long long index;           /* flat element index into matrix (TL_V_UNSET: not known)          */
    char      file[128];       /* the student's file, its base name ("" not known)                 */
    int       line;            /* its line (0 not known)                                           */
    int       have_thread;     /* thread and block below are known                                 */
    int       thread[3], block[3];
    long long count, total;    /* wrong elements of total (checker), errors (sanitizer); 0 none   */
    long long nonfinite, unwritten;   /* checker: of count, NaN/Inf; of those, never written      */
    int       m, k, n;         /* the case's size (0: not a case)                                  */
    double    limit_s;         /* timeout: the limit (0 none)                                      */
    char      detail[640];     /* the producer's diagnosis in words, for people; never parsed     */
} tl_verdict;

/* An empty verdict of kind (every "not known" set). */
void tl_verdict_init(tl_verdict *v, tl_verdict_kind kind, const char *pattern);
/* "checker", ..., or NULL for an out-of-range kind; and back (-1 unknown). */
const char *tl_verdict_kind_name(tl_verdict_kind kind);
int  tl_verdict_kind_from_name(const char *name);
/* 1 when v's pattern is p. */
int  tl_verdict_pattern_is(const tl_verdict *v, const char *p);
/* Copies s into a field of size n, cut at a UTF-8 character boundary. */
void tl_verdict_set(char *field, size_t n, const char *s);

/* The verdict as one line of JSON (no newline), every control character escaped (\u00XX), so a
 * student's text inside cannot break the line. Returns the length it needed (snprintf's rule: the
 * output is whole only when the result is below len). */
size_t tl_verdict_json(const tl_verdict *v, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
