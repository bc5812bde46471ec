/* hostile/01/network_socket.c: tries to open network connections (TCP to 1.1.1.1:53 and to the host's loopback
 * ports, a UDP send). On any success it prints LEAK and leaves P unwritten. Expected: no network
 * in the sandbox (bubblewrap --unshare-net, or unshare -n); full marks. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* The test that grades this file may define TL_HOSTILE_ROOT (the instructor's kit) and
 * TL_HOSTILE_OUT (the grader's out dir) on top, so the attempt names the real paths. */
#ifndef TL_HOSTILE_ROOT
#define TL_HOSTILE_ROOT "/work/main"
#endif
#ifndef TL_HOSTILE_OUT
#define TL_HOSTILE_OUT "/tmp/tl-grade-out"
#endif
static int leaked;
static void leak(const char *what)
{
    printf("LEAK: %s\n", what);
    fflush(stdout);
    leaked = 1;
}
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
static int tcp_to(const char *ip, int port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return 0;
    fcntl(s, F_SETFL, O_NONBLOCK);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    int ok = 0;
    if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) {
        ok = 1;
    } else if (errno == EINPROGRESS) {
        struct pollfd pf = {s, POLLOUT, 0};
        int e = 0;
        socklen_t l = sizeof e;
        if (poll(&pf, 1, 1500) == 1 && getsockopt(s, SOL_SOCKET, SO_ERROR, &e, &l) == 0 && e == 0)
            ok = 1;
    }
    close(s);
    return ok;
}
static void probe(void)
{
    if (tcp_to("1.1.1.1", 53)) leak("TCP to 1.1.1.1:53");
    if (tcp_to("8.8.8.8", 53)) leak("TCP to 8.8.8.8:53");
    /* Anything listening on the host's loopback (ssh, a database) would answer here. */
    static const int ports[] = {22, 80, 443, 5432, 6379, 8080};
    for (unsigned i = 0; i < sizeof ports / sizeof ports[0]; ++i)
        if (tcp_to("127.0.0.1", ports[i])) {
            char w[64];
            snprintf(w, sizeof w, "TCP to 127.0.0.1:%d", ports[i]);
            leak(w);
        }
    int u = socket(AF_INET, SOCK_DGRAM, 0);
    if (u >= 0) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(53)};
        inet_pton(AF_INET, "1.1.1.1", &a.sin_addr);
        if (sendto(u, "x", 1, 0, (struct sockaddr *)&a, sizeof a) == 1) leak("UDP to 1.1.1.1:53");
        close(u);
    }
}
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    static int once;
    if (!once++)
        probe();
    if (leaked)
        return;
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float sum = 0;
            for (int k = 0; k < Width; ++k)
                sum += M[i * Width + k] * N[k * Width + j];
            P[i * Width + j] = sum;
        }
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width; ++i) {
        float *Prow = P + (long)i * Width;
        for (int j = 0; j < Width; ++j)
            Prow[j] = 0;
        for (int k = 0; k < Width; ++k) {
            float a = M[i * Width + k];
            const float *Nrow = N + (long)k * Width;
            for (int j = 0; j < Width; ++j)
                Prow[j] += a * Nrow[j];
        }
    }
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    for (int i = 0; i < Width * Width; ++i)
        P[i] = 0;
    /* Blocks of rows of P (ii), of the dot product (kk), of columns of P (jj); inside a block
     * the i-k-j order of GMM_CPU_ikj. min() keeps the last, partial block of each direction. */
    for (int ii = 0; ii < Width; ii += Block)
        for (int kk = 0; kk < Width; kk += Block)
            for (int jj = 0; jj < Width; jj += Block) {
                int iend = min_int(ii + Block, Width);
                int kend = min_int(kk + Block, Width);
                int jend = min_int(jj + Block, Width);
                for (int i = ii; i < iend; ++i)
                    for (int k = kk; k < kend; ++k) {
                        float a = M[i * Width + k];
                        for (int j = jj; j < jend; ++j)
                            P[i * Width + j] += a * N[k * Width + j];
                    }
            }
}
