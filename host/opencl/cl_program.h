/* cl_program.h - the programs clsel builds and the kernels in them: the OpenCL C source (cl/select_contract.h and
 * cl/select.cl), the build options of an element width and form, and the kernel names, from the contract. */
#ifndef CLSEL_HOST_CL_PROGRAM_H
#define CLSEL_HOST_CL_PROGRAM_H

#include "clsel_cl.h"

/* Program forms (cl/select.cl): element-aligned, or for launches whose every 16-byte item is in one row and aligned. */
typedef enum program_form { PROGRAM_ANY = 0, PROGRAM_ALIGNED = 1, PROGRAM_FORMS = 2 } program_form;

/* Kernel slots per program: one per way of reading the three inputs (CLSEL_KERNEL_INDEX of cl/select_contract.h); the
 * aligned form fills only those without a dense input (clsel_priv_cl_form_has_kernel). */
enum { KERNELS_MAX = 27 };

/* The program source (not NUL-terminated), embedded at build time by cmake/embed_cl.cmake. */
extern const unsigned char clsel_priv_cl_source[];
extern const size_t clsel_priv_cl_source_size;

int clsel_priv_cl_form_has_kernel(program_form form, int k);
/* The build options of a program; 0 when they do not fit in `size` bytes. */
int clsel_priv_cl_program_options(size_t elem_size, program_form form, char *options, size_t size);
/* Kernel k (CLSEL_KERNEL_INDEX) of a program for elements of elem_size bytes. */
void clsel_priv_cl_kernel_name(size_t elem_size, int k, char *name, size_t size);

#endif
