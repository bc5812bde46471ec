/* tl-emu-rewrite-state.h: the streaming rewrite's state (tl-emu-rewrite.c) as one struct, Rw, passed by
 * pointer to every function of the rewrite that needs it: the rewrite of __shared__ declarations
 * (tl-emu-shared-decl.c), the file's functions and region form (tl-emu-funcs.c) and the scan for what
 * emulation lacks (tl-emu-unsupported.c) share it through this header. No function of the front end reads a global; tl-emu-region.c keeps its own state (Rg)
 * and sees only the text it is given (tl-emu-rewrite.h). */
#ifndef TL_EMU_REWRITE_STATE_H
#define TL_EMU_REWRITE_STATE_H

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "tl-emu-rewrite.h"
#include "tl-lex.h"

enum { MAX_NAMES = 256, MAX_KERNELS = 256, MAX_DEPTH = 256, MAX_PTRS = 64, MAX_FUNCS = 1024, MAX_CG_BLOCKS = 8 };
typedef struct { char name[128]; int depth; } Name;     /* a __shared__ name in scope */
typedef struct {
    char name[128]; Buf smem; Buf idents;
    size_t ps, pe, bs, be;           /* in out: its parameter list and its body, between the brackets */
    int region;                      /* put in region form (tl-emu-region.c) */
    int is_template;                 /* template <...> __global__: neither registered nor in region form */
    char why[200];                   /* why not */
} Kernel;
/* A function body of the file, to know which hold a barrier or a warp operation. */
typedef struct { char name[128]; size_t bs, be; int barrier, device; } Func;

/* The rewrite's whole state, passed by pointer to every function of tl-emu-rewrite.c,
 * tl-emu-shared-decl.c and tl-emu-unsupported.c (no function reads a global): rw_init sets it up. */
typedef struct Rw {
    /* the input cursor */
    const char *src;                 /* the whole input */
    const char *in_path;             /* its name, for errors and the #line directives */
    size_t len, pos;                 /* its length; where the rewrite is */
    int line;                        /* line of src[pos] */
    /* the output */
    Buf out;                         /* what is written so far */
    char last_sig, prev_sig;         /* the last significant character written, and the one before */
    int in_directive;                /* rewriting a #define that holds a launch */
    int use_regions;                 /* 0 with --fibers */
    /* the scope tables */
    Name names[MAX_NAMES];           /* the __shared__ names in scope */
    int nnames;
    int depth;                       /* braces open */
    int func_body_depth[MAX_DEPTH];  /* 1 where a brace opened a function body */
    int func_open[MAX_DEPTH];        /* index in funcs of a body opened at this depth, or -1 */
    int in_func;                     /* function bodies open */
    int pnest;                       /* ( and [ open, outside preprocessor lines */
    Kernel kernels[MAX_KERNELS];
    int nkernels;
    Func funcs[MAX_FUNCS];           /* every function body of the file */
    int nfuncs;
    /* the kernel being read */
    int kstate;                      /* 0 none, 1 saw __global__, 2 in its params, 3 after them */
    int kparen;                      /* paren depth while looking for a kernel's params */
    char kname[128];
    int ktemplate;                   /* the kernel being read is a template */
    int kbody_depth;                 /* depth of the kernel body being read, or -1 */
    int cur_kernel;                  /* index in kernels of the kernel body being read, or -1 */
    size_t kps, kpe;                 /* in out: the parameters of the kernel being read */
    char kptr[MAX_PTRS][128];        /* its pointer parameters (and pointers made from them): counted */
    int nkptr;
    int kshared;                     /* __shared__ declarations of the current kernel so far */
    char cg_blocks[MAX_CG_BLOCKS][64];   /* its cooperative-groups blocks rewritten (cg_block_decl) */
    int ncg_blocks;
    /* rewrites pending at a later position of src */
    int auto_close, auto_close_depth;    /* an `auto x = ` being wrapped in tl_emu::va( ): its nesting, or -1 */
    size_t uninit_at[16];            /* ends of the names of scalars declared without a value */
    int nuninit, uninit_dbl;
    size_t larr_semi;                /* the ';' of a local array declared without values, or (size_t)-1 */
    char larr_name[128];
    int larr_dims;
    char sptr_type[128];             /* the type of the checked pointer declared last (shared_pointer_decl) */
    int sptr_depth;                  /* its depth, or -1 */
} Rw;

static inline int is_id0(int c) { return isalpha(c) || c == '_'; }
static inline int is_id(int c) { return isalnum(c) || c == '_'; }
/* Reading src token by token (tl-lex.h): a lexer at src[p], a position just after a token (so never at
 * a line's start), line the line of src[p]; whether token t's text is w exactly (a name split by a
 * continuation is no keyword to the rewrite). */
static inline tl_lexer rw_lexer(const Rw *rw, size_t p, int line) {
    return (tl_lexer){.text = rw->src, .n = rw->len, .p = p, .line = line, .bol = 0};
}
static inline int tok_is(const Rw *rw, const tl_lex_tok *t, const char *w) {
    size_t l = strlen(w);
    return t->e - t->s == l && !memcmp(rw->src + t->s, w, l);
}
/* The next token from lx, and its text's first character: 0 at the end only (a NUL byte in the text
 * reads as '\x7f', which no reader looks for; its text is copied from src as it is). */
static inline char tok_next(tl_lexer *lx, tl_lex_tok *t) {
    return tl_lex_next(lx, t) == TL_LEX_END ? 0 : lx->text[t->s] ? lx->text[t->s] : '\x7f';
}
/* A literal token without its end (nl: newlines in it): the compiler's error, at its line. */
void check_literal(Rw *rw, const tl_lex_tok *t, int nl);
/* Prints IN.cu:LINE: error: tl-emu-rewrite: ... and exits 1. */
void die(Rw *rw, int at_line, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));
/* tl-emu-unsupported.c: the "not supported under emulation" outcome, from the kit alone */
#include <stdarg.h>
void unsupported_record(const char *file, int at_line, const char *fmt, va_list ap);
void unsupported_scan(Rw *rw);
/* Writes s to out, keeping last_sig. */
void emit(Rw *rw, const char *s, size_t n);

/* tl-emu-funcs.c: the function whose body opens now (its name; whether it is __device__/__global__),
 * then, after the copy, the calls nvcc rejects in kernels (die) and region form for each kernel. */
void func_name_before(Rw *rw, char *name, size_t n);
int declared_for_device(Rw *rw);
void check_host_calls(Rw *rw);
void make_regions(Rw *rw);

/* tl-emu-shared-decl.c: at `__shared__` (or `extern __shared__`, is_extern) in src, rewrites the whole
 * declaration; at a shared name in `float *Nds = smem + k;`, makes Nds a checked pointer. */
void shared_decl(Rw *rw, int is_extern, int decl_line);
void shared_pointer_decl(Rw *rw);

#endif
