#!/usr/bin/env bash
# every-command.sh IRS PLUGIN TMP DIR: runs each DIR/*.ll
# through `restore`, the default command (both scopes) and both opt passes
# and prints "NAME: COMMAND exit N" per run. Fails (exit 1) on a crash, an
# undocumented exit code or an output the verifier refuses: a module with a
# forged or damaged stash record is a lost bundle (exit 1) or refused
# (exit 3), never a crash or exit 5.
irs=$1 plugin=$2 tmp=$3
dir=$4
mkdir -p "$tmp"
failed=0
run() { # NAME LABEL OK-CODES COMMAND...
  local name=$1 label=$2 ok=$3
  shift 3
  local out=$tmp/$name.$label.ll
  rm -f "$out"
  "$@" -o "$out" >"$tmp/log" 2>&1
  local rc=$?
  echo "$name: $label exit $rc"
  if [[ " $ok " != *" $rc "* ]]; then
    echo "$name: $label: unexpected exit $rc" >&2
    cat "$tmp/log" >&2
    failed=1
  elif [ -s "$out" ] && ! opt -passes=verify -disable-output "$out" 2>&1; then
    echo "$name: $label: output fails the verifier" >&2
    failed=1
  fi
}
for f in "$dir"/*.ll; do
  name=$(basename "$f" .ll)
  run "$name" restore "0 1 3" "$irs" restore -q "$f"
  run "$name" sanitize "0 1 3" "$irs" -q "$f"
  run "$name" sanitize-all "0 1 3" "$irs" -q --scope=all "$f"
  run "$name" opt-restore 0 opt -load-pass-plugin="$plugin" -passes=ir-sanitize-restore -S "$f"
  run "$name" opt-bundles 0 opt -load-pass-plugin="$plugin" '-passes=ir-sanitize-bundles<scope=all>' -S "$f"
done
exit $failed
