# check_layers.cmake - the dependency rule of host/'s layers (docs/architecture.md),
# run as the ctest `layers`: cmake -DSOURCE_DIR=<repository> -P cmake/check_layers.cmake
#
#   common   the public headers only
#   plan     common
#   cpu      plan, common
#   opencl   cpu, plan, common, and cl/select_contract.h (the kernels' contract)
#   runtime  cpu, opencl, plan, common
#
# Every quoted include under host/ must name its layer ("plan/plan.h") or be a public
# header (clsel.h, clsel_cl.h); a layer may include only itself and the layers its rule
# lists. A file directly in host/ (outside every layer) fails too. That calls between
# files never go round in a circle is the ctest `calls` (cmake/check_calls.cmake).
cmake_minimum_required(VERSION 3.13)
set(allowed_common "common")
set(allowed_plan "plan;common")
set(allowed_cpu "cpu;plan;common")
set(allowed_opencl "opencl;cpu;plan;common;cl")
set(allowed_runtime "runtime;cpu;opencl;plan;common")

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
    endif()
  endforeach()
endforeach()

if(failures)
  message(FATAL_ERROR "host/ breaks the layer rule:\n${failures}")
endif()
message(STATUS "check_layers: ${checked} files under host/ keep the layer rule")
