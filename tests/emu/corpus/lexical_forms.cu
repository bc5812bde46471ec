/* FEATURE: what the front end's one lexer (common/emu/tl-lex.c) reads as C++ does: this file starts
 * with a UTF-8 byte-order mark; raw strings holding quotes, a launch and a __shared__ name; C++14
 * digit separators; a number whose suffix spells a __shared__ name (1.0f with a tile named f); a
 * comment spanning lines inside a #define; a directive after a comment; a name split by a
 * continuation. Before tl-lex the rewrite died at the separator ("unterminated character literal"). */
#include "corpus.h"
#include <cstring>
#define TILE 1'6 /* the tile's width: a
                    comment that goes on inside the macro (it isn't code: the quote is no literal) */
/* a comment before a directive */ #define SCALE 1.0f
__global__ void Tiled(const float *Md, const float *Nd, float *Pd, int Width) {
    __shared__ float Mds[TILE][TILE];
    __shared__ float f[TILE][TILE];
    const char *note = R"doc(Mds[0] "<<<" f[1] )" still in the string )doc";
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * TILE + ty, Col = blockIdx.x * TILE + tx;
    float Pvalue = 0 * 1'000.0f + (note[0] == 'M' ? 0.0f : 1.0f);
    for (int ph = 0; ph < Width / TILE; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * TILE + tx];
        f[ty][tx] = Nd[(ph * TILE + ty) * Width + Col] * SCALE;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) Pvalue += Mds[ty][k] * f[k][tx] * 1.0f;
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pv\
alue;
}
extern "C" int corpus_run(void) {
    const char *doc = R"(a raw string with "quotes" and // no comment)";
    if (strlen(doc) != 44) { fprintf(stderr, "the raw string changed: %zu\n", strlen(doc)); return 1; }
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        Tiled<<<dim3(w / TILE, w / TILE), dim3(TILE, TILE)>>>(a, b, c, w);
    }, 64'0 / 10);
}
