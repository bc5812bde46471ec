/* verdict_read.c: verdicts read with cJSON (CONTRACTS.md section 10), and written into results.json
 * through the one writer (common/verdict.c). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util.h"
#include "verdict_read.h"

static int get_str(const cJSON *o, const char *k, char *field, size_t n)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!it)
        return 0;
    if (!cJSON_IsString(it) || !it->valuestring)
        return -1;
    tl_verdict_set(field, n, it->valuestring);
    return 0;
}

static int get_num(const cJSON *o, const char *k, double *d)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!it)
        return 0;
    if (!cJSON_IsNumber(it))
        return -1;
    *d = it->valuedouble;
    return 1;
}

static int get_ll(const cJSON *o, const char *k, long long *v)
{
    double d;
    int r = get_num(o, k, &d);
    if (r == 1) {
        if (d < -9.2e18 || d > 9.2e18)
            return -1;
        *v = (long long)d;
    }
    return r < 0 ? -1 : 0;
}

static int get_int(const cJSON *o, const char *k, int *v)
{
    double d;
    int r = get_num(o, k, &d);
    if (r == 1) {
        if (d < -2147483648.0 || d > 2147483647.0)
            return -1;
        *v = (int)d;
    }
    return r < 0 ? -1 : 0;
}

static int get_xyz(const cJSON *o, const char *k, int xyz[3], int *have)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!a)
        return 0;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3)
        return -1;
    for (int i = 0; i < 3; ++i) {
        const cJSON *e = cJSON_GetArrayItem(a, i);
        if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > 2147483647.0)
            return -1;
        xyz[i] = (int)e->valuedouble;
    }
    *have = 1;
    return 0;
}

int tg_verdict_from_cjson(const cJSON *o, tl_verdict *v)
{
    tl_verdict_init(v, TL_V_NONE, "");
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind");
    int kd = cJSON_IsString(kind) ? tl_verdict_kind_from_name(kind->valuestring) : -1;
    if (!cJSON_IsObject(o) || kd < 0)
        return -1;
    v->kind = (tl_verdict_kind)kd;
    int th = 0, bl = 0, bad = 0;
    double lim = 0;
    bad |= get_str(o, "pattern", v->pattern, sizeof v->pattern);
    bad |= get_str(o, "matrix", v->matrix, sizeof v->matrix);
    bad |= get_str(o, "access", v->access, sizeof v->access);
    bad |= get_ll(o, "row", &v->row);
    bad |= get_ll(o, "column", &v->column);
    bad |= get_ll(o, "index", &v->index);
    bad |= get_str(o, "file", v->file, sizeof v->file);
    bad |= get_int(o, "line", &v->line);
    bad |= get_xyz(o, "thread", v->thread, &th);
    bad |= get_xyz(o, "block", v->block, &bl);
    bad |= get_ll(o, "count", &v->count);
    bad |= get_ll(o, "total", &v->total);
    bad |= get_ll(o, "nonfinite", &v->nonfinite);
    bad |= get_ll(o, "unwritten", &v->unwritten);
    bad |= get_int(o, "m", &v->m);
    bad |= get_int(o, "k", &v->k);
    bad |= get_int(o, "n", &v->n);
    int r = get_num(o, "limit_s", &lim);
    bad |= r < 0;
    if (r == 1)
        v->limit_s = lim;
    bad |= get_str(o, "detail", v->detail, sizeof v->detail);
    v->have_thread = th && bl;
    if (v->line < 0)
        v->line = 0;
    return bad ? -1 : 0;
}

int tg_verdict_parse(const char *json, size_t len, tl_verdict *v)
{
    cJSON *o = cJSON_ParseWithLength(json, len);
    int r = o ? tg_verdict_from_cjson(o, v) : -1;
    cJSON_Delete(o);
    if (r != 0)
        tl_verdict_init(v, TL_V_NONE, "");
    return r;
}

cJSON *tg_verdict_to_cjson(const tl_verdict *v)
{
    size_t need = tl_verdict_json(v, NULL, 0) + 1;
    char *s = malloc(need);
    if (!s)
        return NULL;
    tl_verdict_json(v, s, need);
    char *clean = tg_utf8_clean(s, strlen(s));   /* a student's bytes: valid UTF-8 in results.json */
    free(s);
    cJSON *o = clean ? cJSON_Parse(clean) : NULL;
    free(clean);
    return o;
}
