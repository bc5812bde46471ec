/* tl-device: what CUDA device this machine has, as the kit sees it (used by ./kit doctor).
 *   tl-device           the device facts a kernel author needs
 *   tl-device --brief   key: value lines for scripts (present, name, cc, driver, runtime)
 *   tl-device --facts   lab 02's device facts in their fixed format (common/devfacts.h): the
 *                       grader's own query, made outside the student's process; tl-device-emu
 *                       (the same file over the emulator) answers for an emulated run
 * Exit 0 with a device, 77 without one, 2 on bad usage. */
#include <string.h>

#include "tilelab.h"

int main(int argc, char **argv)
{
    int brief = 0, facts = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--brief") == 0)
            brief = 1;
        else if (strcmp(argv[i], "--facts") == 0)
            facts = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: tl-device [--brief | --facts]\nprints the CUDA device facts (--facts: lab 02's format); "
                   "exit 77 when there is no usable device\n");
            return 0;
        } else {
            fprintf(stderr, "tl-device: unknown argument '%s'; run 'tl-device --help'\n", argv[i]);
            return TL_EXIT_USAGE;
        }
    }
    if (facts) {
        tl_facts f;
        char why[300];
        if (tl_device_facts(&f, why, sizeof why) != 0) {
            printf("no usable CUDA device: %s\n", why);
            return TL_EXIT_SKIP;
        }
        tl_facts_print(&f, stdout);
        return TL_EXIT_OK;
    }
    tl_device_info d;
    int rc = tl_device_query(&d);
    if (brief) {
        printf("cuda_build: %d\npresent: %d\n", tl_have_cuda_build(), d.present);
        if (d.present)
            printf("name: %s\ncc: %d%d\ndriver: %d\nruntime: %d\nemulated: %d\n", d.name, d.major,
                   d.minor, d.driver_version, d.runtime_version, d.emulated);
        else
            printf("why: %s\n", d.why);
    } else {
        tl_device_print(&d, stdout);
    }
    return rc == 0 ? TL_EXIT_OK : TL_EXIT_SKIP;
}
