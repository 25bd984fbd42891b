#!/usr/bin/env bash
# bench/run.sh [--quick] - the performance report in one go: clsel on the OpenCL device
# and the CPU path (one thread, then every core), the peers on the same cases, a sweep of
# random broadcast patterns on every path with numpy.where on the same patterns, the
# runtime from Python (bench/runtime.py), the first select of a process under each
# kernel-cache state (bench/first_call.sh), bench/report.py, strided views against
# numpy.where and copy-then-select (bench/strided.py), and the short-row tail (the sweep's
# short draw on one thread, bench/tail_report.py). Full sizes write
# docs/performance.md, docs/performance.png and docs/performance_sweep.png (about 25
# minutes here); --quick writes build/bench/ in seconds; --tail reruns only the tail's
# section of docs/performance.md (three rounds, each pattern the median of its rounds: two to
# three minutes), --runtime only the runtime's (bench/runtime.py, two minutes), --gpu only the
# GPU runs' (bench/results/, measured on lent GPUs: seconds).
# CLSEL_SWEEP=N and CLSEL_SEED=S change the sweep (default 100 patterns, seed 1), CLSEL_TAIL=N
# the tail's (default 60 patterns, the same seed), CLSEL_TAIL_ROUNDS=N its rounds (default 3;
# 1 with --quick). Needs a build (cmake --build build) and ci/setup.sh's virtual environment.
# CLSEL_BUILD names another build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${CLSEL_BUILD:-build}"
out="$build/bench"
mkdir -p "$out"
size=() docs=docs repeat=20 sweep="${CLSEL_SWEEP:-100}" seed="${CLSEL_SEED:-1}" strided_size=()
tail_patterns="${CLSEL_TAIL:-60}" tail_rounds="${CLSEL_TAIL_ROUNDS:-3}" only=""
if [ "${1:-}" = "--quick" ]; then
    size=(--quick) docs="$out" repeat=5 sweep="${CLSEL_SWEEP:-8}" strided_size=(--rows 256 --cols 384 --repeat 3)
    tail_patterns="${CLSEL_TAIL:-8}" tail_rounds="${CLSEL_TAIL_ROUNDS:-1}"
elif [ "${1:-}" = "--tail" ] || [ "${1:-}" = "--runtime" ] || [ "${1:-}" = "--gpu" ]; then
    only="${1#--}"
elif [ $# -gt 0 ]; then
    echo "usage: bench/run.sh [--quick | --tail | --runtime | --gpu]" >&2
    exit 2
fi
python="$build/venv/bin/python"
[ -x "$python" ] || python=python3

# The short-row tail on the OpenCL device and the CPU path on one thread, and its section.
# Rounds one after another, never at once: each pattern's median over them is what the section reads.
run_tail() {
    local rounds=()
    for round in $(seq "$tail_rounds"); do
        "$build/bin/clsel" bench --device all --threads 1 --sweep "$tail_patterns" --draw short --seed "$seed" \
            "${size[@]}" --json "$out/tail-$round.json" | tee "$out/tail-$round.txt"
        rounds+=("$out/tail-$round.json")
    done
    PYTHONPATH=bench "$python" bench/tail_report.py "${rounds[@]}" --markdown "$docs/performance.md"
}
# The runtime from Python beside numpy.where, and its section.
run_runtime() {
    PYTHONPATH=python:bench "$python" bench/runtime.py "${size[@]}" --json "$out/runtime.json" \
        --markdown "$docs/performance.md"
}
# The GPU runs kept in the repository (ci/gpu.sh --bench; bench/results/README.md), and their section.
gpu_runs=()
for run in bench/results/*/bench.json; do [ -f "$run" ] && gpu_runs+=(--gpu "$run"); done
run_gpu() {
    PYTHONPATH=bench "$python" bench/report.py --gpu-section --markdown "$docs/performance.md" "${gpu_runs[@]}"
}
if [ -n "$only" ]; then
    "run_$only"
    echo "bench/run.sh: wrote the $only section of $docs/performance.md"
    exit 0
fi

# An empty PoCL kernel cache for this run, so that the first program build is a cold one.
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
POCL_CACHE_DIR="$cache" "$build/bin/clsel" bench --device all "${size[@]}" --repeat "$repeat" \
    --json "$out/clsel.json" | tee "$out/clsel.txt"
POCL_CACHE_DIR="$cache" "$build/bin/clsel" bench --device cpu --threads "$(nproc)" --thresholds "${size[@]}" \
    --repeat "$repeat" --json "$out/clsel_threads.json" | tee "$out/clsel_threads.txt"
POCL_CACHE_DIR="$cache" "$python" bench/peers.py --cases "$out/clsel.json" --repeat "$repeat" \
    --json "$out/peers.json"
POCL_CACHE_DIR="$cache" "$build/bin/clsel" bench --sweep "$sweep" --seed "$seed" "${size[@]}" \
    --json "$out/sweep.json" | tee "$out/sweep.txt"
"$python" bench/peers.py --cases "$out/sweep.json" --peer numpy --repeat 3 --json "$out/sweep_peers.json"
bench/first_call.sh "$([ ${#size[@]} -gt 0 ] && echo 1 || echo 3)" "$out/first_call.json"
"$python" bench/report.py --clsel "$out/clsel.json" --clsel-threads "$out/clsel_threads.json" \
    --peers "$out/peers.json" --markdown "$docs/performance.md" --chart "$docs/performance.png" \
    --sweep "$out/sweep.json" --sweep-peers "$out/sweep_peers.json" --sweep-chart "$docs/performance_sweep.png" \
    --first-call "$out/first_call.json" "${gpu_runs[@]}"
POCL_CACHE_DIR="$cache" run_runtime
PYTHONPATH=python:bench "$python" bench/strided.py "${strided_size[@]}" --markdown "$docs/performance.md"
run_tail
echo "bench/run.sh: wrote $docs/performance.md, $docs/performance.png and $docs/performance_sweep.png"
