#!/usr/bin/env bash
# tests/oclgrind_run.sh ICD LOG COMMAND... - runs a test program on Oclgrind, a second
# OpenCL implementation that simulates a device and reports every invalid memory
# access of a kernel (reads and writes out of bounds, API misuse, and with
# OCLGRIND_DATA_RACES=1 races between work-items). The test sees Oclgrind as the only
# OpenCL platform (an ICD file of its own in a vendors folder, OCL_ICD_VENDORS), so both
# the test's own OpenCL calls and the library's land there. Oclgrind writes what it
# finds to LOG; the run fails when the test fails or LOG is not empty.
#
# ICD is Oclgrind's ICD library (liboclgrind-rt-icd.so). Exits 77 (skipped) when it is
# missing, unless CLSEL_REQUIRE_OCLGRIND=1 (ci/test.sh sets it). Oclgrind's
# --uninitialized plugin stays off: it does not understand LLVM's freeze instruction
# and reports false positives.
set -u
icd="$1" log="$2"
shift 2
if [ ! -f "$icd" ]; then
  echo "Oclgrind's ICD library ($icd) is not installed (Debian package oclgrind)"
  if [ "${CLSEL_REQUIRE_OCLGRIND:-0}" = "1" ]; then exit 1; fi
  exit 77
fi
vendors="$(mktemp -d)"
trap 'rm -rf "$vendors"' EXIT
echo "$icd" >"$vendors/oclgrind.icd"
rm -f "$log"
OCL_ICD_VENDORS="$vendors" OCLGRIND_LOG="$log" OCLGRIND_CHECK_API=1 CLSEL_REQUIRE_OPENCL=1 "$@"
status=$?
if [ -s "$log" ]; then
  echo "Oclgrind reported errors ($log):"
  head -c 20000 "$log"
  exit 1
fi
if [ $status -ne 0 ]; then exit $status; fi
echo "Oclgrind: no errors reported"
