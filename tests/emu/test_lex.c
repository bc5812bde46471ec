/* test_lex.c: the one lexer (common/emu/tl-lex.c), on the inputs that broke one of the scanners it
 * replaced (the rewrite's, the region pass's, the unsupported scan's and the policy's): raw strings,
 * ' digit separators, line continuations, #line, comments inside macros, a UTF-8 byte-order mark. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl-lex.h"

typedef struct { tl_lex_kind kind; char text[128]; int line, bol; } Tok;

/* The tokens of text, at most max. */
static int lex_all(const char *text, Tok *out, int max)
{
    tl_lexer lx;
    tl_lex_init(&lx, text, strlen(text));
    tl_lex_tok t;
    int n = 0;
    while (tl_lex_next(&lx, &t) != TL_LEX_END) {
        cr_assert(n < max, "more than %d tokens", max);
        out[n].kind = t.kind;
        size_t l = t.e - t.s < sizeof out[n].text ? t.e - t.s : sizeof out[n].text - 1;
        memcpy(out[n].text, text + t.s, l);
        out[n].text[l] = 0;
        out[n].line = t.line;
        out[n].bol = t.bol;
        n++;
    }
    return n;
}

/* Whether an identifier token named word is among the n tokens; its line in *line. */
static int has_id(const Tok *t, int n, const char *word, int *line)
{
    for (int i = 0; i < n; i++)
        if (t[i].kind == TL_LEX_ID && !strcmp(t[i].text, word)) { if (line) *line = t[i].line; return 1; }
    return 0;
}

Test(lex, kinds_and_lines_of_plain_code)
{
    Tok t[32];
    int n = lex_all("int a = b<<=2;\n  x->y += 1.5e+3f; // c\n/* d\n e */ k", t, 32);
    const char *want[] = {"int", "a", "=", "b", "<<=", "2", ";", "x", "->", "y", "+=", "1.5e+3f", ";", "k"};
    cr_assert_eq(n, 14);
    for (int i = 0; i < n; i++) cr_assert_str_eq(t[i].text, want[i]);
    cr_assert_eq(t[11].kind, TL_LEX_NUM);
    cr_assert_eq(t[7].line, 2);
    cr_assert(t[7].bol && !t[8].bol);
    cr_assert_eq(t[13].line, 4, "a block comment's newlines count: k is on line 4, got %d", t[13].line);
}

Test(lex, raw_strings_hide_quotes_comments_and_calls)
{
    /* before: the policy read `)" system(` as code after the first ", the rewrite died at the newline */
    const char *src = "const char *s = R\"x(a \"q\" )\" // no\n system(\"sh\") )x\"; int after;\n"
                      "auto w = LR\"(\\)\"; auto u = u8R\"--(x)--\";";
    Tok t[32];
    int n = lex_all(src, t, 32);
    cr_assert(!has_id(t, n, "system", NULL), "a call inside a raw string is not code");
    int line = 0;
    cr_assert(has_id(t, n, "after", &line));
    cr_assert_eq(line, 2, "the raw string's newline counts: after is on line 2, got %d", line);
    int strs = 0;
    for (int i = 0; i < n; i++) strs += t[i].kind == TL_LEX_STR;
    cr_assert_eq(strs, 3);
    cr_assert(has_id(t, n, "u", NULL) && has_id(t, n, "w", NULL));
    cr_assert(!has_id(t, n, "LR", NULL) && !has_id(t, n, "u8R", NULL), "the prefixes belong to their literals");
    /* an R that is a name stays a name */
    n = lex_all("int R = 1; f(R, \"s\");", t, 32);
    cr_assert(has_id(t, n, "R", NULL));
}

Test(lex, digit_separators_are_part_of_the_number)
{
    /* before: ' opened a character literal that ran to the next ' (or died at the line's end), so
     * the policy blanked `system(` between two separators */
    Tok t[32];
    int n = lex_all("int big = 1'000'000; system(\"x\"); float f = 0x1'0p+1'0; char c = 'a';", t, 32);
    cr_assert(has_id(t, n, "system", NULL));
    int nums = 0, chrs = 0;
    for (int i = 0; i < n; i++) {
        nums += t[i].kind == TL_LEX_NUM;
        chrs += t[i].kind == TL_LEX_CHR;
    }
    cr_assert_eq(nums, 2);
    cr_assert_eq(chrs, 1);
    cr_assert_str_eq(t[3].text, "1'000'000");
    /* a ' after a non-digit is a character literal */
    n = lex_all("x = y+'0';", t, 32);
    cr_assert_eq(t[4].kind, TL_LEX_CHR);
}

Test(lex, line_continuations_join_names_and_count_lines)
{
    /* the preprocessor joins `sys\<newline>tem` into one name before anything reads it */
    const char *src = "int a;\nsys\\\ntem(\"x\");\n// a comment \\\n   that goes on\nint b;";
    Tok t[32];
    int n = lex_all(src, t, 32);
    int at = -1;
    for (int i = 0; i < n; i++) if (t[i].kind == TL_LEX_ID && !strncmp(t[i].text, "sys", 3)) at = i;
    cr_assert(at >= 0);
    char name[32];
    tl_lex_copy(src, (size_t)(strstr(src, "sys") - src), (size_t)(strstr(src, "tem") + 3 - src), name, sizeof name);
    cr_assert_str_eq(name, "system");
    tl_lexer lx;
    tl_lex_init(&lx, src, strlen(src));
    tl_lex_tok k;
    int found = 0;
    while (tl_lex_next(&lx, &k) != TL_LEX_END) found |= k.kind == TL_LEX_ID && tl_lex_is(src, &k, "system");
    cr_assert(found, "tl_lex_is sees the name through the continuation");
    cr_assert(!has_id(t, n, "that", NULL), "a // comment ending in a backslash goes on to the next line");
    int line = 0;
    cr_assert(has_id(t, n, "b", &line));
    cr_assert_eq(line, 6);
}

Test(lex, directives_are_one_token_and_line_does_not_renumber)
{
    const char *src = "#line 40 \"other.cu\"\nint a;\n  # define F(x) \\\n   x + 1\nint b;\nc = a # b;";
    Tok t[32];
    int n = lex_all(src, t, 32);
    cr_assert_eq(t[0].kind, TL_LEX_DIRECTIVE);
    cr_assert_str_eq(t[0].text, "#line 40 \"other.cu\"");
    cr_assert_eq(t[1].line, 2, "physical lines, whatever #line says");
    cr_assert_eq(t[4].kind, TL_LEX_DIRECTIVE);
    cr_assert_str_eq(t[4].text, "# define F(x) \\\n   x + 1");
    int line = 0;
    cr_assert(has_id(t, n, "b", &line));
    cr_assert_eq(line, 5);
    cr_assert(!has_id(t, n, "x", NULL));
    /* a # that does not start its line is a punctuator */
    cr_assert_eq(t[n - 3].kind, TL_LEX_PUNCT);
    cr_assert_str_eq(t[n - 3].text, "#");
}

Test(lex, comments_inside_macros_keep_the_directive_going)
{
    /* a block comment that spans lines inside a #define: the directive goes on after it, so the
     * text after the comment is the macro's, not code */
    const char *src = "#define LAUNCH(k) k<<<1, 32>>>() /* one\n two */ + tail\nint after;\n"
                      "#define Q \"a // b\" real\nint z;";
    Tok t[32];
    int n = lex_all(src, t, 32);
    cr_assert_eq(t[0].kind, TL_LEX_DIRECTIVE);
    cr_assert(strstr(t[0].text, "+ tail") != NULL, "got: %s", t[0].text);
    cr_assert(!has_id(t, n, "tail", NULL));
    int line = 0;
    cr_assert(has_id(t, n, "after", &line));
    cr_assert_eq(line, 3);
    cr_assert(strstr(t[4].text, "real") != NULL, "// inside a string of a directive is no comment: %s", t[4].text);
    /* a digit separator inside a directive is no character literal: the comment still continues it */
    const char *src2 = "#define TILE 1'6 /* the width:\n it's 16 */\nint w;";
    n = lex_all(src2, t, 32);
    cr_assert_eq(n, 4);
    cr_assert_eq(t[0].kind, TL_LEX_DIRECTIVE);
    cr_assert_eq(t[1].line, 3);
}

Test(lex, a_byte_order_mark_is_passed_over)
{
    /* before: the policy looked for '#' at the start of line 1 and found the mark's bytes */
    const char *src = "\xEF\xBB\xBF#include <sys/socket.h>\nint a;";
    Tok t[8];
    int n = lex_all(src, t, 8);
    cr_assert_eq(n, 4);
    cr_assert_eq(t[0].kind, TL_LEX_DIRECTIVE);
    cr_assert(t[0].bol);
    cr_assert_str_eq(t[0].text, "#include <sys/socket.h>");
    cr_assert_eq(tl_lex_bom(src, strlen(src)), 3);
    cr_assert_eq(tl_lex_bom("ab", 2), 0);
}

Test(lex, unterminated_pieces_are_marked_and_end_where_they_must)
{
    int bad = 0, nl = 0;
    const char *s1 = "\"abc\nint x;";
    cr_assert_eq(tl_lex_literal(s1, strlen(s1), 0, &nl, &bad), 4, "an ordinary literal ends before its newline");
    cr_assert_eq(bad, 1);
    bad = 0;
    const char *s2 = "/* never closed\n";
    cr_assert_eq(tl_lex_comment(s2, strlen(s2), 0, NULL, &bad), strlen(s2));
    cr_assert_eq(bad, 1);
    bad = 0;
    const char *s3 = "\"a\\\"b\\\\\" x";
    cr_assert_eq(tl_lex_literal(s3, strlen(s3), 0, NULL, &bad), 8, "escaped quote and backslash");
    cr_assert_eq(bad, 0);
    const char *s4 = "\"a\\\nb\"";
    nl = 0;
    cr_assert_eq(tl_lex_literal(s4, strlen(s4), 0, &nl, &bad), strlen(s4), "a continuation inside a string");
    cr_assert_eq(nl, 1);
    cr_assert_eq(bad, 0);
    nl = 0;
    const char *s5 = "  /* a\n */ \\\n // c\n x";
    cr_assert_eq(tl_lex_space(s5, strlen(s5), 0, &nl), strlen(s5) - 1);
    cr_assert_eq(nl, 3);
    cr_assert_eq(tl_lex_comment("a/b", 3, 1, NULL, NULL), 1, "a division is no comment");
    cr_assert_eq(tl_lex_number("x", 1, 0), 0);
    cr_assert_eq(tl_lex_number(".5f;", 4, 0), 3);
}

Test(lex, every_prefix_of_a_tricky_text_lexes_within_its_bounds)
{
    /* a file may end anywhere: in an escape, a raw string's delimiter, a comment, a continuation */
    const char *src = "\xEF\xBB\xBF#define A(x) x /* c\n */ \\\nR\"d(\")d\" u8'a' 1'0e+5 \"s\\\"\\\n\" // e \\\n"
                      "a->b <<= c ... '\\'' x\\\ny /* end";
    size_t len = strlen(src);
    for (size_t n = 0; n <= len; n++) {
        char *buf = malloc(n ? n : 1);      /* exactly n bytes: no NUL after them */
        cr_assert(buf);
        memcpy(buf, src, n);
        tl_lexer lx;
        tl_lex_init(&lx, buf, n);
        tl_lex_tok t;
        size_t last = 0;
        int count = 0;
        while (tl_lex_next(&lx, &t) != TL_LEX_END) {
            cr_assert(t.s >= last && t.s < t.e && t.e <= n, "prefix %zu: token [%zu, %zu)", n, t.s, t.e);
            last = t.e;
            cr_assert(++count <= (int)n, "prefix %zu: no progress", n);
        }
        cr_assert(t.s <= n && lx.line >= 1);
        free(buf);
    }
}
