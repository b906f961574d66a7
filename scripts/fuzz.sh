#!/usr/bin/env bash
# Builds the libFuzzer targets (build/fuzz, the "fuzz" CMake preset: clang-19,
# ASan + UBSan, LLVM 19) if needed and runs each for SECONDS (default 30).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Targets: module, bundle-policy, activity, launch-spec, launch-inference,
# manifest, run-plan, restore, c-interface, pipeline-text, probe-cache
# (default: all). Each starts from its seeds (build/fuzz/tests/fuzz/seeds/T,
# made from the tests and examples; tests/fuzz/dicts/T.dict where there is
# one) and keeps what it finds in
# build/fuzz/corpus/T, so later runs go on from there. A crash leaves its
# input in build/fuzz/crashes/T and fails the script; turn it into a
# regression test. Prints executions and coverage per target.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -ne 0 ] || targets=(module bundle-policy activity launch-spec launch-inference manifest run-plan restore c-interface pipeline-text probe-cache)
build=build/fuzz
if [ ! -f "$build/build.ninja" ]; then
  cmake --preset fuzz >/dev/null || exit 1
fi
cmake --build "$build" --target irs-fuzzers || exit 1

failed=0
for t in "${targets[@]}"; do
  fuzzer=$build/bin/irs-fuzz-$t
  if [ ! -x "$fuzzer" ]; then
    echo "fuzz $t: no $fuzzer" >&2
    failed=$((failed + 1))
    continue
  fi
  corpus=$build/corpus/$t
  crashes=$build/crashes/$t
  mkdir -p "$corpus" "$crashes"
  log=$build/fuzz-$t.log
  dict=()
  [ -f "tests/fuzz/dicts/$t.dict" ] && dict=(-dict="tests/fuzz/dicts/$t.dict")
  # LLVM's bitcode reader is not hardened against malformed bitcode (it
  # segfaults in its MetadataLoader and leaks on error paths, inside
  # libLLVM): the module target mutates text only unless IRS_FUZZ_BITCODE=1.
  # restore and c-interface parse text only.
  if [[ $t =~ ^(module|restore|c-interface)$ ]] && [ -z "${IRS_FUZZ_BITCODE:-}" ]; then
    dict+=(-only_ascii=1)
  fi
  # One worker: CI machines have two cores for everything.
  # Leaks count (the module target exempts LLVM's own reader).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "${dict[@]}" \
    "$corpus" "$build/tests/fuzz/seeds/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: ${seconds}s, ${execs:-?} executions, ${cov:-cov: ?}, no crash"
  else
    echo "fuzz $t: FAILED (exit $rc) after ${execs:-?} executions; see $log and $crashes" >&2
    grep -m 3 -E 'ERROR|SUMMARY|fuzz:' "$log" >&2
    failed=$((failed + 1))
  fi
done
[ "$failed" -eq 0 ]
