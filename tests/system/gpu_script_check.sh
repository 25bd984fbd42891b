#!/usr/bin/env bash
# tests/system/gpu_script_check.sh WORK_DIR - ci/gpu.sh the way a GPU machine without packages
# runs it, here on the CPU device, so that the script cannot rot where no GPU is: the
# OpenCL loader, headers and an ICD file are unpacked into a folder of their own (copied
# from this machine's packages, as a GPU machine gets Debian's unpacked) and reached
# through the environment only (CMAKE_PREFIX_PATH, LD_LIBRARY_PATH, OCL_ICD_VENDORS), then
# `ci/gpu.sh OUT --allow-cpu --quick` runs, then its benchmark alone with this tree's
# kernels as "before" and as a variant too (`--bench --before SOURCE-DIR --variant
# same=SOURCE-DIR`). Fails when the script fails or its report lacks a section. Exits 77
# (skipped) without PoCL's ICD file.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$1"
rm -rf "$work"
mkdir -p "$work/unpacked/usr/lib" "$work/unpacked/usr/include" "$work/vendors"
icd=/etc/OpenCL/vendors/pocl.icd
if [ ! -f "$icd" ]; then
  echo "skipped: no PoCL ICD file ($icd)"
  exit 77
fi
cp "$icd" "$work/vendors/"
loader=""
for candidate in /usr/lib/*/libOpenCL.so.1 /usr/lib64/libOpenCL.so.1; do
  if [ -f "$candidate" ]; then loader="$candidate"; break; fi
done
if [ -z "$loader" ]; then
  echo "gpu_script_check: no libOpenCL.so.1 under /usr/lib/*/ or /usr/lib64/"
  exit 1
fi
arch_dir="$work/unpacked/usr/lib/$(basename "$(dirname "$loader")")"
mkdir -p "$arch_dir"
cp -L "$loader" "$arch_dir/libOpenCL.so.1"
ln -s libOpenCL.so.1 "$arch_dir/libOpenCL.so"
cp -r /usr/include/CL "$work/unpacked/usr/include/"
export CMAKE_PREFIX_PATH="$work/unpacked/usr" OCL_ICD_VENDORS="$work/vendors"
export LD_LIBRARY_PATH="$arch_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CLSEL_GPU_BUILD_DIR="$work/build"
status=0
"$root/ci/gpu.sh" "$work/out" --allow-cpu --quick || status=$?
report="$work/out/report.md"
for section in "## Environment" "## Devices" "## OpenCL tests on" "## The driver's code" "## Named cases" "## Sweep of"; do
  if ! grep -q "^$section" "$report" 2>/dev/null; then
    echo "gpu_script_check: the report has no '$section'"
    status=1
  fi
done
grep -q "$work/unpacked" "$report" || { echo "gpu_script_check: the unpacked loader and headers were not used"; status=1; }
if [ $status -ne 0 ]; then
  echo "gpu_script_check: ci/gpu.sh failed (status $status); its report:"
  cat "$report" 2>/dev/null | head -80
  exit $status
fi

"$root/ci/gpu.sh" "$work/bench" --bench --allow-cpu --quick --before "$root" --variant same="$root" || status=$?
table="$work/bench/bench.md"
# Every named case, sweep pattern and view has a row with the before's figure beside it.
for row in "| same_f32 | named " "| view_padded | view " "| sweep"; do
  grep -q "^$row" "$table" 2>/dev/null || { echo "gpu_script_check: bench.md has no row '$row'"; status=1; }
done
grep -q "^| same_f32 | named | f32 | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* |" "$table" 2>/dev/null ||
  { echo "gpu_script_check: same_f32 has no before figure"; status=1; }
grep -q "^- sweep of 3: " "$table" 2>/dev/null || { echo "gpu_script_check: bench.md has no sweep summary"; status=1; }
# The variant has a summary and a ratio per case against the control timed in the same loop.
grep -q "^| same | [0-9.]* (" "$work/bench/variants.md" 2>/dev/null ||
  { echo "gpu_script_check: variants.md has no summary of the variant"; status=1; }
grep -q "^| same_f32 | [0-9.]* | [0-9.]* |" "$work/bench/variants.md" 2>/dev/null ||
  { echo "gpu_script_check: variants.md has no ratio for same_f32"; status=1; }
python3 -c "import json, sys; cases = json.load(open(sys.argv[1]))['cases']; assert len(cases) > 20, len(cases)" \
  "$work/bench/bench.json" || { echo "gpu_script_check: bench.json lacks the per-pattern records"; status=1; }
if [ $status -ne 0 ]; then
  echo "gpu_script_check: ci/gpu.sh --bench failed (status $status); its report:"
  cat "$work/bench/report.md" "$work/bench/gpu_bench.err" "$work/bench/gpu_variants.err" 2>/dev/null | head -80
fi
exit $status
