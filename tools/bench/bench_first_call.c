/* bench_first_call.c - clsel bench --first-call: what the first select of a process
 * costs on the OpenCL device, in parts: the OpenCL platform's own start
 * (clGetPlatformIDs: the ICD loader and the driver, before clsel does anything),
 * clsel_runtime_create on the device, the first clsel_runtime_run (f32, which builds
 * or loads from a cache the program of element width 4), and a second run. Only the
 * first call of a process shows this, so bench/first_call.sh runs it in a fresh process
 * for each measurement, under each state of PoCL's and clsel's kernel caches. */
#include <stdio.h>
#include <string.h>

#include "bench_first_call.h"

#include "bench_harness.h"
#include "bench_inputs.h"
#include "clsel_cl.h"

enum {
    FIRST_CALL_ELEMENTS = 4096
};

int bench_first_call(bench_first_call_report *r)
{
    memset(r, 0, sizeof *r);
    r->elements = FIRST_CALL_ELEMENTS;
    double t0 = bench_now_ms();
    cl_uint platforms = 0;
    if (clGetPlatformIDs(0, NULL, &platforms) != CL_SUCCESS || platforms == 0) {
        fprintf(stderr, "clsel bench: --first-call: no OpenCL platform\n");
        return -1;
    }
    r->platform_ms = bench_now_ms() - t0;

    t0 = bench_now_ms();
    clsel_runtime *rt = NULL;
    if (clsel_runtime_create(CLSEL_DEVICE_OPENCL, &rt) != CLSEL_SUCCESS) {
        fprintf(stderr, "clsel bench: --first-call: %s\n", clsel_last_error());
        return -1;
    }
    r->create_ms = bench_now_ms() - t0;
    snprintf(r->device, sizeof r->device, "%s", clsel_runtime_device_name(rt));
    clsel_runtime_set_min_device_bytes(rt, 0); /* a small run, on the device all the same */

    bench_host_case h;
    clsel_status st = bench_host_case_make(&h, FIRST_CALL_ELEMENTS) == 0
                          ? CLSEL_SUCCESS
                          : CLSEL_ERROR_OUT_OF_MEMORY;
    double runs[2] = {0, 0};
    for (int k = 0; k < 2 && st == CLSEL_SUCCESS; ++k) {
        t0 = bench_now_ms();
        st = clsel_runtime_run(rt, h.plan, h.cond, h.then_data, h.else_data, h.out);
        runs[k] = bench_now_ms() - t0;
        if (st == CLSEL_SUCCESS && clsel_runtime_last_run_path() != CLSEL_RUN_DEVICE) {
            fprintf(stderr, "clsel bench: --first-call: the run did not stay on the device\n");
            st = CLSEL_ERROR_OPENCL;
        }
    }
    r->first_run_ms = runs[0];
    r->second_run_ms = runs[1];
    if (st != CLSEL_SUCCESS)
        fprintf(stderr, "clsel bench: --first-call: %s\n", clsel_last_error());
    bench_host_case_free(&h);
    clsel_runtime_destroy(rt);
    return st == CLSEL_SUCCESS ? 0 : -1;
}
