#!/usr/bin/env bash
# C API benchmark: in-process bundle normalisation of the 60 MB Julia host
# module of bench/bench.sh sanitize (same generator) through IRSNormalizeBundles,
# against `opt -S` of the same file. The C API figure is the call alone, timed
# inside the consumer (examples/embed-c --time): parsing and printing are the
# host's (Julia already holds the module), and the call includes its own
# verification of the module before and after. Median of RUNS runs each,
# interleaved, of wall time and of CPU time (user + system: steadier on a
# shared machine); target C API / opt <= 0.05.
#
#   bench/bench.sh capi [INPUT.ll] [RUNS]
# Environment: BUILD (default build/llvm-19), LLVM_BIN, BENCH_MB, POLICY
# (default "scope=all": every bundle of every call, lowered or stashed).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build/llvm-19}
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-19/bin}
runs=${2:-5}
source bench/lib/common.sh
bench_scratch bench-capi
bench_host_input "${1:-}" "${BENCH_MB:-60}"
cmake --install "$build" --prefix "$W/prefix" >/dev/null
cmake -S examples/embed-c -B "$W/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$W/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$W/consumer" >/dev/null
for ((r = 0; r < runs; r++)); do
  /usr/bin/time -f "%e %U %S" -o "$W/time" "$llvm_bin/opt" -S "$IN" -o "$W/opt.ll"
  read -r wall user sys < "$W/time"
  echo "$wall" >> "$W/opt.s"
  echo "$user $sys" | awk '{ print $1 + $2 }' >> "$W/opt.cpu"
  # Prints "IRSNormalizeBundles: WALL s wall CPU s cpu".
  "$W/consumer/embed-c" "$IN" "$W" "${POLICY:-scope=all}" --time 2> "$W/capi" >/dev/null
  read -r _ wall _ _ cpu _ < "$W/capi"
  echo "$wall" >> "$W/capi.s"
  echo "$cpu" >> "$W/capi.cpu"
done
awk -v o="$(median < "$W/opt.s")" -v c="$(median < "$W/capi.s")" \
  -v oc="$(median < "$W/opt.cpu")" -v cc="$(median < "$W/capi.cpu")" 'BEGIN {
  printf "%-20s %7s %7s %7s %7s %7s %7s\n", "case", "opt_s", "capi_s", "time_x", "ocpu_s", "ccpu_s", "cpu_x"
  printf "%-20s %7.2f %7.3f %7.4f %7.2f %7.3f %7.4f\n", "IRSNormalizeBundles", o, c, c / o, oc, cc, cc / oc }'
