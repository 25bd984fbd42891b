#!/usr/bin/env bash
# ci/format.sh [--check] - the C sources' format (.clang-format) under host/ cl/ include/
# tools/ tests/ and python/clsel/: applies it, or with --check lists the files it would change and fails.
# Formatters of other versions break lines differently, so only clang-format 14 (Debian
# 12's) is used: without it the check is skipped (exit 77), unless CLSEL_REQUIRE_FORMAT=1.
set -u
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi
format=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null 2>&1 &&
    "$candidate" --version | grep -q "version 14\."; then
    format="$candidate"
    break
  fi
done
if [ -z "$format" ]; then
  echo "ci/format.sh: clang-format 14 not found (Debian package clang-format-14)"
  if [ "${CLSEL_REQUIRE_FORMAT:-0}" = "1" ]; then exit 1; fi
  exit 77
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files 'host/*.c' 'host/*.h' 'cl/*.cl' 'cl/*.h' 'include/*.h' \
    'tools/*.c' 'tools/*.h' 'tools/*.cpp' 'tests/*.c' 'tests/*.h' 'tests/*.cpp' 'python/clsel/*.c')
else # a source tree without git (a release archive)
  mapfile -t files < <(find host cl include tools tests python/clsel -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cl' -o -name '*.cpp' \) | sort)
fi
if [ "$check" = "0" ]; then
  "$format" -i "${files[@]}"
  exit 0
fi
unformatted=()
for f in "${files[@]}"; do
  if ! "$format" --dry-run --Werror "$f" >/dev/null 2>&1; then unformatted+=("$f"); fi
done
if ((${#unformatted[@]})); then
  echo "ci/format.sh: ${#unformatted[@]} files differ from .clang-format (run ci/format.sh):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "ci/format.sh: ${#files[@]} files formatted as .clang-format says"
