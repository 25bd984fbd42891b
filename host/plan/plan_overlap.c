/* plan_overlap.c - the in-place and overlap rule of a run (docs/semantics.md, Buffers),
 * one implementation for the CPU path's host pointers and the OpenCL path's buffers. */
#include "common/error.h"
#include "plan/plan.h"

clsel_status clsel_priv_plan_check_overlap(const clsel_plan *plan, const plan_span spans[PLAN_OPERANDS], int relative)
{
    static const char *const names[3] = {"cond", "then", "else"};
    const plan_span *out = &spans[PLAN_OUT];
    const uint64_t out_bytes = clsel_priv_plan_tensor_bytes(plan, PLAN_OUT);
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        const plan_span *in = &spans[op];
        const uint64_t bytes = clsel_priv_plan_tensor_bytes(plan, op);
        if (!in->root || in->root != out->root || !bytes || !out_bytes) continue;
        if (in->begin >= out->begin + out_bytes || out->begin >= in->begin + bytes) continue;
        const int in_place = op != PLAN_COND && in->begin == out->begin && plan->in_count[op] == plan->out_count;
        if (in_place) continue;
        const uint64_t origin = relative ? (in->begin < out->begin ? in->begin : out->begin) : 0;
        return clsel_priv_fail(CLSEL_ERROR_BUFFER,
                               "out bytes [%llu, %llu) overlap %s bytes [%llu, %llu) of the same %s: only an exact "
                               "in-place output (out == then or out == else, at the same start, with that input of "
                               "the output's shape) is allowed",
                               (unsigned long long)(out->begin - origin),
                               (unsigned long long)(out->begin - origin + out_bytes), names[op],
                               (unsigned long long)(in->begin - origin),
                               (unsigned long long)(in->begin - origin + bytes), relative ? "memory" : "buffer");
    }
    return CLSEL_SUCCESS;
}
