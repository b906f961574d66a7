#!/usr/bin/env bash
# Random-module stress test for the bundle passes, and for InvariantDivision
# (llvm-stress's loops divide by values computed outside them).
#
#   tests/stress/stress.sh [N] [FIRST_SEED]
#
# llvm-stress (LLVM 19) generates N modules; tests/stress/stress-inject.py adds
# bundled calls to them; each module then goes through every action. Checks:
# every output passes the verifier, and restore(stash(M)) prints exactly like
# M (M printed by `ir-sanitize restore`, which changes nothing without
# records). Environment: IRS (the ir-sanitize binary, default
# build/llvm-19/bin/ir-sanitize; its IRSanitize.so beside it), LLVM_BIN
# (opt's directory, default /usr/lib/llvm-19/bin), IRS_ASAN_RUNTIME (an
# ASan build's runtime, preloaded into opt), KEEP=1 keeps the work directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
n=${1:-100}
first=${2:-1}
irs=${IRS:-build/llvm-19/bin/ir-sanitize}
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-19/bin}
plugin=$(dirname "$irs")/IRSanitize.so
stress=/usr/lib/llvm-19/bin/llvm-stress
[ -x "$stress" ] || stress=$llvm_bin/llvm-stress
if [ ! -x "$stress" ]; then
  echo "SKIPPED: stress: no llvm-stress (install llvm-19)"
  exit 77 # ctest SKIP_RETURN_CODE
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/irs-stress.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

failures=0
fail() { echo "FAIL seed $seed: $*"; failures=$((failures + 1)); }
verify() { "$llvm_bin/opt" -passes=verify -disable-output "$1" 2>/dev/null; }

for ((seed = first; seed < first + n; seed++)); do
  m=$work/m$seed
  "$stress" -seed="$seed" -size=$((20 + seed % 100)) |
    python3 tests/stress/stress-inject.py > "$m.ll"
  # The division pass on the same module (in loop-simplify form, as after
  # an -O pipeline) leaves it valid. An ASan build's plugin needs its runtime
  # loaded first in opt; LLVM's own leaks are not ours.
  LD_PRELOAD=${IRS_ASAN_RUNTIME:-} ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 \
    "$llvm_bin/opt" -load-pass-plugin="$plugin" \
    -passes='loop-simplify,ir-sanitize-invariant-division,verify' \
    "$m.ll" -o /dev/null 2> "$m.err" ||
    fail "invariant division: $(head -1 "$m.err")"
  # M as ir-sanitize prints it: the reference for the round trip.
  if ! "$irs" restore "$m.ll" -q -o "$m.ref.ll" 2> "$m.err"; then
    fail "injected module rejected: $(head -1 "$m.err")"
    continue
  fi
  for scope in ccalls all; do
    for action in keep drop stash lower; do
      opts=(--scope="$scope" --no-splat -q)
      for tag in gc-transition jl_roots julia.gc_alloc_ptr_offsets unknown_tag other nonnull; do
        a=$action
        [ "$a" = lower ] && [ "$tag" != gc-transition ] && a=stash
        opts+=(--bundle "$tag=$a")
      done
      out=$m.$scope.$action.ll
      "$irs" "$m.ll" "${opts[@]}" -o "$out" 2> "$m.err" ||
        { fail "$scope/$action: exit $?: $(head -1 "$m.err")"; continue; }
      verify "$out" || fail "$scope/$action: output fails the verifier"
      if [ "$action" = stash ]; then
        "$irs" restore "$out" -q -o "$out.back.ll" 2> "$m.err" ||
          { fail "$scope/restore: $(head -1 "$m.err")"; continue; }
        # Text equality except the module name and the "; preds = ..."
        # comments, whose order is the use-list order that replacing an
        # invoke changes (the branches, which define the predecessors, are
        # compared).
        sed -e '/^; ModuleID/d' -e 's/ *; preds = .*//' "$m.ref.ll" > "$m.a"
        sed -e '/^; ModuleID/d' -e 's/ *; preds = .*//' "$out.back.ll" > "$m.b"
        cmp -s "$m.a" "$m.b" || fail "$scope: restore(stash(M)) differs from M"
      fi
    done
  done
done
echo "stress: $n modules (seeds $first..$((first + n - 1))), $failures failures"
[ "$failures" -eq 0 ]
