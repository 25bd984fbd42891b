# check_layers.cmake - the dependency rule of host/'s layers (docs/architecture.md),
# run as the ctest `layers`: cmake -DSOURCE_DIR=<repository> -P cmake/check_layers.cmake
#
#   common   the public headers only
#   plan     common
#   cpu      plan, common
#   opencl   plan, common, and cl/select_contract.h (the kernels' contract)
#   runtime  cpu, opencl, plan, common
#
# Every quoted include under host/ must name its layer ("plan/plan.h") or be a public
# header (clsel.h, clsel_cl.h); a layer may include only itself and the layers its rule
# lists. A file directly in host/ (outside every layer) fails too.
#
# Inside a layer, a file listed in the table below may include only the headers of its
# own layer that the table names: the bottom of host/runtime's dispatcher and leaves
# (runtime_fallback.c, which the device paths call) can then never call back up into
# the dispatcher or the device paths, which was once a call cycle.
cmake_minimum_required(VERSION 3.13)
set(allowed_common "common")
set(allowed_plan "plan;common")
set(allowed_cpu "cpu;plan;common")
set(allowed_opencl "opencl;plan;common;cl")
set(allowed_runtime "runtime;cpu;opencl;plan;common")
set(own_headers_runtime/runtime_fallback.c "runtime/runtime.h;runtime/runtime_fallback.h")
set(own_headers_runtime/runtime_fallback.h "runtime/runtime.h")

file(GLOB loose RELATIVE "${SOURCE_DIR}/host" "${SOURCE_DIR}/host/*.c" "${SOURCE_DIR}/host/*.h")
set(failures "")
foreach(f IN LISTS loose)
  string(APPEND failures "host/${f}: outside every layer\n")
endforeach()

file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}/host" "${SOURCE_DIR}/host/*.c" "${SOURCE_DIR}/host/*.h")
set(checked 0)
foreach(f IN LISTS sources)
  string(REGEX MATCH "^[^/]+" layer "${f}")
  if(NOT DEFINED allowed_${layer})
    if(NOT f MATCHES "^[^/]+$")
      string(APPEND failures "host/${f}: unknown layer '${layer}'\n")
    endif()
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  file(STRINGS "${SOURCE_DIR}/host/${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" header "${line}")
    if(header STREQUAL "clsel.h" OR header STREQUAL "clsel_cl.h")
      continue()
    endif()
    if(NOT header MATCHES "^([a-z]+)/[^/]+$")
      string(APPEND failures "host/${f}: includes \"${header}\" without its layer\n")
      continue()
    endif()
    set(target "${CMAKE_MATCH_1}")
    if(NOT target IN_LIST allowed_${layer})
      string(APPEND failures "host/${f}: layer ${layer} includes \"${header}\" (allowed: ${allowed_${layer}})\n")
    elseif(target STREQUAL layer AND DEFINED own_headers_${f} AND NOT header IN_LIST own_headers_${f})
      string(APPEND failures "host/${f}: includes \"${header}\" (allowed in its layer: ${own_headers_${f}})\n")
    endif()
  endforeach()
endforeach()

if(failures)
  message(FATAL_ERROR "host/ breaks the layer rule:\n${failures}")
endif()
message(STATUS "check_layers: ${checked} files under host/ keep the layer rule")
