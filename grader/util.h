/* util.h: small pieces the grader needs: text made valid UTF-8, atomic file writes, folders, times. */
#ifndef TILELAB_GRADER_UTIL_H
#define TILELAB_GRADER_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* s (len bytes, any content) as well-formed UTF-8, NUL-terminated, for a JSON string (cJSON
 * escapes quotes, backslashes and control characters but passes other bytes as they are): every
 * byte that is not part of well-formed UTF-8 (stray continuation bytes, overlong forms,
 * surrogates, code points above U+10FFFF, truncated sequences) and every NUL becomes U+FFFD.
 * Valid UTF-8 passes unchanged. Caller frees; NULL when out of memory. */
char *tg_utf8_clean(const char *s, size_t len);

/* Writes data to path atomically: path.tmp, fsync, rename, fsync of the folder. 0 or -1. */
int  tg_write_atomic(const char *path, const void *data, size_t len);
int  tg_mkdirs(const char *path, int mode);      /* mkdir -p; 0 or -1 (errno set)          */
int  tg_rmtree(const char *path);                /* rm -rf without following symlinks      */
int  tg_is_dir(const char *path);
int  tg_is_file(const char *path);
/* Reads a whole (small) file; NULL on error. *len gets its size. Caller frees. */
char *tg_read_file(const char *path, size_t max, size_t *len);
/* Appends printf output to a growing string (a small string builder). */
typedef struct tg_buf {
    char  *s;
    size_t len, cap;
} tg_buf;
void tg_buf_printf(tg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tg_buf_add(tg_buf *b, const char *s, size_t len);
void tg_buf_free(tg_buf *b);
/* 1 when b holds line (its text without the newline) as one of its lines. */
int  tg_buf_has_line(const tg_buf *b, const char *line, size_t len);

/* 1 when path is top or lies under it ("/usr/lib" under "/usr", not "/usrx"); top has no
 * trailing slash. The one prefix test on paths (outside the tool adapters). */
int  tg_path_under(const char *path, const char *top);
/* 1 when name is one of the comma-separated items of list (",a,b," or "a,b"). */
int  tg_list_has(const char *list, const char *name);
/* A time ("2026-11-20 23:41:55.123456000 -08:00" as LMS exports write it, ISO 8601 with T and Z,
 * "... UTC"; none: UTC) as seconds since the epoch: 0 ok, -1 not a time (lms.c, tl-grade --due). */
int  tg_parse_time(const char *s, long long *epoch);

#endif
