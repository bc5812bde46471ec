/* tests/bench/libclang-locate.c: the libclang trial of issue 22 item 3 (tests/bench/libclang-trial.py
 * builds and runs it; common/emu/README.md, "Why not libclang", says what it found). Parses one .cu
 * with libclang (CUDA, host side only, KeepGoing) and prints what clang locates in that file, one
 * "KIND LINE NAME" a line (LINE: where the macro expansion is): K a __global__ function's definition,
 * S a __shared__ variable, L a launch, B a __syncthreads() call; then "E N", the errors. libclang's C
 * API has no cursor kind for a launch (a CUDAKernelCallExpr is a CXCursor_CallExpr, its <<< >>>
 * configuration a call of __cudaPushCallConfiguration): a call is a launch when its tokens hold <<<.
 *   cc -I/usr/lib/llvm-14/include libclang-locate.c -L/usr/lib/llvm-14/lib -lclang -o locate
 *   ./locate FILE.cu CLANG-ARGS... */
#include <clang-c/Index.h>
#include <stdio.h>
#include <string.h>

static int line_of(CXCursor c) {
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    return (int)line;
}
static CXFile mainf;
static int in_main(CXCursor c) {
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    return f && clang_File_isEqual(f, mainf);
}
static enum CXChildVisitResult has_attr(CXCursor c, CXCursor p, CXClientData d) {
    (void)p;
    if (clang_getCursorKind(c) == *(enum CXCursorKind *)d) { *(enum CXCursorKind *)d = 0; return CXChildVisit_Break; }
    return CXChildVisit_Continue;
}
static int attr(CXCursor c, enum CXCursorKind k) { enum CXCursorKind d = k; clang_visitChildren(c, has_attr, &d); return d == 0; }
static CXTranslationUnit tu;
static void put(const char *k, CXCursor c) {
    CXString s = clang_getCursorSpelling(c);
    printf("%s %d %s\n", k, line_of(c), clang_getCString(s));
    clang_disposeString(s);
}
static enum CXChildVisitResult visit(CXCursor c, CXCursor p, CXClientData d) {
    (void)p; (void)d;
    if (!in_main(c)) return CXChildVisit_Recurse;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && clang_isCursorDefinition(c) && attr(c, CXCursor_CUDAGlobalAttr)) put("K", c);
    if (k == CXCursor_VarDecl && attr(c, CXCursor_CUDASharedAttr)) put("S", c);
    if (k == CXCursor_CallExpr) {
        CXString s = clang_getCursorSpelling(c);
        const char *n = clang_getCString(s);
        if (!strcmp(n, "__syncthreads")) put("B", c);
        else {   /* a CUDAKernelCallExpr: its tokens hold <<< */
            if (!strcmp(n, "__cudaPushCallConfiguration") || !strcmp(n, "cudaConfigureCall")) { clang_disposeString(s); return CXChildVisit_Recurse; }
            CXToken *t; unsigned nt;
            clang_tokenize(tu, clang_getCursorExtent(c), &t, &nt);
            for (unsigned i = 0; i + 2 < nt; i++) {
                CXString a = clang_getTokenSpelling(tu, t[i]), b = clang_getTokenSpelling(tu, t[i + 1]);
                int hit = !strcmp(clang_getCString(a), "<<") && !strcmp(clang_getCString(b), "<");
                hit |= !strcmp(clang_getCString(a), "<<<");
                clang_disposeString(a); clang_disposeString(b);
                if (hit) { put("L", c); break; }
            }
            clang_disposeTokens(tu, t, nt);
        }
        clang_disposeString(s);
    }
    return CXChildVisit_Recurse;
}
int main(int argc, char **argv) {
    CXIndex ix = clang_createIndex(0, 0);
    enum CXErrorCode e = clang_parseTranslationUnit2(ix, argv[1], (const char *const *)argv + 2, argc - 2, NULL, 0,
                                                     CXTranslationUnit_KeepGoing, &tu);
    if (e != CXError_Success) { printf("PARSEFAIL %d\n", e); return 1; }
    mainf = clang_getFile(tu, argv[1]);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, NULL);
    unsigned nd = clang_getNumDiagnostics(tu), ne = 0;
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic g = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(g) >= CXDiagnostic_Error) {
            if (ne++ < 3) { CXString s = clang_formatDiagnostic(g, clang_defaultDiagnosticDisplayOptions()); fprintf(stderr, "%s\n", clang_getCString(s)); clang_disposeString(s); }
        }
        clang_disposeDiagnostic(g);
    }
    printf("E %u\n", ne);
    return 0;
}
