#!/usr/bin/env bash
# tests/system/gpu_script_check.sh WORK_DIR - ci/gpu.sh the way a GPU machine without packages
# runs it, here on the CPU device, so that the script cannot rot where no GPU is: the
# OpenCL loader, headers and an ICD file are unpacked into a folder of their own (copied
# from this machine's packages, as a GPU machine gets Debian's unpacked) and reached
# through the environment only (CMAKE_PREFIX_PATH, LD_LIBRARY_PATH, OCL_ICD_VENDORS), then
# `ci/gpu.sh OUT --allow-cpu --quick` runs. Fails when the script fails or its report
# lacks a section. Exits 77 (skipped) without PoCL's ICD file.
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
fi
exit $status
