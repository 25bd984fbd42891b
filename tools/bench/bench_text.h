/* bench_text.h - clsel bench's tables on stdout (the sweep's summary is bench_sweep_print). */
#ifndef CLSEL_TOOLS_BENCH_TEXT_H
#define CLSEL_TOOLS_BENCH_TEXT_H

#include "bench_first_call.h"
#include "bench_harness.h"
#include "bench_thresholds.h"

void bench_print_table(const bench_report *report);
void bench_print_thresholds(const bench_thresholds_report *t);
void bench_print_first_call(const bench_first_call_report *r);

#endif
