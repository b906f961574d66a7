#!/usr/bin/env bash
# The experiment behind bench/results/GPUNotebook.md's "why the order matters":
# copies of one gradient-only plan (bcast_add_1d at 2^24 elements, prepared
# with --drop-primal-outputs --derivative-order=generated, so the reverse
# kernel is just `g = ld [dd]; st [dd], 0; atom.add [dy], g`) whose reverse
# kernel PTX is edited:
#   generated  as Enzyme orders it
#   sunk       the store after the atomic
#   offK       generated order, the atomic moved to element (i + K) mod n of
#              dy (K elements = 4K bytes further), so that dd[i] and the
#              atomic's address differ in their low address bits
#   red        generated order with red.global.add (no result) for the atom
#   stcg, stcs generated order, the store with .cg (L2 only) / .cs (streaming)
# Timing only: the off* variants accumulate into the wrong elements and
# fail the reverse check on purpose.
#
#   bench/experiments/order-experiment.sh PLAN OUTDIR     (here, no GPU needed)
#   then: ir-sanitize-gpurun OUTDIR/<variant> on the GPU machine
# Reads the JSON run plan (docs/run-plan.md); the recorded results were made
# with its line-format predecessor, from the same kernels.
set -euo pipefail
plan=$1 out=$2
n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["launch"].get("threads", ""))' "$plan/plan.json")
[ -n "$n" ] && [ $((n & (n - 1))) -eq 0 ] || { echo "need a power-of-two thread count" >&2; exit 2; }
. "$(dirname "$0")/plan-lib.sh"
reverse_kernel "$plan" # sets rev, ptx
variant() { # NAME SED-SCRIPT (applied to the reverse kernel only)
  rm -rf "${out:?}/$1"
  cp -r "$plan" "$out/$1"
  sed -i "/^.visible .entry $rev(/,/^}/{$2}" "$out/$1/$ptx"
  if cmp -s "$plan/$ptx" "$out/$1/$ptx" && [ "$1" != generated ]; then
    echo "variant $1 changed nothing" >&2; exit 1
  fi
}
mkdir -p "$out"
variant generated ''
# Swap the store line and the atomic line.
variant sunk '/st.global.u32/{h;d};/atom.global.add.f32/{G}'
variant red 's/atom.global.add.f32 \t%f[0-9]*, /red.global.add.f32 \t/'
variant stcg 's/st.global.u32 /st.global.cg.u32 /'
variant stcs 's/st.global.u32 /st.global.cs.u32 /'
for k in 32 1024 8192 262144; do
  variant off$k "s/^\\tshl.b64 \\t%rd13, %rd11, 2;/\\tadd.s64 \\t%rd11, %rd11, $k;\\n\\tand.b64 \\t%rd11, %rd11, $((n - 1));\\n&/"
done
ls "$out"
