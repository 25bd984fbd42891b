/* plan_period.c - see plan.h (plan_period). The CPU path (host/cpu/cpu_gather.c) and the
 * OpenCL blocks family (cl/select_blocks.cl, through host/opencl/cl_enqueue.c) both
 * build their periodic shuffle tables from this description; each checks only what its
 * own shuffles can reach (a 32-byte window of two loads on AVX2, 16 bytes of one load in
 * the kernels). */
#include "plan/plan.h"

#include "common/tuning_constants.h" /* PLAN_TABLE_BYTES, PLAN_TABLE_BELOW_RUN_BYTES */

void clsel_priv_plan_period(const clsel_plan *plan, const plan_blocks *b, int op, size_t w, int whole_runs,
                            plan_period *p)
{
    const int64_t *stride = plan->strides[op];
    const int32_t top = b->inner; /* the dims whole in every block; the split dim's extent varies */
    p->copies = plan->rank > 0 && stride[0] != 0;
    p->element = w;
    p->run_dims = 0;
    int64_t run = 1;
    while (p->run_dims < top && stride[p->run_dims] == (p->copies ? run : 0)) run *= plan->dims[p->run_dims++];
    p->run_bytes = run * (int64_t)w;
    /* A short contiguous run repeated along the next dims is one wider element repeated:
     * a splat of that width (3 bytes repeated 8 times is no such thing). */
    if (whole_runs && p->copies && p->run_dims < top && stride[p->run_dims] == 0 && p->run_bytes <= 8 &&
        (p->run_bytes & (p->run_bytes - 1)) == 0) {
        p->copies = 0;
        p->element = (size_t)p->run_bytes;
        while (p->run_dims < top && stride[p->run_dims] == 0) p->run_bytes *= plan->dims[p->run_dims++];
    }
    p->fewest = p->most = 0;
    if (b->access[op] != PLAN_ACCESS_PATTERN || p->run_bytes >= PLAN_TABLE_BELOW_RUN_BYTES) return;
    int32_t most = 0;
    for (int64_t bytes = (int64_t)w; most < top && bytes * plan->dims[most] <= PLAN_TABLE_BYTES;)
        bytes *= plan->dims[most++];
    /* Worth it where the loop it replaces does more than one store per 16 bytes: runs
     * shorter than a piece, or a dim along which the run is copied again (a tile rebuilt
     * per index) among the dims the table takes. Runs of 16-63 bytes stepping along every
     * dim above are one splat or copy each, cheaper than a piece per 16 bytes: i16 then
     * [553655,7,1] against [7,13] ran at 2.5x the time shuffled on the CPU path, 1.5x in
     * the blocks family. */
    int32_t repeated = p->run_dims;
    while (repeated < most && stride[repeated] != 0) ++repeated;
    int32_t fewest = p->run_bytes < 16 ? p->run_dims + 1 : repeated + 1;
    /* Where the run is short or the dim above repeats it, a back end that moves a run
     * element by element gains from a table of the run alone, whose pieces span several
     * runs (the blocks family: f16 repeated 4 times along the split dim ran 1.4x faster,
     * u8 runs of 40 bytes repeated 13 times 1.15x). One that moves a run whole, in one
     * splat or copy, does not: the same tables made the CPU path 1.8-2.1x slower on three
     * patterns with runs of 4-12 bytes. */
    const int next_repeats = p->run_dims < plan->rank && stride[p->run_dims] == 0;
    if (!whole_runs && (p->run_bytes < 16 || next_repeats)) fewest = p->run_dims > 1 ? p->run_dims : 1;
    if (fewest > most) return;
    p->fewest = fewest;
    p->most = most;
}
