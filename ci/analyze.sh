#!/usr/bin/env bash
# ci/analyze.sh - the static analyzers over the library and the tools (host/, tools/ and the
# headers they include), as CI runs them: Clang's static analyzer (scan-build, its default
# checkers) on a Debug build without the tests, and cppcheck (its warning and portability
# checks). Any finding fails the run. A suppression is allowed only with its reason beside it:
# code under `#ifdef __clang_analyzer__`, or a `// cppcheck-suppress ID` comment, each with a
# comment saying why the finding is wrong. Takes 1-1.5 minutes on a 2-core Zen 4, about 5 on a
# 2-core Zen 3 (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-analyze
jobs=$(nproc 2>/dev/null || echo 2)
scan=$(command -v scan-build-14 || command -v scan-build || true)
if [ -z "$scan" ] || ! command -v cppcheck >/dev/null; then
  echo "ci/analyze.sh: needs scan-build (clang-tools-14) and cppcheck (ci/setup.sh installs them)" >&2
  exit 1
fi

rm -rf "$build"
mkdir -p "$build"
# cppcheck runs beside the analyzer: most of the analyzer's time is two translation units
# (cpu_expand_avx2.c and cpu_loops_avx2.c, 2-3 minutes on the 2-core Zen 3 CI box of 2026-11-29),
# which leave the other core idle at times.
echo "ci/analyze.sh: cppcheck ($(cppcheck --version)), beside the analyzer"
cppcheck --quiet --error-exitcode=1 --enable=warning,portability --inline-suppr --std=c11 \
  -I . -I include -I host -I tools host tools >"$build/cppcheck.log" 2>&1 &
cppcheck_pid=$!
trap 'kill "$cppcheck_pid" 2>/dev/null || true' EXIT

echo "ci/analyze.sh: Clang's static analyzer ($scan)"
"$scan" -o "$build/report" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug \
  -DCLSEL_BUILD_TESTS=OFF >/dev/null
"$scan" -o "$build/report" --status-bugs cmake --build "$build" -j "$jobs" >"$build/scan.log" 2>&1 || {
  grep -E "warning:|error:|bugs? found" "$build/scan.log" >&2 || tail -20 "$build/scan.log" >&2
  echo "ci/analyze.sh: the static analyzer found the above (reports: $build/report)" >&2
  exit 1
}

if ! wait "$cppcheck_pid"; then
  cat "$build/cppcheck.log" >&2
  echo "ci/analyze.sh: cppcheck found the above" >&2
  exit 1
fi
cat "$build/cppcheck.log"
echo "ci/analyze.sh: no findings"
