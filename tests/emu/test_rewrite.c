/* test_rewrite.c: tl-emu-rewrite keeps the student's line numbers (g++'s errors point at the .cu
 * line), rewrites what it must, and refuses what it cannot do with a compiler-style message.
 * Needs TL_EMU_REWRITE, TL_EMU_CXX, TL_EMU_INCLUDE and TL_EMU_FIXTURES (set by meson.build). */
#include "emu_test.h"

static const char *env(const char *name) {
    const char *v = getenv(name);
    cr_assert(v && *v, "%s is not set (run through meson test)", name);
    return v;
}

/* Runs a shell command, returns its exit status, output (stdout+stderr) in out. */
static int run(const char *cmd, char *out, size_t n) {
    char full[8192];
    snprintf(full, sizeof full, "{ LC_ALL=C; export LC_ALL; %s; } 2>&1", cmd);
    FILE *f = popen(full, "r");
    cr_assert(f != NULL, "popen failed: %s", cmd);
    size_t len = fread(out, 1, n - 1, f);
    out[len] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char tmpdir[256];
static void make_tmpdir(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/tl-emu-rewrite-test-XXXXXX");
    cr_assert(mkdtemp(tmpdir) != NULL);
}
static void remove_tmpdir(void) {
    char cmd[512], out[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    run(cmd, out, sizeof out);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static int count_lines_until(const char *path, const char *stop) {
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot read %s", path);
    char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (stop && strstr(line, stop)) break;
        n++;
    }
    fclose(f);
    return n;
}

Test(rewrite, a_compile_error_points_at_the_students_line, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 120) {
    char cmd[4096], out[65536];
    snprintf(cmd, sizeof cmd, "'%s' '%s/bad_compile.cu' '%s/bad.emu.cpp'", env("TL_EMU_REWRITE"), env("TL_EMU_FIXTURES"), tmpdir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "rewrite failed: %s", out);
    snprintf(cmd, sizeof cmd, "%s -std=c++17 -fsyntax-only -include '%s/tl_emu.h' -I'%s' '%s/bad.emu.cpp'", env("TL_EMU_CXX"),
             env("TL_EMU_INCLUDE"), env("TL_EMU_INCLUDE"), tmpdir);
    cr_assert_neq(run(cmd, out, sizeof out), 0, "bad_compile.cu compiled:\n%s", out);
    assert_has(out, "bad_compile.cu:21:13: error: 'this_name_is_not_declared' was not declared in this scope");
}

enum { MAX_SRC_LINES = 400 };
static int read_lines(const char *path, char lines[][256], int max) {
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot read %s", path);
    char line[8192];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        snprintf(lines[n++], 256, "%.255s", line);
    }
    fclose(f);
    return n;
}

/* Region form writes each region three times (tl-emu-region.c); the copies it adds sit between #line
 * directives. Following those directives as the compiler does, every line the rewrite left as it was must
 * keep its number, and the last line before the registry must be the source's last. */
static void assert_lines_map_back(const char *name, const char *in, const char *outp) {
    static char src[MAX_SRC_LINES][256];
    int a = read_lines(in, src, MAX_SRC_LINES);
    FILE *f = fopen(outp, "r");
    cr_assert(f != NULL, "cannot read %s", outp);
    char line[16384];
    int cur = 0, first = 1, checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "<tl-emu-rewrite: kernel registry>")) break;
        line[strcspn(line, "\n")] = 0;
        int n;
        if (sscanf(line, "#line %d", &n) == 1) { cur = n; first = 0; continue; }
        cr_assert(!first, "%s: the output does not start with #line", name);
        if (cur >= 1 && cur <= a && line[0] && strlen(line) > 3) {
            int same = 0;
            for (int j = 0; j < a; j++) same += !strcmp(src[j], line);
            if (same == 1 && !strcmp(src[cur - 1], line)) checked++;
            else if (same == 1)
                for (int j = 0; j < a; j++)
                    cr_assert(strcmp(src[j], line), "%s: source line %d (\"%s\") comes out as line %d", name, j + 1, line, cur);
        }
        cur++;
    }
    fclose(f);
    cr_assert_eq(cur - 1, a, "%s: %d lines in, the output ends at line %d before the registry", name, a, cur - 1);
    cr_assert_gt(checked, 0, "%s: no line of the source found unchanged in the output", name);
}

Test(rewrite, every_fixture_keeps_its_line_numbers, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 60) {
    const char *names[] = {"naive", "tiled", "boundary", "tiled_nosync1", "tiled_nosync2", "boundary_sync_in_if",
                           "boundary_noguard", "uninit_shared", "shared_oob", "reduce", "bad_compile",
                           "tricky_syntax", "device_query", "boundary_nostoreguard", "sync_only"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char in[1024], outp[1024], cmd[4096], out[8192];
        snprintf(in, sizeof in, "%s/%s.cu", env("TL_EMU_FIXTURES"), names[i]);
        snprintf(outp, sizeof outp, "%s/%s.emu.cpp", tmpdir, names[i]);
        /* on fibers nothing is added: the same number of lines, +1 for the first #line */
        snprintf(cmd, sizeof cmd, "'%s' --fibers '%s' '%s'", env("TL_EMU_REWRITE"), in, outp);
        cr_assert_eq(run(cmd, out, sizeof out), 0, "rewrite of %s failed: %s", in, out);
        int a = count_lines_until(in, NULL), b = count_lines_until(outp, "<tl-emu-rewrite: kernel registry>");
        cr_assert_eq(b, a + 1, "%s: %d lines in, %d out (+1 for the #line) before the registry", names[i], a, b);
        snprintf(cmd, sizeof cmd, "'%s' '%s' '%s'", env("TL_EMU_REWRITE"), in, outp);
        cr_assert_eq(run(cmd, out, sizeof out), 0, "rewrite of %s failed: %s", in, out);
        assert_lines_map_back(names[i], in, outp);
    }
}

static void rewrite_text(const char *text, char *result, size_t n, int *status) {
    char in[512], outp[512], cmd[2048];
    snprintf(in, sizeof in, "%s/t.cu", tmpdir);
    snprintf(outp, sizeof outp, "%s/t.emu.cpp", tmpdir);
    write_file(in, text);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' && cat '%s'", env("TL_EMU_REWRITE"), in, outp, outp);
    *status = run(cmd, result, n);
}

Test(rewrite, launches_with_shared_bytes_and_stream_keep_their_arguments, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 30) {
    char out[8192]; int st;
    rewrite_text("void f(int *p) {\n  k<<<dim3(2, 2), 64, 128 * sizeof(float), 0>>>(p,\n  1);\n  k <<< (n >> 1), 32 >>> (p, 2);\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 0, "%s", out);
    assert_has(out, "tl_emu_launch(k, \"k\", __FILE__, __LINE__, dim3(2, 2),  64,  128 * sizeof(float),  0)(p,\n  1);");
    assert_has(out, "tl_emu_launch(k, \"k\", __FILE__, __LINE__,  (n >> 1),  32 ) (p, 2);");
}

Test(rewrite, shared_names_get_their_line_and_leave_members_alone, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 30) {
    char out[8192]; int st;
    rewrite_text("__global__ void k(S *s) {\n  __shared__ int tile[4], n;\n  #pragma unroll 4\n  for (int i = 0; i < 4; i++) tile[i] = s->tile + s.n + n;\n}\n",
                 out, sizeof out, &st);
    cr_assert_eq(st, 0, "%s", out);
    assert_has(out, "tl_emu::Shared<tl_emu::A1<int, (4)>> tile(tile_tl_site_);");
    assert_has(out, "tl_emu::Shared<tl_emu::A0<int>> n(n_tl_site_);");
    assert_has(out, "/* #pragma unroll 4 */");
    /* region form: the plain copy, the direct copy and the general one (tl-emu-region.c) */
    assert_has(out, "tile(__LINE__, tl_emu::Plain{&tl_emu_lc_})[i] = s->tile + s.n + n(__LINE__, tl_emu::Plain{&tl_emu_lc_});");
    assert_has(out, "tile(__LINE__, tl_emu::Esc{tl_emu_ep_})[i] = s->tile + s.n + n(__LINE__, tl_emu::Esc{tl_emu_ep_});");
    assert_has(out, "tile(__LINE__, tl_emu_ep_)[i] = s->tile + s.n + n(__LINE__, tl_emu_ep_);");
    assert_has(out, "static tl_emu::KernelReg tl_emu_reg_k_0_(k, \"k\", 0 + sizeof(int) * (4) + sizeof(int), 1);");
}

Test(rewrite, kernels_are_found_behind_launch_bounds_and_in_extern_c_blocks, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 30) {
    char out[8192]; int st;
    rewrite_text("extern \"C\" {\n__global__ void __launch_bounds__(256, 2) scale(float *a) {\n  __shared__ float t[256];\n"
                 "  t[threadIdx.x] = a[threadIdx.x];\n}\n__global__ void proto(int);\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 0, "%s", out);
    assert_has(out, "static const tl_emu::Site t_tl_site_ = {\"t\", __FILE__, __LINE__, \"float\"}; tl_emu::Shared<tl_emu::A1<float, (256)>> t(t_tl_site_);");
    assert_has(out, "t(__LINE__, tl_emu_ep_)[threadIdx.x] = (tl_emu::gcount(0), a)[threadIdx.x];");
    assert_has(out, "static tl_emu::KernelReg tl_emu_reg_scale_0_(scale, \"scale\", 0 + sizeof(float) * (256), 1);");
    assert_lacks(out, "tl_emu_reg_proto");
}

Test(rewrite, what_it_cannot_emulate_is_an_error_at_the_line, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 30) {
    char out[8192]; int st;
    rewrite_text("__global__ void k() {\n\n  __shared__ float hyper[2][2][2][2];\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1);
    assert_has(out, "t.cu:3: error: tl-emu-rewrite: not supported under emulation: __shared__ hyper with 4 dimensions");
    rewrite_text("void f() {\n  (*kp)<<<1, 1>>>();\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1);
    assert_has(out, "t.cu:2: error: tl-emu-rewrite: not supported under emulation: a launch whose kernel is not a name");
    rewrite_text("void f() {\n  k<<<1>>>();\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1);
    assert_has(out, "t.cu:2: error: tl-emu-rewrite: a launch needs at least a grid and a block");
    rewrite_text("__global__ void k() {\n  __shared__ float a[4] = {0};\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1);
    assert_has(out, "t.cu:2: error: tl-emu-rewrite: a __shared__ variable cannot have an initializer");
    /* a missing ';': the next statement runs on into the declaration; said as such, at its line,
     * whatever comes next (another declaration, or a statement with an '=') */
    rewrite_text("__global__ void k() {\n  __shared__ float Mds[16][16]\n  __shared__ float Nds[16][16];\n}\n", out,
                 sizeof out, &st);
    cr_assert_eq(st, 1);
    assert_has(out, "t.cu:2: error: tl-emu-rewrite: expected ';' after __shared__ Mds[...]: the declaration runs on "
                    "into '__shared__' (a missing ';'?)");
    rewrite_text("__global__ void k(int w) {\n  __shared__ float t[16]\n  int row = w;\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1);
    assert_has(out, "t.cu:2: error: tl-emu-rewrite: expected ';' after __shared__ t[...]: the declaration runs on into 'int'");
}

/* Compiles a student file (rewritten) as the emulated build does; returns the compiler's status. */
static int build_text(const char *text, char *out, size_t n) {
    char src[512], cpp[512], cmd[8192];
    snprintf(src, sizeof src, "%s/s.cu", tmpdir);
    snprintf(cpp, sizeof cpp, "%s/s.emu.cpp", tmpdir);
    write_file(src, text);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s'", env("TL_EMU_REWRITE"), src, cpp);
    int st = run(cmd, out, n);
    if (st) return st;
    snprintf(cmd, sizeof cmd, "%s -std=c++17 -O2 -c -o /dev/null -include '%s/tl_emu.h' -I'%s' '%s'", env("TL_EMU_CXX"),
             env("TL_EMU_INCLUDE"), env("TL_EMU_INCLUDE"), cpp);
    return run(cmd, out, n);
}

Test(rewrite, student_code_cannot_reach_the_emulators_controls, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 120) {
    char out[65536];
    int st = build_text("#include <cuda_runtime.h>\n__global__ void k(float *p) { p[0] = 1; }\n"
                        "void cheat(void) { tl_emu_set_race_check(0); }\n", out, sizeof out);
    cr_assert_neq(st, 0, "a call of tl_emu_set_race_check built:\n%s", out);
    assert_has(out, "s.cu:3:");
    assert_has(out, "poisoned");
    st = build_text("#include <cuda_runtime.h>\nextern \"C\" void tl_emu_set_order(int, unsigned);\n", out, sizeof out);
    cr_assert_neq(st, 0, "a declaration of tl_emu_set_order built:\n%s", out);
}

Test(rewrite, what_emulation_lacks_fails_at_build_naming_it, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 120) {
    char out[65536];
    cr_assert_neq(build_text("#include <cuda_fp16.h>\n", out, sizeof out), 0);
    assert_has(out, "not supported under emulation: cuda_fp16.h");
    cr_assert_neq(build_text("#include <cublas_v2.h>\nvoid f(float *a) { cublasHandle_t h; cublasCreate(&h);\n"
                             "  float one = 1; cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a, 4, a, 4, &one, a, 4); }\n",
                             out, sizeof out), 0);
    assert_has(out, "not supported under emulation: cublasCreate, cublasSgemm");   /* the rewrite names each */
    cr_assert_neq(build_text("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                             "__global__ void k(float *p) {\n  p[threadIdx.x] = 1;\n  cg::this_grid().sync();\n}\n"
                             "void h(float *p) { k<<<1, 32>>>(p); }\n", out, sizeof out), 0);
    assert_has(out, "s.cu:5:");
    assert_has(out, "not supported under emulation: grid_group::sync");
    cr_assert_neq(build_text("#include <cooperative_groups/memcpy_async.h>\nnamespace cg = cooperative_groups;\n"
                             "__global__ void k(float *p) {\n  __shared__ float s[32];\n  auto b = cg::this_thread_block();\n"
                             "  cg::memcpy_async(b, &s[0], p, sizeof(float) * 32);\n  cg::wait(b);\n  p[threadIdx.x] = s[0];\n}\n"
                             "void h(float *p) { k<<<1, 32>>>(p); }\n", out, sizeof out), 0);
    assert_has(out, "s.cu:6:");
    assert_has(out, "not supported under emulation: cg::memcpy_async");
}

Test(rewrite, valid_cuda_students_write_builds, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 120) {
    char out[65536];
    int st = build_text("#include <cublas_v2.h>\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                        "__global__ void k(float *p, unsigned n) {\n  cg::thread_block b = cg::this_thread_block();\n"
                        "  __shared__ float s[64];\n  s[b.thread_rank()] = p[min(threadIdx.x, n)];\n  b.sync();\n"
                        "  p[threadIdx.x] = s[63 - threadIdx.x];\n}\n"
                        "void h(float *p) { k<<<1, 64>>>(p, 10u); }\n", out, sizeof out);
    cr_assert_eq(st, 0, "did not build:\n%s", out);
}

/* A float or double a kernel declares without a value starts as a NaN marked with its line (the lab
 * harness names it: "reading a local before giving it a value"); pointers, arrays, references,
 * initialised ones and locals outside kernels are left as written. */
Test(rewrite, a_float_declared_without_a_value_in_a_kernel_gets_the_marked_nan, .init = make_tmpdir,
     .fini = remove_tmpdir, .timeout = 30) {
    char out[16384]; int st;
    rewrite_text("__device__ float g(void) { float h; h = 1; return h; }\n"
                 "__global__ void k(float *P) {\n  float a, b = fmaxf(1.0f, 2.0f), c;\n  double d;\n"
                 "  float *p, q[4];\n  float &r = q[0];\n  float s = 0;\n"
                 "  a = b; c = a; d = c; p = q; r = s;\n  P[0] = a + (float)d + p[0];\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 0, "%s", out);
    assert_has(out, "float a = tl_emu::uninit_f(__LINE__), b = fmaxf(1.0f, 2.0f), c = tl_emu::uninit_f(__LINE__);");
    assert_has(out, "double d = tl_emu::uninit_d(__LINE__);");
    assert_has(out, "float *p, q[4];");
    assert_has(out, "float &r = q[0];");
    assert_has(out, "float s = 0;");
    assert_has(out, "__device__ float g(void) { float h; h = 1; return h; }");
}

/* The read-only regions (tl-emu-region.c: rplain(1)): under race checking, only a whole barrier
 * interval whose text stores nothing to a __shared__ element may run unchecked. A tiled kernel's
 * compute loop is one; the same loop without the barrier after it, or with a store, a call of the
 * student's, an address taken or a reference bound, is not. */
static int ro_regions(const char *compute, int second_barrier) {
    char text[2048], out[65536]; int st;
    snprintf(text, sizeof text,
             "__device__ float f(float &x) { return x; }\n"
             "__global__ void k(const float *M, float *P, int w) {\n  __shared__ float t[16][16];\n"
             "  int tx = threadIdx.x, ty = threadIdx.y;\n  float s = 0;\n"
             "  for (int ph = 0; ph < w / 16; ph++) {\n    t[ty][tx] = M[ph * 16 + ty * w + tx];\n    __syncthreads();\n"
             "    for (int k = 0; k < 16; k++) %s\n%s  }\n  P[ty * 16 + tx] = s;\n}\n",
             compute, second_barrier ? "    __syncthreads();\n" : "");
    rewrite_text(text, out, sizeof out, &st);
    cr_assert_eq(st, 0, "%s", out);
    cr_assert(strstr(out, "// k: region form"), "not in region form:\n%s", out);
    int n = 0;
    for (const char *p = out; (p = strstr(p, "tl_emu::rplain(1)")); p++) n++;
    for (const char *p = out; (p = strstr(p, "tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2}")); p++)
        cr_assert(n > 0, "a read-only view outside a read-only region:\n%s", out);
    return n;
}
Test(rewrite, only_a_whole_barrier_interval_that_stores_no_shared_element_runs_unchecked, .init = make_tmpdir,
     .fini = remove_tmpdir, .timeout = 30) {
    cr_expect_eq(ro_regions("s += t[ty][k] * t[k][tx];", 1), 1, "the compute loop between the barriers");
    cr_expect_eq(ro_regions("s = fmaf(t[ty][k], t[k][tx], s);", 1), 1, "a math function");
    cr_expect_eq(ro_regions("s += t[ty][k] * t[k][tx];", 0), 0, "no barrier after it: it shares an interval with the loads");
    cr_expect_eq(ro_regions("{ s += t[ty][k]; t[ty][k] = 0; }", 1), 0, "a store");
    cr_expect_eq(ro_regions("{ s += t[ty][k]; t[k][tx] += 1; }", 1), 0, "a compound store");
    cr_expect_eq(ro_regions("{ s += t[ty][k]; ++t[k][tx]; }", 1), 0, "an increment");
    cr_expect_eq(ro_regions("s += f(t[ty][k]);", 1), 0, "a call of the student's (it may store through a reference)");
    cr_expect_eq(ro_regions("s += *(&t[ty][0] + k);", 1), 0, "an address taken");
    cr_expect_eq(ro_regions("{ float &r = t[ty][k]; s += r; }", 1), 0, "a reference bound");
}

Test(rewrite, a_cooperative_groups_block_barrier_gets_region_form_and_other_cg_forms_stay_on_fibers, .init = make_tmpdir,
     .fini = remove_tmpdir, .timeout = 30) {
    char out[16384]; int st;
    rewrite_text("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                 "__global__ void A(float *p) {\n  __shared__ float s[64];\n  cg::thread_block b = cg::this_thread_block();\n"
                 "  s[b.thread_rank()] = p[b.thread_rank()];\n  b.sync();\n  p[b.thread_rank()] = s[63 - b.thread_rank()];\n"
                 "  cg::sync(b);\n}\n"
                 "__device__ void h(cg::thread_block &g, float *p) { p[g.thread_rank()] = 0; }\n"
                 "__global__ void B(float *p) {\n  cg::thread_block b = cg::this_thread_block();\n  h(b, p);\n  __syncthreads();\n}\n"
                 "__global__ void C(float *p) {\n  auto b = cg::this_thread_block();\n  b.sync();\n  p[0] = 1;\n}\n",
                 out, sizeof out, &st);
    cr_assert_eq(st, 0, "%s", out);
    assert_has(out, "cg::thread_block b [[maybe_unused]] = ::cooperative_groups::thread_block();");
    assert_has(out, "// A: region form");
    assert_has(out, "// B: fibers (it uses this_thread_block)");     /* b passed by reference: kept as written */
    assert_has(out, "// C: fibers (it uses this_thread_block)");
}

Test(rewrite, invalid_cuda_fails_as_nvcc_would, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 30) {
    char out[8192]; int st;
    rewrite_text("float helper(float x) { return 2 * x; }\n__device__ float dh(float x) { return x; }\n"
                 "__global__ void k(float *p) {\n  p[0] = dh(p[1]);\n  p[1] = helper(p[0]);\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1, "%s", out);
    assert_has(out, "t.cu:5: error: tl-emu-rewrite: calling a __host__ function(\"helper\") from a __global__ function(\"k\") is not allowed");
    rewrite_text("#include <algorithm>\n__global__ void k(float *p) {\n  p[0] = std::max(p[1], 0.0f);\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1, "%s", out);
    assert_has(out, "t.cu:3: error: tl-emu-rewrite: calling a constexpr __host__ function(\"std::max\") from a __global__ function(\"k\")");
    rewrite_text("__host__ __device__ float both(float x) { return x; }\n__global__ void k(float *p) { p[0] = both(p[1]); }\n",
                 out, sizeof out, &st);
    cr_assert_eq(st, 0, "%s", out);
}

/* The rewrite reads tl-lex tokens (issue 22 item 3): a continuation is a blank, a comment holds no call
 * and no pragma's end, a launch missing its >>> is named as such (each failed before, in its own way). */
Test(rewrite, reads_tokens_so_continuations_and_comments_change_nothing, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 30) {
    char out[8192]; int st;
    rewrite_text("float here(float x) { return x; }\n__global__ void k(float *p) \\\n{\n"
                 "  for (int i = 0; i < 2; i++) { p[i] = 0; }  // differs here (see above)\n"
                 "  #pragma /* 4 */ unroll\n  for (int i = 0; i < 2; i++) p[i] += 1;\n"
                 "  #pragma \\\n  unroll\n  for (int i = 0; i < 2; i++) p[i] += 1;\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 0, "a continuation before the body, a call in a comment: %s", out);
    assert_has(out, "/* #pragma * 4 / unroll */\n");
    assert_has(out, "/* #pragma \\  unroll */\n\n  for");                /* its line moved after it */
    assert_has(out, "// k: region form");
    rewrite_text("void f(float *a) {\n  k<<<1, 1>>(a);\n}\n", out, sizeof out, &st);
    cr_assert_eq(st, 1, "%s", out);
    assert_has(out, "t.cu:2: error: tl-emu-rewrite: <<< without a matching >>>");
}
