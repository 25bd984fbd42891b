/* consumer.c - uses an installed clsel: the Select-1 example on the CPU path. */
#include <stdio.h>
#include <string.h>

#include <clsel.h>

int main(void)
{
    const unsigned char cond[6] = {0, 0, 1, 0, 1, 1};
    const int then_data[6] = {-1, 0, 1, 2, 3, 4}, else_data[6] = {11, 10, 9, 8, 7, 6};
    const int expected[6] = {11, 10, 1, 8, 3, 4};
    int out[6];
    clsel_shape s = {2, {3, 2}};
    clsel_status st =
        clsel_select_cpu(CLSEL_I32, &s, cond, &s, then_data, &s, else_data, NULL, out);
    printf("clsel %s: %s\n", clsel_version(), clsel_status_string(st));
    return st == CLSEL_SUCCESS && memcmp(out, expected, sizeof out) == 0 ? 0 : 1;
}
