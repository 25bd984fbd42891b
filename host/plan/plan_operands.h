/* plan_operands.h - the operand vocabulary that the plan, the CPU path and the OpenCL host
 * code share: the slot of each tensor of a run, and the index of a loop or kernel that
 * is specialised on one yes/no per input. Defined here once; the kernels, which are
 * OpenCL C and cannot include host headers, spell the variant index in their contract
 * (cl/select_contract.h), and host/opencl/cl_program.c proves the two equal at compile
 * time. */
#ifndef CLSEL_HOST_PLAN_OPERANDS_H
#define CLSEL_HOST_PLAN_OPERANDS_H

#include "clsel.h"

/* The tensors of a run, as array slots: cond, then and else keep the numbers of the
 * public clsel_operand (clsel_plan_input_count indexes the plan's arrays with it), and
 * the output is the fourth. */
enum {
    PLAN_COND = CLSEL_OPERAND_COND,
    PLAN_THEN = CLSEL_OPERAND_THEN,
    PLAN_ELSE = CLSEL_OPERAND_ELSE,
    PLAN_OUT = 3,
    PLAN_OPERANDS = 4
};

/* Variants. The row loops of the CPU path and the kernels of both OpenCL families come in
 * eight forms, one per combination of a yes/no for each input; what the yes means is
 * the consumer's (CPU rows: the input advances one element per output element, where no
 * means it is read at [0]; vectors kernels: it advances along the collapsed innermost
 * dim; blocks kernels: it is read in place rather than gathered). The forms are tabled
 * by this index, cond the high bit: [cond * 4 + then * 2 + else]. */
enum { PLAN_VARIANT_COND = 4, PLAN_VARIANT_THEN = 2, PLAN_VARIANT_ELSE = 1, PLAN_VARIANTS = 8 };

/* The variant of the yes/no (1/0) of cond, then and else. */
static inline int clsel_priv_plan_variant(int cond, int then_yes, int else_yes)
{
    return cond * PLAN_VARIANT_COND + then_yes * PLAN_VARIANT_THEN + else_yes * PLAN_VARIANT_ELSE;
}

#endif
