/* tl-emu-rewrite.h: what the two parts of tl-emu-rewrite share (the streaming rewrite and the region form). */
#ifndef TL_EMU_REWRITE_H
#define TL_EMU_REWRITE_H

#include <stddef.h>

typedef struct { char *p; size_t n, cap; } Buf;
void buf_add(Buf *b, const char *s, size_t n);
void buf_str(Buf *b, const char *s);
void buf_fmt(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Puts one kernel in region form (tl-emu-region.c): params is the text between the parentheses of its
 * parameter list, body the text between the braces of its body (both as the streaming rewrite wrote
 * them), body_line the source line where the body begins. On success appends the new body to *o (its
 * lines: the source's, with #line directives around what it adds) and returns 1; returns 0 with
 * the reason in why when the kernel must run as fibers. barrier_fn(ctx, name, n) tells whether a function
 * of the file contains a barrier or a warp operation. */
int tl_region_body(const char *params, size_t np, const char *body, size_t nb, int body_line,
                   int (*barrier_fn)(const void *ctx, const char *, size_t), const void *ctx, Buf *o, char *why, size_t nwhy);

#endif
