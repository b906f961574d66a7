#!/usr/bin/env bash
# Builds the libFuzzer targets (in build/asan, the "asan" CMake preset:
# clang-19, ASan + UBSan, LLVM 19) if needed and runs each for SECONDS
# (default 30), IRS_FUZZ_JOBS (default: the number of cores) at a time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Targets: the irs-fuzz-T executables tests/fuzz/CMakeLists.txt builds, one
# per reader (default: all). Each starts from its seeds (build/asan/tests/fuzz/seeds/T,
# made from the tests and examples; tests/fuzz/dicts/T.dict where there is
# one) and keeps what it finds in
# build/asan/corpus/T, so later runs go on from there. A crash leaves its
# input in build/asan/crashes/T and fails the script; turn it into a
# regression test. Prints executions and coverage per target.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
build=build/asan
if [ ! -f "$build/build.ninja" ]; then
  cmake --preset asan >/dev/null || exit 1
fi
cmake --build "$build" --target irs-fuzzers || exit 1
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$build"/bin/irs-fuzz-*; do targets+=("${f##*/irs-fuzz-}"); done
fi
# The shared ASan runtime, which must come first: preloaded, as ctest and lit
# preload it (CMake wrote its path for lit).
asan_runtime=$(sed -n 's/^config.asan_runtime = "\(.*\)"$/\1/p' "$build/tests/lit/lit.site.cfg.py")

# fuzz_one T: runs target T for $seconds and writes $build/fuzz-T.result:
# "ok" or "failed" on the first line, then what to print.
fuzz_one() {
  local t=$1 fuzzer=$build/bin/irs-fuzz-$1 result=$build/fuzz-$1.result
  if [ ! -x "$fuzzer" ]; then
    printf 'failed\nfuzz %s: no %s\n' "$t" "$fuzzer" >"$result"
    return
  fi
  local corpus=$build/corpus/$t crashes=$build/crashes/$t log=$build/fuzz-$t.log
  mkdir -p "$corpus" "$crashes"
  local dict=()
  [ -f "tests/fuzz/dicts/$t.dict" ] && dict=(-dict="tests/fuzz/dicts/$t.dict")
  # LLVM's bitcode reader is not hardened against malformed bitcode (it
  # segfaults in its MetadataLoader and leaks on error paths, inside
  # libLLVM): the module target mutates text only unless IRS_FUZZ_BITCODE=1.
  # restore and c-interface parse text only.
  if [[ $t =~ ^(module|restore|c-interface)$ ]] && [ -z "${IRS_FUZZ_BITCODE:-}" ]; then
    dict+=(-only_ascii=1)
  fi
  # One worker per target; leaks count (the module target exempts LLVM's
  # own reader).
  LD_PRELOAD=$asan_runtime ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "${dict[@]}" \
    "$corpus" "$build/tests/fuzz/seeds/$t" >"$log" 2>&1
  local rc=$? execs cov
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  if [ $rc -eq 0 ]; then
    printf 'ok\nfuzz %s: %ss, %s executions, %s, no crash\n' \
      "$t" "$seconds" "${execs:-?}" "${cov:-cov: ?}" >"$result"
  else
    { echo failed
      echo "fuzz $t: FAILED (exit $rc) after ${execs:-?} executions; see $log and $crashes"
      grep -m 3 -E 'ERROR|SUMMARY|fuzz:' "$log"; } >"$result"
  fi
}

# As many targets at once as there are cores (IRS_FUZZ_JOBS): each is one
# process, and on CI's two cores two at a time halve the stage.
jobs=${IRS_FUZZ_JOBS:-$(nproc)}
running=0
for t in "${targets[@]}"; do
  rm -f "$build/fuzz-$t.result"
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
wait

failed=0
for t in "${targets[@]}"; do
  result=$build/fuzz-$t.result
  status=$(head -n 1 "$result" 2>/dev/null)
  if [ "$status" = ok ]; then
    tail -n +2 "$result"
  else
    { tail -n +2 "$result" 2>/dev/null || echo "fuzz $t: no result"; } >&2
    failed=$((failed + 1))
  fi
done
[ "$failed" -eq 0 ]
