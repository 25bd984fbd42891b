/* check.c - the tally behind check.h. */
#include "check.h"

_Atomic int check_failures = 0;
_Atomic int check_count = 0;

int check_report(const char *test_name)
{
    printf("%s: %d checks, %d failed\n", test_name, (int)check_count, (int)check_failures);
    if (check_count == 0) {
        fprintf(stderr, "%s: no checks ran\n", test_name);
        return 1;
    }
    return check_failures ? 1 : 0;
}
