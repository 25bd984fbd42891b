/* plan_overlap.c - the in-place and overlap rule of a run (docs/semantics.md, Buffers),
 * one implementation for the CPU path's host pointers and the OpenCL path's buffers. */
#include "common/error.h"
#include "plan/plan.h"

/* Whether input `op` is laid out exactly as the output over the walk: in place, each element read
 * where it is written. */
static int same_layout(const clsel_plan *plan, int op)
{
    const plan_iter *it = &plan->iter;
    int same = it->base[op] == it->base[PLAN_OUT];
    for (int32_t d = 0; d < it->rank; ++d)
        same = same && it->strides[op][d] == it->strides[PLAN_OUT][d];
    return same;
}

clsel_status clsel_priv_plan_check_overlap(const clsel_plan *plan,
                                           const plan_span spans[PLAN_OPERANDS], int relative)
{
    const plan_span *out = &spans[PLAN_OUT];
    const uint64_t out_bytes = clsel_priv_plan_tensor_bytes(plan, PLAN_OUT),
                   out_lo = out->begin + (uint64_t)plan->first[PLAN_OUT] * plan->elem_size;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        const plan_span *in = &spans[op];
        const uint64_t bytes = clsel_priv_plan_tensor_bytes(plan, op),
                       lo = in->begin + (uint64_t)plan->first[op] * clsel_priv_plan_width(plan, op);
        if (!in->root || in->root != out->root || !bytes || !out_bytes)
            continue;
        if (lo >= out_lo + out_bytes || out_lo >= lo + bytes)
            continue;
        if (op != PLAN_COND && in->begin == out->begin && same_layout(plan, op))
            continue;
        const uint64_t origin = relative ? (lo < out_lo ? lo : out_lo) : 0;
        return clsel_priv_fail(
            CLSEL_ERROR_BUFFER,
            "out bytes [%llu, %llu) overlap %s bytes [%llu, %llu) of the same %s: only an exact "
            "in-place output (out == then or out == else: the same first element, that input of "
            "the output's shape and layout) is allowed",
            (unsigned long long)(out_lo - origin),
            (unsigned long long)(out_lo - origin + out_bytes), clsel_priv_operand_name(op),
            (unsigned long long)(lo - origin), (unsigned long long)(lo - origin + bytes),
            relative ? "memory" : "buffer");
    }
    return CLSEL_SUCCESS;
}
