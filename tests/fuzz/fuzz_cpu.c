/* fuzz_cpu.c - the CPU path against the oracle on small random problems: shapes of
 * rank 0-5 with dims 0-5, every mode, cond rule, axis and dtype, data taken from the
 * input (cond bytes of any value, element bits of any pattern), run plain, in place
 * where allowed, and through the options entry point; results compared bit for bit,
 * and the bytes past the output must stay untouched. */
#include <string.h>

#include "fuzz_input.h"
#include "oracle.h"

enum {
    MAX_OUT = 4096,
    GUARD = 64
};

static void fill(uint8_t *p, size_t n, fuzz_input *in)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = in->size ? fuzz_byte(in) : (uint8_t)(i * 37u + 11u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    const clsel_dtype dtype = (clsel_dtype)(1 + fuzz_byte(&in) % 13);
    oracle_case oc;
    memset(&oc, 0, sizeof oc);
    oc.mode = (clsel_broadcast)(fuzz_byte(&in) % 3);
    oc.cond_broadcast = (clsel_cond_broadcast)(fuzz_byte(&in) % 2);
    oc.axis = (int64_t)(fuzz_byte(&in) % 7) - 1;
    oc.elem_size = clsel_dtype_size(dtype);
    for (int k = 0; k < 3; ++k) {
        oc.shape[k].rank = fuzz_byte(&in) % 6;
        for (int i = 0; i < oc.shape[k].rank; ++i)
            oc.shape[k].dims[i] = fuzz_byte(&in) % 6;
    }
    clsel_shape out_shape;
    const int valid = oracle_shape(&oc, &out_shape);
    clsel_attrs attrs = clsel_attrs_default();
    attrs.broadcast = oc.mode;
    attrs.axis = oc.axis;
    attrs.cond_broadcast = oc.cond_broadcast;
    clsel_plan *plan = NULL;
    const clsel_status st =
        clsel_plan_create(dtype, &oc.shape[0], &oc.shape[1], &oc.shape[2], &attrs, &plan);
    FUZZ_REQUIRE((st == CLSEL_SUCCESS) == valid, "plan %s (%s), oracle %s", clsel_status_string(st),
                 clsel_last_error(), valid ? "valid" : "invalid");
    if (!plan)
        return 0;
    const int64_t n_out = oracle_count(&out_shape);
    if (n_out > MAX_OUT) {
        clsel_plan_destroy(plan);
        return 0;
    }
    const size_t w = oc.elem_size;
    const size_t nc = (size_t)oracle_count(&oc.shape[0]), nt = (size_t)oracle_count(&oc.shape[1]),
                 ne = (size_t)oracle_count(&oc.shape[2]), no = (size_t)n_out;
    uint8_t *cond = malloc(nc + 1), *t = malloc(nt * w + 1), *e = malloc(ne * w + 1);
    uint8_t *want = malloc(no * w + 1), *got = malloc(no * w + GUARD);
    FUZZ_REQUIRE(cond && t && e && want && got, "out of memory");
    fill(cond, nc, &in);
    fill(t, nt * w, &in);
    fill(e, ne * w, &in);
    oracle_select(&oc, &out_shape, cond, t, e, want);

    memset(got, 0xA5, no * w + GUARD);
    FUZZ_REQUIRE(clsel_plan_run_cpu(plan, cond, t, e, got) == CLSEL_SUCCESS, "run: %s",
                 clsel_last_error());
    FUZZ_REQUIRE(memcmp(got, want, no * w) == 0, "CPU path differs from the oracle");
    for (size_t i = 0; i < GUARD; ++i)
        FUZZ_REQUIRE(got[no * w + i] == 0xA5, "wrote past the output");

    clsel_cpu_options options = clsel_cpu_options_default();
    options.threads = 3;
    memset(got, 0xA5, no * w);
    FUZZ_REQUIRE(clsel_plan_run_cpu_options(plan, cond, t, e, got, &options) == CLSEL_SUCCESS,
                 "options run");
    FUZZ_REQUIRE(memcmp(got, want, no * w) == 0, "options run differs from the oracle");

    if (nt == no && no > 0) { /* in place on then */
        FUZZ_REQUIRE(clsel_plan_run_cpu(plan, cond, t, e, t) == CLSEL_SUCCESS, "in place: %s",
                     clsel_last_error());
        FUZZ_REQUIRE(memcmp(t, want, no * w) == 0, "in place differs");
    } else if (nt > 0 && no > 1 && nt * w > 1) { /* a partial overlap must be refused, untouched */
        const size_t kept = nt * w < no * w ? nt * w : no * w;
        memcpy(got, t, kept);
        clsel_status overlap = clsel_plan_run_cpu(plan, cond, t, e, t + 1);
        FUZZ_REQUIRE(overlap == CLSEL_ERROR_BUFFER, "partial overlap gave %s",
                     clsel_status_string(overlap));
        FUZZ_REQUIRE(memcmp(got, t, kept) == 0, "a refused run wrote to its input");
    }
    free(cond);
    free(t);
    free(e);
    free(want);
    free(got);
    clsel_plan_destroy(plan);
    return 0;
}
