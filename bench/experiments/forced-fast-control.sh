#!/usr/bin/env bash
# Negative control for the versioned reverse kernel: a copy of PLAN whose
# reverse kernel always takes the fast (reordered) version, the run-time
# disjointness test's branch removed. On the in-place `y .= x .+ y` plan the
# reverse check must then FAIL (d_y[i] is accumulated, then cleared as
# d_dest[i]), which shows that the test is what keeps that case correct.
#
#   bench/experiments/forced-fast-control.sh PLAN OUT   (then ir-sanitize-gpurun OUT)
# Reads the JSON run plan (docs/run-plan.md); the recorded results were made
# with its line-format predecessor, from the same kernels.
set -euo pipefail
plan=$1 out=$2
. "$(dirname "$0")/plan-lib.sh"
reverse_kernel "$plan" # sets rev, ptx
rm -rf "$out" && cp -r "$plan" "$out"
# The version branch is the reverse kernel's only negated-predicate branch.
sed -i "/^.visible .entry $rev(/,/^}/{/^\t@!%p[0-9]* bra/d}" "$out/$ptx"
if cmp -s "$plan/$ptx" "$out/$ptx"; then
  echo "forced-fast-control.sh: no version branch in $rev" >&2
  exit 1
fi
