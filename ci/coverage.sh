#!/usr/bin/env bash
# ci/coverage.sh - line and branch coverage of host/ by the test suite, with gcovr: builds
# build-coverage (Debug, gcc --coverage, -O0), runs every ctest that the main "tests" stage of
# ci/test.sh runs (the C tests on the CPU path and on PoCL, native and with the kernels forced, the
# Python tests through the build's library; not the large, Oclgrind, rusticl, GPU and install
# stages, which add no host code the others miss but take most of the time), then writes
# build-coverage/coverage.txt (per file), coverage.json (gcovr's summary) and prints the totals.
# docs/testing.md ("Coverage") keeps the figure and what is not covered, with reasons. About
# six and a half minutes on 2 cores. Needs ci/setup.sh's environment; installs gcovr into build/venv.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-coverage
jobs=$(nproc 2>/dev/null || echo 2)
python=build/venv/bin/python
[ -x "$python" ] || { echo "ci/coverage.sh: run ci/setup.sh first (build/venv)" >&2; exit 1; }
"$python" -m gcovr --version >/dev/null 2>&1 ||
  "$python" -m pip install -q --disable-pip-version-check gcovr==8.8

# Atomic counters: the CPU path's threads update them at once (plain ones came out negative).
flags="--coverage -O0 -fprofile-update=atomic"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="$flags" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS=--coverage \
  -DCMAKE_SHARED_LINKER_FLAGS=--coverage -DCMAKE_MODULE_LINKER_FLAGS=--coverage \
  -DCLSEL_PYTHON="$PWD/$python" >/dev/null
cmake --build "$build" -j "$jobs"
find "$build" -name '*.gcda' -delete
export CLSEL_REQUIRE_OPENCL="${CLSEL_REQUIRE_OPENCL:-1}"
# `symbols` checks a release build's exports, which --coverage adds gcov's to.
(cd "$build" && ctest -j "$jobs" -LE "large|oclgrind|rusticl|gpu_script|gpu_codegen|gpu_model|install|abi" \
  -E "^symbols$" >ctest.log 2>&1) || { tail -30 "$build/ctest.log" >&2; echo "ci/coverage.sh: tests failed" >&2; exit 1; }

# CMake's compiler checks leave notes of programs that never ran.
find "$build" -path '*CompilerId*' \( -name '*.gcno' -o -name '*.gcda' \) -delete
"$python" -m gcovr --root . --object-directory "$build" --filter 'host/' \
  --exclude-unreachable-branches --exclude-throw-branches \
  --txt "$build/coverage.txt" --json-summary "$build/coverage.json" --print-summary "$build"
