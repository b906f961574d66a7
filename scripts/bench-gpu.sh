#!/usr/bin/env bash
# GPU derivative checks and timings for the broadcast fixtures and a corpus
# kernel. Two phases, because the GPU machine has no LLVM:
#
#   scripts/bench-gpu.sh prepare PLANS [BUILD]   here: ir-sanitize gpu-check --no-run
#                                                for every case, one directory each
#   scripts/bench-gpu.sh run PLANS REPORTS [RUNNER] [REPEATS]
#                                                on the GPU machine: ir-sanitize-gpurun
#                                                on every plan; REPORTS/<case>.json, and
#                                                the tables in REPORTS/summary.txt
#
# The timings are benchmarks, not assertions: the runner reports medians and
# ratios to the original primal kernel (targets: splat <= 1.02, forward <= 2.0,
# reverse <= 4.0). Exit status: 0 when every check passed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${IRS_CORPUS_DIR:-$here/../shared/corpus}

# name | input | spec
cases=(
  "bcast_add_1d|$here/examples/kernels/bcast_add_1d.ll|$here/examples/specs/bcast_add_1d.json"
  "bcast_add_1d_16m|$here/examples/kernels/bcast_add_1d.ll|$here/examples/specs/bcast_add_1d_16m.json"
  "bcast_neg_sub_nested|$here/examples/kernels/bcast_neg_sub_nested.ll|$here/examples/specs/bcast_neg_sub_nested.json"
  "bcast_add_2d|$here/examples/kernels/bcast_add_2d.ll|$here/examples/specs/bcast_add_2d.json"
  "ka_mul|$here/examples/kernels/ka_mul.ll|$here/examples/specs/ka_mul.json"
  "bcast_dual|$here/examples/kernels/bcast_dual.ll|$here/examples/specs/bcast_dual.json"
  "mmba_broadcast|$corpus/mmba_broadcast.repaired.ll|$here/examples/specs/mmba_broadcast.json"
)

usage() { sed -n '2,14p' "$0" >&2; exit 2; }

prepare() {
  local plans=$1 build=${2:-$here/build/gpu}
  mkdir -p "$plans"
  for c in "${cases[@]}"; do
    IFS='|' read -r name input spec <<<"$c"
    rm -rf "${plans:?}/$name"
    "$build/bin/ir-sanitize" gpu-check -q "$input" --spec "$spec" \
      --emit-dir "$plans/$name" --no-run >/dev/null
    echo "prepared $plans/$name"
  done
}

run() {
  local plans=$1 reports=$2 runner=${3:-$here/build/gpu/bin/ir-sanitize-gpurun}
  local repeats=${4:-100} status=0 summary=$2/summary.txt
  mkdir -p "$reports"
  : >"$summary"
  for c in "${cases[@]}"; do
    IFS='|' read -r name _ _ <<<"$c"
    [ -f "$plans/$name/plan.json" ] || { echo "no plan for $name" >&2; status=1; continue; }
    echo "== $name" >>"$summary"
    "$runner" "$plans/$name" --repeats "$repeats" \
      --report "$reports/$name.json" >>"$summary" 2>&1 || status=1
  done
  cat "$summary"
  return $status
}

case ${1:-} in
  prepare) [ $# -ge 2 ] || usage; prepare "${@:2}" ;;
  run) [ $# -ge 3 ] || usage; run "${@:2}" ;;
  *) usage ;;
esac
