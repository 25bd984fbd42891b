#!/usr/bin/env bash
# ci/fuzz.sh [SECONDS] - builds the libFuzzer harnesses of tests/fuzz with Clang, ASan and
# UBSan (build-fuzz/), and runs each for SECONDS (default 60) from its seed corpus, as many
# at a time as there are cores (each harness is one process on one core).
# Any crash, leak or sanitizer report fails the run; libFuzzer leaves the input that
# did it as build-fuzz/HARNESS-crash-*: copy it to tests/fuzz/regressions/HARNESS/ (replayed by
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

# Runs one harness; its verdict lands in build-fuzz/fuzz_HARNESS.status (0: clean).
fuzz_one() {
  local harness="$1" work="build-fuzz/corpus-$1" log="build-fuzz/fuzz_$1.log" status=0
  rm -rf "$work"
  mkdir -p "$work"
  cp tests/fuzz/corpus/"$harness"/* "$work/"
  (cd build-fuzz && "bin/fuzz_$harness" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$harness-" "corpus-$harness") \
    >"$log" 2>&1 || status=$?
  echo "$status" >"build-fuzz/fuzz_$harness.status"
}

harnesses=(plan npy cpu)
for harness in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n || true
  done
  echo "== fuzz_$harness for ${seconds}s"
  fuzz_one "$harness" &
done
wait

failed=0
for harness in "${harnesses[@]}"; do
  log="build-fuzz/fuzz_$harness.log"
  if [ "$(cat "build-fuzz/fuzz_$harness.status")" != 0 ]; then
    tail -40 "$log"
    echo "ci/fuzz.sh: fuzz_$harness failed: the input is in build-fuzz/" \
      "($harness-crash-*, $harness-leak-*, $harness-timeout-*)"
    failed=1
    continue
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  inputs=$(ls "build-fuzz/corpus-$harness" | wc -l)
  echo "fuzz_$harness: $runs executions in ${seconds}s, corpus $inputs inputs, no findings" |
    tee -a "$summary"
done
[ "$failed" = 0 ] || exit 1
echo "ci/fuzz.sh: all harnesses clean"
