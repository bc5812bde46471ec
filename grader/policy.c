/* policy.c: what a lab file may not do (see policy.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "tl-lex.h"

#include <seccomp.h>
#include <sys/socket.h>

/* Names a lab file never needs to call, and why. Matched as whole identifiers followed by '('
 * (a call, or a function-like macro), not after '.', '->' or '::' (a member). */
static const struct { const char *name, *what; } banned_calls[] = {
    {"socket", "network"}, {"socketpair", "network"}, {"connect", "network"}, {"bind", "network"},
    {"listen", "network"}, {"accept", "network"}, {"accept4", "network"}, {"getaddrinfo", "network"},
    {"gethostbyname", "network"}, {"sendto", "network"}, {"recvfrom", "network"},
    {"fork", "processes"}, {"vfork", "processes"}, {"clone", "processes"}, {"clone3", "processes"},
    {"system", "processes"}, {"popen", "processes"}, {"execl", "processes"}, {"execlp", "processes"},
    {"execle", "processes"}, {"execv", "processes"}, {"execvp", "processes"}, {"execvpe", "processes"},
    {"execve", "processes"}, {"execveat", "processes"}, {"fexecve", "processes"},
    {"posix_spawn", "processes"}, {"posix_spawnp", "processes"}, {"kill", "processes"},
    {"ptrace", "processes"},
    {"fopen", "files"}, {"fopen64", "files"}, {"freopen", "files"}, {"open", "files"},
    {"open64", "files"}, {"openat", "files"}, {"creat", "files"}, {"unlink", "files"},
    {"unlinkat", "files"}, {"remove", "files"}, {"rename", "files"}, {"renameat", "files"},
    {"opendir", "files"}, {"mkdir", "files"}, {"rmdir", "files"}, {"symlink", "files"},
    {"link", "files"}, {"chmod", "files"}, {"truncate", "files"},
    {"syscall", "raw system calls"}, {"dlopen", "loading code"}, {"dlsym", "loading code"},
    {"getenv", "the environment"}, {"secure_getenv", "the environment"},
};

/* Headers of the network API: including one is reason enough. */
static const char *const banned_headers[] = {"sys/socket.h", "netinet/", "arpa/inet.h", "netdb.h",
                                              "sys/un.h", "linux/net", "sys/ptrace.h", "dlfcn.h",
                                              "spawn.h", NULL};

static int is_id(int c)
{
    return isalnum(c) || c == '_';
}

/* Blanks the gap text[a, b) between two tokens (blanks, comments) in s: newlines kept (lines still
 * count) and the backslash of a continuation (a directive's logical line still ends where it did). */
static void blank_gap(char *s, const char *text, size_t a, size_t b)
{
    for (size_t i = a; i < b; ++i)
        if (text[i] != '\n' && !(text[i] == '\\' && tl_lex_splice(text, b, i) != i))
            s[i] = ' ';
}

/* Copies the tokens of lx into s (which holds the text already): literals blanked (newlines kept), a
 * name split by continuations joined (then its newlines), a directive's inside read the same way. */
static void blank_tokens(char *s, tl_lexer *lx)
{
    const char *text = lx->text;
    size_t at = lx->p;
    tl_lex_tok t;
    while (tl_lex_next(lx, &t) != TL_LEX_END) {
        blank_gap(s, text, at, t.s);
        at = t.e;
        if (t.kind == TL_LEX_STR || t.kind == TL_LEX_CHR) {
            for (size_t i = t.s; i < t.e; ++i)
                if (text[i] != '\n')
                    s[i] = ' ';
        } else if (t.kind == TL_LEX_ID && memchr(text + t.s, '\\', t.e - t.s)) {
            /* sys\<newline>tem is the name system: written whole, then blanks, then its newlines */
            size_t k = t.s, nl = 0;
            for (size_t i = t.s; i < t.e;) {
                size_t q = tl_lex_splice(text, t.e, i);
                if (q != i) {
                    nl += 1;
                    i = q;
                    continue;
                }
                s[k++] = text[i++];
            }
            while (k < t.e - nl)
                s[k++] = ' ';
            while (k < t.e)
                s[k++] = '\n';
        } else if (t.kind == TL_LEX_DIRECTIVE) {
            tl_lexer in = {.text = text, .n = t.e, .p = t.s + 1, .line = t.line, .bol = 0};
            blank_tokens(s, &in);
        }
    }
    blank_gap(s, text, at, lx->n);
}

/* A copy of text (NUL-terminated, NULs made blanks) with comments and string and character literals
 * blanked, newlines kept so that lines still count, read by the kit's one lexer (common/emu/tl-lex.h:
 * raw strings, digit separators, continuations, a byte-order mark). NULL when out of memory. */
static char *lexed_copy(const char *text, size_t len)
{
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    memcpy(s, text, len);
    s[len] = '\0';
    tl_lexer lx;
    tl_lex_init(&lx, text, len);
    blank_gap(s, text, 0, lx.p);              /* the byte-order mark */
    blank_tokens(s, &lx);
    for (size_t i = 0; i < len; ++i)          /* NULs would end the scans early */
        if (!s[i])
            s[i] = ' ';
    return s;
}

int tg_policy_scan(const char *file, const char *text, size_t len, tg_buf *findings)
{
    int found = 0;
    /* #include lines first (the header name may be in quotes, which lexed_copy blanks). */
    tl_lexer lx;
    tl_lex_init(&lx, text, len);
    for (tl_lex_tok d; tl_lex_next(&lx, &d) != TL_LEX_END;) {
        if (d.kind != TL_LEX_DIRECTIVE)
            continue;
        char dir[1024];              /* continuations removed; a longer directive is cut (no header is) */
        size_t l = tl_lex_copy(text, d.s, d.e, dir, sizeof dir);
        for (size_t i = 0; i < l; ++i)
            if (!dir[i])
                dir[i] = ' ';
        const char *q = dir + 1;
        while (*q == ' ' || *q == '\t')
            ++q;
        if (strncmp(q, "include", 7) == 0) {
            l -= (size_t)(q - dir);
            for (int h = 0; banned_headers[h]; ++h)
                if (memmem(q, l, banned_headers[h], strlen(banned_headers[h]))) {
                    tg_buf_printf(findings, "%s:%d: includes <%s...> (network, processes or loading code: "
                                  "a lab file never needs it)\n", file, d.line, banned_headers[h]);
                    ++found;
                    break;
                }
        }
    }
    char *s = lexed_copy(text, len);
    if (!s)
        return 0;
    int line = 1;
    for (size_t i = 0; i < len; ++i) {
        if (s[i] == '\n') {
            ++line;
            continue;
        }
        if (!is_id((unsigned char)s[i]) || (i > 0 && is_id((unsigned char)s[i - 1])))
            continue;
        size_t j = i;
        while (j < len && is_id((unsigned char)s[j]))
            ++j;
        size_t l = j - i;
        const char *w = s + i;
        /* inline assembly: judged by tg_policy_host_asm below (device PTX is allowed) */
        if (!isdigit((unsigned char)w[0])) {
            size_t k = j;
            while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r'))
                ++k;
            size_t b = i;                  /* what precedes: a member access is not a call of ours */
            while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
                --b;
            int member = b > 0 && (s[b - 1] == '.' || (b > 1 && s[b - 1] == '>' && s[b - 2] == '-') ||
                                   (b > 1 && s[b - 1] == ':' && s[b - 2] == ':'));
            if (k < len && s[k] == '(' && !member)
                for (size_t c = 0; c < sizeof banned_calls / sizeof banned_calls[0]; ++c)
                    if (strlen(banned_calls[c].name) == l && memcmp(banned_calls[c].name, w, l) == 0) {
                        tg_buf_printf(findings, "%s:%d: calls %s() (%s: a lab file never needs it)\n", file, line,
                                      banned_calls[c].name, banned_calls[c].what);
                        ++found;
                        break;
                    }
        }
        i = j - 1;
    }
    free(s);
    return found + tg_policy_host_asm(file, text, len, findings);
}

/* ------------------------------------------------------------------ host inline assembly */

static int is_asm_word(const char *w, size_t l)
{
    return (l == 3 && memcmp(w, "asm", 3) == 0) || (l == 5 && memcmp(w, "__asm", 5) == 0) ||
           (l == 7 && memcmp(w, "__asm__", 7) == 0);
}

static int has_word(const char *s, size_t n, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = s; (p = memmem(p, n - (size_t)(p - s), word, wl)) != NULL; p += wl)
        if ((p == s || !is_id((unsigned char)p[-1])) && (p + wl == s + n || !is_id((unsigned char)p[wl])))
            return 1;
    return 0;
}

/* The file's macros (s: its lexed copy) whose body holds a word BAD(word, length, ctx) accepts, or
 * another such macro (to a fixed point, five levels): their names into out (at most max), how many.
 * The host-asm rule and the build-split rule judge a use of one like the word itself. */
typedef int (*word_test)(const char *w, size_t l, const void *ctx);
static int tainted_macros(char *s, word_test bad, const void *ctx, char (*out)[64], int max)
{
    int n = 0;
    for (int round = 0; round < 5; ++round) {
        int before = n;
        for (char *p = s; *p;) {
            char *e = p;               /* the logical line: backslash-newlines joined */
            while (*e && !(*e == '\n' && (e == p || e[-1] != '\\')))
                ++e;
            char *q = p;
            while (*q == ' ' || *q == '\t')
                ++q;
            if (*q == '#') {
                ++q;
                while (*q == ' ' || *q == '\t')
                    ++q;
                if (strncmp(q, "define", 6) == 0 && (q[6] == ' ' || q[6] == '\t')) {
                    q += 6;
                    while (*q == ' ' || *q == '\t')
                        ++q;
                    char *ne = q;
                    while (ne < e && is_id((unsigned char)*ne))
                        ++ne;
                    size_t nl = (size_t)(ne - q);
                    int hit = 0, known = 0;
                    for (char *w = ne; w < e && !hit;) {
                        if (!is_id((unsigned char)*w) || (w > ne && is_id((unsigned char)w[-1]))) {
                            ++w;
                            continue;
                        }
                        char *we = w;
                        while (we < e && is_id((unsigned char)*we))
                            ++we;
                        size_t wl = (size_t)(we - w);
                        hit = bad(w, wl, ctx);
                        for (int m = 0; !hit && m < n; ++m)
                            hit = strlen(out[m]) == wl && memcmp(out[m], w, wl) == 0;
                        w = we;
                    }
                    for (int m = 0; m < n; ++m)
                        known |= strlen(out[m]) == nl && memcmp(out[m], q, nl) == 0;
                    if (hit && !known && nl > 0 && nl < sizeof out[0] && n < max)
                        snprintf(out[n++], sizeof out[0], "%.*s", (int)nl, q);
                }
            }
            p = *e ? e + 1 : e;
        }
        if (n == before)
            break;
    }
    return n;
}

static int asm_word(const char *w, size_t l, const void *ctx)
{
    (void)ctx;
    return is_asm_word(w, l);
}

int tg_policy_host_asm(const char *file, const char *text, size_t len, tg_buf *findings)
{
    char *s = lexed_copy(text, len);
    if (!s)
        return 0;
    /* Pass 1: macros whose body holds asm (also through another such macro, a few levels); a use
     * of one is judged like asm itself, where it stands. */
    enum { MAXM = 64 };
    char macros[MAXM][64];
    int nm = tainted_macros(s, asm_word, NULL, macros, MAXM);
    /* Pass 2: braces and the declaration that opens each top-level block. Preprocessor lines are
     * skipped (a macro's body is judged where it is used). */
    int found = 0, depth = 0, line = 1, device_only = 0;
    size_t decl = 0;                 /* where the current top-level declaration starts */
    for (size_t i = 0; i < len; ++i) {
        char c = s[i];
        if (c == '\n') {
            ++line;
            continue;
        }
        if (c == '#' ) {             /* a directive (at a line's start): skip it with its continuations */
            size_t b = i;
            while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
                --b;
            if (b == 0 || s[b - 1] == '\n') {
                while (i < len && !(s[i] == '\n' && s[i - 1] != '\\')) {
                    if (s[i] == '\n')
                        ++line;
                    ++i;
                }
                if (i < len)
                    ++line;
                if (depth == 0)
                    decl = i + 1;
                continue;
            }
        }
        if (c == '{') {
            if (depth == 0) {        /* the header of this block: __global__, or __device__ without __host__ */
                size_t hl = i - decl;
                device_only = has_word(s + decl, hl, "__global__") ||
                              (has_word(s + decl, hl, "__device__") && !has_word(s + decl, hl, "__host__"));
            }
            ++depth;
            continue;
        }
        if (c == '}') {
            if (depth > 0 && --depth == 0)
                decl = i + 1;
            continue;
        }
        if (c == ';' && depth == 0) {
            decl = i + 1;
            continue;
        }
        if (!is_id((unsigned char)c) || (i > 0 && is_id((unsigned char)s[i - 1])))
            continue;
        size_t j = i;
        while (j < len && is_id((unsigned char)s[j]))
            ++j;
        size_t l = j - i;
        int hit = is_asm_word(s + i, l);
        const char *via = NULL;
        for (int m = 0; !hit && m < nm; ++m)
            if (strlen(macros[m]) == l && memcmp(macros[m], s + i, l) == 0) {
                hit = 1;
                via = macros[m];
            }
        if (hit && !(depth > 0 && device_only)) {
            tg_buf_printf(findings, "%s:%d: host inline assembly ('%.*s'%s%s%s): a lab file's host code holds none "
                          "(PTX inside a __global__ or __device__ function is allowed)\n", file, line, (int)l, s + i,
                          via ? ", a macro holding asm" : "", "", "");
            ++found;
        }
        i = j - 1;
    }
    free(s);
    return found;
}

/* ------------------------------------------------------------------ seccomp */

int tg_seccomp_net_install(void)
{
    /* libseccomp (Debian's libseccomp2) writes the BPF program: the architecture check (another
     * ABI, such as i386 through int 0x80 and its socketcall, or x32, is killed outright: CUDA
     * never uses one), the system call numbers of this architecture, the argument compare.
     * socket(domain, ...) and socketpair(domain, ...) with domain AF_INET, AF_INET6 or AF_PACKET
     * kill the whole process (SIGSYS). AF_UNIX and AF_NETLINK stay allowed (the CUDA driver uses
     * them). connect/sendto to an inet address need an inet socket first, which cannot be had.
     * seccomp_load sets PR_SET_NO_NEW_PRIVS first (its default). */
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        errno = ENOMEM;
        return -1;
    }
    static const int domains[] = {AF_INET, AF_INET6, AF_PACKET};
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    for (size_t i = 0; rc == 0 && i < sizeof domains / sizeof domains[0]; ++i) {
        rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(socket), 1,
                              SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)domains[i]));
        if (rc == 0)
            rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(socketpair), 1,
                                  SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)domains[i]));
    }
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ linked symbols */

/* What a lab file may link, whatever its source looks like (macros, aliases, pointers,
 * #pragma redefine_extname all end in the object's symbol table): math, memory and string
 * helpers, printing, allocation, the CUDA runtime calls the labs use and
 * what nvcc's and g++'s generated code needs. */
static const char *const allowed_exact[] = {
    /* math (double, float) */
    "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "cosh", "sinh", "tanh", "exp", "exp2", "expm1",
    "log", "log2", "log10", "log1p", "pow", "sqrt", "cbrt", "hypot", "fabs", "floor", "ceil", "round",
    "trunc", "fmod", "fmin", "fmax", "fma", "lround", "lrint", "llround", "rint", "nearbyint", "copysign",
    "ldexp", "frexp", "modf", "erf", "erfc", "acosf", "asinf", "atanf", "atan2f", "cosf", "sinf", "tanf",
    "expf", "exp2f", "logf", "log2f", "log10f", "powf", "sqrtf", "cbrtf", "hypotf", "fabsf", "floorf",
    "ceilf", "roundf", "truncf", "fmodf", "fminf", "fmaxf", "fmaf", "lroundf", "lrintf", "rintf",
    "copysignf", "ldexpf", "abs", "labs", "llabs", "div", "ldiv",
    /* memory and strings */
    "memset", "memcpy", "memmove", "memcmp", "strlen", "strcmp", "strncmp", "strcpy", "strncpy", "strchr",
    "strrchr", "strstr", "__memcpy_chk", "__memset_chk", "__memmove_chk", "__strcpy_chk", "__strncpy_chk",
    /* printing (evidence only) */
    "printf", "fprintf", "puts", "putchar", "fputs", "fputc", "putc", "fflush", "snprintf", "sprintf",
    "vsnprintf", "vfprintf", "vprintf", "perror", "fwrite", "__printf_chk", "__fprintf_chk", "__sprintf_chk",
    "__snprintf_chk", "__vfprintf_chk", "__vsnprintf_chk", "__vprintf_chk", "stdout", "stderr",
    /* allocation, numbers, ending */
    "malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", "qsort", "bsearch", "atoi",
    "atol", "strtol", "strtoul", "strtod", "strtof", "rand", "srand", "abort", "exit", "__assert_fail",
    "__stack_chk_fail", "clock", "clock_gettime",
    /* what compilers generate */
    "_GLOBAL_OFFSET_TABLE_", "__dso_handle", "atexit", "__cxa_atexit", "__cxa_finalize", "__gxx_personality_v0",
    "_Unwind_Resume", "__cxa_begin_catch", "__cxa_end_catch", "__cxa_rethrow", "__cxa_guard_acquire",
    "__cxa_guard_release", "__cxa_guard_abort", "__cxa_allocate_exception", "__cxa_throw",
    "__cxa_free_exception", "__cxa_pure_virtual", "_Znwm", "_Znam", "_ZdlPv", "_ZdlPvm", "_ZdaPv",
    "_ZdaPvm", "_ZSt9terminatev", "__popcountdi2", "__fentry__", NULL};

/* The CUDA runtime: every cuda* call except these (a lab never needs them; some would break
 * the grader's view of the device). */
static const char *const cuda_denied[] = {"cudaDeviceReset", "cudaSetDevice", "cudaSetDeviceFlags",
    "cudaDeviceSetLimit", "cudaIpc", "cudaHostRegister", "cudaProfiler", "cudaGraph", "cudaLaunchHostFunc",
    "cudaStreamAddCallback", "cudaDeviceSetCacheConfig", "cudaDeviceSetSharedMemConfig", "cudaThreadExit", NULL};

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* NULL when sym may be linked from a student file; else why not. emu: the emulator's rewritten
 * C++ of the student's kernel (its runtime and the C++ library are the tool's, not the student's).
 * kit_calls: the lab's kit functions (space-separated), the only kit names it may reference. */
static const char *symbol_verdict(const char *sym, int emu, const char *kit_calls)
{
    if (kit_calls) {                                   /* the lab's own list of kit functions */
        size_t l = strlen(sym);
        for (const char *k = kit_calls; (k = strstr(k, sym)) != NULL; k += l)
            if ((k == kit_calls || k[-1] == ' ') && (k[l] == ' ' || k[l] == '\0'))
                return NULL;
    }
    for (int i = 0; allowed_exact[i]; ++i)
        if (strcmp(sym, allowed_exact[i]) == 0)
            return NULL;
    /* The emulator's controls: poisoned in student code, and refused however they are spelt (an
     * asm label), also in the emulated object, whose other tl_emu symbols the rewrite generates. */
    static const char *const emu_controls[] = {"tl_emu_set_race_check", "tl_emu_set_order", "tl_emu_set_threads",
                                               "tl_emu_recover", "tl_emu_mute_kernel_output",
                                               "tl_emu_counters_reset", "tl_emu_guard_device",
                                               /* the shared arena the counting hooks count in (count.cpp):
                                                * only the runtime names it, never a rewritten file */
                                               "tl_emu_sarena", NULL};
    for (int i = 0; emu_controls[i]; ++i)
        if (strcmp(sym, emu_controls[i]) == 0)
            return "the emulator's own controls: out of a lab file's reach";
    if (starts(sym, "tl_emu") || strstr(sym, "tl_emu"))
        return emu ? NULL : "the emulator's own controls: out of a lab file's reach";
    if (emu && strcmp(sym, "__tls_get_addr") == 0)
        return NULL;                                   /* the emulator's thread-local blockIdx, threadIdx */
    /* -fsanitize=bounds in the emulated build: an index outside an array calls the emulator's
     * handler (it reports array-out-of-bounds and ends the block; calling it directly only fails
     * the caller's own test) */
    if (emu && (strcmp(sym, "__ubsan_handle_out_of_bounds") == 0 || strcmp(sym, "__ubsan_handle_out_of_bounds_abort") == 0))
        return NULL;
    const tg_reserved_sym *r = tg_reserved_find(sym);
    if (r && r->emu && !r->kit && emu)
        return NULL;                                   /* the emulator's runtime, from the rewrite's code */
    if (r && r->kit)
        return "a kit function this lab does not list (the lab table's kit_calls): a lab file reaches "
               "only the kit functions its lab names";
    if (starts(sym, "tl_"))
        return "no kit function of that name is on this lab's list";
    if (starts(sym, "cuda") || starts(sym, "__cuda")) {
        for (int i = 0; cuda_denied[i]; ++i)
            if (starts(sym, cuda_denied[i]))
                return "a CUDA runtime call no lab needs (it changes the device for the grader)";
        return NULL;
    }
    if (starts(sym, "__nv") || starts(sym, "__fatbinwrap") || starts(sym, "__cudart"))
        return NULL;                                   /* nvcc's generated registration code */
    if (starts(sym, "_ZSt") && strstr(sym, "__throw_"))
        return NULL;                                   /* std::vector's and std::string's error paths */
    if (starts(sym, "_ZSt") || starts(sym, "_ZNSt") || starts(sym, "_ZNKSt") || starts(sym, "_ZTV") ||
        starts(sym, "_ZTI") || starts(sym, "_ZTS")) {
        if (strstr(sym, "fstream") || strstr(sym, "filebuf") || strstr(sym, "thread") || strstr(sym, "system"))
            return "C++ files, threads or processes: a lab file never needs them";
        return emu ? NULL : "the C++ library: not on the allow-list";
    }
    if (emu && (strstr(sym, "emu") || starts(sym, "_ZN")))
        return strstr(sym, "fopen") || strstr(sym, "system") ? "files or processes" : NULL;
    for (size_t c = 0; c < sizeof banned_calls / sizeof banned_calls[0]; ++c)
        if (strcmp(sym, banned_calls[c].name) == 0)
            return banned_calls[c].what;
    if (strstr(sym, "open") || strstr(sym, "IO_"))
        return "files";
    return "not on the allow-list";
}

/* "/kit/labs/01-cpu-baseline/gmm.c:42 (discriminator 1)" -> "gmm.c:42" */
static void short_loc(const char *loc, char *out, size_t len)
{
    if (!loc || !*loc) {
        snprintf(out, len, "?");
        return;
    }
    const char *b = strrchr(loc, '/');
    snprintf(out, len, "%s", b ? b + 1 : loc);
    char *sp = strchr(out, ' ');
    if (sp)
        *sp = '\0';
}

static int cmp_reserved(const void *a, const void *b)
{
    return strcmp((const char *)a, ((const tg_reserved_sym *)b)->name);
}

const tg_reserved_sym *tg_reserved_find(const char *name)
{
    return bsearch(name, tg_reserved_syms, (size_t)tg_nreserved_syms, sizeof tg_reserved_syms[0], cmp_reserved);
}

/* A symbol's name without its version: "memcpy@GLIBC_2.2.5" and "memcpy@@GLIBC_2.14" are memcpy (a
 * definition given a version through GCC's symver attribute or a .symver directive is still a
 * definition of the library's name). */
static const char *unversioned(const char *sym, char *buf, size_t len)
{
    const char *at = strchr(sym, '@');
    if (!at || at == sym)
        return sym;
    snprintf(buf, len, "%.*s", (int)(at - sym), sym);
    return buf;
}

/* Why a definition of sym (weak: the object's definition is weak) may not be in a student object;
 * NULL when it may. */
static const char *definition_verdict(const char *sym, int weak, int emu)
{
    char base[512];
    sym = unversioned(sym, base, sizeof base);
    const tg_reserved_sym *r = tg_reserved_find(sym);
    if (!r)
        return NULL;                   /* the student's own name (an interface function, a helper) */
    if (weak && r->weak && (starts(sym, "_Z") || starts(sym, "DW.ref.")))
        return NULL;                   /* a C++ inline function or template of a header both include
                                        * or the compiler's DW.ref. cells (C's weak names, such as the C library's write and puts
                                        * aliases, are no header's: refused) */
    if (emu && weak && strstr(sym, "tl_emu"))
        return NULL;                   /* the rewrite's own inline code in the emulated object */
    return r->kit ? "a name the kit defines: a definition in a lab file would run in place of the kit's "
                    "(interposition); rename yours (or make it static)"
                  : "a name the C or C++ runtime or the CUDA runtime defines: a definition in a lab file would "
                    "run in place of the library's for the whole program (interposition); rename yours (or "
                    "make it static)";
}

int tg_policy_objects(const char *file, const char *report, int emu, const char *kit_calls, tg_buf *findings)
{
    /* report: the sandboxed objdump's digest, one item a line:
     *   U SYMBOL            an undefined symbol
     *   D G|W SYMBOL        a global (G) or weak (W) symbol the object defines
     *   F SYMBOL LOC        the source location where function SYMBOL's code starts
     *   R LOC SYMBOL[+-off] a relocation in code at source location LOC
     *   S LOC               a system call instruction at LOC */
    /* The script ends with END only when objdump read the object: no digest, no verdict. */
    size_t rl = strlen(report);
    if (rl < 3 || !(strcmp(report + rl - 3, "END") == 0 || (rl >= 4 && strcmp(report + rl - 4, "END\n") == 0)))
        return -1;
    int found = 0;
    tg_buf seen = {0};
    tg_buf_add(&seen, "\n", 1);
    for (const char *p = report; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line - 1 ? l : sizeof line - 1), p);
        p = e ? e + 1 : NULL;
        if (line[0] == 'S' && line[1] == ' ') {
            char loc[300];
            short_loc(line + 2, loc, sizeof loc);
            tg_buf_printf(findings, "%s%s%s: a system call instruction (inline assembly): a lab file never "
                          "makes system calls itself\n", starts(loc, file) ? "" : file, starts(loc, file) ? "" : ": ", loc);
            ++found;
            continue;
        }
        if (line[0] == 'D' && line[1] == ' ' && (line[2] == 'G' || line[2] == 'W') && line[3] == ' ') {
            const char *sym = line + 4;
            const char *why = definition_verdict(sym, line[2] == 'W', emu);
            if (!why)
                continue;
            char where[300] = "";
            size_t sl = strlen(sym);
            for (const char *q = report; q && *q;) {   /* F SYMBOL LOC: where its code starts */
                const char *qe = strchr(q, '\n');
                if (q[0] == 'F' && q[1] == ' ' && strncmp(q + 2, sym, sl) == 0 && q[2 + sl] == ' ') {
                    char loc[600];
                    size_t ll = (size_t)((qe ? qe : q + strlen(q)) - (q + 3 + sl));
                    snprintf(loc, sizeof loc, "%.*s", (int)(ll < sizeof loc - 1 ? ll : sizeof loc - 1), q + 3 + sl);
                    short_loc(loc, where, sizeof where);
                    break;
                }
                q = qe ? qe + 1 : NULL;
            }
            if (!where[0] || strcmp(where, "?") == 0)
                snprintf(where, sizeof where, "%s", "(a variable, or code without a line)");
            tg_buf_printf(findings, "%s%s%s: defines %s%s (%s)\n", starts(where, file) ? "" : file,
                          starts(where, file) ? "" : ": ", where, line[2] == 'W' ? "weak " : "", sym, why);
            ++found;
            continue;
        }
        if (line[0] != 'U' || line[1] != ' ')
            continue;
        const char *sym = line + 2;
        const char *why = symbol_verdict(sym, emu, kit_calls);
        if (!why)
            continue;
        char key[300];
        snprintf(key, sizeof key, "\n%s\n", sym);
        if (strstr(seen.s, key))
            continue;
        tg_buf_printf(&seen, "%s\n", sym);
        /* Where the code refers to it: the first relocation against it, with its source line. */
        char where[300] = "";
        for (const char *q = report; q && *q;) {
            const char *qe = strchr(q, '\n');
            size_t ql = qe ? (size_t)(qe - q) : strlen(q);
            if (ql > 2 && q[0] == 'R' && q[1] == ' ') {
                char r[1024];
                snprintf(r, sizeof r, "%.*s", (int)(ql < sizeof r - 1 ? ql : sizeof r - 1), q + 2);
                char *sp = strrchr(r, ' ');
                if (sp) {
                    *sp = '\0';
                    char *target = sp + 1;
                    target[strcspn(target, "+-")] = '\0';
                    if (strcmp(target, sym) == 0) {
                        short_loc(r, where, sizeof where);
                        break;
                    }
                }
            }
            q = qe ? qe + 1 : NULL;
        }
        if (!where[0] || strcmp(where, "?") == 0)
            snprintf(where, sizeof where, "%s", "(from data: a pointer to it)");
        tg_buf_printf(findings, "%s%s%s: links %s (%s)\n", starts(where, file) ? "" : file,
                      starts(where, file) ? "" : ": ", where, sym, why);
        ++found;
    }
    tg_buf_free(&seen);
    return found;
}

/* ------------------------------------------------------------ what tells the builds apart */

/* Names only one build defines: a mention anywhere (outside comments and strings) is a finding. */
static const char *const split_strict[] = {"TL_EMU", "__SANITIZE_", "__CUDACC", "__NVCC", "__has_include", NULL};
/* ... and in a conditional, also these prefixes and names (the emulator's macros that CUDA's
 * headers make functions or give other values, CUDA's header guards, the kit's macros). */
static const char *const split_cond_prefix[] = {"__CUDA", "CUDART_", "CUDA_VERSION", "TL_", "__EDG", "__NVCOMPILER",
                                                "__DRIVER_TYPES", "__HOST_DEFINES", "__DEVICE_", "__SM_", NULL};
static const char *const split_cond_name[] = {"__syncthreads", "printf", "cudaMalloc", "cudaMallocManaged",
                                              "load_matrix_sync", "store_matrix_sync", "__CUDART_API_VERSION", NULL};

static int has_prefix(const char *id, size_t l, const char *pre)
{
    size_t pl = strlen(pre);
    return l >= pl && memcmp(id, pre, pl) == 0;
}

/* 2: a name only one build defines (anywhere); 1: one that tells them apart in a conditional; 0. */
static int split_name(const char *id, size_t l, int arch_ok)
{
    int arch = has_prefix(id, l, "__CUDA_ARCH");
    if (arch)
        return arch_ok ? 0 : 2;
    for (int i = 0; split_strict[i]; ++i)
        if (has_prefix(id, l, split_strict[i]))
            return 2;
    for (int i = 0; split_cond_prefix[i]; ++i)
        if (has_prefix(id, l, split_cond_prefix[i]))
            return 1;
    for (int i = 0; split_cond_name[i]; ++i)
        if (strlen(split_cond_name[i]) == l && memcmp(id, split_cond_name[i], l) == 0)
            return 1;
    return 0;
}

static int is_split_word(const char *w, size_t l, const void *ctx)
{
    return split_name(w, l, *(const int *)ctx) > 0;
}

int tg_policy_build_split(const char *file, const char *text, size_t len, int arch_ok, tg_buf *findings)
{
    char *s = lexed_copy(text, len);
    if (!s)
        return 0;
    enum { MAXM = 64 };
    char tainted[MAXM][64];            /* the file's macros whose body holds such a name */
    int nt = tainted_macros(s, is_split_word, &arch_ok, tainted, MAXM), found = 0;
    int line = 1;
    for (char *p = s; *p;) {
        char *e = p;
        int lines = 0;
        while (*e && !(*e == '\n' && (e == p || e[-1] != '\\'))) {
            lines += *e == '\n';
            ++e;
        }
        char *q = p;
        while (*q == ' ' || *q == '\t')
            ++q;
        int cond = 0, ifdef = 0;       /* a conditional; one that tests a name's definition alone */
        if (*q == '#') {
            char *d = q + 1;
            while (*d == ' ' || *d == '\t')
                ++d;
            size_t dl = 0;
            while (d + dl < e && is_id((unsigned char)d[dl]))
                ++dl;
            cond = (dl == 2 && memcmp(d, "if", 2) == 0) || (dl == 4 && memcmp(d, "elif", 4) == 0);
            ifdef = (dl == 5 && memcmp(d, "ifdef", 5) == 0) || (dl == 6 && memcmp(d, "ifndef", 6) == 0) ||
                    (dl == 7 && memcmp(d, "elifdef", 7) == 0) || (dl == 8 && memcmp(d, "elifndef", 8) == 0);
            if (cond || ifdef)
                q = d + dl;
        }
        int after_defined = 0;
        char shown[80] = "";
        for (char *w = q; w < e;) {
            if (!is_id((unsigned char)*w) || (w > p && is_id((unsigned char)w[-1]))) {
                if (*w != ' ' && *w != '\t' && *w != '(' && *w != '\\' && *w != '\n')
                    after_defined = 0;
                ++w;
                continue;
            }
            char *we = w;
            while (we < e && is_id((unsigned char)*we))
                ++we;
            size_t l = (size_t)(we - w);
            int kind = split_name(w, l, arch_ok), hit = kind == 2 || (kind == 1 && (cond || ifdef));
            for (int m = 0; !hit && cond && !after_defined && m < nt; ++m)
                hit = strlen(tainted[m]) == l && memcmp(tainted[m], w, l) == 0;
            if (hit && !shown[0])
                snprintf(shown, sizeof shown, "%.*s", (int)(l < 60 ? l : 60), w);
            after_defined = cond && l == 7 && memcmp(w, "defined", 7) == 0;
            w = we;
        }
        if (shown[0]) {
            tg_buf_printf(findings, "%s:%d: tests %s, which the GPU build and the emulated build that counts the work "
                          "(labNN-emu-count) define differently: the file would be another program where its work is "
                          "counted; a lab file is one program in every build: remove the test\n", file, line, shown);
            ++found;
        }
        line += lines + (*e == '\n');
        p = *e ? e + 1 : e;
    }
    free(s);
    return found;
}

const char *tg_policy_objdump_script(void)
{
    /* Run in the sandbox on the object ($1): objdump parses the student's compiler output there,
     * never as root outside. Locations are FILE:LINE without the folder; a relocation is printed for
     * the first reference to each symbol only (where a name is used is all the policy reports) and a
     * system call once per location: the digest must fit the 64 KiB kept of a sandboxed program's
     * output, or the object is not judged (judges.c then fails it closed). Lab 06's solution,
     * emulated, printed 733 relocations with full paths (77 KB): the gate failed it closed. */
    /* objdump -t: "VALUE FLAGS SECTION\tSIZE NAME", FLAGS seven characters from column 18: the
     * first g (global), u (unique global) or l; the second w for weak. */
    return "o=\"$1\"; t=${TMPDIR:-/tmp}/tl-policy.$$; "
           "objdump -t \"$o\" > \"$t.t\" && objdump -drlw \"$o\" > \"$t.d\" || exit 3; "
           "awk '/\\*UND\\*/ { print \"U \" $NF; next } "
           "/^[0-9a-f]+ / { f = substr($0, index($0, \" \") + 1, 7); "
           "if ((substr(f, 1, 1) == \"g\" || substr(f, 1, 1) == \"u\" || substr(f, 2, 1) == \"w\") && $NF != \"\") "
           "print \"D \" (substr(f, 2, 1) == \"w\" ? \"W\" : \"G\") \" \" $NF }' \"$t.t\"; "
           "awk '"
           "/^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); want = 1; next } "
           "/^[^ \\t<0-9].*:[0-9]+( |$)/ { loc = $1; sub(/.*\\//, \"\", loc); if (want) print \"F \" fn \" \" loc; "
           "want = 0; next } "
           "/R_(X86_64|AARCH64)_/ { t = $NF; sub(/[+-].*/, \"\", t); "
           "if (!rt[t]++) print \"R \" (loc == \"\" ? \"?\" : loc) \" \" $NF; next } "
           "/\\t(syscall|sysenter|svc)( |$)/ || /\\tint +\\$0x80/ { r = \"S \" (loc == \"\" ? \"?\" : loc); "
           "if (!seen[r]++) print r }' \"$t.d\"; "
           "rm -f \"$t.t\" \"$t.d\"; echo END";
}
