/* element_width.h - the four element widths clsel moves (1, 2, 4, 8 bytes) as table
 * indices: the CPU path's loops and the OpenCL kernels are tabled by width. */
#ifndef CLSEL_HOST_ELEMENT_WIDTH_H
#define CLSEL_HOST_ELEMENT_WIDTH_H

#include <stddef.h>

/* 0, 1, 2, 3 for elements of 1, 2, 4, 8 bytes; -1 for any other size. */
static inline int clsel_priv_width_index(size_t elem_size)
{
    return elem_size == 1 ? 0 : elem_size == 2 ? 1 : elem_size == 4 ? 2 : elem_size == 8 ? 3 : -1;
}

/* The table slot of an element width the plan has already checked (1, 2, 4 or 8 bytes): 0-3, so
 * that a table of four is never indexed out of range. */
static inline int clsel_priv_width_slot(size_t elem_size)
{
    return elem_size == 1 ? 0 : elem_size == 2 ? 1 : elem_size == 4 ? 2 : 3;
}

#endif
