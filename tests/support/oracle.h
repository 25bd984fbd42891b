/* oracle.h - an independent reference for Select, written from docs/semantics.md without any of
 * the library's code: its own shape rules, and a naive per-element index unravel. */
#ifndef CLSEL_TESTS_ORACLE_H
#define CLSEL_TESTS_ORACLE_H

#include <stdint.h>

#include "clsel.h"

typedef struct oracle_case {
    clsel_broadcast mode;
    int64_t axis;
    clsel_cond_broadcast cond_broadcast;
    size_t elem_size;
    clsel_shape shape[3]; /* cond, then, else */
} oracle_case;

/* 1 and the output shape when the shapes are valid for the mode, 0 otherwise. */
int oracle_shape(const oracle_case *c, clsel_shape *out);

/* Element count of a shape. */
int64_t oracle_count(const clsel_shape *s);

/* The element out[o] takes: its address in then_data or else_data. */
const void *oracle_source(const oracle_case *c, const clsel_shape *out_shape, int64_t o,
                          const uint8_t *cond, const void *then_data, const void *else_data);

/* out = cond ? then : else over `out_shape` (from oracle_shape), element by element. */
void oracle_select(const oracle_case *c, const clsel_shape *out_shape, const uint8_t *cond,
                   const void *then_data, const void *else_data, void *out);

#endif
