/* tl-emu-rewrite-state.h: the streaming rewrite's state (tl-emu-rewrite.c), shared with the rewrite of
 * __shared__ declarations (tl-emu-shared-decl.c). Not for tl-emu-region.c, which works on text alone. */
#ifndef TL_EMU_REWRITE_STATE_H
#define TL_EMU_REWRITE_STATE_H

#include <ctype.h>
#include <stddef.h>

#include "tl-emu-rewrite.h"

enum { MAX_NAMES = 256, MAX_KERNELS = 256, MAX_DEPTH = 256 };
typedef struct { char name[128]; int depth; } Name;     /* a __shared__ name in scope */
typedef struct {
    char name[128]; Buf smem; Buf idents;
    size_t ps, pe, bs, be;           /* in out: its parameter list and its body, between the brackets */
    int region;                      /* put in region form (tl-emu-region.c) */
    int is_template;                 /* template <...> __global__: neither registered nor in region form */
    char why[200];                   /* why not */
} Kernel;

extern const char *src;              /* the whole input */
extern size_t len, pos;              /* its length; where the rewrite is */
extern int line;                     /* line of src[pos] */
extern Buf out;                      /* what is written so far */
extern char last_sig;                /* the last significant character written */
extern Name names[MAX_NAMES];        /* the __shared__ names in scope */
extern int nnames;
extern Kernel kernels[MAX_KERNELS];
extern int cur_kernel;               /* index in kernels of the kernel body being read, or -1 */
extern int depth;                    /* braces open */
extern int in_func;                  /* function bodies open */

static inline int is_id0(int c) { return isalpha(c) || c == '_'; }
static inline int is_id(int c) { return isalnum(c) || c == '_'; }
/* Prints IN.cu:LINE: error: tl-emu-rewrite: ... and exits 1. */
void die(int at_line, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* tl-emu-unsupported.c: the "not supported under emulation" outcome, from the kit alone */
#include <stdarg.h>
void unsupported_record(const char *file, int at_line, const char *fmt, va_list ap);
void unsupported_scan(const char *src, size_t len);
/* Writes s to out, keeping last_sig. */
void emit(const char *s, size_t n);
/* Skips blanks and comments in src from p; returns the new position; counts newlines into *nl. */
size_t skip_space(size_t p, int *nl);

/* tl-emu-shared-decl.c: at `__shared__` (or `extern __shared__`, is_extern) in src, rewrites the whole
 * declaration; at a shared name in `float *Nds = smem + k;`, makes Nds a checked pointer. */
void shared_decl(int is_extern, int decl_line);
void shared_pointer_decl(void);

#endif
