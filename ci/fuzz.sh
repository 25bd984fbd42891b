#!/usr/bin/env bash
# ci/fuzz.sh [SECONDS] - builds the libFuzzer harnesses of tests/fuzz with Clang, ASan and
# UBSan (build-fuzz/), and runs each for SECONDS (default 60) from its seed corpus.
# Any crash, leak or sanitizer report fails the run; libFuzzer leaves the input that
# did it as build-fuzz/crash-*: copy it to tests/fuzz/regressions/HARNESS/ (replayed by
# ctest from then on) and fix the bug. New inputs libFuzzer finds go to a scratch copy
# of the corpus, not into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
jobs=$(nproc 2>/dev/null || echo 2)

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCLSEL_FUZZ=ON -DCLSEL_SANITIZE=ON \
  -DCLSEL_WERROR=ON -DCLSEL_BUILD_TOOLS=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzz_plan fuzz_npy fuzz_cpu

summary=build-fuzz/summary.txt
: > "$summary"
for harness in plan npy cpu; do
  work="build-fuzz/corpus-$harness"
  rm -rf "$work"
  mkdir -p "$work"
  cp tests/fuzz/corpus/$harness/* "$work/"
  echo "== fuzz_$harness for ${seconds}s"
  log="build-fuzz/fuzz_$harness.log"
  if ! (cd build-fuzz && "bin/fuzz_$harness" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 "corpus-$harness") >"$log" 2>&1; then
    tail -40 "$log"
    echo "ci/fuzz.sh: fuzz_$harness failed: the input is in build-fuzz/ (crash-*, leak-*, timeout-*)"
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "fuzz_$harness: $runs executions in ${seconds}s, corpus $(ls "$work" | wc -l) inputs, no findings" | tee -a "$summary"
done
echo "ci/fuzz.sh: all harnesses clean"
