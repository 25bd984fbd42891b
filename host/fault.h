/* fault.h - test-only fault injection. In a build with CLSEL_FAULT_INJECTION defined,
 * clsel_fault_hit() counts the events of each kind and reports a failure when the
 * count reaches the armed number; the tests arm it through clsel_fault_arm(). In
 * every other build it is a constant 0 and compiles away. */
#ifndef CLSEL_HOST_FAULT_H
#define CLSEL_HOST_FAULT_H

typedef enum clsel_fault_kind { CLSEL_FAULT_ALLOC = 0, CLSEL_FAULT_OPENCL = 1 } clsel_fault_kind;

#ifdef CLSEL_FAULT_INJECTION
#include "clsel.h"
int clsel_fault_hit(clsel_fault_kind kind);
/* Makes the n-th event of `kind` from now fail (n >= 1), or disarms it (n = 0).
 * Returns how many events of that kind happened since the last arming. */
CLSEL_API long clsel_fault_arm(clsel_fault_kind kind, long n);
#else
#define clsel_fault_hit(kind) 0
#endif

#endif
