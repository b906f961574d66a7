#!/usr/bin/env bash
# Speed benchmark: ir-sanitize against LLVM's own parse-and-print of the same
# file, in the same run, as ratios of wall time and peak memory.
#
#   bench/bench.sh sanitize [INPUT.ll] [RUNS]
#
# Without INPUT a Julia 1.12-like host module of BENCH_MB megabytes (default
# 60) with tens of thousands of bundled ccalls is generated
# (bench/lib/gen-julia-module.py). Each command runs RUNS times (default 5),
# the cases interleaved so that machine noise hits them alike; the table shows
# median wall time, median CPU time (user + system: steadier than wall time on
# a shared machine) and peak RSS. Targets: sanitize/opt <= 1.10 (time and
# memory); check well under the round trip.
# Environment: IRS (default build/llvm-19/bin/ir-sanitize), LLVM_BIN
# (default /usr/lib/llvm-19/bin), BENCH_MB, BENCH_OUTPUT_BASELINE (below).
#
# To add a case: write a line `add_case NAME "BASELINE CMD" "TOOL CMD"` in
# the list at the end (use $IN for the input and $W for the scratch dir).
set -euo pipefail
cd "$(dirname "$0")/../.."
irs=${IRS:-build/llvm-19/bin/ir-sanitize}
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-19/bin}
runs=${2:-5}
source bench/lib/common.sh
bench_scratch bench
bench_host_input "${1:-}" "${BENCH_MB:-60}"

names=() baselines=() tools=()
add_case() { names+=("$1"); baselines+=("$2"); tools+=("$3"); }

# One measurement: "wall_s kilobytes cpu_s" of a command (output discarded).
measure() {
  /usr/bin/time -f "%e %M %U %S" -o "$W/time" bash -c "$1" > /dev/null 2>&1 ||
    { echo "bench: command failed: $1" >&2; exit 1; }
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$W/time"
}

run_cases() {
  for ((r = 0; r < runs; r++)); do
    for i in "${!names[@]}"; do
      measure "${baselines[$i]}" >> "$W/base.$i"
      measure "${tools[$i]}" >> "$W/tool.$i"
    done
  done
  printf '%-10s %7s %7s %7s %7s %7s %7s %8s %8s %6s\n' case base_s tool_s time_x \
    bcpu_s tcpu_s cpu_x base_MB tool_MB mem_x
  for i in "${!names[@]}"; do
    bt=$(cut -d' ' -f1 "$W/base.$i" | median) tt=$(cut -d' ' -f1 "$W/tool.$i" | median)
    bc=$(cut -d' ' -f3 "$W/base.$i" | median) tc=$(cut -d' ' -f3 "$W/tool.$i" | median)
    bm=$(cut -d' ' -f2 "$W/base.$i" | sort -n | tail -1) tm=$(cut -d' ' -f2 "$W/tool.$i" | sort -n | tail -1)
    awk -v n="${names[$i]}" -v bt="$bt" -v tt="$tt" -v bc="$bc" -v tc="$tc" -v bm="$bm" -v tm="$tm" 'BEGIN {
      printf "%-10s %7.2f %7.2f %7.3f %7.2f %7.2f %7.3f %8.1f %8.1f %6.3f\n", n, bt, tt, tt / bt,
        bc, tc, tc / bc, bm / 1024, tm / 1024, tm / bm }'
  done
}

export IN W
add_case sanitize "$llvm_bin/opt -S $IN -o $W/opt.ll" "$irs $IN -q -o $W/irs.ll"
add_case check "$llvm_bin/opt -S $IN -o $W/opt.ll" "$irs check $IN || [ \$? -eq 1 ]"
add_case restore "$llvm_bin/opt -S $IN -o $W/opt.ll" "$irs restore $IN -q -o $W/restore.ll"
# BENCH_OUTPUT_BASELINE=1: the same rewrite against opt's parse-and-print of
# the rewritten module, for a rewrite whose output is much larger than its
# input (the splat): the floor for a tool that has to print that output.
if [ -n "${BENCH_OUTPUT_BASELINE:-}" ]; then
  "$irs" "$IN" -q -o "$W/rewritten.ll"
  add_case vs_output "$llvm_bin/opt -S $W/rewritten.ll -o $W/opt2.ll" "$irs $IN -q -o $W/irs.ll"
fi
run_cases
# Without an INPUT, also the kernel splat on a module of thousands of kernels.
[ -n "${1:-}" ] || bench/bench.sh splat 5000 "$runs"
