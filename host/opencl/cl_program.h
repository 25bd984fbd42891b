/* cl_program.h - the programs clsel builds and the kernels in them: the OpenCL C source
 * (cl/select_contract.h and cl/select.cl, embedded at build time), the build options of
 * an element width and form, and the kernel names, all from the contract's conventions. */
#ifndef CLSEL_HOST_CL_PROGRAM_H
#define CLSEL_HOST_CL_PROGRAM_H

#include <stddef.h>

#include "clsel_cl.h"

/* The forms of a program (cl/select.cl): element-aligned, or for launches whose every
 * 16-byte item lies in one row and on 16-byte boundaries. */
typedef enum program_form { PROGRAM_ANY = 0, PROGRAM_ALIGNED = 1, PROGRAM_FORMS = 2 } program_form;

/* Kernel slots per program: one per way of reading the three inputs (CLSEL_KERNEL_INDEX of
 * cl/select_contract.h); the aligned form fills only those without a dense input. */
enum { KERNELS_MAX = 27 };

/* Whether program form `form` has kernel k. */
int clsel_priv_cl_form_has_kernel(program_form form, int k);

/* The program source (not NUL-terminated). */
void clsel_priv_cl_program_source(const char **source, size_t *size);

/* The build options of a program; 0 when they do not fit in `size` bytes. */
int clsel_priv_cl_program_options(size_t elem_size, program_form form, char *options, size_t size);

/* Kernel k (CLSEL_KERNEL_INDEX) of a program for elements of elem_size bytes. */
void clsel_priv_cl_kernel_name(size_t elem_size, int k, char *name, size_t size);

#endif
