/* labfacts.c: the lab programs' side of lab 02's device query (devfacts.h): whether a lab's
 * table judges it, what its preamble (print_device_facts) writes, and the program's own check of
 * those lines against the kit's query in the same process (device.cu's tl_device_facts). The
 * grader asks the kit's query in a process of its own instead (grader/devquery.c); both judge
 * with tl_facts_compare. Linked with driver.c into every lab program (GPU, emulated, no CUDA). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"

int tl_facts_judged(const char *lab_id)
{
    const tl_lab_info *info = tl_lab_find(lab_id);
    for (int i = 0; info && i < info->ntests; ++i)
        if (info->tests[i].kind == TL_TEST_DEVFACTS)
            return 1;
    return 0;
}

char *tl_facts_capture(void (*preamble)(FILE *out), size_t *len)
{
    char *text = NULL;
    size_t n = 0;
    FILE *mf = open_memstream(&text, &n);
    if (!mf)
        return NULL;
    preamble(mf);
    fclose(mf);
    if (n > TL_FACTS_MAX_TEXT)
        n = TL_FACTS_MAX_TEXT;
    *len = n;
    return text;
}

int tl_facts_check(const char *text, size_t len, int quiet)
{
    tl_facts want, got;
    char why[300];
    if (tl_device_facts(&want, why, sizeof why) != 0) {
        printf("device facts: not checked: the kit's own query failed (%s)\n", why);
        return 0;
    }
    tl_facts_parse(text ? text : "", text ? len : 0, &got);
    tl_facts_verdict v;
    tl_facts_compare(&want, &got, &v);
    if (v.right == v.asked) {
        if (!quiet)
            printf("device facts: PASS, %d of %d right (compared with the kit's own query of the device)\n",
                   v.right, v.asked);
        return 0;
    }
    printf("device facts: FAIL (print_device_facts, README task 3)\n");
    tl_facts_explain(&v, stdout, "      ");
    return 1;
}
