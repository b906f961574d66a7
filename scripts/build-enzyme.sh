#!/usr/bin/env bash
# Builds the Enzyme LLVM pass plugin (LLVMEnzyme-MAJOR.so) that ir-sanitize's
# `enzyme` and `gpu-check` commands load, from an Enzyme source tree you
# provide, against Debian's llvm-MAJOR-dev.
#
#   scripts/build-enzyme.sh SRC_DIR [LLVM_MAJOR]
#
# SRC_DIR: a clone of https://github.com/EnzymeAD/Enzyme (or its enzyme/
# folder). LLVM_MAJOR: 19 by default (the LLVM ir-sanitize builds against by
# default). The build goes to build/enzyme-MAJOR (IRS_ENZYME_BUILD_DIR
# overrides) and takes about 10 minutes on 2 cores. Needs cmake, ninja-build,
# g++, llvm-MAJOR-dev and libzstd-dev. Exit 2: bad arguments; 1: the build
# failed.
set -euo pipefail
usage() {
  sed -n 's/^#   //p' "$0" >&2
  echo "(see the comment at the top of $0)" >&2
  exit 2
}
die() {
  echo "build-enzyme: error: $*" >&2
  exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case $1 in -h | --help) usage ;; esac
src=$1
major=${2:-19}
[[ $major =~ ^[0-9]{2}$ ]] || die "LLVM_MAJOR must be a major version such as 19, not '$major'"
[ -d "$src" ] || die "$src: no such directory"
# The plugin's CMake project is the enzyme/ folder of the repository.
if [ -f "$src/enzyme/CMakeLists.txt" ]; then
  src=$src/enzyme
fi
grep -qs 'project(Enzyme' "$src/CMakeLists.txt" ||
  die "$src: not an Enzyme source tree (no enzyme/CMakeLists.txt declaring project(Enzyme))"
llvm_dir=/usr/lib/llvm-$major/lib/cmake/llvm
[ -f "$llvm_dir/LLVMConfig.cmake" ] ||
  die "no LLVM $major development files in $llvm_dir (install llvm-$major-dev)"

cd "$(dirname "$0")/.."
out=${IRS_ENZYME_BUILD_DIR:-build/enzyme-$major}
# Only the pass plugin: no clang or flang plugins, no tests.
cmake -S "$src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_DIR="$llvm_dir" -DENZYME_CLANG=OFF -DENZYME_FLANG=OFF >/dev/null || exit 1
cmake --build "$out" --target "LLVMEnzyme-$major" || exit 1
plugin=$(cd "$out" && find "$PWD" -name "LLVMEnzyme-$major.so" -print -quit)
[ -n "$plugin" ] || { echo "build-enzyme: error: the build made no LLVMEnzyme-$major.so" >&2; exit 1; }
echo "built $plugin"
echo "use it: ENZYME_PLUGIN=$plugin, --enzyme-plugin=$plugin, or configure"
echo "ir-sanitize with -DIRS_ENZYME_PLUGIN=$plugin"
