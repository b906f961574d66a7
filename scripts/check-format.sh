#!/usr/bin/env bash
# Checks that every C/C++ source in the tree is formatted as .clang-format
# (LLVM style) says, and that each file's banner fits its one line; lists
# the files that do not and exits 1.
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
# A banner clang-format wrapped (a title too long for 80 columns) loses
# its closing rule to the next line; --fix cannot shorten a title.
for f in "${files[@]}"; do
  first=$(head -1 "$f")
  case $first in
  '//===-'*) [[ $first == *'===//' ]] || bad+=("$f (banner over 80 columns)") ;;
  esac
done
if [ "${#bad[@]}" -ne 0 ]; then
  printf 'check-format: not clean: %s\n' "${bad[@]}" >&2
  echo "check-format: ${#bad[@]} of ${#files[@]} files; run scripts/check-format.sh --fix (a banner: shorten its title)" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files clean"
