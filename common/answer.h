/* answer.h: the lab program's answers to the grader (fd 4 of --serve, CONTRACTS.md 2), built in
 * memory and written by a system call made in the kit's own object (answer.c), so that no symbol a
 * student file could define (write, fwrite, fprintf, fflush) sits on the path. The grader's policy
 * refuses a student object that defines any runtime or kit name (grader/policy.c); this file keeps
 * the channel off the C library's stdio even so. */
#ifndef TILELAB_ANSWER_H
#define TILELAB_ANSWER_H

#include <stddef.h>

#include "tilelab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_answer {
    char  *s;
    size_t len, cap;
    int    failed;                 /* out of memory: send() reports it                         */
} tl_answer;

void tl_answer_printf(tl_answer *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tl_answer_bytes(tl_answer *a, const void *p, size_t n);
/* The matrix in the matrix file format (CONTRACTS.md 3): header, then little-endian floats. */
void tl_answer_matrix(tl_answer *a, const tl_matrix *m);
/* Writes everything to fd with the raw write system call, then empties a. 0 ok, -1 failed. */
int  tl_answer_send(tl_answer *a, int fd);
void tl_answer_free(tl_answer *a);

#ifdef __cplusplus
}
#endif

#endif
