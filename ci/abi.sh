#!/usr/bin/env bash
# ci/abi.sh [--update] [--baseline FILE] - checks that libclsel.so keeps the ABI of the committed
# baseline (abi/libclsel.abi: libabigail's abidw of the library built with debug information,
# limited to the types of the public headers in include/). The library is built on its own in
# build-abi (RelWithDebInfo) and compared with abidiff:
#  - no change, or a compatible one (a function or a struct member added at the end): passes; an
#    addition is printed, and the baseline should be updated with it (--update);
#  - an incompatible change (a function removed, a parameter or a struct layout changed): fails,
#    unless the soname moved with it (CLSEL_VERSION_MAJOR or _MINOR in include/clsel.h) and the
#    baseline was regenerated in the same change: docs/api.md says the rule.
# --update writes the baseline from this tree's library. --baseline FILE compares against FILE
# instead (tests/system/abi_check_test.sh shows a deliberately incompatible change failing).
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=abi/libclsel.abi update=0
while [ $# -gt 0 ]; do
  case "$1" in
    --update) update=1 ;;
    --baseline) baseline="$2"; shift ;;
    *) echo "usage: ci/abi.sh [--update] [--baseline FILE]" >&2; exit 2 ;;
  esac
  shift
done
# Without libabigail's tools the check is skipped (exit 77), unless CLSEL_REQUIRE_ABI=1 (ci/test.sh).
for tool in abidw abidiff; do
  if ! command -v "$tool" >/dev/null; then
    echo "ci/abi.sh: needs $tool (abigail-tools; ci/setup.sh installs it)" >&2
    if [ "${CLSEL_REQUIRE_ABI:-0}" = "1" ]; then exit 1; fi
    exit 77
  fi
done

build=build-abi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLSEL_BUILD_TESTS=OFF \
  -DCLSEL_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target clsel >/dev/null
library=$(readlink -f "$build/lib/libclsel.so")
abidw --headers-dir include --no-show-locs --no-corpus-path "$library" >"$build/libclsel.abi"
soname_of() { sed -n "s/.*soname='\([^']*\)'.*/\1/p" "$1" | head -1; }

if [ "$update" = 1 ]; then
  cp "$build/libclsel.abi" "$baseline"
  echo "ci/abi.sh: wrote $baseline ($(soname_of "$baseline"))"
  exit 0
fi
[ -f "$baseline" ] || { echo "ci/abi.sh: no baseline $baseline (ci/abi.sh --update writes it)" >&2; exit 1; }

status=0
abidiff "$baseline" "$build/libclsel.abi" >"$build/abidiff.txt" || status=$?
was=$(soname_of "$baseline") now=$(soname_of "$build/libclsel.abi")
if (( status & 3 )); then
  cat "$build/abidiff.txt" >&2
  echo "ci/abi.sh: abidiff failed (exit $status)" >&2
  exit 1
fi
if (( status & 8 )); then
  cat "$build/abidiff.txt" >&2
  if [ "$was" != "$now" ]; then
    echo "ci/abi.sh: incompatible change and a new soname ($was -> $now): regenerate the baseline" \
      "(ci/abi.sh --update) in the same change, with a CHANGELOG.md entry" >&2
  else
    echo "ci/abi.sh: INCOMPATIBLE ABI change against $baseline with the soname still $now:" \
      "undo it, or move the version (include/clsel.h) and the baseline with it (docs/api.md)" >&2
  fi
  exit 1
fi
if (( status & 4 )); then
  cat "$build/abidiff.txt"
  echo "ci/abi.sh: compatible ABI change (above); update the baseline with it: ci/abi.sh --update"
  exit 0
fi
echo "ci/abi.sh: $library keeps the ABI of $baseline ($now)"
