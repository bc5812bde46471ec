/* emu-corpus-main.c: runs one file of the emulator's corpus (tests/emu/corpus/NAME.cu) on a real GPU,
 * built with nvcc by tests/gpu/emu-warp-corpus.sh, to show that the GPU gives the answers the emulator
 * expects. Prints corpus_run's verdict; exit code 0 when its results were right. */
#include <stdio.h>

int corpus_run(void);

int main(void) {
    int r = corpus_run();
    printf("corpus_run=%d (%s)\n", r, r ? "results wrong or a CUDA call failed" : "results right");
    return r;
}
