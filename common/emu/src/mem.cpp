/* mem.cpp: cudaMalloc and friends, with guard pages, and the SIGSEGV handler that explains a fault.
 *
 * Every allocation gets its own mapping: [64 KiB guard][data pages][1 MiB guard]. The buffer is placed
 * so that it ends exactly where the trailing guard begins (its start stays aligned to the largest power
 * of two, up to 256, that divides its size), so reading or writing even one element past the end
 * faults. The handler finds the buffer the address belongs to and says which, how far, and where.
 * Freed buffers stay mapped without access for a while, so a use after cudaFree faults too.
 */
#include "internal.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

namespace tl_emu {

enum { A_EMPTY = 0, A_LIVE = 1, A_FREED = 2 };
enum { MAX_ALLOCS = 4096, MAX_FREED = 1024 };
static const size_t GUARD_BEFORE = 64 * 1024, GUARD_AFTER = 1024 * 1024;

struct Alloc {
    char *map; size_t maplen;
    char *ptr; size_t size;
    size_t elem;                    /* element size if known (from the pointer's type), else 0 */
    char name[96];
    const char *file; int line;
    volatile int state;
    uint64_t serial;
    bool managed;                   /* cudaMallocManaged: host code may open it (guard_fault) */
};

static Alloc g_allocs[MAX_ALLOCS];
static std::mutex g_amu;
static uint64_t g_serial;
static size_t g_live_bytes;

static const char *base_name(const char *p) { const char *s = strrchr(p, '/'); return s ? s + 1 : p; }

/* "(void **)&d_M" -> "d_M"; "&(s->buf)" -> "s->buf". */
static void clean_name(char *out, size_t n, const char *expr) {
    const char *p = expr;
    while (*p == ' ') p++;
    if (*p == '(') {                                 /* a leading cast such as (void **) */
        const char *q = strchr(p, ')');
        if (q && memchr(p, '*', (size_t)(q - p))) p = q + 1;
    }
    while (*p == ' ' || *p == '&' || *p == '(') p++;
    size_t len = strlen(p);
    while (len && (p[len - 1] == ' ' || p[len - 1] == ')')) len--;
    if (len >= n) len = n - 1;
    memcpy(out, p, len);
    out[len] = 0;
    if (!out[0]) snprintf(out, n, "(unnamed)");
}

static size_t page_size(void) { static size_t p = (size_t)sysconf(_SC_PAGESIZE); return p; }

static Alloc *find_live(const void *p) {
    const char *c = (const char *)p;
    for (int i = 0; i < MAX_ALLOCS; i++) {
        Alloc *a = &g_allocs[i];
        if (a->state == A_LIVE && c >= a->ptr && c < a->ptr + (a->size ? a->size : 1)) return a;
    }
    return nullptr;
}

size_t allocated_bytes(void) { std::lock_guard<std::mutex> lk(g_amu); return g_live_bytes; }

/* ---- the device guarded from host code (tl_emu_guard_device) --------------------------------------
 * While the harness runs a student's launcher, every live buffer's data pages are PROT_NONE except
 * inside kernels (launch: guard_launch_begin/end) and the runtime's own copies and memsets (opened
 * for the copy): on a GPU the host cannot reach device memory either. And the data flow a launcher
 * that multiplies on the host needs is seen: a copy to the host (g_d2h), then any write to the device
 * (a kernel launch, a copy to the device, a memset, a symbol copy) counts a host round trip, judged
 * by the grader against the lab's rule (tl_work_judge): a launcher copies results back only after its
 * last kernel. A buffer from cudaMallocManaged is opened for host code on its first touch (as a GPU's
 * unified memory is reachable from the host); a touch after a kernel ran counts as data reaching the
 * host. */
static std::atomic<int> g_guard{0};        /* the harness's bracket is on */
static std::atomic<int> g_closed{0};       /* the buffers are PROT_NONE now */
static std::atomic<int> g_d2h{0};          /* device data reached the host within the bracket */
static std::atomic<int> g_kernel_ran{0};   /* a kernel ran within the bracket */

static size_t data_len(const Alloc *a) { size_t pg = page_size(); return (a->size + pg - 1) / pg * pg; }

/* Every live buffer's data to prot; the caller holds g_amu. */
static void set_all_prot_locked(int prot) {
    for (int i = 0; i < MAX_ALLOCS; i++) {
        Alloc *a = &g_allocs[i];
        if (a->state == A_LIVE) mprotect(a->map + GUARD_BEFORE, data_len(a), prot);
    }
}

static void guard_open(void) {
    if (!g_closed.load()) return;
    std::lock_guard<std::mutex> lk(g_amu);
    set_all_prot_locked(PROT_READ | PROT_WRITE);
    g_closed.store(0);
}

static void guard_close(void) {
    if (!g_guard.load() || g_closed.load()) return;
    std::lock_guard<std::mutex> lk(g_amu);
    set_all_prot_locked(PROT_NONE);
    g_closed.store(1);
}

/* A write to the device: a host round trip when device data reached the host before it. */
static void guard_device_write(void) {
    if (g_guard.load() && g_d2h.load()) count_round_trip();
}

static void guard_d2h(void) {
    if (g_guard.load()) g_d2h.store(1);
}

void guard_launch_begin(void) {
    guard_device_write();
    guard_open();
}

void guard_launch_end(void) {
    if (g_guard.load()) g_kernel_ran.store(1);
    guard_close();
}

/* A free registry entry; when all are taken, the oldest freed buffer leaves quarantine for it. */
static Alloc *take_entry(void) {
    Alloc *oldest = nullptr;
    for (int i = 0; i < MAX_ALLOCS; i++) {
        Alloc *a = &g_allocs[i];
        if (a->state == A_EMPTY) return a;
        if (a->state == A_FREED && (!oldest || a->serial < oldest->serial)) oldest = a;
    }
    if (!oldest) return nullptr;
    oldest->state = A_EMPTY;
    munmap(oldest->map, oldest->maplen);
    return oldest;
}

/* Keeps at most MAX_FREED freed buffers in quarantine (mapped without access). */
static void release_oldest_freed_if_many(void) {
    int nfreed = 0; Alloc *oldest = nullptr;
    for (int i = 0; i < MAX_ALLOCS; i++)
        if (g_allocs[i].state == A_FREED) {
            nfreed++;
            if (!oldest || g_allocs[i].serial < oldest->serial) oldest = &g_allocs[i];
        }
    if (nfreed > MAX_FREED && oldest) { oldest->state = A_EMPTY; munmap(oldest->map, oldest->maplen); }
}

void note_pointer_arg(const void *p, size_t elem_size) {
    if (!p || !elem_size) return;
    std::lock_guard<std::mutex> lk(g_amu);
    Alloc *a = find_live(p);
    if (a && !a->elem) a->elem = elem_size;
}

void free_all_allocations(void) {
    std::lock_guard<std::mutex> lk(g_amu);
    for (int i = 0; i < MAX_ALLOCS; i++)
        if (g_allocs[i].state != A_EMPTY) { g_allocs[i].state = A_EMPTY; munmap(g_allocs[i].map, g_allocs[i].maplen); }
    g_live_bytes = 0;
}

/* ---- the fault handler -------------------------------------------------------------------------- */
static void put(const char *s) { ssize_t r = write(2, s, strlen(s)); (void)r; }

/* Asks addr2line (binutils) for the source line of the faulting instruction: "  at (from the debug line
 * table) FUNC at PATH:LINE" lines in out, "" if absent; the first (innermost) frame's file and line
 * become the next diagnostic's place. */
void source_lines(void *pc, char *res, size_t resn, bool set_place) {
    if (resn) res[0] = 0;
    Dl_info info;
    if (!pc || !dladdr(pc, &info) || !info.dli_fbase) return;
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)info.dli_fbase;
    /* For the main program dladdr gives argv[0], which may be anything: read /proc/self/exe instead. */
    bool is_main = getauxval(AT_PHDR) - eh->e_phoff == (uintptr_t)info.dli_fbase;
    char exe[4096];
    const char *file = info.dli_fname;
    if (is_main || !file || !file[0]) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);   /* in addr2line it would name addr2line */
        if (n <= 0) return;
        exe[n] = 0;
        file = exe;
    }
    uintptr_t addr = (uintptr_t)pc;
    if (eh->e_type == ET_DYN) addr -= (uintptr_t)info.dli_fbase;
    char hex[32];
    snprintf(hex, sizeof hex, "0x%lx", (unsigned long)addr);
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        int devnull = open("/dev/null", 0);
        if (devnull >= 0) dup2(devnull, 2);
        close(fds[0]);
        execlp("addr2line", "addr2line", "-e", file, "-f", "-C", "-i", "-p", hex, (char *)nullptr);
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) { close(fds[0]); return; }
    char out[2048]; size_t len = 0; ssize_t r;
    while (len < sizeof out - 1 && (r = read(fds[0], out + len, sizeof out - 1 - len)) > 0) len += (size_t)r;
    out[len] = 0;
    close(fds[0]);
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || len == 0 || strstr(out, "??")) return;
    char *line = out;
    size_t o = 0;
    bool first = true;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (o < resn) o += (size_t)snprintf(res + o, resn - o, "  at (from the debug line table) %s\n", line);
        if (first && set_place) {     /* "FUNC at PATH:LINE": the last " at " of the line */
            const char *at = nullptr;
            for (const char *q = strstr(line, " at "); q; q = strstr(q + 4, " at ")) at = q + 4;
            const char *colon = at ? strrchr(at, ':') : nullptr;
            if (colon && colon[1] >= '0' && colon[1] <= '9') {
                char file[512];
                snprintf(file, sizeof file, "%.*s", (int)(colon - at), at);
                diag_at(file, atoi(colon + 1));
            }
            first = false;
        }
        line = nl ? nl + 1 : nullptr;
    }
}

void print_source_line(void *pc) {
    char lines[2048];
    source_lines(pc, lines, sizeof lines, false);
    put(lines);
}

static void segv_handler(int sig, siginfo_t *si, void *ucv) {
    const char *addr = (const char *)si->si_addr;
    ucontext_t *uc = (ucontext_t *)ucv;
    void *pc = nullptr;
    const char *access = "access";
#if defined(__x86_64__)
    pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
    access = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? "write" : "read";
#elif defined(__aarch64__)
    pc = (void *)uc->uc_mcontext.pc;
#endif
    (void)uc;
    /* Host code touching a guarded buffer (tl_emu_guard_device): before the one-report gate, since
     * a touch of unified memory is allowed and resumes. */
    if (g_closed.load() && !tl_emu_cur_thread) {
        char msg[2048];
        for (int i = 0; i < MAX_ALLOCS; i++) {
            Alloc *a = &g_allocs[i];
            char *data = a->map + GUARD_BEFORE;
            if (a->state != A_LIVE || addr < data || addr >= data + data_len(a)) continue;
            if (a->managed) {            /* unified memory: the host may touch it (see above) */
                mprotect(data, data_len(a), PROT_READ | PROT_WRITE);
                if (g_kernel_ran.load()) g_d2h.store(1);
                return;                   /* the access runs again, now allowed */
            }
            size_t es = a->elem ? a->elem : 1;
            long long idx = addr >= a->ptr ? (long long)((size_t)(addr - a->ptr) / es) : -1;
            char where[160];
            if (a->elem) snprintf(where, sizeof where, "'%s'[%lld]", a->name, idx);
            else snprintf(where, sizeof where, "'%s' at byte %lld", a->name, idx);
            snprintf(msg, sizeof msg,
                     "tilelab-emu: host-access-device-memory: host code %s device memory: %s, a buffer from "
                     "cudaMalloc at %s:%d, outside any kernel\n"
                     "  the launcher's own code (not a kernel) dereferenced a device pointer; on a GPU device memory is "
                     "not host memory (a segmentation fault there): do the work in a kernel, and copy results to the "
                     "host with cudaMemcpy only after the last kernel\n",
                     access, where, base_name(a->file), a->line);
            diag_buffer(access, a->name, idx);
            char src[2048];
            source_lines(pc, src, sizeof src, true);
            diag_verdict_raw("host-access-device-memory", msg + strlen("tilelab-emu: host-access-device-memory: "));
            put(msg);
            put(src);
            put("  the process stops here (exit code 1)\n");
            _exit(1);
        }
    }
    /* Several workers may fault at once (every block makes the same mistake): one report. A fault in
     * a kernel on a cudaMalloc buffer only stops the launch (fault_in_kernel does not return). */
    static volatile int reporting = 0;
    char ctx[700], msg[2048];
    describe_current_thread(ctx, sizeof ctx);
    size_t stack_kb;
    bool in_guard = in_stack_guard(addr, &stack_kb);
    if (in_guard || !tl_emu_cur_thread) {
        if (__atomic_exchange_n(&reporting, 1, __ATOMIC_SEQ_CST)) {
            for (;;) pause();                      /* the first one ends the process */
        }
    }
    if (in_guard) {
        snprintf(msg, sizeof msg,
                 "tilelab-emu: stack-overflow: a kernel thread overflowed its %zu KiB stack %s\n"
                 "  large local arrays or deep recursion in a kernel; raise TL_EMU_STACK_KB\n", stack_kb, ctx);
        char src[2048];
        source_lines(pc, src, sizeof src, true);
        diag_verdict_raw("stack-overflow", msg + strlen("tilelab-emu: stack-overflow: "));
        put(msg);
        put(src);
        _exit(1);
    }
    for (int i = 0; i < MAX_ALLOCS; i++) {
        const Alloc *a = &g_allocs[i];
        if (a->state == A_EMPTY || addr < a->map || addr >= a->map + a->maplen) continue;
        size_t es = a->elem ? a->elem : 1;
        const char *unit = a->elem ? "element" : "byte";
        char size_txt[200];
        if (a->elem) snprintf(size_txt, sizeof size_txt, "%zu elements of %zu bytes (%zu bytes)", a->size / es, es, a->size);
        else snprintf(size_txt, sizeof size_txt, "%zu bytes", a->size);
        if (a->state == A_FREED) {
            snprintf(msg, sizeof msg,
                     "tilelab-emu: global-out-of-bounds: %s of '%s' after cudaFree (a use after free) %s\n"
                     "  buffer '%s': %s, from cudaMalloc at %s:%d, already freed\n",
                     access, a->name, ctx, a->name, size_txt, base_name(a->file), a->line);
        } else if (addr >= a->ptr + a->size) {
            size_t off = (size_t)(addr - a->ptr), idx = off / es, nel = a->size / es;
            snprintf(msg, sizeof msg,
                     "tilelab-emu: global-out-of-bounds: %s of '%s'[%zu], %zu %s%s past its end %s\n"
                     "  buffer '%s': %s (valid indices 0..%zu), from cudaMalloc at %s:%d\n",
                     access, a->name, idx, idx - nel + 1, unit, idx - nel + 1 == 1 ? "" : "s", ctx, a->name,
                     size_txt, nel ? nel - 1 : 0, base_name(a->file), a->line);
        } else {
            size_t before = (size_t)(a->ptr - addr), nb = (before + es - 1) / es;
            snprintf(msg, sizeof msg,
                     "tilelab-emu: global-out-of-bounds: %s of '%s'[-%zu], %zu %s%s before its start %s\n"
                     "  buffer '%s': %s, from cudaMalloc at %s:%d\n",
                     access, a->name, nb, nb, unit, nb == 1 ? "" : "s", ctx, a->name, size_txt, base_name(a->file), a->line);
        }
        diag_buffer(access, a->name, a->state == A_FREED ? -1 : addr >= a->ptr ? (long long)((size_t)(addr - a->ptr) / es)
                                                                        : -(long long)(((size_t)(a->ptr - addr) + es - 1) / es));
        if (tl_emu_cur_thread) fault_in_kernel(msg, pc);   /* does not return */
        char src[2048];
        source_lines(pc, src, sizeof src, true);
        diag_verdict_raw("global-out-of-bounds", msg + strlen("tilelab-emu: global-out-of-bounds: "));
        put(msg);
        put(src);
        put("  the process stops here (exit code 1); on a GPU this is cudaErrorIllegalAddress or silently wrong data\n");
        _exit(1);
    }
    if (tl_emu_cur_thread) {
        if (__atomic_exchange_n(&reporting, 1, __ATOMIC_SEQ_CST)) {
            for (;;) pause();
        }
        int misaligned = sig == SIGSEGV && si->si_code == SI_KERNEL && addr == nullptr;
        if (misaligned)
            /* x86 reports an aligned vector load or store (movaps: the emulator's float4, float2, int4)
             * at an address that is not a multiple of its size as a general protection fault: no
             * address, SI_KERNEL. A GPU reports the same access as cudaErrorMisalignedAddress. */
            snprintf(msg, sizeof msg,
                     "tilelab-emu: misaligned-address: a vector access (float2, float4, int4: 8 or 16 bytes at once) "
                     "at an address that is not a multiple of its size %s\n"
                     "  on a GPU this is cudaErrorMisalignedAddress; a float4 at row r of a matrix whose row length is "
                     "not a multiple of 4 starts misaligned: test the alignment and load those rows one float at a time\n",
                     ctx);
        else
            snprintf(msg, sizeof msg,
                     "tilelab-emu: segmentation fault at address %p %s\n"
                     "  the address is in no cudaMalloc buffer (a host pointer passed to the kernel, or far out of bounds)\n",
                     (const void *)addr, ctx);
        char src[2048];
        source_lines(pc, src, sizeof src, true);
        if (misaligned)
            diag_verdict_raw("misaligned-address", msg + strlen("tilelab-emu: misaligned-address: "));
        else
            diag_verdict_raw("segmentation-fault", msg + strlen("tilelab-emu: "));
        put(msg);
        put(src);
        _exit(1);
    }
    /* Not ours: let the default action happen (a core dump, as without the emulator). */
    signal(sig, SIG_DFL);
    reporting = 0;
}

void ensure_altstack(void) {
    static __thread bool done;
    if (done) return;
    stack_t ss;
    ss.ss_size = 256 * 1024;
    ss.ss_sp = mmap(nullptr, ss.ss_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ss.ss_flags = 0;
    if (ss.ss_sp != MAP_FAILED) sigaltstack(&ss, nullptr);
    done = true;
}

void install_segv_handler(void) {
    ensure_altstack();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = segv_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
}

} /* namespace tl_emu */

using namespace tl_emu;

static cudaError_t malloc_impl(void **devPtr, size_t size, size_t elem_size, const char *name, const char *file,
                               int line, bool managed) {
    init();
    if (sticky_error()) return set_error(sticky_error());
    if (!devPtr) return set_error(cudaErrorInvalidValue);
    *devPtr = nullptr;
    if (size == 0) return cudaSuccess;
    const Model &m = model();
    if (size > m.global_bytes || allocated_bytes() + size > m.global_bytes) return set_error(cudaErrorMemoryAllocation);
    size_t pg = page_size();
    size_t data = (size + pg - 1) / pg * pg;
    size_t maplen = GUARD_BEFORE + data + GUARD_AFTER;
    char *map = (char *)mmap(nullptr, maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) return set_error(cudaErrorMemoryAllocation);
    if (mprotect(map + GUARD_BEFORE, data, PROT_READ | PROT_WRITE) != 0) {
        munmap(map, maplen);
        return set_error(cudaErrorMemoryAllocation);
    }
    size_t align = size & (~size + 1);
    if (align > 256) align = 256;
    char *end = map + GUARD_BEFORE + data;
    char *ptr = (char *)((uintptr_t)(end - size) & ~(uintptr_t)(align - 1));
    std::lock_guard<std::mutex> lk(g_amu);
    Alloc *a = take_entry();
    if (!a) { munmap(map, maplen); return set_error(cudaErrorMemoryAllocation); }
    a->map = map; a->maplen = maplen; a->ptr = ptr; a->size = size; a->elem = elem_size;
    clean_name(a->name, sizeof a->name, name ? name : "");
    a->file = file ? file : "?"; a->line = line;
    a->serial = ++g_serial;
    a->managed = managed;
    a->state = A_LIVE;
    g_live_bytes += size;
    if (g_closed.load()) mprotect(map + GUARD_BEFORE, data, PROT_NONE);   /* guarded, as its peers */
    dev_range_add(ptr, size);      /* count.cpp: accesses here are global loads and stores */
    *devPtr = ptr;
    return cudaSuccess;
}

extern "C" cudaError_t tl_emu_malloc(void **devPtr, size_t size, size_t elem_size, const char *name, const char *file,
                                     int line) {
    return malloc_impl(devPtr, size, elem_size, name, file, line, false);
}

extern "C" int tl_emu_guard_device(int on) {
    init();
    int was = g_guard.load();
    if (on && was) return was;       /* already on: the flow seen so far stands */
    if (on) {
        g_d2h.store(0);
        g_kernel_ran.store(0);
        g_guard.store(1);
        guard_close();
    } else {
        g_guard.store(0);
        guard_open();
        g_d2h.store(0);
        g_kernel_ran.store(0);
    }
    return was;
}

/* The symbol copies (tl_emu.h): __device__ and __constant__ variables are host globals here; the
 * other side may be a cudaMalloc buffer (a device-to-device copy), opened for the copy. */
extern "C" void tl_emu_symbol_copy(void *dst, const void *src, size_t count, int to_device, int device_to_device) {
    if (!device_to_device) {
        if (to_device) guard_device_write();
        else guard_d2h();
    }
    bool closed = g_closed.load();
    if (closed) guard_open();
    memcpy(dst, src, count);
    if (closed) guard_close();
}

extern "C" cudaError_t (cudaMalloc)(void **devPtr, size_t size) {   /* parentheses: not the macro */
    return tl_emu_malloc(devPtr, size, 0, "(unnamed)", "?", 0);
}

extern "C" cudaError_t cudaFree(void *p) {
    init();
    if (!p) return cudaSuccess;
    std::lock_guard<std::mutex> lk(g_amu);
    Alloc *a = find_live(p);
    if (!a || a->ptr != (char *)p) {
        diag_now("invalid-free", "cudaFree(%p): not the start of a live cudaMalloc buffer (freed twice?)", p);
        return set_error(cudaErrorInvalidValue);
    }
    size_t pg = page_size(), data = (a->size + pg - 1) / pg * pg;
    mprotect(a->map + GUARD_BEFORE, data, PROT_NONE);
    madvise(a->map + GUARD_BEFORE, data, MADV_DONTNEED);
    a->state = A_FREED;
    a->serial = ++g_serial;
    g_live_bytes -= a->size;
    dev_range_del(a->ptr);
    release_oldest_freed_if_many();
    return cudaSuccess;
}

/* A device-side range of a copy or memset must lie in one live buffer. */
static cudaError_t check_range(const char *call, const char *role, const void *p, size_t count) {
    std::lock_guard<std::mutex> lk(g_amu);
    Alloc *a = find_live(p);
    if (!a) {
        diag_now("invalid-pointer", "%s: the %s pointer %p is not in any cudaMalloc buffer (host pointer, or freed?)",
                 call, role, p);
        return cudaErrorInvalidValue;
    }
    size_t off = (size_t)((const char *)p - a->ptr);
    if (count > a->size - off) {
        diag_now("global-out-of-bounds",
                 "%s of %zu bytes at offset %zu of '%s' runs %zu bytes past its end\n"
                 "  buffer '%s': %zu bytes, from cudaMalloc at %s:%d; the call did nothing and returns cudaErrorInvalidValue",
                 call, count, off, a->name, count - (a->size - off), a->name, a->size, base_name(a->file), a->line);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

static bool is_device(const void *p) { std::lock_guard<std::mutex> lk(g_amu); return find_live(p) != nullptr; }

extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    init();
    if (sticky_error()) return set_error(sticky_error());
    if (count == 0) return cudaSuccess;
    if (!dst || !src) return set_error(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDefault) {
        bool dd = is_device(dst), sd = is_device(src);
        kind = dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                  : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    }
    cudaError_t e = cudaSuccess;
    switch (kind) {
    case cudaMemcpyHostToHost: break;
    case cudaMemcpyHostToDevice: e = check_range("cudaMemcpy(HostToDevice)", "destination", dst, count); break;
    case cudaMemcpyDeviceToHost: e = check_range("cudaMemcpy(DeviceToHost)", "source", src, count); break;
    case cudaMemcpyDeviceToDevice:
        e = check_range("cudaMemcpy(DeviceToDevice)", "destination", dst, count);
        if (!e) e = check_range("cudaMemcpy(DeviceToDevice)", "source", src, count);
        break;
    default: return set_error(cudaErrorInvalidMemcpyDirection);
    }
    if (e) return set_error(e);
    if (kind == cudaMemcpyDeviceToHost) guard_d2h();
    else if (kind == cudaMemcpyHostToDevice) guard_device_write();
    bool closed = g_closed.load();
    if (closed && kind != cudaMemcpyHostToHost) guard_open();   /* the runtime's own copy */
    memmove(dst, src, count);
    if (closed) guard_close();
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemset(void *p, int value, size_t count) {
    init();
    if (sticky_error()) return set_error(sticky_error());
    if (count == 0) return cudaSuccess;
    cudaError_t e = check_range("cudaMemset", "destination", p, count);
    if (e) return set_error(e);
    guard_device_write();
    bool closed = g_closed.load();
    if (closed) guard_open();
    memset(p, value, count);
    if (closed) guard_close();
    return cudaSuccess;
}

extern "C" cudaError_t cudaMallocHost(void **p, size_t size) {
    if (!p) return set_error(cudaErrorInvalidValue);
    *p = size ? malloc(size) : nullptr;
    return size && !*p ? set_error(cudaErrorMemoryAllocation) : cudaSuccess;
}
extern "C" cudaError_t cudaFreeHost(void *p) { free(p); return cudaSuccess; }

extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t) {
    return cudaMemcpy(dst, src, count, kind);
}
extern "C" cudaError_t cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t) { return cudaMemset(p, value, count); }
extern "C" cudaError_t tl_emu_malloc_managed(void **p, size_t size, size_t elem, const char *name, const char *file, int line) {
    return malloc_impl(p, size, elem, name, file, line, true);
}
