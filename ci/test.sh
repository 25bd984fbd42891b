#!/usr/bin/env bash
# ci/test.sh - every test, as CI runs it: installs what is missing, builds with warnings
# as errors, runs the whole ctest suite on the OpenCL device (PoCL in CI; a missing
# device fails the run instead of skipping) on its native path and with the OpenCL
# kernels, the GPU code-generation check (label gpu_codegen: NVIDIA, AMD and Intel),
# every OpenCL test again on Oclgrind (label oclgrind: any kernel access outside a
# buffer fails the run) and on Mesa's rusticl (label rusticl), with fewer cases, then
# builds again with AddressSanitizer and UndefinedBehaviorSanitizer and runs the C tests
# again under them (PoCL's and LLVM's own allocations are exempt from leak checks:
# tests/support/lsan.supp), builds with ThreadSanitizer for the CPU path and thread tests
# (label tsan), runs the static analyzers (ci/analyze.sh: scan-build and cppcheck, no
# finding allowed) and each libFuzzer harness for 40 seconds (ci/fuzz.sh). The C sources'
# format is a test of its own (format: ci/format.sh --check, clang-format 14). Each stage's
# time is printed at the end, also when a stage fails.
#   CLSEL_REQUIRE_OPENCL=0 ci/test.sh   lets the OpenCL tests skip where no device exists
set -euo pipefail
cd "$(dirname "$0")/.."

# Stages: `stage NAME` ends the one before (its time kept) and starts NAME; the times are
# printed when the script exits, however it exits.
stage_names=() stage_seconds=() stage_now="" stage_began=$SECONDS
stage() {
  if [ -n "$stage_now" ]; then
    stage_names+=("$stage_now")
    stage_seconds+=($((SECONDS - stage_began)))
  fi
  stage_now="$1" stage_began=$SECONDS
  [ -z "$1" ] || echo "== $1"
}
print_stages() {
  local status=$?
  stage ""
  echo "ci/test.sh: stage times"
  for i in "${!stage_names[@]}"; do
    printf '  %4d s  %s\n' "${stage_seconds[$i]}" "${stage_names[$i]}"
  done
  printf '  %4d s  in all\n' "$SECONDS"
  return "$status"
}
trap print_stages EXIT

stage "setup (ci/setup.sh)"
ci/setup.sh

jobs=$(nproc 2>/dev/null || echo 2)
export CLSEL_REQUIRE_OPENCL="${CLSEL_REQUIRE_OPENCL:-1}"
# The format check (ctest format, ci/format.sh --check) runs with the clang-format setup.sh installs.
export CLSEL_REQUIRE_FORMAT="${CLSEL_REQUIRE_FORMAT:-1}"
# The ABI check (ctest abi, ci/abi.sh) runs with the libabigail setup.sh installs.
export CLSEL_REQUIRE_ABI="${CLSEL_REQUIRE_ABI:-1}"
# The code-generation check needs the Python environment (cuobjdump comes from PyPI).
if [ "${CLSEL_SKIP_PEERS:-0}" = "1" ]; then
  export CLSEL_REQUIRE_GPU_CODEGEN="${CLSEL_REQUIRE_GPU_CODEGEN:-0}"
else
  export CLSEL_REQUIRE_GPU_CODEGEN="${CLSEL_REQUIRE_GPU_CODEGEN:-1}"
fi

# Which OpenCL implementations a stage sees is chosen here, not by what else the machine
# has installed (Mesa's ICDs, say, whose platforms would appear beside PoCL's): the main
# stages see PoCL alone; the Oclgrind and rusticl stages name their own
# (tests/support/opencl_impl_run.sh).
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
  mkdir -p build/icd/pocl
  cp /etc/OpenCL/vendors/pocl.icd build/icd/pocl/
  export OCL_ICD_VENDORS="$PWD/build/icd/pocl"
fi

# Every build's tests share one PoCL kernel cache: each kernel variant is compiled once per run,
# not once per build (tests/CMakeLists.txt).
export CLSEL_POCL_CACHE="${CLSEL_POCL_CACHE:-$PWD/build/pocl-cache}"

# The OpenVINO extension is built against the OpenVINO of build/venv (ctest label runtimes).
openvino=()
if [ -x build/venv/bin/python ] &&
   openvino_dir=$(build/venv/bin/python -c "import openvino.utils as u; print(u.get_cmake_path())" 2>/dev/null); then
  openvino=(-DCLSEL_OPENVINO=ON "-DOpenVINO_DIR=$openvino_dir")
fi

stage "build (Release, -Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCLSEL_WERROR=ON "${openvino[@]}" >/dev/null
cmake --build build -j "$jobs"
# ci/gpu.sh's check (label gpu_script) among them: it builds a tree of its own.
stage "tests"
(cd build && ctest --output-on-failure -j "$jobs" -LE "large|oclgrind|rusticl")

stage "kernels on Oclgrind (label oclgrind)"
(cd build && CLSEL_REQUIRE_OCLGRIND=1 ctest --output-on-failure -j "$jobs" -L oclgrind)
stage "kernels on Mesa rusticl (label rusticl)"
(cd build && CLSEL_REQUIRE_RUSTICL=1 ctest --output-on-failure -j "$jobs" -L rusticl)

# Tensors past 2^31 elements and the device's allocation limit need up to ~14 GiB and a
# few minutes; each test reports itself skipped when the memory is not there.
stage "large tests (label large)"
(cd build && ctest --output-on-failure -L large) | tee build/large-tests.log
if grep -q "Skipped\|Not Run" build/large-tests.log; then
  echo "ci/test.sh: some large tests did not run on this machine (not enough memory): see above"
fi

stage "build (ASan + UBSan)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCLSEL_WERROR=ON -DCLSEL_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"
stage "C tests under ASan + UBSan"
# LeakSanitizer's leak check at a process's exit stops every thread through a tracer
# that, now and then, crashes while a driver's threads (PoCL's) are exiting: "Tracer
# caught signal 11" after a test whose checks all passed (google/sanitizers#1353, open).
# Only when that line appears do the failed tests run once more, and they must pass.
# Not the format and file checks nor the Oclgrind model (labels docs, gpu_model): the Release
# stage ran them, and they reach no C that the C tests here leave out.
if ! (cd build-asan && ctest --output-on-failure \
        -LE "install|python|large|oclgrind|rusticl|gpu_codegen|gpu_model|gpu_script|abi|docs" \
        -j "$jobs" 2>&1 | tee asan-tests.log); then
  grep -q "^Tracer caught signal" build-asan/asan-tests.log || exit 1
  echo "ci/test.sh: LeakSanitizer's tracer crashed at an exit; the failed tests run again"
  (cd build-asan && ctest --output-on-failure --rerun-failed)
fi
stage "build (ThreadSanitizer)"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLSEL_WERROR=ON -DCLSEL_TSAN=ON \
  -DCLSEL_BUILD_TOOLS=OFF >/dev/null
cmake --build build-tsan -j "$jobs"
stage "CPU path, plan creation and thread tests under ThreadSanitizer (label tsan)"
(cd build-tsan && ctest --output-on-failure -L tsan -j "$jobs")
stage "static analyzers (ci/analyze.sh)"
ci/analyze.sh
# 40 s a harness: at 60 the whole run passed 30 minutes on a slow box (docs/testing.md).
stage "fuzzing (libFuzzer, ASan + UBSan, ${CLSEL_FUZZ_SECONDS:-40} s per harness)"
ci/fuzz.sh "${CLSEL_FUZZ_SECONDS:-40}"
echo "ci/test.sh: all tests passed"
