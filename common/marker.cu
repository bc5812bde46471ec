/* marker.cu: the request marker, a kernel of the kit's that the --serve loop (driverserve.c)
 * launches at the start of each GPU request, before the student's launcher runs.
 *
 * Theory of operation. The grader profiles a submission's variants in ONE session under ONE ncu
 * (grader/counters.c, issue 29): ncu's table then holds the kernels of every request, one row per
 * launch, in launch order. The marker's rows split it: request seq starts with the marker launched
 * with seq blocks of one thread, so its row reads "tl_request_marker_kernel(int)" with Grid Size
 * "(seq, 1, 1)"; the rows after it, up to the next marker, are that request's. grader/ncu.c
 * (tg_ncu_split) accepts a table only with exactly one marker per request, in order, and no kernel
 * before the first; anything else and the grader profiles each variant in a session of its own.
 * The student's object can neither define this kernel (a kit name: the object gate refuses it) nor
 * reference it (not on any lab's kit-call list), so a row of this name comes from the kit's code.
 * Outside a profiled session it costs one empty launch per request, before anything is timed.
 * Built only into the GPU harness (not the emulated one: there it would be a launch the emulator
 * counts). */
#include <cuda_runtime.h>

#include "tilelab.h"

__global__ void tl_request_marker_kernel(int seq)
{
    (void)seq;   /* the request's number is the grid's width (ncu's Grid Size column) */
}

extern "C" void tl_gpu_mark_request(int seq)
{
    if (seq < 1)
        return;
    tl_request_marker_kernel<<<seq, 1>>>(seq);
    (void)cudaGetLastError();   /* a failed launch is the kit's, never seen by the student's launch check */
}
