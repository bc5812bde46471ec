#line 1 "tests/gpu/scale-probe.cu"
/* tests/gpu/scale-probe.cu: one process's piece of GPU work, for tests/gpu/scale-diag.sh (issue 29).
 *
 * How the pieces a graded lab 03 submission's processes do (a CUDA context, device buffers per
 * case, pageable copies, small kernels) scale when N processes do them at once on one GPU.
 * Usage: scale-probe MODE REPS [SIZE]
 *   ctx            start CUDA (a context) and quit: REPS is ignored
 *   alloc          REPS times: three cudaMalloc of SIZE^2 floats, then their cudaFree
 *   case           REPS times: alloc, two pageable copies in, a multiply kernel, one copy out, free
 *   keep           as case, the three buffers allocated once for every rep (the buffers kept)
 *   kernels        one 64^2 case's buffers, then REPS small launches each waited for
 *   hold           a context made, then REPS seconds asleep: a resident context (scale-diag RESIDENT)
 * Prints one line: mode, wall seconds, user and sys CPU seconds of this process. Exit 0, 1 on a
 * CUDA error (named), 2 on usage.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "scale-probe: %s: %s\n", #x, cudaGetErrorString(e_));          \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

__global__ void mm(const float *M, const float *N, float *P, int w)
{
    static const tl_emu::Site a_tl_site_ = {"a", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (16), (16)>> a(a_tl_site_); static const tl_emu::Site b_tl_site_ = {"b", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (16), (16)>> b(b_tl_site_); 
    float  tl_p_s[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { ;
    s = (0); } *(tl_p_s + tl_emu_t_) = s; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 41
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { ;
    s = (0); } *(tl_p_s + tl_emu_t_) = s; } } else {
#line 41
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { ;
    s = (0); } *(tl_p_s + tl_emu_t_) = s; }
#line 42
 }
    for (int p = 0; p < w / 16; ++p) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { a(__LINE__, tl_emu::Plain{&tl_emu_lc_})[threadIdx.y][threadIdx.x] = (tl_emu::gcount(0), M)[r * w + p * 16 + threadIdx.x];
        b(__LINE__, tl_emu::Plain{&tl_emu_lc_})[threadIdx.y][threadIdx.x] = (tl_emu::gcount(0), N)[(p * 16 + threadIdx.y) * w + c]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { a(__LINE__, tl_emu::Esc{tl_emu_ep_})[threadIdx.y][threadIdx.x] = (tl_emu::gcount(0), M)[r * w + p * 16 + threadIdx.x];
        b(__LINE__, tl_emu::Esc{tl_emu_ep_})[threadIdx.y][threadIdx.x] = (tl_emu::gcount(0), N)[(p * 16 + threadIdx.y) * w + c]; } } } else {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { a(__LINE__, tl_emu_ep_)[threadIdx.y][threadIdx.x] = (tl_emu::gcount(0), M)[r * w + p * 16 + threadIdx.x];
        b(__LINE__, tl_emu_ep_)[threadIdx.y][threadIdx.x] = (tl_emu::gcount(0), N)[(p * 16 + threadIdx.y) * w + c]; } }
#line 45
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { for (int k = 0; k < 16; ++k) s += a(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[threadIdx.y][k] * b(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[k][threadIdx.x]; } *(tl_p_s + tl_emu_t_) = s; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 47
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { for (int k = 0; k < 16; ++k) s += a(__LINE__, tl_emu::Esc{tl_emu_ep_})[threadIdx.y][k] * b(__LINE__, tl_emu::Esc{tl_emu_ep_})[k][threadIdx.x]; } *(tl_p_s + tl_emu_t_) = s; } } else {
#line 47
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { for (int k = 0; k < 16; ++k) s += a(__LINE__, tl_emu_ep_)[threadIdx.y][k] * b(__LINE__, tl_emu_ep_)[k][threadIdx.x]; } *(tl_p_s + tl_emu_t_) = s; }
#line 47
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { (tl_emu::gcount(1), P)[r * w + c] = s; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 50
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { (tl_emu::gcount(1), P)[r * w + c] = s; } } } else {
#line 50
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { (tl_emu::gcount(1), P)[r * w + c] = s; } }
#line 50
 }
}

static void one_case(float *h, float *dM, float *dN, float *dP, int w)
{
    size_t b = sizeof(float) * (size_t)w * w;
    CK(cudaMemcpy(dM, h, b, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dN, h, b, cudaMemcpyHostToDevice));
    tl_emu_launch(mm, "mm", __FILE__, __LINE__, dim3(w / 16, w / 16),  dim3(16, 16))(dM, dN, dP, w);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, dP, b, cudaMemcpyDeviceToHost));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: scale-probe ctx|alloc|case|keep|kernels|hold REPS [SIZE]\n");
        return 2;
    }
    const char *mode = argv[1];
    int reps = atoi(argv[2]), w = argc > 3 ? atoi(argv[3]) : 1024;
    if (reps < 1 || w < 16 || w % 16) {
        fprintf(stderr, "scale-probe: REPS >= 1 and SIZE a multiple of 16, please\n");
        return 2;
    }
    double t0 = now();
    CK(cudaFree(0));
    size_t b = sizeof(float) * (size_t)w * w;
    float *h = NULL, *dM = NULL, *dN = NULL, *dP = NULL;
    if (!strcmp(mode, "case") || !strcmp(mode, "keep") || !strcmp(mode, "kernels")) {
        h = (float *)malloc(b);
        if (!h) return fprintf(stderr, "scale-probe: out of memory\n"), 1;
        for (size_t i = 0; i < (size_t)w * w; ++i) h[i] = (float)(i % 7) * 0.25f;
    }
    if (!strcmp(mode, "alloc") || !strcmp(mode, "case")) {
        for (int r = 0; r < reps; ++r) {
            CK(cudaMalloc(&dM, b));
            CK(cudaMalloc(&dN, b));
            CK(cudaMalloc(&dP, b));
            if (h) one_case(h, dM, dN, dP, w);
            CK(cudaFree(dM));
            CK(cudaFree(dN));
            CK(cudaFree(dP));
        }
    } else if (!strcmp(mode, "keep")) {
        CK(cudaMalloc(&dM, b));
        CK(cudaMalloc(&dN, b));
        CK(cudaMalloc(&dP, b));
        for (int r = 0; r < reps; ++r) one_case(h, dM, dN, dP, w);
    } else if (!strcmp(mode, "kernels")) {
        CK(cudaMalloc(&dM, b));
        CK(cudaMalloc(&dN, b));
        CK(cudaMalloc(&dP, b));
        for (int r = 0; r < reps; ++r) {
            tl_emu_launch(mm, "mm", __FILE__, __LINE__, dim3(w / 16, w / 16),  dim3(16, 16))(dM, dN, dP, w);
            CK(cudaDeviceSynchronize());
        }
    } else if (!strcmp(mode, "hold")) {
        struct timespec ts = {reps, 0};
        nanosleep(&ts, NULL);
    } else if (strcmp(mode, "ctx") != 0) {
        fprintf(stderr, "scale-probe: unknown mode %s (ctx, alloc, case, keep, kernels, hold)\n", mode);
        return 2;
    }
    double t1 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%s %.3f %.3f %.3f\n", mode, t1 - t0, ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec,
           ru.ru_stime.tv_sec + 1e-6 * ru.ru_stime.tv_usec);
    free(h);
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// mm: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_mm_0_(mm, "mm", 0 + sizeof(float) * (16) * (16) + sizeof(float) * (16) * (16), 1);
#else
static tl_emu::KernelReg tl_emu_reg_mm_0_(mm, "mm", 0, 1);
#endif
