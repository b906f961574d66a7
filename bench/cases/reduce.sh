#!/usr/bin/env bash
# Speed benchmark of `ir-sanitize reduce`: how long cutting a large Julia-like
# host module down to a minimal Enzyme reproducer takes, and how the size
# falls over time.
#
#   bench/bench.sh reduce
#
# Input: a Julia 1.12-like host module of BENCH_MB megabytes (default 20,
# bench/lib/gen-julia-module.py): thousands of functions with gc-transition
# ccalls; one function in the middle is differentiated in forward mode
# (--fn), so Enzyme aborts on its first ccall and everything else is ballast.
# Sanitising fixes that abort, so `reduce` reduces the module as given.
# Targets: the reproducer has <= 30 instructions and the reduction takes
# <= 180 s with JOBS (default 2) candidates at once.
# Prints the wall time, the size curve (llvm-reduce's pass, elapsed seconds,
# best candidate in bytes, from reduce's progress lines), the reproducer's
# header and the machine's load average.
# Environment: IRS (default build/llvm-19/bin/ir-sanitize), ENZYME_PLUGIN
# (default: the configured plugin of that build), BENCH_MB, JOBS.
set -euo pipefail
cd "$(dirname "$0")/../.."
irs=${IRS:-build/llvm-19/bin/ir-sanitize}
jobs=${JOBS:-2}
source bench/lib/common.sh
bench_scratch bench-reduce

bench_enzyme_plugin "$irs" bench-reduce

bench_enzyme_input "${BENCH_MB:-20}"
fns=$(grep -c '^define double @julia_' "$W/in.ll")
fn=$(grep -o '^define double @julia_[A-Za-z0-9_]*' "$W/in.ll" |
  sed -n "$((fns / 2 + 1))s/.*@//p")
echo "input: $(du -m "$W/in.ll" | cut -f1) MB, $fns functions; differentiating $fn; $jobs jobs"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

start=$(date +%s.%N)
"$irs" reduce "$W/in.ll" --enzyme-plugin="$plugin" --fn "$fn" --mode forward \
  -j "$jobs" -o "$W/min.ll" 2> "$W/progress.log" ||
  { cat "$W/progress.log" >&2; echo "bench-reduce: reduce failed" >&2; exit 1; }
end=$(date +%s.%N)
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

echo "size curve (seconds, pass, best bytes):"
sed -n 's/^ir-sanitize: reduce: *\([0-9.]*\) s  \(.*[^ ]\) *best \(.*\) bytes$/  \1\t\2\t\3/p' \
  "$W/progress.log"
grep '^; ' "$W/min.ll"
insts=$(sed -n 's/^; after: .*, \([0-9]*\) instructions,.*/\1/p' "$W/min.ll")
awk -v s="$start" -v e="$end" -v i="$insts" 'BEGIN {
  t = e - s
  printf "reduce: %.1f s (target <= 180: %s), %d instructions (target <= 30: %s)\n",
    t, t <= 180 ? "met" : "MISSED", i, i <= 30 ? "met" : "MISSED" }'
