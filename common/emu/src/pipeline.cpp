/* pipeline.cpp: cp.async under emulation (cuda_pipeline.h's __pipeline_memcpy_async, __pipeline_commit,
 * __pipeline_wait_prior), with the semantics a GPU gives them, not the convenient ones:
 *
 * - a copy does not land at its issue: it reads its source then (global memory does not change during a
 *   kernel of the labs), and its destination holds TL_EMU_PENDING_MARK (a NaN carrying the copy's line)
 *   until the issuing thread's __pipeline_wait_prior covers the copy's commit group. A stage read before
 *   that reads the mark; the driver finds it in P and names the race with the copy's line. Where the
 *   destination is a race-checked __shared__ view, the issue counts as a write (a thread still reading
 *   the stage in this interval is a race, reported as ever) and the element is unwritten until it lands,
 *   when it counts as written by the issuing thread: others may read it after the next barrier.
 * - the last zfill bytes of a copy are not read and land as 0 (the src-size operand);
 * - groups are counted per thread: a commit closes the thread's copies since its last commit (an empty
 *   group too, as on a GPU); __pipeline_wait_prior(N) lands every group but the N newest. A wait that
 *   lands nothing while copies are pending (N at least the groups in flight, or copies never committed)
 *   is named: on a GPU it returns at once and the stage it was meant for is read in flight.
 * - size 4, 8 or 16 bytes, destination in shared memory, both addresses aligned to the size; else named.
 * The copies count in the work counters: the bytes read as global loads, the bytes written as shared
 * stores (4 bytes one element, as the labs' floats). */
#include "block.h"
#include "tl_emu_marks.h"

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <vector>

namespace tl_emu {

namespace {
struct Copy {
    char *dst;
    uint32_t size, zfill;
    int line;
    const char *file;
    unsigned char data[16];
};
struct Pipe {
    std::vector<Copy> q;          /* issued, not landed, oldest first */
    std::vector<size_t> ends;     /* committed groups in flight: the end of each in q, oldest first */
    bool dirty;
};
struct PipeState {
    Pipe p[MAX_BLOCK_THREADS];
    uint16_t dirty[MAX_BLOCK_THREADS];
    unsigned ndirty;
};
thread_local PipeState *t_pipes;

Pipe &mine(void) {
    if (!t_pipes) t_pipes = new PipeState();
    Pipe &p = t_pipes->p[tl_emu_cur_tid];
    if (!p.dirty) {
        p.dirty = true;
        t_pipes->dirty[t_pipes->ndirty++] = (uint16_t)tl_emu_cur_tid;
    }
    return p;
}

/* Stops the launch after a diagnostic, as the other kernel-side diagnostics do (warp.cpp). */
[[noreturn]] void stop(Worker *w) {
    abort_launch_block(w);
    if (w->region) siglongjmp(w->jb, 1);
    Thread *t = tl_emu_cur_thread;
    t->state = T_ABORT;
    fiber_switch(&t->f, &w->sched);
    __builtin_trap();
}

Worker *in_kernel(const char *what, const char *file, int line) {
    Worker *w = t_worker;
    if (!w || !w->L || !w->have_jb || !tl_emu_cur_thread) not_in_kernel(what, file, line);
    return w;
}

/* The race-checked views whose storage holds [p, p + bytes): each element there is marked written by
 * the running thread now (landed: true) or unwritten (issued: false; the issue itself checked as a
 * write first). */
void mark(Worker *w, const char *p, size_t bytes, int line, bool landed) {
    for (int k = 0; k < w->nslots; k++) {
        Slot *s = &w->slots[k];
        size_t esz = w->slot_esz[k];
        if (!s->sh || esz == 0) continue;
        const char *d = (const char *)s->data;
        if (p + bytes <= d || p >= d + s->n * esz) continue;
        size_t lo = p > d ? (size_t)(p - d) / esz : 0;
        size_t hi = (size_t)(p + bytes - 1 - d) / esz;
        if (hi >= s->n) hi = s->n - 1;
        for (size_t i = lo; i <= hi; i++) {
            Shadow &h = s->sh[i];
            if (!landed) {
                race_write(s, i, line);      /* another thread still reading the stage: a race */
                h.w_ep = 0; h.sat_ep = 0;    /* unwritten until the copy lands */
            } else {
                h.w_ep = w->bi.epoch; h.w_tid = (uint16_t)tl_emu_cur_tid; h.w_line = (uint32_t)line; h.sat_ep = 0;
            }
        }
    }
}

void land(Worker *w, const Copy &c, int wait_line) {
    size_t got = c.size - c.zfill;
    memcpy(c.dst, c.data, got);
    memset(c.dst + got, 0, c.zfill);
    mark(w, c.dst, c.size, wait_line, true);
}
} /* namespace */

void pipe_reset(void) {
    if (!t_pipes) return;
    for (unsigned k = 0; k < t_pipes->ndirty; k++) {
        Pipe &p = t_pipes->p[t_pipes->dirty[k]];
        p.q.clear();
        p.ends.clear();
        p.dirty = false;
    }
    t_pipes->ndirty = 0;
}

void pipe_copy(void *dst, const void *src, size_t size, size_t zfill, const char *file, int line) {
    Worker *w = in_kernel("__pipeline_memcpy_async", file, line);
    char *d = (char *)dst;
    const char *problem = nullptr;
    if (size != 4 && size != 8 && size != 16)
        problem = "the size must be 4, 8 or 16 bytes";
    else if (zfill > size)
        problem = "zfill (the bytes written as 0 instead of read) is larger than the copy";
    else if (d < w->arena || d + size > w->arena + ARENA_BYTES)
        problem = "the destination is not in the block's shared memory";
    else if ((uintptr_t)d % size != 0 || (size > zfill && (uintptr_t)src % size != 0))
        problem = "both addresses must be aligned to the copy's size (a float4 piece: 16 bytes)";
    if (problem) {
        char where[512], tid[64];
        fmt_where(where, sizeof where, w);
        fmt_tid(tid, sizeof tid, w->bi, tl_emu_cur_tid);
        diag_launch("invalid-pipeline-copy",
                    "__pipeline_memcpy_async(dst %p, src %p, %zu, zfill %zu) at %s:%d in thread %s of %s:\n"
                    "  %s (cuda_pipeline.h; a GPU faults or copies garbage)",
                    dst, src, size, zfill, base_name(file), line, tid, where, problem);
        stop(w);
    }
    Copy c;
    c.dst = d;
    c.size = (uint32_t)size;
    c.zfill = (uint32_t)zfill;
    c.line = line;
    c.file = file;
    if (size > zfill) memcpy(c.data, src, size - zfill);   /* a bad source faults here, named by mem.cpp */
    mark(w, d, size, line, false);
    uint32_t pend = TL_EMU_PENDING_MARK | ((uint32_t)line & TL_EMU_UNINIT_LINE);
    for (size_t o = 0; o + 4 <= size; o += 4) memcpy(d + o, &pend, 4);
    mine().q.push_back(c);
    if (tl_emu_cnt) tl_emu_cnt->gld += (size - zfill) / 4;
    if (tl_emu_scnt) tl_emu_scnt->sst += size / 4;
}

void pipe_commit(const char *file, int line) {
    (void)in_kernel("__pipeline_commit", file, line);
    Pipe &p = mine();
    p.ends.push_back(p.q.size());
}

void pipe_wait_prior(size_t n, const char *file, int line) {
    Worker *w = in_kernel("__pipeline_wait_prior", file, line);
    Pipe &p = mine();
    size_t groups = p.ends.size();
    size_t committed = groups ? p.ends.back() : 0, loose = p.q.size() - committed;
    if (n >= groups && !p.q.empty()) {   /* lands nothing, copies pending (empty groups alone: harmless) */
        char where[512], tid[64];
        fmt_where(where, sizeof where, w);
        fmt_tid(tid, sizeof tid, w->bi, tl_emu_cur_tid);
        if (groups == 0)
            diag_launch("pipeline-wait",
                        "__pipeline_wait_prior(%zu) at %s:%d in thread %s of %s waits for nothing:\n"
                        "  the thread has %zu copies in flight (the first at line %d) but no committed group: a wait\n"
                        "  covers committed groups only, so these copies may land after their stage is read;\n"
                        "  __pipeline_commit() after each phase's copies, before the wait",
                        n, base_name(file), line, tid, where, loose, p.q[0].line);
        else
            diag_launch("pipeline-wait",
                        "__pipeline_wait_prior(%zu) at %s:%d in thread %s of %s waits for nothing:\n"
                        "  the thread has %zu committed group%s in flight and the wait leaves the %zu newest pending,\n"
                        "  so no group lands: the stage read next is still being copied (the copy at line %d);\n"
                        "  __pipeline_wait_prior(N) lands all but the N newest groups: N must be less than the groups\n"
                        "  in flight (lab 07's loop, S stages, one commit per phase: phase ph has landed at S - 2)",
                        n, base_name(file), line, tid, where, groups, groups == 1 ? "" : "s", n, p.q.empty() ? 0 : p.q[0].line);
        stop(w);
    }
    if (n >= groups) return;
    size_t upto = p.ends[groups - 1 - n];
    for (size_t k = 0; k < upto; k++) land(w, p.q[k], line);
    p.q.erase(p.q.begin(), p.q.begin() + (long)upto);
    p.ends.erase(p.ends.begin(), p.ends.begin() + (long)(groups - n));
    for (size_t &e : p.ends) e -= upto;
}

} /* namespace tl_emu */
