/* diag.cpp: the emulator's errors and diagnostics. The CUDA error state (the last error, the sticky
 * one a failed launch leaves); each diagnostic printed as "tilelab-emu: CLASS: words" on stderr (a
 * launch prints its first few, then only counts) and sent as a structured verdict (kind, pattern,
 * file, line, buffer, index, thread, block: CONTRACTS.md section 10) on TL_EMU_VERDICTS; the first
 * one kept for tl_emu_last_diagnostic/tl_emu_last_verdict; and how a diagnostic names a thread, a
 * block, a __shared__ declaration or element. Split from core.cpp (the launches that raise them). */
#include "block.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unistd.h>

#include "verdict.h"

namespace tl_emu {

/* ---- errors and diagnostics ------------------------------------------------------------------- */
static std::mutex g_diag_mu;             /* the first diagnostic and this launch's count */
static cudaError_t g_last = cudaSuccess, g_sticky = cudaSuccess;
static char g_first_diag[4096];
static int g_have_diag;
static int g_launch_diags;               /* diagnostics in the running launch */
static const int PRINT_PER_LAUNCH = 4;

cudaError_t set_error(cudaError_t e) { if (e != cudaSuccess) g_last = e; return e; }
cudaError_t sticky_error(void) { return g_sticky; }
void set_sticky(cudaError_t e) { g_sticky = e; g_last = e; }
void clear_errors(void) { g_last = g_sticky = cudaSuccess; }
void clear_diagnostics(void) { std::lock_guard<std::mutex> lk(g_diag_mu); g_have_diag = 0; g_first_diag[0] = 0; }

/* The facts of this host thread's next diagnostic (diag_at, diag_buffer), for its verdict. */
static __thread struct {
    char file[128], matrix[64], access[8];
    int line;
    long long index;
    bool have_index, have_tid;
    uint32_t tid;
} t_facts;
void diag_thread(uint32_t lin) { t_facts.tid = lin; t_facts.have_tid = true; }
void diag_at(const char *file, int line) {
    snprintf(t_facts.file, sizeof t_facts.file, "%s", file ? base_name(file) : "");
    t_facts.line = line;
}
void diag_buffer(const char *access, const char *name, long long index) {
    snprintf(t_facts.access, sizeof t_facts.access, "%s", access ? access : "");
    snprintf(t_facts.matrix, sizeof t_facts.matrix, "%s", name ? name : "");
    t_facts.index = index;
    t_facts.have_index = true;
}
/* The verdict of a diagnostic: its class, its words as detail, this thread's facts (then cleared),
 * and the thread and block running here. */
static void make_verdict(tl_verdict *v, const char *cls, const char *body) {
    tl_verdict_init(v, TL_V_EMULATOR, cls);
    tl_verdict_set(v->detail, sizeof v->detail, body);
    size_t l = strlen(v->detail);
    while (l && v->detail[l - 1] == '\n') v->detail[--l] = 0;
    tl_verdict_set(v->file, sizeof v->file, t_facts.file);
    v->line = t_facts.line;
    tl_verdict_set(v->matrix, sizeof v->matrix, t_facts.matrix);
    tl_verdict_set(v->access, sizeof v->access, t_facts.access);
    if (t_facts.have_index) v->index = t_facts.index;
    Worker *w = t_worker;
    if (w && w->L && tl_emu_cur_thread) {
        const BlockInfo &bi = w->bi;
        uint32_t lin = t_facts.have_tid ? t_facts.tid : tl_emu_cur_tid;   /* the thread the words name */
        v->have_thread = 1;
        v->thread[0] = (int)(lin % bi.bdim.x);
        v->thread[1] = (int)((lin / bi.bdim.x) % bi.bdim.y);
        v->thread[2] = (int)(lin / (bi.bdim.x * bi.bdim.y));
        v->block[0] = (int)bi.bidx.x, v->block[1] = (int)bi.bidx.y, v->block[2] = (int)bi.bidx.z;
    }
    memset(&t_facts, 0, sizeof t_facts);
}
static void write_verdict(const tl_verdict *v) {
    if (g_vfd < 0) return;
    char line[6144];
    size_t l = tl_verdict_json(v, line, sizeof line - 1);
    if (l >= sizeof line - 1) return;          /* cannot be: the fields are bounded */
    line[l++] = '\n';
    ssize_t r = write(g_vfd, line, l);        /* one write: lines of several threads never mix */
    (void)r;
}
void diag_forget(void) { memset(&t_facts, 0, sizeof t_facts); }
void diag_verdict_raw(const char *cls, const char *body) {
    tl_verdict v;
    make_verdict(&v, cls, body);
    write_verdict(&v);
}

static tl_verdict g_first_verdict;

static void vdiag(bool in_launch, const char *cls, const char *fmt, va_list ap) {
    char body[3500];
    vsnprintf(body, sizeof body, fmt, ap);
    char msg[4096];
    snprintf(msg, sizeof msg, "tilelab-emu: %s: %s\n", cls, body);
    tl_verdict v;
    make_verdict(&v, cls, body);
    std::lock_guard<std::mutex> lk(g_diag_mu);
    int nth = in_launch ? g_launch_diags++ : 0;
    if (nth == 0) {
        snprintf(g_first_diag, sizeof g_first_diag, "%s", msg);
        g_first_verdict = v;
        g_have_diag = 1;
    }
    if (nth < PRINT_PER_LAUNCH) {
        fputs(msg, stderr);
        write_verdict(&v);
    }
}
/* False once this launch has printed its share: the caller then only counts (formatting thousands of
 * reports of the same mistake would cost more than running the kernel). */
bool diag_quota(void) {
    std::lock_guard<std::mutex> lk(g_diag_mu);
    if (g_launch_diags < PRINT_PER_LAUNCH) return true;
    g_launch_diags++;
    return false;
}

void diag_launch(const char *cls, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); vdiag(true, cls, fmt, ap); va_end(ap);
}
void diag_now(const char *cls, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); vdiag(false, cls, fmt, ap); va_end(ap);
}


/* A launch's diagnostics: counted from its start; at its end, how many there were (after saying how
 * many were not shown). */
void diag_launch_start(void) { g_launch_diags = 0; }
int diag_launch_end(void) {
    std::lock_guard<std::mutex> lk(g_diag_mu);
    if (g_launch_diags > PRINT_PER_LAUNCH)
        fprintf(stderr, "tilelab-emu: %d more diagnostic(s) in this launch not shown; fix the first one first\n",
                g_launch_diags - PRINT_PER_LAUNCH);
    return g_launch_diags;
}

} /* namespace tl_emu */

extern "C" cudaError_t cudaPeekAtLastError(void) { return tl_emu::g_last; }

extern "C" void tl_emu_recover(void) {
    tl_emu::init();
    tl_emu::clear_errors();
    tl_emu::clear_diagnostics();
}

extern "C" void tl_emu_write_verdict(const tl_verdict *v) {
    tl_emu::init();
    if (v) tl_emu::write_verdict(v);
}
extern "C" int tl_emu_last_verdict(tl_verdict *v) {
    std::lock_guard<std::mutex> lk(tl_emu::g_diag_mu);
    if (!tl_emu::g_have_diag) return 0;
    if (v) *v = tl_emu::g_first_verdict;
    return 1;
}
extern "C" int tl_emu_last_diagnostic(char *buf, size_t n) {
    std::lock_guard<std::mutex> lk(tl_emu::g_diag_mu);
    if (!tl_emu::g_have_diag) { if (buf && n) buf[0] = 0; return 0; }
    if (buf && n) snprintf(buf, n, "%s", tl_emu::g_first_diag);
    return (int)strlen(tl_emu::g_first_diag);
}

namespace tl_emu {

/* ---- describing things in diagnostics ------------------------------------------------------------ */
void fmt_tid(char *b, size_t n, const BlockInfo &bi, uint32_t lin) {
    unsigned x = lin % bi.bdim.x, y = (lin / bi.bdim.x) % bi.bdim.y,
             z = lin / (bi.bdim.x * bi.bdim.y);
    snprintf(b, n, "(%u,%u,%u)", x, y, z);
}
const char *base_name(const char *p) { const char *s = strrchr(p, '/'); return s ? s + 1 : p; }

void fmt_where(char *b, size_t n, const Worker *w) {
    const LaunchDesc *d = w->L->d;
    snprintf(b, n, "block (%u,%u,%u) of kernel %s (launched at %s:%d)", w->bi.bidx.x, w->bi.bidx.y,
             w->bi.bidx.z, d->name, base_name(d->file), d->line);
}
void fmt_decl(char *b, size_t n, const Slot *s) {
    const char *f = base_name(s->site->file);
    switch (s->ndim) {
    case 0: snprintf(b, n, "__shared__ %s %s (%s:%d)", s->site->type, s->site->name, f, s->site->line); break;
    case 1: snprintf(b, n, "__shared__ %s %s[%ld] (%s:%d)", s->site->type, s->site->name, s->d0, f, s->site->line); break;
    case 2: snprintf(b, n, "__shared__ %s %s[%ld][%ld] (%s:%d)", s->site->type, s->site->name, s->d0, s->d1, f, s->site->line); break;
    case 3: snprintf(b, n, "__shared__ %s %s[%ld][%ld][%ld] (%s:%d)", s->site->type, s->site->name, s->d0, s->d1, s->d2, f, s->site->line); break;
    default: snprintf(b, n, "extern __shared__ %s %s[] (%zu elements from the launch; %s:%d)", s->site->type,
                      s->site->name, s->n, f, s->site->line);
    }
}
void fmt_elem(char *b, size_t n, const Slot *s, size_t i) {
    if (s->ndim == 0) snprintf(b, n, "%s", s->site->name);
    else if (s->ndim == 2) snprintf(b, n, "%s[%zu][%zu]", s->site->name, i / (size_t)s->d1, i % (size_t)s->d1);
    else if (s->ndim == 3)
        snprintf(b, n, "%s[%zu][%zu][%zu]", s->site->name, i / ((size_t)s->d1 * s->d2), i / (size_t)s->d2 % (size_t)s->d1,
                 i % (size_t)s->d2);
    else snprintf(b, n, "%s[%zu]", s->site->name, i);
}

void describe_current_thread(char *buf, size_t n) {
    Worker *w = t_worker;
    if (!w || !w->L || !tl_emu_cur_thread) { snprintf(buf, n, "in host code (not in a kernel)"); return; }
    char where[512], t[64];
    fmt_where(where, sizeof where, w);
    fmt_tid(t, sizeof t, w->bi, tl_emu_cur_tid);
    snprintf(buf, n, "in thread %s of %s", t, where);
}

} /* namespace tl_emu */
