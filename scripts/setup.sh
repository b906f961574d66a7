#!/usr/bin/env bash
# Installs what ir-sanitize needs from Debian's packages, then builds it
# against LLVM 16 (build/llvm-16: Julia 1.11), 19 (build/llvm-19, the
# default build) and 22 (build/llvm-22: Julia master); IRS_LLVM_VERSIONS
# picks fewer ("19").
# IRS_CMAKE_ARGS adds configure options (.ci/run: -DIRS_WERROR=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
PACKAGES=(cmake ninja-build g++ python3 ccache catch2 libcli11-dev nlohmann-json3-dev libzstd-dev zlib1g-dev
  llvm-19 llvm-19-dev llvm-19-tools llvm-19-runtime
  llvm-22 llvm-22-dev llvm-22-tools
  llvm-16 llvm-16-dev llvm-16-tools clang-19 libfuzzer-19-dev libclang-rt-19-dev clang-format-19)
if ! dpkg -s "${PACKAGES[@]}" >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PACKAGES[@]}" >/dev/null
fi
for v in ${IRS_LLVM_VERSIONS:-16 19 22}; do
  cmake -S . -B "build/llvm-$v" -G Ninja -DIRS_LLVM_VERSION="$v" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache ${IRS_CMAKE_ARGS:-} >/dev/null
  cmake --build "build/llvm-$v"
done
