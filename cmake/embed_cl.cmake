# embed_cl.cmake - turns OpenCL C source files into one C byte array, concatenated in
# order (run with cmake -P):
#   cmake "-DINPUTS=cl/select_contract.h|cl/select.cl"
#         -DOUTPUT=cl_source.c -DSYMBOL=clsel_priv_cl_source -P embed_cl.cmake
# A byte array, not a string literal: compilers limit literal length (MSVC C2026).
foreach(var INPUTS OUTPUT SYMBOL)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "embed_cl.cmake: ${var} is not set")
  endif()
endforeach()

string(REPLACE "|" ";" INPUTS "${INPUTS}")
set(hex "")
set(names "")
foreach(input IN LISTS INPUTS)
  file(READ "${input}" part HEX)
  string(APPEND hex "${part}")
  get_filename_component(name "${input}" NAME)
  list(APPEND names "${name}")
endforeach()
string(REPLACE ";" ", " names "${names}")
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
# Two hex digits per byte -> "0xNN," with a line break every 16 bytes.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
"/* Generated from ${names} by cmake/embed_cl.cmake; do not edit. */
#include <stddef.h>

const unsigned char ${SYMBOL}[] = {
    ${bytes}0x00};
const size_t ${SYMBOL}_size = ${size};
")
# Replace only when the content changed, so that dependents do not rebuild needlessly.
configure_file("${OUTPUT}.tmp" "${OUTPUT}" COPYONLY)
file(REMOVE "${OUTPUT}.tmp")
