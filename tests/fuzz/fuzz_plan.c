/* fuzz_plan.c - shape inference and plan creation on anything: ranks -1..9, dims from
 * 0 and 1 to negative, past 2^31 and near INT64_MAX, every mode and cond rule including
 * unknown values, any axis, any dtype number. The library must never crash, must fail
 * with a status and a message, and where it succeeds must agree with the oracle (an
 * independent implementation of docs/semantics.md's shape rules, tests/support/oracle.c). */
#include <string.h>

#include "fuzz_input.h"
#include "oracle.h"

static clsel_shape fuzz_shape(fuzz_input *in)
{
    clsel_shape s;
    memset(&s, 0, sizeof s);
    s.rank = (int32_t)(fuzz_byte(in) % 11) - 1;
    for (int i = 0; i < s.rank && i < CLSEL_MAX_RANK; ++i) s.dims[i] = fuzz_dim(in);
    return s;
}

/* Overflow of the element count or byte size is the library's to find; the oracle only
 * knows shapes. */
static int counts_overflow(const clsel_shape *s, size_t elem_size)
{
    uint64_t n = 1;
    for (int i = 0; i < s->rank; ++i) {
        uint64_t d = (uint64_t)s->dims[i];
        if (d && n > (uint64_t)INT64_MAX / d) return 1;
        n *= d;
    }
    return n > (uint64_t)INT64_MAX / (elem_size ? elem_size : 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    const clsel_dtype dtype = (clsel_dtype)(fuzz_byte(&in) % 16);
    clsel_attrs attrs = clsel_attrs_default();
    attrs.broadcast = (clsel_broadcast)(fuzz_byte(&in) % 4);
    attrs.cond_broadcast = (clsel_cond_broadcast)(fuzz_byte(&in) % 3);
    uint8_t axis_byte = fuzz_byte(&in);
    attrs.axis = axis_byte == 0x80 ? (int64_t)fuzz_u64(&in) : (int64_t)(int8_t)axis_byte;
    clsel_shape shapes[3];
    for (int k = 0; k < 3; ++k) shapes[k] = fuzz_shape(&in);

    clsel_shape inferred;
    memset(&inferred, 0, sizeof inferred);
    const clsel_status infer = clsel_infer_shape(&shapes[0], &shapes[1], &shapes[2], &attrs, &inferred);
    FUZZ_REQUIRE(infer == CLSEL_SUCCESS || *clsel_last_error(), "status %s without a message",
                 clsel_status_string(infer));
    clsel_plan *plan = NULL;
    const clsel_status made = clsel_plan_create(dtype, &shapes[0], &shapes[1], &shapes[2], &attrs, &plan);
    FUZZ_REQUIRE((made == CLSEL_SUCCESS) == (plan != NULL), "status %s, plan %p", clsel_status_string(made),
                 (void *)plan);
    FUZZ_REQUIRE(made == CLSEL_SUCCESS || *clsel_last_error(), "status %s without a message",
                 clsel_status_string(made));
    FUZZ_REQUIRE(strlen(clsel_last_error()) < 4096, "a message of %zu bytes", strlen(clsel_last_error()));
    if (made == CLSEL_SUCCESS) FUZZ_REQUIRE(infer == CLSEL_SUCCESS, "a plan where inference failed");

    const int known_attrs = attrs.broadcast <= CLSEL_BROADCAST_PDPD && attrs.cond_broadcast <= CLSEL_COND_BIDIRECTIONAL;
    if (known_attrs) {
        oracle_case oc;
        memset(&oc, 0, sizeof oc);
        oc.mode = attrs.broadcast;
        oc.axis = attrs.axis;
        oc.cond_broadcast = attrs.cond_broadcast;
        memcpy(oc.shape, shapes, sizeof oc.shape);
        clsel_shape want;
        const int valid = oracle_shape(&oc, &want);
        if (infer == CLSEL_SUCCESS) {
            FUZZ_REQUIRE(valid, "inferred a shape the oracle rejects");
            FUZZ_REQUIRE(want.rank == inferred.rank && memcmp(want.dims, inferred.dims, sizeof(int64_t) * (size_t)want.rank) == 0,
                         "shape differs from the oracle's");
        } else if (valid && infer != CLSEL_ERROR_OVERFLOW) {
            FUZZ_REQUIRE(0, "rejected (%s: %s) what the oracle accepts", clsel_status_string(infer), clsel_last_error());
        }
        if (valid && infer == CLSEL_SUCCESS && made != CLSEL_SUCCESS) {
            int overflow = counts_overflow(&want, clsel_dtype_size(dtype));
            for (int k = 0; k < 3; ++k) overflow |= counts_overflow(&shapes[k], k ? clsel_dtype_size(dtype) : 1);
            FUZZ_REQUIRE(made == CLSEL_ERROR_INVALID_DTYPE || (made == CLSEL_ERROR_OVERFLOW && overflow),
                         "plan failed with %s: %s", clsel_status_string(made), clsel_last_error());
        }
    }
    if (plan) {
        const clsel_shape *out = clsel_plan_output_shape(plan);
        FUZZ_REQUIRE(out->rank == inferred.rank, "plan rank %d, inferred %d", out->rank, inferred.rank);
        FUZZ_REQUIRE(clsel_plan_output_bytes(plan) == (size_t)clsel_plan_output_count(plan) * clsel_dtype_size(dtype),
                     "output bytes");
        char text[64];
        size_t need = clsel_plan_describe(plan, text, sizeof text);
        FUZZ_REQUIRE(strlen(text) < sizeof text && (need < sizeof text || strlen(text) == sizeof text - 1),
                     "describe: %zu", need);
        clsel_plan_destroy(plan);
    }
    return 0;
}
