/* shared.cpp: __shared__ storage of the running block and its checks: bounds, races (the shadow
 * records' slow paths; the fast paths are inline in tl_emu.h) and reads of unwritten elements. */
#include "block.h"
#include "verdict.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tl_emu {

/* ---- __shared__ storage ---------------------------------------------------------------------- */
static void poison(void *p, size_t bytes, int kind) {
    if (kind == KIND_FLOAT) {
        uint32_t v = 0x7FFFA5A5u;                       /* a quiet NaN */
        for (size_t i = 0; i + 4 <= bytes; i += 4) memcpy((char *)p + i, &v, 4);
    } else if (kind == KIND_DOUBLE) {
        uint64_t v = 0x7FFFA5A5A5A5A5A5ull;
        for (size_t i = 0; i + 8 <= bytes; i += 8) memcpy((char *)p + i, &v, 8);
    } else {
        memset(p, 0xA5, bytes);
    }
}

[[noreturn]] static void abort_thread(Worker *w) {
    Thread *t = tl_emu_cur_thread;
    abort_launch_block(w);
    if (w->region) siglongjmp(w->jb, 1);
    t->state = T_ABORT;
    fiber_switch(&t->f, &w->sched);
    __builtin_trap();
}

void not_in_kernel(const char *what, const char *file, int line) {
    fprintf(stderr, "tilelab-emu: %s at %s:%d called from host code: it is only meaningful inside a kernel\n", what,
            base_name(file), line);
    exit(1);
}

Slot *shared_slot(const Site *site, size_t elem_size, int kind, int ndim, long d0, long d1, long d2) {
    Worker *w = t_worker;
    if (!w || !tl_emu_cur_thread) not_in_kernel("a __shared__ declaration", site->file, site->line);
    for (int i = 0; i < w->nslots; i++)
        if (w->slots[i].site == site) return &w->slots[i];
    /* new storage in a read-only region (rplain: every element written) would be read unchecked */
    if (w->region && w->rc.ro) race_escalate();
    const Model &m = model();
    if (w->nslots == MAX_SLOTS) {
        fprintf(stderr, "tilelab-emu: more than %d __shared__ declarations in one kernel are not supported\n", MAX_SLOTS);
        exit(1);
    }
    Slot *s = &w->slots[w->nslots];
    w->slot_esz[w->nslots] = elem_size;
    size_t n, bytes;
    void *data;
    if (ndim < 0) {                                   /* extern __shared__: the launch's dynamic memory */
        bytes = w->L->d->shmem;
        n = bytes / elem_size;
        if (!w->dyn_data) {
            w->dyn_data = w->arena + w->arena_used;
            w->arena_used = (w->arena_used + bytes + 15) & ~(size_t)15;
            poison(w->dyn_data, bytes, kind);
            w->dyn_kind = kind;
        }
        data = w->dyn_data;
    } else {
        n = ndim == 0 ? 1 : ndim == 1 ? (size_t)d0 : ndim == 2 ? (size_t)d0 * (size_t)d1 : (size_t)d0 * (size_t)d1 * (size_t)d2;
        bytes = n * elem_size;
        w->static_bytes += bytes;
        if (w->static_bytes > m.smem_block || w->arena_used + bytes > ARENA_BYTES) {
            char where[512];
            fmt_where(where, sizeof where, w);
            diag_launch("invalid-launch",
                        "%s: __shared__ %s %s at %s:%d brings the block's static shared memory to %zu bytes,\n"
                        "  over the %s limit of %zu bytes per block for static __shared__ arrays (nvcc rejects this kernel)",
                        where, site->type, site->name, base_name(site->file), site->line, w->static_bytes, m.name,
                        m.smem_block);
            abort_thread(w);
        }
        data = w->arena + w->arena_used;
        w->arena_used = (w->arena_used + bytes + 15) & ~(size_t)15;
        poison(data, bytes, kind);
        KernelInfo *ki = w->L->ki;
        if (ki && w->static_bytes > ki->static_smem) ki->static_smem = w->static_bytes;   /* racy max: benign */
    }
    s->data = data;
    s->n = n;
    s->esize = elem_size;
    s->ndim = ndim;
    s->d0 = ndim >= 1 ? d0 : (long)n;
    s->d1 = d1;
    s->d2 = d2;
    s->site = site;
    s->blk = &w->bi;
    s->sh = nullptr;
    s->allw = n == 0;
    s->wscan = 0;
    s->esc = false;
    if (w->L->check) {
        if (w->sh_used + n > SHADOW_ELEMS) {
            fprintf(stderr, "tilelab-emu: race checking: out of shadow memory for __shared__ %s; "
                            "run with TL_EMU_RACECHECK=0\n", site->name);
            exit(1);
        }
        s->sh = w->sharena + w->sh_used;
        memset(s->sh, 0, n * sizeof(Shadow));
        w->sh_used += n;
    }
    w->nslots++;
    return s;
}

/* ---- arrays reached through plain pointers ---------------------------------------------------- */
/* The first line at which each declaration was converted to a plain pointer, across workers (a
 * mutex: once per slot and block). */
static pthread_mutex_t esc_mu = PTHREAD_MUTEX_INITIALIZER;
static struct { const Site *site; int line; } esc_tab[8];
static int esc_n;

void shared_escape(const Slot *s, int line) {
    s->esc = true;
    pthread_mutex_lock(&esc_mu);
    int k = 0;
    while (k < esc_n && esc_tab[k].site != s->site) k++;
    if (k == esc_n && esc_n < 8) esc_tab[esc_n++] = {s->site, line};
    pthread_mutex_unlock(&esc_mu);
}

/* Whether every element of the block's __shared__ storage has been written (race checking on): then a
 * read cannot be of an unwritten element. Once true for a slot it stays true for the block; before, the
 * scan resumes where it last stopped. */
bool rallw(void) {
    Worker *w = t_worker;
    for (int k = 0; k < w->nslots; k++) {
        Slot &s = w->slots[k];
        if (s.allw) continue;
        if (!s.sh) return false;
        size_t i = s.wscan;
        while (i < s.n && s.sh[i].w_ep != 0) i++;
        s.wscan = i;
        if (i < s.n) return false;
        s.allw = true;
    }
    return true;
}

/* The __shared__ slot of this block that holds byte address p, and p's element index in it; null
 * when p is not in one (global memory, a local). For code that reaches shared memory through a
 * plain pointer and checks each element itself (the WMMA shim, include/mma.h). */
const Slot *shared_find(const void *p, size_t *index) {
    Worker *w = t_worker;
    if (!w) return nullptr;
    const char *c = (const char *)p;
    for (int k = 0; k < w->nslots; k++) {
        const Slot &s = w->slots[k];
        const char *d = (const char *)s.data;
        if (d && s.esize && c >= d && c < d + s.n * s.esize) {
            *index = (size_t)(c - d) / s.esize;
            return &s;
        }
    }
    return nullptr;
}

void shared_oob(const Slot *s, int line, int dim, long index, long outer) {
    Worker *w = t_worker;
    char where[512], decl[300], t[64], what[128];
    fmt_where(where, sizeof where, w);
    fmt_decl(decl, sizeof decl, s);
    fmt_tid(t, sizeof t, w->bi, tl_emu_cur_tid);
    long bound = dim == 2 ? s->d2 : dim == 1 ? s->d1 : (s->ndim == -1 ? (long)s->n : s->d0);
    if (s->ndim == 3 && dim == 2)
        snprintf(what, sizeof what, "%s[%ld][%ld][%ld]", s->site->name, outer / s->d1, outer % s->d1, index);
    else if (s->ndim == 3 && dim == 1) snprintf(what, sizeof what, "%s[%ld][%ld][...]", s->site->name, outer, index);
    else if (s->ndim == 3) snprintf(what, sizeof what, "%s[%ld][...][...]", s->site->name, index);
    else if (s->ndim == 2 && dim == 1) snprintf(what, sizeof what, "%s[%ld][%ld]", s->site->name, outer, index);
    else if (s->ndim == 2) snprintf(what, sizeof what, "%s[%ld][...]", s->site->name, index);
    else snprintf(what, sizeof what, "%s[%ld]", s->site->name, index);
    diag_at(s->site->file, line);
    diag_buffer("", s->site->name, index);
    diag_launch("shared-out-of-bounds",
                "%s at %s:%d in thread %s of %s\n"
                "  index %ld of dimension %d is outside 0..%ld of %s\n"
                "  (on a GPU this reads or overwrites another part of shared memory, or faults)",
                what, base_name(s->site->file), line, t, where, index, dim + 1, bound - 1, decl);
    abort_thread(w);
}

/* ---- arrays of the student's own (a local float acc[4], a member array) ---------------------------
 * The emulated build compiles the student's file with -fsanitize=bounds (common/emu/meson.build): g++
 * checks every index into an array whose size it knows and, when one is outside, calls the handler that
 * UBSan's runtime would provide. That runtime is not linked: these handlers are, and report the index
 * as the emulator reports a __shared__ one, naming the thread and block. */
struct UbsanLoc { const char *file; uint32_t line, column; };
struct UbsanType { uint16_t kind, info; char name[1]; };
struct UbsanOob { UbsanLoc loc; const UbsanType *array, *index; };

static long ubsan_value(const UbsanType *t, uintptr_t v) {
    unsigned bits = t->kind == 0 ? 1u << (t->info >> 1) : 64;    /* kind 0: an integer, info: log2(bits) << 1 | signed */
    if (bits < 64 && (t->info & 1) && (v >> (bits - 1)) & 1) v |= ~(uintptr_t)0 << bits;   /* sign-extend */
    if (bits < 64 && !(t->info & 1)) v &= ((uintptr_t)1 << bits) - 1;
    return (long)v;
}

[[noreturn]] static void array_oob(const UbsanOob *d, uintptr_t index) {
    char type[96];
    const char *n = d->array->name;
    size_t l = strlen(n);
    if (l >= 2 && n[0] == '\'' && n[l - 1] == '\'') { n++; l -= 2; }
    snprintf(type, sizeof type, "%.*s", (int)l, n);
    const char *br = strchr(type, '[');
    long bound = br ? strtol(br + 1, NULL, 10) : 0, i = ubsan_value(d->index, index);
    char range[48];
    if (bound > 0) snprintf(range, sizeof range, "0..%ld", bound - 1);
    else snprintf(range, sizeof range, "its bounds");
    Worker *w = t_worker;
    if (!w || !tl_emu_cur_thread) {
        fprintf(stderr, "tilelab-emu: array-out-of-bounds: index %ld is outside %s of an array (%s) at %s:%u, in host "
                        "code\n", i, range, type, base_name(d->loc.file), d->loc.line);
        exit(1);
    }
    char where[512], t[64];
    fmt_where(where, sizeof where, w);
    fmt_tid(t, sizeof t, w->bi, tl_emu_cur_tid);
    diag_at(d->loc.file, (int)d->loc.line);
    diag_buffer("", "", (long long)i);
    diag_launch("array-out-of-bounds",
                "index %ld is outside %s of an array (%s) at %s:%u in thread %s of %s\n"
                "  (on a GPU this reads or overwrites another of the thread's variables, or faults)",
                i, range, type, base_name(d->loc.file), d->loc.line, t, where);
    abort_thread(w);
}
extern "C" void __ubsan_handle_out_of_bounds(void *d, uintptr_t index) { array_oob((const UbsanOob *)d, index); }
extern "C" void __ubsan_handle_out_of_bounds_abort(void *d, uintptr_t index) { array_oob((const UbsanOob *)d, index); }

/* ---- race checking (the fast paths are inline in tl_emu.h) ----------------------------------------
 * Two accesses conflict when they come after the same __syncthreads() (stamp >= bar_epoch), unless the
 * two threads are lanes of one warp and that warp passed a __syncwarp() between them (their stamps then
 * differ: see BlockInfo). Without warps, stamp >= bar_epoch is the same as stamp == epoch. */
static inline bool same_warp(uint16_t a, uint16_t b) { return (a >> 5) == (b >> 5); }
static inline bool conflicts(uint32_t stamp, uint16_t other, uint32_t ep, uint32_t bar, uint16_t tid) {
    return stamp >= bar && other != tid && other != NO_TID && !(same_warp(other, tid) && stamp != ep);
}
static void record_read(Shadow &h, uint32_t ep, uint32_t bar, uint16_t tid, int line) {
    if (h.r_ep < bar) { h.r_ep = ep; h.r_tid = tid; h.r_line = (uint32_t)line; h.r_tid2 = NO_TID; }
    else if (h.r_tid != tid && h.r_tid2 == NO_TID) { h.r_tid2 = tid; h.r_line2 = (uint32_t)line; }
}
/* Whether every access to the array since the last __syncthreads() came from the warp of tid: then the
 * exchange is the warp's own, and what it lacks is a __syncwarp() (a cold path: reports only). */
static bool warp_local(const Slot *s, uint32_t bar, uint16_t tid) {
    for (size_t k = 0; k < s->n; k++) {
        const Shadow &h = s->sh[k];
        if (h.w_ep >= bar && !same_warp(h.w_tid, tid)) return false;
        if (h.r_ep >= bar && ((h.r_tid != NO_TID && !same_warp(h.r_tid, tid)) ||
                              (h.r_tid2 != NO_TID && !same_warp(h.r_tid2, tid))))
            return false;
    }
    return true;
}
enum { RACE_RAW, RACE_WAW, RACE_WAR };
/* Prints a race: thread a's access at line la after thread b's at lb. warp: the two are lanes of one
 * warp and only that warp used the array in the interval, so the missing barrier is a __syncwarp(). */
static void print_race(Worker *w, const Slot *s, size_t i, int kind, uint16_t a, int la, uint16_t b, int lb, bool warp) {
    char where[512], decl[300], el[96], ta[64], tb[64];
    fmt_where(where, sizeof where, w);
    fmt_decl(decl, sizeof decl, s);
    fmt_elem(el, sizeof el, s, i);
    fmt_tid(ta, sizeof ta, w->bi, a);
    fmt_tid(tb, sizeof tb, w->bi, b);
    const char *f = base_name(s->site->file);
    static const char *what[] = {
        "(read after another thread's write in the same barrier interval: on a GPU the read may see the old value)",
        "(two writes in the same barrier interval: on a GPU either may win)",
        "(write after another thread's read in the same barrier interval: on a GPU the read may see the new value)"};
    diag_at(f, la);
    diag_buffer("", s->site->name, TL_V_UNSET);
    diag_thread(a);
    diag_launch("race",
                "%s: element %s of %s, %s\n"
                "  thread %s %s it at %s:%d\n"
                "  after thread %s %s it at %s:%d, with no %s between the two\n"
                "  %s%s",
                s->site->name, el, decl, where, ta, kind == RACE_RAW ? "reads" : "writes", f, la, tb,
                kind == RACE_WAR ? "read" : "wrote", f, lb, warp ? "__syncwarp() (or __syncthreads())" : "__syncthreads()",
                what[kind],
                warp ? "\n  (both are lanes of one warp, and only that warp used the array since the last __syncthreads():\n"
                       "  since Volta, lanes of a warp are scheduled independently, not in lockstep, so the exchange\n"
                       "  needs a __syncwarp() between the write and the read)"
                     : "");
}
static void flush_warp_race(Worker *w) {
    if (!w->wrace.have) return;
    w->wrace.have = false;
    if (diag_quota())
        print_race(w, w->wrace.s, w->wrace.i, w->wrace.kind, w->wrace.a, w->wrace.la, w->wrace.b, w->wrace.lb,
                   warp_local(w->wrace.s, w->bi.bar_epoch, w->wrace.a));
}
/* A race: reported now between threads of different warps; between lanes of one warp, the first of
 * the interval is reported at its end (report_pending), when it is known which is missing. */
static void race(Worker *w, const Slot *s, size_t i, int kind, uint16_t a, int la, uint16_t b, int lb) {
    w->L->stop.store(true, std::memory_order_relaxed);
    if (same_warp(a, b)) {
        if (!w->wrace.have) w->wrace = {true, s, i, a, b, la, lb, kind};
        return;
    }
    flush_warp_race(w);             /* the earlier one first, decided with what is known now */
    if (diag_quota()) print_race(w, s, i, kind, a, la, b, lb, false);
}

void race_read(const Slot *s, size_t i, int line) {
    Worker *w = t_worker;
    Shadow &h = s->sh[i];
    uint32_t ep = w->bi.epoch, bar = w->bi.bar_epoch;
    uint16_t tid = (uint16_t)tl_emu_cur_tid;
    if (h.w_ep == 0) {
        if (w->npend < MAX_PENDING) w->pend[w->npend++] = Pending{s, i, ep, tid, line};
    } else if (conflicts(h.w_ep, h.w_tid, ep, bar, tid)) {
        race(w, s, i, RACE_RAW, tid, line, h.w_tid, (int)h.w_line);
    }
    record_read(h, ep, bar, tid, line);
}

void race_write(const Slot *s, size_t i, int line) {
    Worker *w = t_worker;
    Shadow &h = s->sh[i];
    uint32_t ep = w->bi.epoch, bar = w->bi.bar_epoch;
    uint16_t tid = (uint16_t)tl_emu_cur_tid;
    if (conflicts(h.w_ep, h.w_tid, ep, bar, tid)) race(w, s, i, RACE_WAW, tid, line, h.w_tid, (int)h.w_line);
    else if (conflicts(h.r_ep, h.r_tid, ep, bar, tid)) race(w, s, i, RACE_WAR, tid, line, h.r_tid, (int)h.r_line);
    else if (conflicts(h.r_ep, h.r_tid2, ep, bar, tid)) race(w, s, i, RACE_WAR, tid, line, h.r_tid2, (int)h.r_line2);
    h.w_ep = ep; h.w_tid = tid; h.w_line = (uint32_t)line; h.sat_ep = 0;
}

/* Reads of elements that no thread had written: reported at the end of their barrier interval,
 * unless another thread wrote the element later in the same interval (then it was a race, and the
 * write already said so). */
void report_pending(Worker *w) {
    flush_warp_race(w);
    for (int k = 0; k < w->npend; k++) {
        const Pending &p = w->pend[k];
        const Shadow &h = p.s->sh[p.i];
        if (h.w_ep == p.ep && h.w_tid != p.tid) continue;
        w->L->stop.store(true, std::memory_order_relaxed);
        if (w->uninit_reported) break;
        w->uninit_reported = true;
        if (!diag_quota()) break;
        char where[512], decl[300], el[96], a[64], later[200] = "";
        fmt_where(where, sizeof where, w);
        fmt_decl(decl, sizeof decl, p.s);
        fmt_elem(el, sizeof el, p.s, p.i);
        fmt_tid(a, sizeof a, w->bi, p.tid);
        const char *f = base_name(p.s->site->file);
        if (h.w_ep != 0) {
            char b[64];
            fmt_tid(b, sizeof b, w->bi, h.w_tid);
            snprintf(later, sizeof later, "\n  it is written only afterwards, by thread %s at %s:%d", b, f, (int)h.w_line);
        }
        diag_at(f, p.line);
        diag_buffer("", p.s->site->name, TL_V_UNSET);
        diag_thread(p.tid);
        diag_launch("uninitialized-shared-read",
                    "%s: element %s of %s, %s\n"
                    "  thread %s reads it at %s:%d, but no thread of the block has written it\n"
                    "  (shared memory starts with leftover data: here a poison value, %s)%s\n"
                    "  in a tiled kernel: out-of-range tile entries must be 0 (a guarded load needs its else)",
                    p.s->site->name, el, decl, where, a, f, p.line,
                    p.s->ndim >= -1 && strcmp(p.s->site->type, "float") && strcmp(p.s->site->type, "double")
                        ? "bytes 0xA5" : "NaN",
                    later);
        w->L->stop.store(true, std::memory_order_relaxed);
        break;                       /* one per interval is enough to act on */
    }
    w->npend = 0;
}

} /* namespace tl_emu */

extern "C" void tl_emu_shared_escapes_reset(void) {
    pthread_mutex_lock(&tl_emu::esc_mu);
    tl_emu::esc_n = 0;
    pthread_mutex_unlock(&tl_emu::esc_mu);
}

extern "C" int tl_emu_shared_escapes(char *buf, size_t n) {
    pthread_mutex_lock(&tl_emu::esc_mu);
    int cnt = tl_emu::esc_n;
    size_t o = 0;
    if (n) buf[0] = 0;
    for (int k = 0; k < cnt && o < n; k++) {
        const tl_emu::Site *st = tl_emu::esc_tab[k].site;
        const char *f = tl_emu::base_name(st->file);
        int w = snprintf(buf + o, n - o, "%s%s (__shared__ %s, declared at %s:%d) through a plain pointer made at %s:%d",
                         k ? "; " : "", st->name, st->type, f, st->line, f, tl_emu::esc_tab[k].line);
        if (w < 0) break;
        o += (size_t)w;
    }
    pthread_mutex_unlock(&tl_emu::esc_mu);
    return cnt;
}
