/* tl-lex.h: the one lexer of C and CUDA C text in the kit: the emulator's front end (tl-emu-rewrite.c,
 * tl-emu-shared-decl.c, tl-emu-funcs.c, tl-emu-region.c, tl-emu-unsupported.c) and the grader's policy
 * (grader/policy.c) read source through it, so that comments, string and character literals, raw strings, digit separators, line
 * continuations, preprocessor lines and a UTF-8 byte-order mark are each understood in one place.
 *
 * Two levels:
 *   - spans: tl_lex_space, tl_lex_comment, tl_lex_literal, tl_lex_number, tl_lex_directive give the end
 *     of one such piece starting at a position (the parts tl_lex_next is made of);
 *   - tokens: tl_lex_next returns the next token (kind, span, physical line, first on its line),
 *     skipping blanks, comments and continuations; a preprocessor line is one token.
 * Lines are physical lines of the text (1 for the first), whatever a #line directive says: a
 * directive is a token like any other, its meaning is the reader's. Nothing is allocated. */
#ifndef TL_LEX_H
#define TL_LEX_H

#include <stddef.h>

typedef enum {
    TL_LEX_END = 0,      /* no more tokens */
    TL_LEX_ID,           /* [A-Za-z_][A-Za-z0-9_]* (a continuation may split it: tl_lex_copy joins it) */
    TL_LEX_NUM,          /* a preprocessing number: 16, 0x1F, 1.5e+3f, 1'000'000 */
    TL_LEX_STR,          /* a string literal with its prefix: "a", L"a", u8"a", R"x(a)x" */
    TL_LEX_CHR,          /* a character literal with its prefix: 'a', '\n', L'a' */
    TL_LEX_PUNCT,        /* an operator or punctuator (<<=, ->, ::, ...) or any other single byte */
    TL_LEX_DIRECTIVE     /* a whole preprocessor line, from '#' to before its newline (continuations
                            and comments spanning lines included) */
} tl_lex_kind;

typedef struct {
    tl_lex_kind kind;
    size_t s, e;         /* the token is text[s, e) */
    int line;            /* physical line of text[s] */
    int bol;             /* first token of its line */
    int bad;             /* a literal or comment without its end (it ends at the line's end or the text's) */
} tl_lex_tok;

typedef struct {
    const char *text;
    size_t n, p;         /* the text, its length, the position of the next token (or blanks before it) */
    int line;            /* physical line of text[p] */
    int bol;             /* nothing but blanks and comments since the last newline */
} tl_lexer;

/* Starts at the beginning of text; a UTF-8 byte-order mark there is passed over. */
void tl_lex_init(tl_lexer *lx, const char *text, size_t n);
/* The next token in *t (kind TL_LEX_END at the end); returns its kind. */
tl_lex_kind tl_lex_next(tl_lexer *lx, tl_lex_tok *t);

/* The length of a UTF-8 byte-order mark at text[0] (3), or 0. */
size_t tl_lex_bom(const char *text, size_t n);
/* The end of a backslash-newline (also backslash, CR, LF) at p, or p. */
size_t tl_lex_splice(const char *text, size_t n, size_t p);
/* The end of a comment at p (// to before its newline, continued by a backslash; / * to after * /), or
 * p when none starts there. Newlines passed are added to *nl (if not NULL); *bad = 1 (if not NULL) for
 * an unterminated block comment (it then ends at n). */
size_t tl_lex_comment(const char *text, size_t n, size_t p, int *nl, int *bad);
/* The end of blanks, newlines, continuations and comments from p (p when none). */
size_t tl_lex_space(const char *text, size_t n, size_t p, int *nl);
/* The end of a string or character literal at p, prefix included (L, u, U, u8, and R for a raw
 * string), or p when none starts there. An ordinary literal ends at its closing quote, or before an
 * unescaped newline (*bad = 1); a raw string at its )delim", or at n (*bad = 1). */
size_t tl_lex_literal(const char *text, size_t n, size_t p, int *nl, int *bad);
/* The end of a preprocessing number at p (a digit, or '.' and a digit), or p: digits, letters, '_',
 * '.', a sign after e/E/p/P, and ' between digits or letters (C++14 separators). */
size_t tl_lex_number(const char *text, size_t n, size_t p);
/* The end of the preprocessor line whose '#' is at p: before the first newline that no backslash
 * continues and no block comment spans. Newlines passed are added to *nl. */
size_t tl_lex_directive(const char *text, size_t n, size_t p, int *nl);
/* Copies text[s, e) into buf (size cap, NUL-terminated, cut to fit) without its continuations;
 * returns the length copied. */
size_t tl_lex_copy(const char *text, size_t s, size_t e, char *buf, size_t cap);
/* Whether token t's text, continuations removed, is word. */
int tl_lex_is(const char *text, const tl_lex_tok *t, const char *word);

#endif
