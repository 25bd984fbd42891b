#!/usr/bin/env bash
# ci/setup.sh - installs what clsel needs to build and test on Debian (12) or Ubuntu:
# a C/C++ toolchain, CMake, and OpenCL on the CPU through PoCL (with the ICD loader,
# the headers, CLBlast for the benchmark's copy baseline, and clinfo). Idempotent: it
# only calls apt-get when a package is missing. Uses sudo when not run as root.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers libclblast-dev clinfo
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "ci/setup.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "ci/setup.sh: system packages present"
fi
