#!/usr/bin/env bash
# Splat benchmark: the full rewrite (bundles + kernel splat + manifest) of a
# module with thousands of kernels, against `opt -S` parse-and-print of the
# same file, through bench/bench.sh sanitize (same table: median wall time, peak
# RSS, ratios; target <= 1.10), and against `opt -S` of the splatted output
# (case vs_output: the floor for a tool that must print that larger output).
#
#   bench/bench.sh splat [KERNELS] [RUNS]
#
# The module: every kernel of examples/kernels/*.ll and of the corpus'
# CUDAnative kernels (mmba_*.repaired.ll, debug info stripped so that copies
# do not share a DISubprogram), copied until there are KERNELS kernels
# (default 5000), one in 50 copies also called from a device function
# (bench/lib/gen-kernel-module.py), joined with llvm-link.
# Environment: IRS, LLVM_BIN as for bench.sh; CORPUS (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/../.."
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-19/bin}
corpus=${CORPUS:-../shared/corpus}
kernels=${1:-5000}
source bench/lib/common.sh
bench_scratch bench-splat

sources=(examples/kernels/*.ll)
if compgen -G "$corpus/mmba_*.repaired.ll" > /dev/null; then
  sources+=("$corpus"/mmba_*.repaired.ll)
else
  echo "bench-splat: no corpus at $corpus; fixtures only" >&2
fi
copies=$(( (kernels + ${#sources[@]} - 1) / ${#sources[@]} ))
for i in "${!sources[@]}"; do
  "$llvm_bin/opt" -strip-debug -S "${sources[$i]}" -o "$W/src$i.ll"
  python3 bench/lib/gen-kernel-module.py "$W/src$i.ll" "$W/copies$i.ll" "$copies" 50 "_f$i"
done
# The CUDAnative modules carry an older NVPTX layout string; same layout.
"$llvm_bin/llvm-link" -S "$W"/copies*.ll -o "$W/kernels.ll" 2> /dev/null
echo "splat benchmark: $(grep -c '^define.*\(ptx_kernel\|@ptxcall\)' "$W/kernels.ll") kernels"
BENCH_OUTPUT_BASELINE=1 bench/bench.sh sanitize "$W/kernels.ll" "${2:-5}"
