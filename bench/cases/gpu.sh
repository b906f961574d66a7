#!/usr/bin/env bash
# GPU derivative checks and timings for the broadcast fixtures and a corpus
# kernel, at 2^20, 2^22 and 2^24 elements. Three phases, because the GPU
# machine has no LLVM:
#
#   bench/bench.sh gpu prepare PLANS [BUILD [GPU-CHECK-FLAG...]]
#       here: ir-sanitize gpu-check --no-run for every case and size, one
#       directory each (PLANS/<case>.n<log2 size>); flags such as
#       --derivative-order=generated or --drop-primal-outputs pass through
#   bench/bench.sh gpu prepare-inferred PLANS [BUILD [GPU-CHECK-FLAG...]]
#       the same from launches gpu-check infers (--dims, no spec): every
#       example and corpus kernel with its default activity and, where it
#       reads two or more arrays, with a mixed --wrt (PLANS/<case>.n<log2>)
#   bench/bench.sh gpu run PLANS REPORTS [RUNNER] [REPEATS]
#       on the GPU machine: ir-sanitize-gpurun on every plan (REPEATS timing
#       samples, default 50); REPORTS/<case>.n<log2>.json and the runner's
#       tables in REPORTS/summary.txt
#   bench/bench.sh gpu compare BASE NEW REPORTS [RUNNER] [REPEATS]
#       on the GPU machine: every plan of NEW/plans.txt run right after the
#       same plan of BASE (e.g. --accumulation=merged against the default),
#       reports in REPORTS/base and REPORTS/new, then their table
#       (bench/lib/gpu-compare-table.py: NEW's reverse median over BASE's)
#   bench/bench.sh gpu table REPORTS...
#       here: one Markdown table of all reports (ratios, bandwidth, checks)
#   bench/bench.sh gpu summary REPORTS TITLE
#       here: REPORTS' summary as kept in bench/results/*.md (the table,
#       date, commit, device, the runner's grid-stride notes)
#
# IRS_BENCH_CASES (names, space-separated) picks cases; default all. The
# in-place cases: `y .= x .+ y` (inplace), the same with y an output but
# not differentiated (inplace_output: y's shadow is cleared and accumulated
# into), and `b .= -b .- b` (nested_inplace: b written and read twice).
#
# The timings are benchmarks, not assertions: the runner reports medians,
# ratios to the original primal kernel (targets: splat <= 1.02, forward
# <= 1.5, reverse <= 2.0) and bandwidth against the device's peak.
# Exit status: 0 when every check passed.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${IRS_CORPUS_DIR:-$here/../shared/corpus}
sizes=${IRS_BENCH_SIZES:-20 22 24} # log2 of the element count
kernels=$here/examples/kernels
specs=$here/examples/specs

# name | input | spec (written for 2^20 elements) | leaves scale-spec.py
# scales besides the N-sized ones (a second dimension, a block count)
cases=(
  "bcast_add_1d|$kernels/bcast_add_1d.ll|$specs/bcast_add_1d.json|"
  "bcast_add_1d_inplace|$kernels/bcast_add_1d.ll|$specs/bcast_add_1d_inplace.json|"
  "bcast_add_1d_inplace_output|$kernels/bcast_add_1d.ll|$specs/bcast_add_1d_inplace_output.json|"
  "bcast_add_1d_self|$kernels/bcast_add_1d.ll|$specs/bcast_add_1d_self.json|"
  "bcast_neg_sub_nested|$kernels/bcast_neg_sub_nested.ll|$specs/bcast_neg_sub_nested.json|"
  "bcast_neg_sub_nested_inplace|$kernels/bcast_neg_sub_nested.ll|$specs/bcast_neg_sub_nested_inplace.json|"
  "bcast_add_2d|$kernels/bcast_add_2d.ll|$specs/bcast_add_2d.json|1.2.1,2.0.0.0.2.1,2.1.1.0"
  "ka_mul|$kernels/ka_mul.ll|$specs/ka_mul.json|1.1.0.0.0.0"
  "bcast_dual|$kernels/bcast_dual.ll|$specs/bcast_dual.json|"
  "mmba_broadcast|$corpus/mmba_broadcast.repaired.ll|$specs/mmba_broadcast.json|0.0.1,1.0.0.1,4.1.0"
)

# name | input | rank of --dims (2:R: R rows, the rest columns) | flags (N:
# the element count, D: the second size of a 2-D --dims)
infer=$here/tests/lit/tools/gpu-check/Inputs/infer
inferred=(
  "bcast_add_1d|$kernels/bcast_add_1d.ll|1|"
  "bcast_add_1d.mixed|$kernels/bcast_add_1d.ll|1|--wrt 2.0.1"
  "bcast_add_2d|$kernels/bcast_add_2d.ll|2|"
  "bcast_add_2d.mixed|$kernels/bcast_add_2d.ll|2|--wrt 2.0.0"
  "bcast_dual|$kernels/bcast_dual.ll|1|"
  "bcast_neg_sub_nested|$kernels/bcast_neg_sub_nested.ll|1|"
  "bcast_neg_sub_nested.mixed|$kernels/bcast_neg_sub_nested.ll|1|--wrt 2.0.1"
  "ka_mul|$kernels/ka_mul.ll|1|"
  "ka_mul.mixed|$kernels/ka_mul.ll|1|--wrt y"
  "mmba_broadcast|$corpus/mmba_broadcast.repaired.ll|2|"
  "mmba_broadcast_linear|$corpus/mmba_broadcast_linear.repaired.ll|2|"
  "mmba_tf_fusion|$corpus/mmba_tf_fusion.repaired.ll|2|"
  "mmba_tf_fusion.mixed|$corpus/mmba_tf_fusion.repaired.ll|2|--wrt 1.0,1.4"
  "mmba_tf_fusion.one|$corpus/mmba_tf_fusion.repaired.ll|2|--wrt 1.0"
  "mmba_tf_fusion.all_but_one|$corpus/mmba_tf_fusion.repaired.ll|2|--wrt 1.0,1.1,1.4"
  "mmba_tf_fusion_2_or_5|$corpus/mmba_tf_fusion_2_or_5.repaired.ll|2|"
  "cuda3_2d_f64|$infer/cuda3_2d_f64.ll|2|"
  "raw_pointer_extent|$infer/raw_pointer_extent.ll|1|--set n=N"
  "index_array|$infer/index_array.ll|1|--set idx=range"
  "index_array.ones|$infer/index_array.ll|1|--set idx=ones"
  "index_array.segments|$infer/index_array.ll|1|--set idx=segments"
  "index_array_1based|$infer/index_array_1based.ll|1|--set idx=range1"
  "ka_static_workgroup|$infer/ka_static_workgroup.ll|1|"
  "mixed_rank|$infer/mixed_rank.ll|2|--set v.dims=D"
  "mixed_rank.r32|$infer/mixed_rank.ll|2:32|--set v.dims=D"
  "mixed_rank.r256|$infer/mixed_rank.ll|2:256|--set v.dims=D"
  "mixed_rank.r4096|$infer/mixed_rank.ll|2:4096|--set v.dims=D"
  "cuda4_state|$infer/cuda4_state.ll|1|"
  "cuda5_state_i64|$infer/cuda5_state_i64.ll|1|"
  "ptr_f64_as_i64|$infer/ptr_f64_as_i64.ll|1|--set 3=N"
  "tiled_block32|$infer/tiled_block32.ll|2|"
  "matmul_f32|$infer/matmul_f32.ll|2|"
  "matmul_f64|$infer/matmul_f64.ll|2|"
  "tiled_matmul_f32|$infer/tiled_matmul_f32.ll|2|"
)

usage() { sed -n '2,37p' "$0" >&2; exit 2; }

# selected: the cases IRS_BENCH_CASES names (all without it).
selected() {
  local c name
  for c in "${cases[@]}"; do
    name=${c%%|*}
    case " ${IRS_BENCH_CASES:-$name} " in *" $name "*) echo "$c" ;; esac
  done
}

prepare() {
  local plans=$1 build=${2:-$here/build/llvm-19}
  local flags=("${@:3}")
  mkdir -p "$plans/specs"
  : >"$plans/plans.txt"
  local c
  while read -r c; do
    IFS='|' read -r name input spec paths <<<"$c"
    for s in $sizes; do
      local dir=$plans/$name.n$s scaled=$plans/specs/$name.n$s.json
      python3 "$here/bench/lib/scale-spec.py" "$spec" $((1 << (s - 20))) \
        --paths "$paths" >"$scaled"
      rm -rf "$dir"
      "$build/bin/ir-sanitize" gpu-check -q "$input" --spec "$scaled" \
        --emit-dir "$dir" --no-run "${flags[@]}" >/dev/null
      echo "$name.n$s" >>"$plans/plans.txt"
      echo "prepared $dir"
    done
  done < <(selected)
}

prepare_inferred() {
  local plans=$1 build=${2:-$here/build/llvm-19}
  local flags=("${@:3}")
  mkdir -p "$plans"
  : >"$plans/plans.txt"
  local c
  for c in "${inferred[@]}"; do
    IFS='|' read -r name input rank extra <<<"$c"
    case " ${IRS_BENCH_CASES:-$name} " in *" $name "*) ;; *) continue ;; esac
    for s in $sizes; do
      local n=$((1 << s)) d=$((1 << (s / 2))) dims dir=$plans/$name.n$s
      dims=$n
      case $rank in
        1) ;;
        2:*) d=$((n / ${rank#2:})); dims=${rank#2:}x$d ;;
        *) dims=$((1 << (s - s / 2)))x$d ;;
      esac
      local args=()
      [ -z "$extra" ] || read -r -a args <<<"${extra//N/$n}"
      args=("${args[@]//D/$d}")
      rm -rf "$dir"
      "$build/bin/ir-sanitize" gpu-check -q "$input" --dims "$dims" \
        "${args[@]}" --emit-dir "$dir" --no-run "${flags[@]}" >/dev/null
      echo "$name.n$s" >>"$plans/plans.txt"
      echo "prepared $dir (--dims $dims ${args[*]})"
    done
  done
}

run() {
  local plans=$1 reports=$2 runner=${3:-$here/build/llvm-19/bin/ir-sanitize-gpurun}
  local repeats=${4:-50} status=0 summary=$2/summary.txt
  mkdir -p "$reports"
  : >"$summary"
  local plan
  while read -r plan; do
    local dir=$plans/$plan
    [ -f "$dir/plan.json" ] || { echo "no plan for $plan" >&2; status=1; continue; }
    echo "== $plan" >>"$summary"
    "$runner" "$dir" --repeats "$repeats" \
      --report "$reports/$plan.json" >>"$summary" 2>&1 || status=1
  done <"$plans/plans.txt"
  cat "$summary"
  return $status
}

compare() {
  local base=$1 new=$2 reports=$3 runner=${4:-$here/build/llvm-19/bin/ir-sanitize-gpurun}
  local repeats=${5:-50} plan side
  mkdir -p "$reports/base" "$reports/new"
  while read -r plan; do
    for side in base new; do
      local dir=$base/$plan
      [ $side = base ] || dir=$new/$plan
      [ -f "$dir/plan.json" ] || { echo "no plan $dir" >&2; continue; }
      echo "== $side $plan"
      "$runner" "$dir" --repeats "$repeats" --report "$reports/$side/$plan.json" \
        >"$reports/$side/$plan.txt" 2>&1 || true
    done
  done <"$new/plans.txt"
  python3 "$here/bench/lib/gpu-compare-table.py" "$reports/base" "$reports/new"
}

case ${1:-} in
  prepare) [ $# -ge 2 ] || usage; prepare "${@:2}" ;;
  prepare-inferred) [ $# -ge 2 ] || usage; prepare_inferred "${@:2}" ;;
  run) [ $# -ge 3 ] || usage; run "${@:2}" ;;
  compare) [ $# -ge 4 ] || usage; compare "${@:2}" ;;
  table) [ $# -ge 2 ] || usage; python3 "$here/bench/lib/gpu-report-table.py" "${@:2}" ;;
  summary) [ $# -eq 3 ] || usage; python3 "$here/bench/lib/gpu-results-summary.py" "${@:2}" ;;
  *) usage ;;
esac
