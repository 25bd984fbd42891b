/* int_math.h - integer arithmetic more than one file of the CPU path needs. */
#ifndef CLSEL_HOST_INT_MATH_H
#define CLSEL_HOST_INT_MATH_H

#include <stdint.h>

/* The greatest common divisor of a and b (b >= 0; 0 and 0 give 0). */
static inline int64_t clsel_priv_gcd(int64_t a, int64_t b)
{
    while (b) {
        const int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

#endif
