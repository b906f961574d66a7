#!/usr/bin/env bash
# Runs every test suite against each LLVM build made by scripts/setup.sh, then
# repeats what was skipped (no Enzyme plugin, no GPU...) so that it is visible.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
for v in ${IRS_LLVM_VERSIONS:-16 19 22}; do
  if [ ! -f "build/llvm-$v/CTestTestfile.cmake" ] && [ -z "${IRS_LLVM_VERSIONS:-}" ]; then
    echo "SKIPPED: LLVM $v: build/llvm-$v was not built (IRS_LLVM_VERSIONS at setup)"
    continue
  fi
  echo "== tests against LLVM $v =="
  log=$(mktemp)
  ctest --test-dir "build/llvm-$v" --output-on-failure 2>&1 | tee "$log"
  total=$(sed -n 's/.* tests failed out of \([0-9]*\)$/\1/p' "$log" | tail -n 1)
  bad=$(sed -n 's/.* \([0-9]*\) tests failed out of [0-9]*$/\1/p' "$log" | tail -n 1)
  if [ -z "$total" ]; then total=1; bad=1; fi # ctest itself failed
  passed=$((passed + total - bad))
  failed=$((failed + bad))
  grep -ho "SKIPPED: .*" "build/llvm-$v/Testing/Temporary/LastTest.log" 2>/dev/null |
    sort -u | sed "s/^/LLVM $v: /"
  rm -f "$log"
done
# The install-and-consume test of the C interface, on the default build.
if [ -d build/llvm-19 ]; then
  echo "== install and embed (build/llvm-19) =="
  if bash scripts/test-install.sh build/llvm-19; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
