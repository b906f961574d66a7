#!/usr/bin/env bash
# corpus-run.sh IRS CORPUS_DIR WORK_DIR [LLVM_AS_16]
# Every corpus file goes through ir-sanitize and check:
#  - files that LLVM 19 cannot parse (the unrepaired mmba_*.ll, LLVM 6 debug
#    info) fail with exit 3, one line naming file:line:col, no output file;
#  - every other file is rewritten (exit 0), the output passes the verifier,
#    check on the output is clean, and check on the input exits 0 or 1;
#  - restore(stash everything(M)) prints exactly like M;
#  - with LLVM_AS_16 given: an output whose input llvm-as-16 reads must be
#    readable by llvm-as-16 too.
set -u
irs=$1 corpus=$2 work=$3 as16=${4:-}
rm -rf "$work" && mkdir -p "$work"
fail=0 n=0
bad() { echo "FAIL: $1: $2"; fail=1; }
for f in "$corpus"/*.ll; do
  name=$(basename "$f" .ll)
  out=$work/$name.out.ll
  n=$((n + 1))
  "$irs" "$f" -q -o "$out" 2> "$work/$name.err"
  rc=$?
  case $name in
    mmba_*.repaired | mmba_*.repaired.*) expect=0 ;;
    mmba_*) expect=3 ;;
    *) expect=0 ;;
  esac
  if [ "$rc" -ne "$expect" ]; then
    bad "$name" "exit $rc, expected $expect: $(head -3 "$work/$name.err")"
    continue
  fi
  if [ "$expect" -eq 3 ]; then
    [ -e "$out" ] && bad "$name" "output written despite bad input"
    [ "$(wc -l < "$work/$name.err")" -eq 1 ] || bad "$name" "error is not one line"
    grep -q "^ir-sanitize: error: $f:[0-9]*:[0-9]*: " "$work/$name.err" ||
      bad "$name" "error does not name file:line:col: $(cat "$work/$name.err")"
    continue
  fi
  opt -passes=verify -disable-output "$out" 2>/dev/null || bad "$name" "output fails the verifier"
  "$irs" check "$out" > /dev/null || bad "$name" "check on the output is not clean"
  "$irs" check "$f" > /dev/null
  crc=$?
  [ "$crc" -le 1 ] || bad "$name" "check on the input exited $crc"
  # Round trip: stash every bundle (intrinsics too), restore, compare (the
  # kernel splat, which restore does not undo, stays off).
  "$irs" "$f" -q --no-splat --scope=all --bundle jl_roots=stash --bundle gc-transition=stash -o "$work/$name.stash.ll" &&
    "$irs" restore "$work/$name.stash.ll" -q -o "$work/$name.back.ll" &&
    "$irs" restore "$f" -q -o "$work/$name.base.ll" || bad "$name" "stash/restore failed"
  diff <(grep -v '^; ModuleID' "$work/$name.base.ll") <(grep -v '^; ModuleID' "$work/$name.back.ll") > /dev/null ||
    bad "$name" "restore(stash(M)) differs from M"
  if [ -n "$as16" ] && "$as16" "$f" -o /dev/null 2>/dev/null; then
    "$as16" "$out" -o /dev/null 2> "$work/$name.as16" ||
      bad "$name" "llvm-as-16 reads the input but not the output: $(head -1 "$work/$name.as16")"
  fi
done
echo "corpus: $n files checked"
exit $fail
