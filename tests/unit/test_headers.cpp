// test_headers.cpp - both public headers compile as C++ (extern "C", no C-only syntax).
#include "clsel.h"
#include "clsel_cl.h"

int main()
{
    clsel_attrs attrs = clsel_attrs_default();
    clsel_plan *plan = nullptr;
    clsel_shape s = {};
    s.rank = 1;
    s.dims[0] = 3;
    clsel_status st = clsel_plan_create(CLSEL_I32, &s, &s, &s, &attrs, &plan);
    clsel_plan_destroy(plan);
    clsel_cl_context_destroy(nullptr);
    return st == CLSEL_SUCCESS ? 0 : 1;
}
