#!/usr/bin/env bash
# bench/first_call.sh [RUNS] [JSON] - the first select of a process on the OpenCL device
# (`clsel bench --first-call`), each run in a fresh process, under four states of the two
# kernel caches: PoCL's own (POCL_CACHE_DIR) and clsel's (CLSEL_KERNEL_CACHE_DIR):
#   cold            both empty, clsel's cache in its default mode (entries for GPUs only)
#   pocl-warm       PoCL's cache warm, clsel's default mode (the steady state on PoCL)
#   cold, on        both empty, CLSEL_KERNEL_CACHE=on (writes an entry for the CPU device)
#   warm, on        both warm, CLSEL_KERNEL_CACHE=on (loads the entry)
# RUNS per state (default 3); the figures go to JSON (default build/bench/first_call.json).
# CLSEL_TOOL names the clsel program (default $CLSEL_BUILD/bin/clsel, CLSEL_BUILD=build).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${CLSEL_BUILD:-build}"
tool="${CLSEL_TOOL:-$build/bin/clsel}"
runs="${1:-3}"
json="${2:-$build/bench/first_call.json}"
mkdir -p "$(dirname "$json")"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# One run: STATE MODE FRESH(1: empty caches first); appends its figures to the list.
measure() {
    local state="$1" mode="$2" fresh="$3"
    if [ "$fresh" = 1 ]; then
        rm -rf "$scratch/pocl" "$scratch/clsel"
    fi
    mkdir -p "$scratch/pocl" "$scratch/clsel"
    POCL_CACHE_DIR="$scratch/pocl" CLSEL_KERNEL_CACHE_DIR="$scratch/clsel" CLSEL_KERNEL_CACHE="$mode" \
        "$tool" bench --first-call --json "$scratch/one.json" >&2
    printf '%s{"state": "%s", "run": %s}' "$sep" "$state" "$(cat "$scratch/one.json")" >> "$scratch/all.json"
    sep=",
"
}

sep=""
: > "$scratch/all.json"
for _ in $(seq "$runs"); do measure "cold" "" 1; done
for _ in $(seq "$runs"); do measure "pocl-warm" "" 0; done
for _ in $(seq "$runs"); do measure "cold, on" on 1; done
for _ in $(seq "$runs"); do measure "warm, on" on 0; done
{ echo "["; cat "$scratch/all.json"; echo "]"; } > "$json"
echo "bench/first_call.sh: wrote $json" >&2
