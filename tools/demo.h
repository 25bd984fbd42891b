/* demo.h - the demo: Select-1's own example and two broadcast examples, run through
 * the public runtime API, printed with the device that ran them. */
#ifndef CLSEL_TOOLS_DEMO_H
#define CLSEL_TOOLS_DEMO_H

#include <stdio.h>

#include "clsel.h"

/* Runs the examples on `device` and prints them to `out`; 0 on success, 1 on failure
 * (the reason printed to stderr). */
int clsel_demo_run(clsel_device device, FILE *out);

#endif
