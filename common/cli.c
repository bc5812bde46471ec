/* cli.c: parsing of the values every lab program takes. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"

int tl_parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int tl_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int tl_parse_sizes(const char *s, tl_sizes *out, char *err, size_t errlen)
{
    out->count = 0;
    char buf[1024];
    if (strlen(s) >= sizeof buf) {
        snprintf(err, errlen, "size list too long");
        return -1;
    }
    strcpy(buf, s);
    if (buf[0] == ',' || (buf[0] && buf[strlen(buf) - 1] == ',') || strstr(buf, ",,")) {
        snprintf(err, errlen, "bad size list '%s': an empty item between commas", s);
        return -1;
    }
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (out->count == (int)(sizeof out->m / sizeof out->m[0])) {
            snprintf(err, errlen, "too many sizes (at most %d)", (int)(sizeof out->m / sizeof out->m[0]));
            return -1;
        }
        size_t il = strlen(item);
        if (item[0] == 'x' || item[il - 1] == 'x' || strstr(item, "xx")) {
            snprintf(err, errlen, "bad size '%s': give W (square) or MxKxN, e.g. 100 or 64x32x16", item);
            return -1;
        }
        long d[3];
        int nd = 0;
        char *save2 = NULL;
        for (char *p = strtok_r(item, "x", &save2); p; p = strtok_r(NULL, "x", &save2)) {
            if (nd == 3 || tl_parse_int(p, 1, TL_MAX_DIM, &d[nd]) != 0) {
                snprintf(err, errlen, "bad size '%s': give W (square) or MxKxN, each 1..%d", p, TL_MAX_DIM);
                return -1;
            }
            ++nd;
        }
        if (nd != 1 && nd != 3) {
            snprintf(err, errlen, "bad size item: give W (square) or MxKxN, e.g. 100 or 64x32x16");
            return -1;
        }
        int i = out->count++;
        out->m[i] = (int)d[0];
        out->k[i] = (int)(nd == 3 ? d[1] : d[0]);
        out->n[i] = (int)(nd == 3 ? d[2] : d[0]);
    }
    if (out->count == 0) {
        snprintf(err, errlen, "empty size list");
        return -1;
    }
    return 0;
}
