#!/usr/bin/env bash
# Spec validation at scale: `gpu-check --spec S --print-pipeline-passes` (read,
# splat, validate the spec against the manifest, print the stages; nothing
# compiled) on a kernel with N CuDeviceArray parameters (4 leaves each) and a
# spec binding each to a buffer, against `ir-sanitize INPUT -o /dev/null` (read
# and splat alone) of the same kernel, side by side: median wall time and the
# ratio. Target: under 1 s at 10,000 parameters, and validation linear (the
# ratio does not grow with N). Before the index (af4f899), 1,000 parameters
# took 44.5 s.
#
#   bench/bench.sh validate [N...]            (default: 1000 10000)
# Environment: IRS (default build/llvm-19/bin/ir-sanitize), RUNS (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
irs=${IRS:-build/llvm-19/bin/ir-sanitize}
source bench/lib/common.sh
bench_scratch bench-validate
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000)
runs=${RUNS:-5}
# Wall time of one run of "$@", in seconds.
wall() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}
printf '%-8s %-12s %-12s %s\n' params validate_s splat_s ratio
for n in "${sizes[@]}"; do
  python3 bench/lib/gen-array-kernel.py "$n" "$W/k.ll" "$W/s.json"
  "$irs" gpu-check "$W/k.ll" --spec "$W/s.json" --print-pipeline-passes >/dev/null
  v=() s=()
  for ((r = 0; r < runs; r++)); do
    v+=("$(wall "$irs" gpu-check "$W/k.ll" --spec "$W/s.json" --print-pipeline-passes)")
    s+=("$(wall "$irs" "$W/k.ll" -o /dev/null)")
  done
  mv=$(printf '%s\n' "${v[@]}" | median)
  ms=$(printf '%s\n' "${s[@]}" | median)
  awk -v n="$n" -v v="$mv" -v s="$ms" 'BEGIN { printf "%-8s %-12.3f %-12.3f %.2f\n", n, v, s, v / s }'
done
