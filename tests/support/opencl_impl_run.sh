#!/usr/bin/env bash
# tests/support/opencl_impl_run.sh IMPL LOG COMMAND... - runs a test program on one OpenCL
# implementation, seen as the only platform (an ICD file of its own in a vendors folder,
# OCL_ICD_VENDORS), so that both the test's own OpenCL calls and the library's land
# there and the other stages keep the platforms they see:
#
#   oclgrind  Oclgrind, a simulated device that reports every invalid memory access of a
#             kernel (out of bounds, API misuse, and with OCLGRIND_DATA_RACES=1 races
#             between work-items) into LOG; the run fails when LOG is not empty. Its
#             --uninitialized plugin stays off: it does not understand LLVM's freeze
#             instruction and reports false positives.
#   rusticl   Mesa's rusticl on llvmpipe (RUSTICL_ENABLE=llvmpipe): OpenCL C compiled
#             through SPIR-V and NIR, as Mesa's GPU drivers compile it. LOG is unused.
#
# Both run clsel's OpenCL kernels (CLSEL_TEST_PATH=kernels: a test fails if the library
# took its native path there instead). Exits 77 (skipped) when the implementation is not
# installed, unless
# CLSEL_REQUIRE_<IMPL>=1 (CLSEL_REQUIRE_OCLGRIND, CLSEL_REQUIRE_RUSTICL; ci/test.sh sets
# them).
set -u
impl="$1" log="$2"
shift 2
find_icd() {
  for f in "$@"; do
    if [ -f "$f" ]; then echo "$f"; return; fi
  done
}
case "$impl" in
  oclgrind)
    icd=$(find_icd /usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so /usr/lib/oclgrind/liboclgrind-rt-icd.so \
      /usr/local/lib/oclgrind/liboclgrind-rt-icd.so /usr/lib/liboclgrind-rt-icd.so /usr/local/lib/liboclgrind-rt-icd.so)
    require="${CLSEL_REQUIRE_OCLGRIND:-0}" package=oclgrind ;;
  rusticl)
    icd=$(find_icd /usr/lib/x86_64-linux-gnu/libRusticlOpenCL.so.1 /usr/lib64/libRusticlOpenCL.so.1 \
      /usr/local/lib/libRusticlOpenCL.so.1)
    require="${CLSEL_REQUIRE_RUSTICL:-0}" package=mesa-opencl-icd ;;
  *) echo "opencl_impl_run.sh: unknown implementation $impl" >&2; exit 2 ;;
esac
if [ -z "$icd" ]; then
  echo "$impl is not installed (Debian package $package)"
  if [ "$require" = "1" ]; then exit 1; fi
  exit 77
fi
vendors="$(mktemp -d)"
trap 'rm -rf "$vendors"' EXIT
echo "$icd" >"$vendors/$impl.icd"
rm -f "$log"
export OCL_ICD_VENDORS="$vendors" CLSEL_REQUIRE_OPENCL=1 CLSEL_TEST_PATH=kernels
case "$impl" in
  oclgrind) OCLGRIND_LOG="$log" OCLGRIND_CHECK_API=1 "$@" ;;
  rusticl) RUSTICL_ENABLE=llvmpipe "$@" ;;
esac
status=$?
if [ -s "$log" ]; then
  echo "$impl reported errors ($log):"
  head -c 20000 "$log"
  exit 1
fi
if [ $status -ne 0 ]; then exit $status; fi
echo "$impl: the test passed${log:+ and nothing was reported}"
