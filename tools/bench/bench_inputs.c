/* bench_inputs.c - see bench_inputs.h. */
#include "bench_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static clsel_plan *case_plan(const bench_options *o, const bench_case *c, bench_result *r)
{
    const clsel_shape *shapes = o->quick ? c->quick : c->full;
    clsel_attrs attrs = bench_attrs(c);
    clsel_strides strides;
    bench_view_strides(c->view, shapes[1].dims[0], shapes[1].dims[shapes[1].rank - 1], &strides);
    clsel_plan *plan = NULL;
    memset(r, 0, sizeof *r);
    r->wide_share = -1; /* computed by the sweep only */
    r->c = c;
    r->shapes = shapes;
    if (clsel_plan_create_strided(c->dtype, &shapes[0], &shapes[1], &shapes[2], &attrs, &strides,
                                  &plan) != CLSEL_SUCCESS)
        snprintf(r->error, sizeof r->error, "%s", clsel_last_error());
    return plan;
}

static void inputs_free(bench_inputs *in)
{
    free(in->cond);
    free(in->then_data);
    free(in->else_data);
    memset(in, 0, sizeof *in);
}

static int inputs_make(const bench_case *c, const clsel_plan *plan, bench_inputs *in,
                       bench_result *r)
{
    for (int op = 0; op < 4; ++op) {
        int64_t first = 0;
        uint64_t bytes = 0;
        clsel_plan_tensor_extent(plan, (clsel_operand)op, &first, &bytes);
        in->bytes[op] = (size_t)bytes;
        in->zero[op] = (size_t)-first;
    }
    in->cond = malloc(in->bytes[0] + 1);
    in->then_data = malloc(in->bytes[1] + 1);
    in->else_data = malloc(in->bytes[2] + 1);
    r->elements = clsel_plan_output_count(plan);
    if (!in->cond || !in->then_data || !in->else_data) {
        inputs_free(in);
        return -1;
    }
    bench_fill(c, in->bytes, in->cond, in->then_data, in->else_data);
    r->bytes = bench_bytes(plan, in->cond);
    r->write_bytes = (uint64_t)clsel_plan_output_bytes(plan);
    return 0;
}

clsel_plan *bench_case_prepare(const bench_options *o, const bench_case *c, bench_inputs *in,
                               bench_result *r)
{
    memset(in, 0, sizeof *in);
    clsel_plan *plan = case_plan(o, c, r);
    if (plan && inputs_make(c, plan, in, r) != 0) {
        snprintf(r->error, sizeof r->error, "out of memory");
        clsel_plan_destroy(plan);
        plan = NULL;
    }
    return plan;
}

int bench_host_case_make(bench_host_case *h, int64_t n)
{
    memset(h, 0, sizeof *h);
    clsel_shape s = {1, {n}};
    if (clsel_plan_create(CLSEL_F32, &s, &s, &s, NULL, &h->plan) != CLSEL_SUCCESS)
        return -1;
    h->cond = malloc((size_t)n);
    h->then_data = malloc((size_t)n * 4);
    h->else_data = malloc((size_t)n * 4);
    h->out = malloc((size_t)n * 4);
    if (!h->cond || !h->then_data || !h->else_data || !h->out)
        return -1;
    uint32_t state = 12345;
    for (int64_t i = 0; i < n; ++i) {
        state = state * 1103515245u + 12345u;
        h->cond[i] = (uint8_t)((state >> 16) & 1);
        h->then_data[i] = 1.0f;
        h->else_data[i] = 2.0f;
        h->out[i] = 0.0f;
    }
    return 0;
}

void bench_host_case_free(bench_host_case *h)
{
    clsel_plan_destroy(h->plan);
    free(h->cond);
    free(h->then_data);
    free(h->else_data);
    free(h->out);
}

void bench_case_release(clsel_plan *plan, bench_inputs *in)
{
    inputs_free(in);
    clsel_plan_destroy(plan);
}
