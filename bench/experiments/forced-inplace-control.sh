#!/usr/bin/env bash
# Negative control for the in-place version of a versioned reverse kernel: a
# copy of PLAN whose reverse kernel always takes the in-place version (the
# clear and the accumulations into its element folded into one store) with
# its equality tests forced true, the run-time tests' branches removed. On a
# launch whose addresses are not equal (the 2-D broadcast: dest, d_x and d_y
# are three arrays, and every thread of a row adds into one element of d_y)
# the reverse check must then FAIL: the accumulations go into d_dest's
# element instead of d_x's and d_y's. That shows that the equality test is
# what keeps the fold exact. (Taken with its tests, the in-place version is
# exact on any launch: an accumulation into another element stays an
# atomic.)
#
#   bench/experiments/forced-inplace-control.sh PLAN OUT   (then ir-sanitize-gpurun OUT)
set -euo pipefail
plan=$1 out=$2
. "$(dirname "$0")/plan-lib.sh"
reverse_kernel "$plan" # sets rev, ptx
rm -rf "$out" && cp -r "$plan" "$out"
# The reverse kernel's negated-predicate branches are the versions' tests:
# the first leaves the fast version for the in-place test, the second leaves
# the in-place version for the original order. The first becomes
# unconditional, the second goes. Every 64-bit equality test compares a
# register with itself (the address tests; nothing else in these kernels
# compares 64-bit values for equality).
n=$(sed -n "/^.visible .entry $rev(/,/^}/p" "$out/$ptx" | grep -c $'^\t@!%p[0-9]* bra' || true)
if [ "$n" != 2 ]; then
  echo "forced-inplace-control.sh: $rev has $n version branches, expected 2" >&2
  exit 1
fi
sed -i "/^.visible .entry $rev(/,/^}/{
  0,/^\t@!%p[0-9]* bra/s/^\t@!%p[0-9]* bra/\tbra.uni/
  /^\t@!%p[0-9]* bra/d
  s/^\(\tsetp.eq.s64 \t%p[0-9]*, \)\(%rd[0-9]*\), %rd[0-9]*;/\1\2, \2;/
}" "$out/$ptx"
