#!/usr/bin/env bash
# Checks that every C/C++ source in the tree is formatted as .clang-format
# (LLVM style) says; lists the files that are not and exits 1.
#
#   scripts/check-format.sh [--fix]
#
# --fix rewrites them in place instead. CLANG_FORMAT picks the binary
# (default clang-format-19, so that every machine formats alike).
set -uo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format-19}
if ! command -v "$clang_format" >/dev/null; then
  echo "check-format: no $clang_format (install clang-format-19)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- '*.c' '*.cpp' '*.h' '*.h.in')
if [ "${1:-}" = --fix ]; then
  "$clang_format" -i "${files[@]}"
  exit
fi
bad=()
for f in "${files[@]}"; do
  "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -ne 0 ]; then
  printf 'check-format: not clang-format clean: %s\n' "${bad[@]}" >&2
  echo "check-format: ${#bad[@]} of ${#files[@]} files; run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files clean"
