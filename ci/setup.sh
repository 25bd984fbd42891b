#!/usr/bin/env bash
# ci/setup.sh - installs what clsel needs to build and test on Debian (12) or Ubuntu:
# a C/C++ toolchain, CMake, OpenCL on the CPU through PoCL (with the ICD loader, the
# headers, CLBlast for the benchmark's copy baseline, and clinfo), Oclgrind (a second
# OpenCL implementation that checks the kernels' memory accesses, and with its plugin
# headers the device that bench/gpu_model.sh counts the kernels on), Mesa's rusticl (a
# third), Clang with libFuzzer for the fuzz harnesses, clang-format 14 (ci/format.sh),
# the static analyzers of ci/analyze.sh (scan-build of clang-tools-14, cppcheck), libabigail's
# abidw and abidiff for the ABI check (ci/abi.sh),
# the GPU compilers of the code-generation check (clang 15 with libclc for NVIDIA and
# AMD, Intel's ocloc and iga64), and a Python virtual environment in build/venv with the
# packages of ci/requirements.txt (numpy, the peers OpenVINO and ONNX Runtime, pytest).
# Idempotent: apt-get and pip run only for what is missing. Uses sudo when not run as
# root.
#
# Without PyPI the venv step fails loudly; CLSEL_SKIP_PEERS=1 skips it (the tests that
# need Python packages then report themselves skipped).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkg-config python3 python3-venv python3-dev
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers libclblast-dev clinfo oclgrind liboclgrind-dev
  clang libclang-rt-dev clang-format-14 clang-tools-14 cppcheck abigail-tools
  mesa-opencl-icd clang-15 libclc-15 intel-opencl-icd libigc-tools
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

venv=build/venv
stamp="$venv/requirements.stamp"
if [ "${CLSEL_SKIP_PEERS:-0}" = "1" ]; then
  echo "ci/setup.sh: CLSEL_SKIP_PEERS=1: no Python environment (peer and numpy tests will skip)"
elif [ -f "$stamp" ] && cmp -s "$stamp" ci/requirements.txt; then
  echo "ci/setup.sh: $venv up to date"
else
  echo "ci/setup.sh: creating $venv from ci/requirements.txt"
  mkdir -p build
  python3 -m venv "$venv"
  if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check -r ci/requirements.txt; then
    echo "ci/setup.sh: FAILED to install the Python packages from PyPI (see above)." >&2
    echo "ci/setup.sh: offline? Run with CLSEL_SKIP_PEERS=1 to skip the peer and numpy tests." >&2
    exit 1
  fi
  cp ci/requirements.txt "$stamp"
fi
