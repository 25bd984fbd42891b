# check_symbols.cmake - the names the two libraries export, run as the ctest `symbols`:
#   cmake -DNM=nm -DSHARED=libclsel.so -DSTATIC=libclsel.a -DHEADERS=clsel.h,clsel_cl.h
#         -P cmake/check_symbols.cmake
#
# The shared library exports exactly the functions the public headers declare. The
# static library defines those and internal symbols, which all carry the one internal
# prefix clsel_priv_: a program that links it statically can collide with nothing but
# clsel_ names (OpenCL's own cl_ and CL_ namespace stays free).
cmake_minimum_required(VERSION 3.13)

set(api "")
string(REPLACE "," ";" HEADERS "${HEADERS}")
foreach(header IN LISTS HEADERS)
  file(READ "${header}" text)
  string(REGEX MATCHALL "CLSEL_API[^;(]*[ *](clsel_[a-z0-9_]+)[ \t\n]*\\(" declarations "${text}")
  foreach(declaration IN LISTS declarations)
    string(REGEX REPLACE ".*[ *](clsel_[a-z0-9_]+)[ \t\n]*\\($" "\\1" name "${declaration}")
    list(APPEND api "${name}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES api)
list(LENGTH api api_count)
if(api_count LESS 20)
  message(FATAL_ERROR "check_symbols: found only ${api_count} declarations in ${HEADERS}")
endif()

function(defined_globals library dynamic out)
  if(dynamic)
    execute_process(COMMAND "${NM}" -D --defined-only "${library}" OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  else()
    execute_process(COMMAND "${NM}" -g --defined-only "${library}" OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_symbols: ${NM} failed on ${library}")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  set(names "")
  foreach(line IN LISTS lines)
    # "address type name"; archive member headers ("x.o:") and blank lines have no type.
    if(line MATCHES "^[0-9a-fA-F]+ [A-Za-z] ([^ ]+)$")
      list(APPEND names "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES names)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

set(failures "")
defined_globals("${SHARED}" 1 shared_names)
foreach(name IN LISTS shared_names)
  if(NOT name IN_LIST api)
    string(APPEND failures "${SHARED} exports ${name}, which no public header declares\n")
  endif()
endforeach()
foreach(name IN LISTS api)
  if(NOT name IN_LIST shared_names)
    string(APPEND failures "${SHARED} does not export ${name}\n")
  endif()
endforeach()

defined_globals("${STATIC}" 0 static_names)
foreach(name IN LISTS static_names)
  # Names in the implementation's reserved space (__odr_asan.* under AddressSanitizer)
  # are the toolchain's, not the library's.
  if(name MATCHES "^__")
    continue()
  endif()
  if(NOT name IN_LIST api AND NOT name MATCHES "^clsel_priv_")
    string(APPEND failures "${STATIC} defines ${name}: neither public nor clsel_priv_\n")
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "check_symbols:\n${failures}")
endif()
list(LENGTH shared_names shared_count)
list(LENGTH static_names static_count)
message(STATUS "check_symbols: ${shared_count} exported (the ${api_count} public functions), "
               "${static_count} defined in the static library, all public or clsel_priv_")
