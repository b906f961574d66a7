#!/usr/bin/env bash
# Runs every test suite against each LLVM build made by scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for v in ${IRS_LLVM_VERSIONS:-19 22}; do
  echo "== tests against LLVM $v =="
  ctest --test-dir "build/llvm-$v" --output-on-failure || status=1
done
exit $status
