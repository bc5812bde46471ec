/* labrun.c: a lab program's variants from the lab table (common/labtable.c) and its lab.c's code:
 * tl_lab_run checks that the two agree and hands the lab to the driver (driver.c, tl_lab_main). */
#include <stdio.h>
#include <string.h>

#include "tilelab.h"

/* ------------------------------------------------------------------ from the lab table */

int tl_lab_run(const char *id, const tl_lab_code *code, int ncode, void (*preamble)(FILE *out),
               int argc, char **argv)
{
    const tl_lab_info *info = tl_lab_find(id);
    if (!info || info->own_main || !info->public_sizes) {
        fprintf(stderr, "lab%s: the lab table (common/labtable.c) has no entry %s with variants and public "
                        "sizes; add one (common/CONTRACTS.md section 9)\n", id, id);
        return TL_EXIT_USAGE;
    }
    tl_variant vs[TL_LAB_MAX_VARIANTS + 1];
    int nv = 0;
    for (int i = 0; i < info->nvariants; ++i) {
        const tl_lab_code *c = NULL;
        for (int j = 0; j < ncode && !c; ++j)
            if (strcmp(code[j].variant, info->variants[i].name) == 0)
                c = &code[j];
        if (!c && info->variants[i].gpu_only) { /* left out of this build (emulated, or no sm_90a) */
            fprintf(stderr, "lab%s: variant '%s': %s: GPU only; not in this build\n", id, info->variants[i].name,
                    info->variants[i].gpu_only);
            continue;
        }
        if (!c || (info->variants[i].on_gpu ? !c->gpu : !c->cpu)) {
            fprintf(stderr, "lab%s: lab.c has no %s function for variant '%s' of the lab table; give it one\n",
                    id, info->variants[i].on_gpu ? "GPU" : "CPU", info->variants[i].name);
            return TL_EXIT_USAGE;
        }
        vs[nv++] = (tl_variant){.f = &info->variants[i], .cpu = c->cpu, .gpu = c->gpu, .ctx = c->ctx};
    }
    for (int j = 0; j < ncode; ++j) {
        if (tl_lab_variant_find(info, code[j].variant))
            continue;
        if (info->yardstick && strcmp(code[j].variant, info->yardstick) == 0 && nv <= TL_LAB_MAX_VARIANTS) {
            vs[nv++] = (tl_variant){.f = &tl_yardstick_cublas, .cpu = code[j].cpu, .gpu = code[j].gpu, .ctx = code[j].ctx};
            continue;
        }
        fprintf(stderr, "lab%s: lab.c has code for variant '%s', which lab %s's table entry lacks; add it to "
                        "common/labtable.c or drop the code\n", id, code[j].variant, id);
        return TL_EXIT_USAGE;
    }
    tl_lab lab = {.id = info->id, .name = info->dir, .title = info->title, .variants = vs, .nvariants = nv,
                  .default_sizes = info->public_sizes, .preamble = preamble, .repeat = info->repeat,
                  .inputs_bf16 = info->inputs_bf16};
    return tl_lab_main(&lab, argc, argv);
}

int tl_run_rect(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    tl_rect_launcher f = *(const tl_rect_launcher *)ctx;
    return f((float *)d_M, (float *)d_N, d_P, m, k, n);
}
