#!/usr/bin/env bash
# bench/run.sh [--quick] - the performance report in one go: clsel on the OpenCL device
# and the CPU path (one thread, then every core), the peers on the same cases, and
# bench/report.py. Full sizes write docs/performance.md and docs/performance.png (about
# 15 minutes here); --quick writes build/bench/performance.md in seconds (CI runs that
# to keep the pipeline working). Needs a build (cmake --build build) and ci/setup.sh's
# virtual environment. CLSEL_BUILD names another build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${CLSEL_BUILD:-build}"
out="$build/bench"
mkdir -p "$out"
size=() docs=docs repeat=20
if [ "${1:-}" = "--quick" ]; then
    size=(--quick) docs="$out" repeat=5
elif [ $# -gt 0 ]; then
    echo "usage: bench/run.sh [--quick]" >&2
    exit 2
fi
python="$build/venv/bin/python"
[ -x "$python" ] || python=python3

# An empty PoCL kernel cache for this run, so that the first program build is a cold one.
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
POCL_CACHE_DIR="$cache" "$build/bin/clsel" bench --device all "${size[@]}" --repeat "$repeat" \
    --json "$out/clsel.json" | tee "$out/clsel.txt"
POCL_CACHE_DIR="$cache" "$build/bin/clsel" bench --device cpu --threads "$(nproc)" --thresholds "${size[@]}" \
    --repeat "$repeat" --json "$out/clsel_threads.json" | tee "$out/clsel_threads.txt"
POCL_CACHE_DIR="$cache" "$python" bench/peers.py --cases "$out/clsel.json" --repeat "$repeat" \
    --json "$out/peers.json"
"$python" bench/report.py --clsel "$out/clsel.json" --clsel-threads "$out/clsel_threads.json" \
    --peers "$out/peers.json" --markdown "$docs/performance.md" --chart "$docs/performance.png"
echo "bench/run.sh: wrote $docs/performance.md and $docs/performance.png"
