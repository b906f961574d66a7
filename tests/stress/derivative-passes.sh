#!/usr/bin/env bash
# Property test of the derivative passes: each (the project's passes of
# derivativePipeline, with and without parameters)
# runs twice on every module below; the second run must change nothing
# (module text identical, in memory and read back) and nothing may crash or
# fail the verifier (tests/stress/PassTwice.cpp checks, and prints counts).
#
#   tests/stress/derivative-passes.sh [N] [FIRST_SEED]
#
# Modules: N from llvm-stress (LLVM 19; sizes 25 to 800, so loops around
# divisions by values computed outside them), N Enzyme-shaped kernels from
# tests/stress/derivative-gen.py (atomics, clears, stores then loads,
# repeated branches, loops dividing by parameters: what llvm-stress does not
# make), 3 mutants of each lit input of the derivative passes, and every .ll
# under tests/lit as it is. Environment: PASS_TWICE (the checker, default
# build/llvm-19/bin/irs-pass-twice), KEEP=1 keeps the work directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
n=${1:-100}
first=${2:-1}
checker=${PASS_TWICE:-build/llvm-19/bin/irs-pass-twice}
stress=/usr/lib/llvm-19/bin/llvm-stress
if [ ! -x "$stress" ]; then
  echo "SKIPPED: derivative-passes: no $stress (install llvm-19)"
  exit 77 # ctest SKIP_RETURN_CODE
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/irs-derivative-passes.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

sizes=(25 50 100 200 300 500 800)
for ((seed = first; seed < first + n; seed++)); do
  "$stress" -seed="$seed" -size="${sizes[seed % ${#sizes[@]}]}" \
    -o "$work/stress-$seed.ll" || exit 1
done
python3 tests/stress/derivative-gen.py kernels "$n" "$first" "$work" || exit 1
derivative_inputs=(tests/lit/Transforms/{StoreSinkVersioning,AccumulationMerging,AccumulationAggregation,GridStrideCoarsening,InvariantDivision,SharedTileForwarding}/*.ll)
python3 tests/stress/derivative-gen.py mutate 3 "$first" "$work" \
  "${derivative_inputs[@]}" || exit 1
{
  ls "$work"/*.ll
  find tests/lit -name '*.ll' | sort
} > "$work/list"
echo "derivative-passes: $n llvm-stress modules, $n generated kernels," \
  "$((3 * ${#derivative_inputs[@]})) mutants, $(find tests/lit -name '*.ll' | wc -l) lit inputs"
"$checker" --list="$work/list"
