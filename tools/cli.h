/* cli.h - what the clsel command-line tool's commands share: exit codes, messages,
 * option parsing. The tool uses only the public clsel API. */
#ifndef CLSEL_TOOLS_CLI_H
#define CLSEL_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "clsel.h"

enum {
    CLI_OK = 0,
    CLI_FAILED = 1,
    CLI_USAGE = 2
};

/* The commands: argv[0] is the command name. Each returns an exit status. */
int cmd_run(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_kernels(int argc, char **argv);

/* "clsel COMMAND: problem" and a one-line hint on stderr; returns CLI_USAGE. */
int cli_usage(const char *command, const char *fmt, ...);

/* "clsel: problem" on stderr; returns CLI_FAILED. */
int cli_fail(const char *fmt, ...);

/* Matches argv[*i] against "--name VALUE" or "--name=VALUE"; on a match sets *value
 * (NULL when the value is missing), advances *i past a separate value, returns 1. */
int cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* Name tables for option values; each returns 0 and sets *out, or -1 for an unknown
 * name. "explicit" is OpenVINO's IR spelling of "none". */
int cli_parse_device(const char *text, clsel_device *out);
int cli_parse_broadcast(const char *text, clsel_broadcast *out);
int cli_parse_cond_broadcast(const char *text, clsel_cond_broadcast *out);
int cli_parse_int64(const char *text, int64_t *out);

#define CLI_SHAPE_TEXT_MAX 200
/* "2,3,4" or "{2,3,4}"; "{}" or "" is a scalar. 0, or -1 for anything else. */
int cli_parse_shape(const char *text, clsel_shape *out);
/* "{2,3,4}", "{}" for rank 0. Returns buf. */
const char *cli_shape_text(const clsel_shape *shape, char buf[CLI_SHAPE_TEXT_MAX]);

#endif
