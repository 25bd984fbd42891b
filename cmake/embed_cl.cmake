# embed_cl.cmake - turns an OpenCL C source file into a C byte array (run with cmake -P).
#   cmake -DINPUT=cl/select.cl -DOUTPUT=select_cl_source.c -DSYMBOL=clsel_priv_select_cl_source -P embed_cl.cmake
# A byte array, not a string literal: compilers limit literal length (MSVC C2026).
foreach(var INPUT OUTPUT SYMBOL)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "embed_cl.cmake: ${var} is not set")
  endif()
endforeach()

file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
# Two hex digits per byte -> "0xNN," with a line break every 16 bytes.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
get_filename_component(name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
"/* Generated from ${name} by cmake/embed_cl.cmake; do not edit. */
#include <stddef.h>

const unsigned char ${SYMBOL}[] = {
    ${bytes}0x00};
const size_t ${SYMBOL}_size = ${size};
")
# Replace only when the content changed, so that dependents do not rebuild needlessly.
configure_file("${OUTPUT}.tmp" "${OUTPUT}" COPYONLY)
file(REMOVE "${OUTPUT}.tmp")
