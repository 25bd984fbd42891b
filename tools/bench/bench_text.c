/* bench_text.c - see bench_text.h. */
#include "bench_text.h"

#include <stdio.h>

void bench_print_table(const bench_report *report)
{
    printf("\n%s (%s): best copy %.1f GB/s [%s]\n", report->device, report->kind, report->copy_gbps,
           report->copy_method);
    if (report->kind[0] == 'o')
        printf("context and f32's program %.0f ms (first in process), %.0f ms (again); "
               "clsel_cl_enqueue host cost "
               "%.2f us\n",
               report->build_first_ms, report->build_again_ms, report->enqueue_us);
    const int events = report->kind[0] == 'o';
    if (events)
        printf("%% copy: wall clock (enqueue to clFinish), both timed alike; events: the device's "
               "own clock "
               "(OpenCL event profiling), both timed alike\n");
    printf("%-22s %-5s %12s %13s %10s %10s %8s %8s %7s %10s %s %s\n", "case", "dtype", "elements",
           "bytes", "median ms", "min ms", "GB/s", "copy", "% copy", "first ms",
           events ? "  events ms  % copy " : "", "what");
    for (size_t i = 0; i < report->count; ++i) {
        const bench_result *r = &report->results[i];
        if (*r->error) {
            printf("%-22s %-5s failed: %s\n", r->c->name, clsel_dtype_name(r->c->dtype), r->error);
            continue;
        }
        char event_text[40] = "";
        if (events)
            snprintf(event_text, sizeof event_text, " %10.3f %6.1f%% ", r->event_ms,
                     r->event_pct_of_copy);
        printf("%-22s %-5s %12lld %13llu %10.3f %10.3f %8.2f %8.2f %6.1f%% %10.2f %s %s\n",
               r->c->name, clsel_dtype_name(r->c->dtype), (long long)r->elements,
               (unsigned long long)r->bytes, r->median_ms, r->min_ms, r->gbps, r->copy_gbps,
               r->pct_of_copy, r->first_call_ms, event_text, r->c->what);
    }
}

void bench_print_thresholds(const bench_thresholds_report *t)
{
    printf(
        "\nthresholds: same-shape f32, host memory, medians (ms); runtime = clsel_runtime_run on "
        "%s, every size "
        "on the device; AUTO = clsel_runtime_run as created with CLSEL_DEVICE_AUTO (runs on: %s)\n",
        *t->runtime_device ? t->runtime_device : "(no OpenCL device)", t->auto_device);
    printf("%12s %13s %12s %12s %12s %12s\n", "elements", "bytes", "CPU 1 thread", "CPU threads",
           "runtime", "AUTO");
    for (size_t i = 0; i < t->count; ++i)
        printf("%12lld %13llu %12.4f %12.4f %12.4f %12.4f\n", (long long)t->rows[i].elements,
               (unsigned long long)t->rows[i].bytes, t->rows[i].cpu_ms, t->rows[i].threads_ms,
               t->rows[i].runtime_ms, t->rows[i].auto_ms);
    if (t->chunked_elements)
        printf("past the allocation limit (%llu bytes): %lld u8 elements, runtime in chunks %.1f "
               "ms (%.2f GB/s), "
               "CPU path %.1f ms\n",
               (unsigned long long)t->max_alloc, (long long)t->chunked_elements, t->chunked_ms,
               (double)t->chunked_bytes / (t->chunked_ms * 1e6), t->chunked_cpu_ms);
    else if (*t->chunked_note)
        printf("past the allocation limit: %s\n", t->chunked_note);
}

void bench_print_first_call(const bench_first_call_report *r)
{
    printf("first call on %s: OpenCL platform start %.1f ms, clsel_runtime_create %.1f ms, first "
           "run %.1f ms "
           "(f32, %lld elements), second run %.3f ms; first select after process start %.1f ms, "
           "%.1f ms of it "
           "in clsel\n",
           r->device, r->platform_ms, r->create_ms, r->first_run_ms, (long long)r->elements,
           r->second_run_ms, r->platform_ms + r->create_ms + r->first_run_ms,
           r->create_ms + r->first_run_ms);
}
