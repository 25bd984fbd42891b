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
    for (int i = 0; i < s.rank && i < CLSEL_MAX_RANK; ++i)
        s.dims[i] = fuzz_dim(in);
    return s;
}

/* Overflow of the element count or byte size is the library's to find; the oracle only
 * knows shapes. */
static int counts_overflow(const clsel_shape *s, size_t elem_size)
{
    uint64_t n = 1;
    for (int i = 0; i < s->rank; ++i) {
        uint64_t d = (uint64_t)s->dims[i];
        if (d && n > (uint64_t)INT64_MAX / d)
            return 1;
        n *= d;
    }
    return n > (uint64_t)INT64_MAX / (elem_size ? elem_size : 1);
}

/* The bytes a tensor of `shape` with element strides `strides` reaches around its element [0], in
 * 128 bits (the library's int64 arithmetic must refuse what overflows, never wrap). */
__extension__ typedef __int128 int128;

static void reach128(const clsel_shape *shape, const int64_t *strides, size_t w, int128 *first,
                     int128 *bytes)
{
    int128 below = 0, above = 0;
    for (int a = 0; a < shape->rank; ++a) {
        const int128 e = (int128)strides[a] * (shape->dims[a] - 1);
        if (shape->dims[a] > 1)
            *(e < 0 ? &below : &above) += e;
    }
    *first = below * (int128)w;
    *bytes = (above - below + 1) * (int128)w;
}

/* Strides from the input (the table's dims, signed, and raw 64-bit values) on a plan that was valid
 * dense: the library must refuse only with a status and a message, and where it accepts report the
 * extent computed here. */
static void fuzz_strides(fuzz_input *in, clsel_dtype dtype, const clsel_shape shapes[3],
                         const clsel_attrs *attrs, const clsel_plan *dense)
{
    clsel_strides strides = clsel_strides_default();
    strides.strided = fuzz_byte(in) % 32; /* bit 4: unknown, must be refused */
    const clsel_shape *out = clsel_plan_output_shape(dense);
    for (int op = 0; op < 4; ++op)
        for (int a = 0; a < CLSEL_MAX_RANK; ++a) {
            const uint8_t kind = fuzz_byte(in);
            const int64_t dim = kind < 0xF0 ? fuzz_dim(in) : (int64_t)fuzz_u64(in);
            strides.strides[op][a] = (kind & 1) && dim != INT64_MIN ? -dim : dim;
        }
    clsel_plan *plan = NULL;
    const clsel_status made = clsel_plan_create_strided(dtype, &shapes[0], &shapes[1], &shapes[2],
                                                        attrs, &strides, &plan);
    FUZZ_REQUIRE((made == CLSEL_SUCCESS) == (plan != NULL), "strided: status %s, plan %p",
                 clsel_status_string(made), (void *)plan);
    FUZZ_REQUIRE(made == CLSEL_SUCCESS || *clsel_last_error(),
                 "strided: status %s without a message", clsel_status_string(made));
    FUZZ_REQUIRE(made != CLSEL_SUCCESS || strides.strided < 16, "strided: unknown bits accepted");
    if (!plan)
        return;
    const int empty = clsel_plan_output_count(plan) == 0;
    for (int op = 0; op < 4; ++op) {
        const clsel_shape *shape = op == 3 ? out : &shapes[op];
        int64_t dense_strides[CLSEL_MAX_RANK], step = 1;
        for (int a = shape->rank - 1; a >= 0 && !empty; --a)
            dense_strides[a] = step, step *= shape->dims[a];
        const size_t w = op ? clsel_dtype_size(dtype) : 1;
        int128 first = 0, bytes = 0;
        if (!empty)
            reach128(shape, (strides.strided >> op & 1) ? strides.strides[op] : dense_strides, w,
                     &first, &bytes);
        int64_t got_first = 1;
        uint64_t got_bytes = 1;
        FUZZ_REQUIRE(clsel_plan_tensor_extent(plan, (clsel_operand)op, &got_first, &got_bytes) ==
                         CLSEL_SUCCESS,
                     "extent of %d", op);
        FUZZ_REQUIRE(got_first == (int64_t)first && got_bytes == (uint64_t)bytes,
                     "tensor %d extent [%lld, +%llu), expected [%lld, +%lld)", op,
                     (long long)got_first, (unsigned long long)got_bytes, (long long)first,
                     (long long)bytes);
    }
    clsel_plan_destroy(plan);
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
    for (int k = 0; k < 3; ++k)
        shapes[k] = fuzz_shape(&in);

    clsel_shape inferred;
    memset(&inferred, 0, sizeof inferred);
    const clsel_status infer =
        clsel_infer_shape(&shapes[0], &shapes[1], &shapes[2], &attrs, &inferred);
    FUZZ_REQUIRE(infer == CLSEL_SUCCESS || *clsel_last_error(), "status %s without a message",
                 clsel_status_string(infer));
    clsel_plan *plan = NULL;
    const clsel_status made =
        clsel_plan_create(dtype, &shapes[0], &shapes[1], &shapes[2], &attrs, &plan);
    FUZZ_REQUIRE((made == CLSEL_SUCCESS) == (plan != NULL), "status %s, plan %p",
                 clsel_status_string(made), (void *)plan);
    FUZZ_REQUIRE(made == CLSEL_SUCCESS || *clsel_last_error(), "status %s without a message",
                 clsel_status_string(made));
    FUZZ_REQUIRE(strlen(clsel_last_error()) < 4096, "a message of %zu bytes",
                 strlen(clsel_last_error()));
    if (made == CLSEL_SUCCESS)
        FUZZ_REQUIRE(infer == CLSEL_SUCCESS, "a plan where inference failed");

    const int known_attrs =
        attrs.broadcast <= CLSEL_BROADCAST_PDPD && attrs.cond_broadcast <= CLSEL_COND_BIDIRECTIONAL;
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
            FUZZ_REQUIRE(
                want.rank == inferred.rank &&
                    memcmp(want.dims, inferred.dims, sizeof(int64_t) * (size_t)want.rank) == 0,
                "shape differs from the oracle's");
        } else if (valid && infer != CLSEL_ERROR_OVERFLOW) {
            FUZZ_REQUIRE(0, "rejected (%s: %s) what the oracle accepts", clsel_status_string(infer),
                         clsel_last_error());
        }
        if (valid && infer == CLSEL_SUCCESS && made != CLSEL_SUCCESS) {
            int overflow = counts_overflow(&want, clsel_dtype_size(dtype));
            for (int k = 0; k < 3; ++k)
                overflow |= counts_overflow(&shapes[k], k ? clsel_dtype_size(dtype) : 1);
            FUZZ_REQUIRE(made == CLSEL_ERROR_INVALID_DTYPE ||
                             (made == CLSEL_ERROR_OVERFLOW && overflow),
                         "plan failed with %s: %s", clsel_status_string(made), clsel_last_error());
        }
    }
    if (plan) {
        const clsel_shape *out = clsel_plan_output_shape(plan);
        FUZZ_REQUIRE(out->rank == inferred.rank, "plan rank %d, inferred %d", out->rank,
                     inferred.rank);
        FUZZ_REQUIRE(clsel_plan_output_bytes(plan) ==
                         (size_t)clsel_plan_output_count(plan) * clsel_dtype_size(dtype),
                     "output bytes");
        char text[64];
        size_t need = clsel_plan_describe(plan, text, sizeof text);
        FUZZ_REQUIRE(strlen(text) < sizeof text &&
                         (need < sizeof text || strlen(text) == sizeof text - 1),
                     "describe: %zu", need);
        fuzz_strides(&in, dtype, shapes, &attrs, plan);
        clsel_plan_destroy(plan);
    }
    return 0;
}
