/* cl_program.c - see cl_program.h. */
#include "opencl/cl_program.h"

#include <stdio.h>

#include "common/element_width.h"
#include "common/error.h"
#include "common/tuning_constants.h" /* CL_ITEMS_BY_WIDTH */

static const int rank_classes[RANK_CLASSES] = CLSEL_RANK_CLASSES;

int clsel_priv_cl_rank_class(int32_t rank)
{
    int i = 0;
    while (i < RANK_CLASSES - 1 && rank > rank_classes[i])
        ++i; /* the last class takes every rank up to CLSEL_MAX_RANK */
    return rank_classes[i];
}

static int class_index(int rank)
{
    for (int i = 0; i < RANK_CLASSES; ++i)
        if (rank == rank_classes[i])
            return i;
    return -1;
}

int clsel_priv_cl_variant_index(const kernel_variant *v)
{
    const int w = clsel_priv_width_index(v->width), r = class_index(v->rank);
    if (w < 0 || r < 0 || v->write < 0 || v->write >= CLSEL_WRITES)
        return -1;
    int index = w * RANK_CLASSES + r;
    for (int op = 0; op < 3; ++op) {
        if (v->read[op] < 0 || v->read[op] >= CLSEL_READS)
            return -1;
        index = index * CLSEL_READS + v->read[op];
    }
    int items = 0; /* log2 of the item count */
    while (items < ITEM_COUNTS - 1 && (1u << items) < v->items)
        ++items;
    if ((1u << items) != v->items)
        return -1;
    return ((index * CLSEL_WRITES + v->write) * 2 + (v->dense != 0)) * ITEM_COUNTS + items;
}

unsigned clsel_priv_cl_items(size_t width)
{
    static const unsigned items[ELEMENT_WIDTHS] = CL_ITEMS_BY_WIDTH;
    const int w = clsel_priv_width_index(width);
    return w < 0 ? 1 : items[w];
}

/* Only defines: every OpenCL 1.2 driver accepts -D; no fast-math options (the kernels do no
 * arithmetic on values). */
int clsel_priv_cl_program_options(const kernel_variant *v, char *options, size_t size)
{
    const int n = snprintf(
        options, size,
        "-DCLSEL_WIDTH=%zu -DCLSEL_RANK=%d -DCLSEL_COND=%d -DCLSEL_THEN=%d -DCLSEL_ELSE=%d "
        "-DCLSEL_OUT=%d -DCLSEL_DENSE=%d -DCLSEL_ITEMS=%u",
        v->width, v->rank, v->read[0], v->read[1], v->read[2], v->write, v->dense != 0, v->items);
    return n > 0 && (size_t)n < size;
}

void clsel_priv_cl_kernel_name(const kernel_variant *v, char *name, size_t size)
{
    snprintf(name, size, CLSEL_KERNEL_NAME_FORMAT, (int)v->width, v->rank, v->read[0], v->read[1],
             v->read[2], v->write, v->dense != 0);
}

clsel_status clsel_cl_kernel_source(const char **source, size_t *source_size)
{
    if (!source || !source_size)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_kernel_source: %s is NULL",
                               !source ? "source" : "source_size");
    *source = (const char *)clsel_priv_cl_source;
    *source_size = clsel_priv_cl_source_size;
    return CLSEL_SUCCESS;
}
