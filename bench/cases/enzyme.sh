#!/usr/bin/env bash
# Speed benchmark of `ir-sanitize enzyme`: what the one-command harness
# (sanitise, driver, child process, log handling, restore, verified writes)
# costs against doing the same steps by hand, in the same run.
#
#   bench/bench.sh enzyme [RUNS]
#
# Input: a Julia 1.12-like host module of BENCH_MB megabytes (default 20,
# bench/lib/gen-julia-module.py) with thousands of gc-transition ccalls; one of
# its functions is differentiated in forward mode (--fn). Cases, each RUNS
# times (default 5), interleaved; the table shows median wall time:
#   enzyme  baseline: by hand: `ir-sanitize enzyme --emit-driver-only`, then
#                     opt -passes=enzyme, then `ir-sanitize restore`
#           tool:     ir-sanitize enzyme
#   floor   baseline: opt -passes=enzyme alone on the prepared module (the
#                     least any Enzyme run costs: one parse, Enzyme, a print)
#           tool:     ir-sanitize enzyme
#   triage  baseline: ir-sanitize enzyme run twice in a row
#           tool:     ir-sanitize enzyme --triage (both Enzyme runs at once)
# Targets: enzyme <= 1.10, triage < 1.0 (the two runs overlap); floor is
# informative (the harness parses and prints the module once more).
# Environment: IRS (default build/llvm-19/bin/ir-sanitize), LLVM_BIN
# (default /usr/lib/llvm-19/bin), ENZYME_PLUGIN (default: the configured
# plugin of that build), BENCH_MB.
set -euo pipefail
cd "$(dirname "$0")/../.."
irs=${IRS:-build/llvm-19/bin/ir-sanitize}
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-19/bin}
runs=${1:-5}
source bench/lib/common.sh
bench_scratch bench-enzyme

bench_enzyme_input "${BENCH_MB:-20}"
fn=$(grep -m1 -o '^define double @julia_[A-Za-z0-9_]*' "$W/in.ll" | sed 's/.*@//')
echo "input: $(du -m "$W/in.ll" | cut -f1) MB, $(grep -c '"gc-transition"' "$W/in.ll") gc-transition bundles; differentiating $fn"

bench_enzyme_plugin "$irs" bench-enzyme
eval "$irs enzyme $W/in.ll --fn $fn --mode forward --emit-driver-only -q -o $W/prepared.ll"

prepare="$irs enzyme $W/in.ll --fn $fn --mode forward --emit-driver-only -q -o $W/prepared.ll"
enzyme_opt="$llvm_bin/opt $W/prepared.ll -load-pass-plugin=$plugin -load=$plugin -enzyme-preopt=false -passes=enzyme -o $W/opt.out.bc"
restore="$irs restore $W/opt.out.bc -q -o $W/restored.ll"
enzyme_irs="$irs enzyme $W/in.ll --enzyme-plugin=$plugin --fn $fn --mode forward -q -o $W/irs.out.ll"
triage_irs="$irs enzyme $W/in.ll --enzyme-plugin=$plugin --fn $fn --mode forward --triage -q"
names=(enzyme floor triage)
baselines=("$prepare && $enzyme_opt && $restore" "$enzyme_opt" "$enzyme_irs && $enzyme_irs")
tools=("$enzyme_irs" "$enzyme_irs" "$triage_irs")

seconds() {
  /usr/bin/time -f "%e" -o "$W/time" bash -c "$1" > /dev/null 2>&1 ||
    { echo "bench-enzyme: command failed: $1" >&2; exit 1; }
  cat "$W/time"
}

for ((r = 0; r < runs; r++)); do
  for i in "${!names[@]}"; do
    seconds "${baselines[$i]}" >> "$W/base.$i"
    seconds "${tools[$i]}" >> "$W/tool.$i"
  done
done
printf '%-8s %9s %9s %7s\n' case base_s tool_s time_x
for i in "${!names[@]}"; do
  bt=$(median < "$W/base.$i") tt=$(median < "$W/tool.$i")
  awk -v n="${names[$i]}" -v bt="$bt" -v tt="$tt" 'BEGIN {
    printf "%-8s %9.2f %9.2f %7.3f\n", n, bt, tt, tt / bt }'
done
