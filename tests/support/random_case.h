/* random_case.h - random Select cases for the differential and thread tests: an output
 * shape of at most RANDOM_CASE_MAX_ELEMENTS elements, a broadcast mode, and input shapes
 * derived from it (now and then broken, so that invalid cases come up too). */
#ifndef CLSEL_TESTS_RANDOM_CASE_H
#define CLSEL_TESTS_RANDOM_CASE_H

#include "oracle.h"
#include "test_util.h"

enum {
    RANDOM_CASE_MAX_ELEMENTS = 1 << 15
};

/* A random case; its elem_size is left 0 (the dtype is the caller's choice). */
oracle_case random_case(rng *r);

/* A case of the shapes that make periodic gathers: numpy mode, rank 2-6, short inner
 * dims (1-40), a longer outermost one, each input full on a random subset of the dims
 * (an element repeated over a short dim, a short row tiled, or both). */
oracle_case random_case_periodic(rng *r);

/* The attributes of a case, for clsel_plan_create. */
clsel_attrs random_case_attrs(const oracle_case *c);

#endif
