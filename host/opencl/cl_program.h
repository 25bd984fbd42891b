/* cl_program.h - the kernels clsel builds: one program per kernel variant (an element width, a rank
 * class, a read kind per input and a write kind for the output, cl/select_contract.h), its
 * clBuildProgram options and kernel name, and the program source (cl/select_contract.h and
 * cl/select.cl). */
#ifndef CLSEL_HOST_CL_PROGRAM_H
#define CLSEL_HOST_CL_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "cl/select_contract.h"
#include "clsel_cl.h"

enum {
    ELEMENT_WIDTHS = 4, /* 1, 2, 4, 8 bytes */
    RANK_CLASSES = 6,   /* CLSEL_RANK_CLASSES */
    ITEM_COUNTS = 4,    /* 16-byte items per work-item: 1, 2, 4 or 8 */
    KERNEL_VARIANTS = ELEMENT_WIDTHS * RANK_CLASSES * CLSEL_READS * CLSEL_READS * CLSEL_READS *
                      CLSEL_WRITES * 2 * ITEM_COUNTS
};

/* One kernel: what its build options say. */
typedef struct kernel_variant {
    size_t width;   /* element bytes */
    int rank;       /* a rank class: the dims the kernel walks */
    int read[3];    /* CLSEL_READ_* of cond, then, else */
    int write;      /* CLSEL_WRITE_* of out */
    int dense;      /* CLSEL_DENSE: every ROWS tensor is dense */
    unsigned items; /* CLSEL_ITEMS: 16-byte items per work-item */
} kernel_variant;

/* The program source (not NUL-terminated), embedded at build time by cmake/embed_cl.cmake. */
extern const unsigned char clsel_priv_cl_source[];
extern const size_t clsel_priv_cl_source_size;

/* The smallest rank class that walks `rank` dims (1 for rank 0). */
int clsel_priv_cl_rank_class(int32_t rank);
/* The variant's slot among KERNEL_VARIANTS; -1 for a width, rank class, kind or item count that
 * does not exist. */
int clsel_priv_cl_variant_index(const kernel_variant *v);
/* The 16-byte items a work-item takes by default, for elements of `width` bytes
 * (CL_ITEMS_BY_WIDTH); launches of some kinds take other counts (cl_launch.c, launch_items). */
unsigned clsel_priv_cl_items(size_t width);
/* The build options of a variant; 0 when they do not fit in `size` bytes. */
int clsel_priv_cl_program_options(const kernel_variant *v, char *options, size_t size);
/* The variant's kernel name (CLSEL_KERNEL_NAME_FORMAT). */
void clsel_priv_cl_kernel_name(const kernel_variant *v, char *name, size_t size);

#endif
