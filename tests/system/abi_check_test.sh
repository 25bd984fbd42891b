#!/usr/bin/env bash
# abi_check_test.sh SCRATCH - the ABI check (ci/abi.sh) on this tree: today's library keeps the
# committed baseline's ABI, and the check fails a deliberately incompatible change. The change is
# made to a copy of the baseline: it gets one exported function more than the library has, which
# to abidiff is a function the library removed (an incompatible change), the soname left as it is.
# Skipped (77) where libabigail's tools are missing, unless CLSEL_REQUIRE_ABI=1.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="$1"
mkdir -p "$scratch"

status=0
"$root/ci/abi.sh" || status=$?
if [ "$status" = 77 ]; then exit 77; fi
[ "$status" = 0 ] || { echo "abi_check_test: the library does not keep the baseline's ABI" >&2; exit 1; }

removed="$scratch/removed_function.abi"
python3 - "$root/abi/libclsel.abi" "$removed" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
symbol = re.search(r"( *)<elf-symbol name='clsel_last_error'[^\n]*\n", text)
decl = re.search(r"( *)<function-decl name='clsel_last_error'.*?</function-decl>\n", text, re.S)
assert symbol and decl, "the baseline has no clsel_last_error to copy"
text = text.replace(symbol.group(0), symbol.group(0) + symbol.group(0).replace("clsel_last_error", "clsel_removed_for_the_test"), 1)
text = text.replace(decl.group(0), decl.group(0) + decl.group(0).replace("clsel_last_error", "clsel_removed_for_the_test"), 1)
open(sys.argv[2], "w").write(text)
PY
status=0
"$root/ci/abi.sh" --baseline "$removed" >"$scratch/removed.log" 2>&1 || status=$?
cat "$scratch/removed.log"
if [ "$status" != 1 ] || ! grep -q "INCOMPATIBLE ABI change" "$scratch/removed.log" ||
   ! grep -q "clsel_removed_for_the_test" "$scratch/removed.log"; then
  echo "abi_check_test: ci/abi.sh did not fail a removed function (exit $status)" >&2
  exit 1
fi
echo "abi_check_test: the baseline's ABI kept; a removed function fails the check"
