/* tl-emu-funcs.c: the part of tl-emu-rewrite that knows the file's functions once the streaming copy
 * (tl-emu-rewrite.c) has read them: their names and whether each is for the device, which hold a
 * barrier or a warp operation (directly or through another), the invalid calls nvcc would reject
 * (a host function or std::min/max/swap called from a kernel), and region form for each kernel that
 * can have it (tl-emu-region.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl-emu-rewrite-state.h"
#include "tl-lex.h"

/* ---- region form ---------------------------------------------------------------------------------- */
/* The name of the function whose body opens now: the identifier before the ( of the parameters that
 * end at the last ')' written. */
void func_name_before(Rw *rw, char *name, size_t n) {
    name[0] = 0;
    size_t e = rw->out.n;
    while (e > 0 && isspace((unsigned char)rw->out.p[e - 1])) e--;
    if (e == 0 || rw->out.p[e - 1] != ')') return;
    int d = 0;
    size_t p = e;
    while (p > 0) {
        p--;
        if (rw->out.p[p] == ')') d++;
        else if (rw->out.p[p] == '(' && --d == 0) break;
    }
    while (p > 0 && isspace((unsigned char)rw->out.p[p - 1])) p--;
    size_t b = p;
    while (b > 0 && is_id((unsigned char)rw->out.p[b - 1])) b--;
    if (p - b == 0 || p - b >= n) return;
    memcpy(name, rw->out.p + b, p - b);
    name[p - b] = 0;
}

/* Whether the function whose body opens now was declared __device__ or __global__ (the words since the
 * end of the previous declaration or block). */
int declared_for_device(Rw *rw) {
    /* the whole declaration, back to the end of what came before it: a signature may span lines
     * (static __device__ __forceinline__ float4 load4(..., <newline> int vec) <newline> {) */
    size_t b2 = rw->out.n;
    while (b2 > 0 && rw->out.p[b2 - 1] != ';' && rw->out.p[b2 - 1] != '}' && rw->out.p[b2 - 1] != '{') b2--;
    const char *t = rw->out.p + b2;
    size_t n = rw->out.n - b2;
    for (size_t i = 0; i + 10 <= n; i++)
        if (!memcmp(t + i, "__device__", 10) || !memcmp(t + i, "__global__", 10)) return 1;
    for (size_t i = 0; i + 8 <= n; i++)
        if (!memcmp(t + i, "template", 8) || !memcmp(t + i, "operator", 8)) return 1;   /* not judged */
    return 0;
}

/* Whether text t (n bytes: a function body as written, or a preprocessor line) holds the word w. A
 * plain text search, not tokens, on purpose: a barrier's name in a comment or a string keeps the kernels
 * that call the function on fibers, which is never wrong, only slower (region form is the fast path).
 * Read as tokens, lab 07's skeleton (cp_gemm's TODO comment names __syncthreads()) would go to region
 * form and its stored rewrite would change (tried: the one golden file that moved). */
static int has_word(const char *t, size_t n, const char *w) {
    size_t l = strlen(w);
    for (size_t i = 0; i + l <= n; i++)
        if (!memcmp(t + i, w, l) && (i == 0 || !is_id((unsigned char)t[i - 1])) &&
            (i + l == n || !is_id((unsigned char)t[i + l])))
            return 1;
    return 0;
}
/* Which functions hold a barrier or a warp operation, directly or through another such function. */
static void mark_barrier_funcs(Rw *rw) {
    static const char *w[] = {"__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                              "__shfl_xor_sync", "__ballot_sync", "__all_sync", "__any_sync", "sync",
                              "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__activemask",
                              "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
                              "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
                              "tiled_partition", "coalesced_threads", "thread_block_tile", "coalesced_group",
                              "thread_group", NULL};
    for (int f = 0; f < rw->nfuncs; f++)
        for (int k = 0; w[k] && !rw->funcs[f].barrier; k++)
            if (rw->funcs[f].be > rw->funcs[f].bs && has_word(rw->out.p + rw->funcs[f].bs, rw->funcs[f].be - rw->funcs[f].bs, w[k])) rw->funcs[f].barrier = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int f = 0; f < rw->nfuncs; f++) {
            if (rw->funcs[f].barrier || rw->funcs[f].be <= rw->funcs[f].bs) continue;
            for (int g = 0; g < rw->nfuncs; g++)
                if (rw->funcs[g].barrier && rw->funcs[g].name[0] &&
                    has_word(rw->out.p + rw->funcs[f].bs, rw->funcs[f].be - rw->funcs[f].bs, rw->funcs[g].name)) {
                    rw->funcs[f].barrier = 1; changed = 1; break;
                }
        }
    }
}
static int is_barrier_func(const void *ctx, const char *name, size_t n) {
    const Rw *rw = ctx;
    for (int f = 0; f < rw->nfuncs; f++)
        if (rw->funcs[f].barrier && strlen(rw->funcs[f].name) == n && !memcmp(rw->funcs[f].name, name, n)) return 1;
    return 0;
}

/* Invalid CUDA that nvcc rejects and g++ would build: a kernel calling a host function of this file
 * (defined without __device__), or std::min/std::max/std::swap (constexpr host functions). */
void check_host_calls(Rw *rw) {
    for (int k = 0; k < rw->nkernels; k++) {
        const Kernel *K = &rw->kernels[k];
        tl_lexer lx = {.text = rw->out.p, .n = K->be, .p = K->bs, .line = 1, .bol = 0};
        for (tl_lex_tok t; tl_lex_next(&lx, &t) != TL_LEX_END;) {
            if (t.kind != TL_LEX_ID) continue;
            size_t p = t.s, e = t.e, q = e;
            while (q < K->be && (rw->out.p[q] == ' ' || rw->out.p[q] == '\t')) q++;
            int call = q < K->be && rw->out.p[q] == '(';
            int std_call = p >= 5 && !memcmp(rw->out.p + p - 5, "std::", 5) &&
                           ((e - p == 3 && (!memcmp(rw->out.p + p, "min", 3) || !memcmp(rw->out.p + p, "max", 3))) ||
                            (e - p == 4 && !memcmp(rw->out.p + p, "swap", 4)));
            const char *host = NULL;
            if (call && !std_call && !(p > 0 && (rw->out.p[p - 1] == '.' || rw->out.p[p - 1] == ':' || rw->out.p[p - 1] == '>')))
                for (int f = 0; f < rw->nfuncs; f++)
                    if (!rw->funcs[f].device && strlen(rw->funcs[f].name) == e - p && !memcmp(rw->funcs[f].name, rw->out.p + p, e - p)) {
                        host = rw->funcs[f].name;
                        break;
                    }
            if (!std_call && !host) continue;
            int at = 0;                                     /* the student's line: out starts with #line */
            for (size_t i = 0; i < p; i++) at += rw->out.p[i] == '\n';
            if (std_call)
                die(rw, at, "calling a constexpr __host__ function(\"std::%.*s\") from a __global__ function(\"%s\") is not "
                        "allowed (nvcc rejects it); use %.*s(a, b), which CUDA provides for device code",
                    (int)(e - p), rw->out.p + p, K->name, (int)(e - p), rw->out.p + p);
            die(rw, at, "calling a __host__ function(\"%s\") from a __global__ function(\"%s\") is not allowed (nvcc "
                    "rejects it); declare it __device__ (or __host__ __device__)", host, K->name);
        }
    }
}

/* Puts every kernel it can in region form, from the last to the first so that offsets stay right. */
void make_regions(Rw *rw) {
    mark_barrier_funcs(rw);
    /* a barrier hidden in a macro cannot be seen in the kernel bodies: keep all kernels on fibers */
    int hidden = 0;
    static const char *sync_words[] = {"__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_up_sync",
        "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync", "__activemask",
        "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__match_any_sync", "__match_all_sync",
        "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
        "__reduce_xor_sync", "tiled_partition", "coalesced_threads", "sync", NULL};
    tl_lexer lx;
    tl_lex_init(&lx, rw->src, rw->len);
    for (tl_lex_tok d; tl_lex_next(&lx, &d) != TL_LEX_END;)
        if (d.kind == TL_LEX_DIRECTIVE)
            for (int k = 0; sync_words[k]; k++) if (has_word(rw->src + d.s, d.e - d.s, sync_words[k])) hidden = 1;
    for (int k = rw->nkernels - 1; k >= 0; k--) {
        Kernel *K = &rw->kernels[k];
        if (!rw->use_regions) { snprintf(K->why, sizeof K->why, "tl-emu-rewrite --fibers"); continue; }
        if (K->is_template) { snprintf(K->why, sizeof K->why, "a template kernel"); continue; }
        if (hidden) { snprintf(K->why, sizeof K->why, "a #define of the file holds a barrier or a warp operation"); continue; }
        Buf nb = {0};
        int body_line = 0;        /* out starts with `#line 1 "IN.cu"` and its newline */
        for (size_t p = 0; p < K->bs; p++) body_line += rw->out.p[p] == '\n';
        if (!tl_region_body(rw->out.p + K->ps, K->pe - K->ps, rw->out.p + K->bs, K->be - K->bs, body_line, is_barrier_func, rw, &nb,
                            K->why, sizeof K->why)) {
            free(nb.p);
            continue;
        }
        Buf o = {0};
        buf_add(&o, rw->out.p, K->bs);
        buf_add(&o, nb.p ? nb.p : "", nb.n);
        buf_add(&o, rw->out.p + K->be, rw->out.n - K->be);
        free(rw->out.p);
        free(nb.p);
        rw->out = o;
        K->region = 1;
    }
}
