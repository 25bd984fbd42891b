#!/usr/bin/env bash
# bench/gpu_model.sh [clsel bench --model options] - what clsel's OpenCL kernels execute per output
# byte, without a GPU: runs `clsel bench --model` on Oclgrind (a simulated OpenCL device, seen as the
# only platform) with clsel's counting plugin (tools/oclgrind/clsel_counts.cpp), which counts every
# instruction, load and store of every launch. Options go to clsel bench, for example:
#
#   bench/gpu_model.sh                                 the fixed set of broadcast, short-row and strided patterns
#   bench/gpu_model.sh --sweep 40 --seed 7 --json m.json   40 of the sweep's patterns at 64-128 KiB
#
# CLSEL_BUILD names the build folder (default build). Exits 77 (skipped) when Oclgrind or the plugin
# is missing, unless CLSEL_REQUIRE_OCLGRIND=1; docs/gpu_model.md says how to read the figures.
set -u
cd "$(dirname "$0")/.."
build="${CLSEL_BUILD:-build}"
require="${CLSEL_REQUIRE_OCLGRIND:-0}"
skip() {
  echo "bench/gpu_model.sh: $*"
  if [ "$require" = "1" ]; then exit 1; fi
  exit 77
}
icd=""
for f in /usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so /usr/lib/oclgrind/liboclgrind-rt-icd.so \
  /usr/local/lib/oclgrind/liboclgrind-rt-icd.so /usr/lib/liboclgrind-rt-icd.so /usr/local/lib/liboclgrind-rt-icd.so; do
  if [ -f "$f" ]; then icd="$f"; break; fi
done
[ -n "$icd" ] || skip "Oclgrind is not installed (Debian package oclgrind)"
plugin="$build/lib/libclsel_oclgrind_counts.so"
[ -f "$plugin" ] || skip "$plugin was not built (Oclgrind's plugin headers: Debian package liboclgrind-dev)"
[ -x "$build/bin/clsel" ] || skip "$build/bin/clsel was not built"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "$icd" >"$work/oclgrind.icd"
OCL_ICD_VENDORS="$work" OCLGRIND_PLUGINS="$(cd "$(dirname "$plugin")" && pwd)/$(basename "$plugin")" \
  OCLGRIND_LOG="$work/oclgrind.log" CLSEL_OCLGRIND_COUNTS="$work/counts.jsonl" \
  "$build/bin/clsel" bench --model "$@"
status=$?
# Oclgrind's own checks run too: any kernel access outside a buffer fails the run.
if [ -s "$work/oclgrind.log" ]; then
  echo "bench/gpu_model.sh: Oclgrind reported errors:"
  head -c 20000 "$work/oclgrind.log"
  exit 1
fi
exit $status
