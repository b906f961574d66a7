#!/usr/bin/env bash
# Negative control for the versioned reverse kernel: a copy of PLAN whose
# reverse kernel always takes the fast (reordered) version, the run-time
# disjointness test's branch removed. On the in-place `y .= x .+ y` plan the
# reverse check must then FAIL (d_y[i] is accumulated, then cleared as
# d_dest[i]), which shows that the test is what keeps that case correct.
#
#   docs/gpu-check/forced-fast-control.sh PLAN OUT   (then ir-sanitize-gpurun OUT)
# Written for the line-format plan (plan.txt) the recorded results used;
# plans are JSON (plan.json) since, so the awk look-ups below need porting.
set -euo pipefail
plan=$1 out=$2
rev=$(awk '$1 == "module" && $2 == "reverse" {print $4}' "$plan/plan.txt")
rm -rf "$out" && cp -r "$plan" "$out"
# The version branch is the reverse kernel's only negated-predicate branch.
sed -i "/^.visible .entry $rev(/,/^}/{/^\t@!%p[0-9]* bra/d}" "$out/derivatives.ptx"
if cmp -s "$plan/derivatives.ptx" "$out/derivatives.ptx"; then
  echo "forced-fast-control.sh: no version branch in $rev" >&2
  exit 1
fi
