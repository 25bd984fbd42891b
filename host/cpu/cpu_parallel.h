/* cpu_parallel.h - a CPU run split over threads (cpu_parallel.c). */
#ifndef CLSEL_HOST_CPU_PARALLEL_H
#define CLSEL_HOST_CPU_PARALLEL_H

#include "clsel.h"
#include "cpu/cpu_walk.h"

/* The whole output, on the calling thread or split over the threads or the pool the
 * options name (NULL: the calling thread). */
void clsel_priv_cpu_run_parallel(const cpu_walk *walk, const clsel_cpu_options *options);

#endif
