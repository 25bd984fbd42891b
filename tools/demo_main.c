/* demo_main.c - clsel-demo: runs the demo on the default device (CLSEL_DEVICE steers it). */
#include "demo.h"

int main(void) { return clsel_demo_run(CLSEL_DEVICE_AUTO, stdout); }
