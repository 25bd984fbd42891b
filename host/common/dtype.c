/* dtype.c - the element type table: names, sizes, aliases, and the dtype rules. */
#include <string.h>

#include "common/error.h"

/* One row per clsel_dtype, indexed by its number. */
static const struct {
    const char *name;  /* canonical, as clsel_dtype_name returns it */
    const char *alias; /* numpy-style spelling accepted by clsel_dtype_from_name */
    size_t size;
} dtype_table[] = {
    [CLSEL_DTYPE_INVALID] = {"invalid", NULL, 0},
    [CLSEL_BOOLEAN] = {"boolean", "bool", 1},
    [CLSEL_U8] = {"u8", "uint8", 1},
    [CLSEL_I8] = {"i8", "int8", 1},
    [CLSEL_U16] = {"u16", "uint16", 2},
    [CLSEL_I16] = {"i16", "int16", 2},
    [CLSEL_F16] = {"f16", "float16", 2},
    [CLSEL_BF16] = {"bf16", "bfloat16", 2},
    [CLSEL_U32] = {"u32", "uint32", 4},
    [CLSEL_I32] = {"i32", "int32", 4},
    [CLSEL_F32] = {"f32", "float32", 4},
    [CLSEL_U64] = {"u64", "uint64", 8},
    [CLSEL_I64] = {"i64", "int64", 8},
    [CLSEL_F64] = {"f64", "float64", 8},
};

#define DTYPE_COUNT (sizeof dtype_table / sizeof dtype_table[0])

static int dtype_valid(clsel_dtype t)
{
    return (unsigned)t > 0 && (unsigned)t < DTYPE_COUNT;
}

size_t clsel_dtype_size(clsel_dtype t)
{
    return dtype_valid(t) ? dtype_table[t].size : 0;
}

const char *clsel_dtype_name(clsel_dtype t)
{
    return dtype_valid(t) ? dtype_table[t].name : dtype_table[CLSEL_DTYPE_INVALID].name;
}

clsel_dtype clsel_dtype_from_name(const char *name)
{
    if (!name)
        return CLSEL_DTYPE_INVALID;
    for (unsigned t = 1; t < DTYPE_COUNT; ++t)
        if (strcmp(name, dtype_table[t].name) == 0 || strcmp(name, dtype_table[t].alias) == 0)
            return (clsel_dtype)t;
    return CLSEL_DTYPE_INVALID;
}

clsel_status clsel_check_dtypes(clsel_dtype cond, clsel_dtype then_dtype, clsel_dtype else_dtype)
{
    if (!dtype_valid(then_dtype) || !dtype_valid(else_dtype))
        return clsel_priv_fail(CLSEL_ERROR_INVALID_DTYPE,
                               "unknown dtype: then is %d (%s), else is %d (%s)", (int)then_dtype,
                               clsel_dtype_name(then_dtype), (int)else_dtype,
                               clsel_dtype_name(else_dtype));
    if (cond != CLSEL_BOOLEAN && cond != CLSEL_U8)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_DTYPE,
                               "cond must be boolean or u8 (one byte, nonzero = true), not %s",
                               clsel_dtype_name(cond));
    if (then_dtype != else_dtype)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_DTYPE,
                               "then and else must have the same dtype: then is %s, else is %s",
                               clsel_dtype_name(then_dtype), clsel_dtype_name(else_dtype));
    return CLSEL_SUCCESS;
}
