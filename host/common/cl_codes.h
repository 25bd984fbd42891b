/* cl_codes.h - symbolic names of OpenCL status codes, for messages. Needs no CL headers. */
#ifndef CLSEL_HOST_CL_CODES_H
#define CLSEL_HOST_CL_CODES_H

#include <stdint.h>

/* "CL_INVALID_MEM_OBJECT" for -38, "CL_PLATFORM_NOT_FOUND_KHR" for -1001, ...;
 * "unknown OpenCL error" for codes it does not know. Never NULL. */
const char *clsel_priv_cl_code_name(int32_t code);

#endif
