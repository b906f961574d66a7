#!/usr/bin/env bash
# every-action.sh IRS PLUGIN TMP DIR: runs each DIR/*.ll with --scope=all
# under every action for every tag (keep, drop, stash, lower for
# gc-transition), from the command line and from opt. Every run must exit 0
# with an output the verifier accepts; stash then restore must give back the
# module exactly (as keep writes it). Prints "NAME: ACTION exit N".
irs=$1 plugin=$2 tmp=$3
dir=$4
mkdir -p "$tmp"
failed=0
fail() { echo "$*" >&2; failed=1; }
tags=(deopt gc-live gc-transition unknown_a)
for f in "$dir"/*.ll; do
  name=$(basename "$f" .ll)
  for action in keep drop stash lower; do
    args=() params=""
    for t in "${tags[@]}"; do
      a=$action
      [ "$a" = lower ] && [ "$t" != gc-transition ] && a=stash
      args+=(--bundle "$t=$a")
      params+="$t=$a;"
    done
    out=$tmp/$name.$action.ll
    "$irs" -q --scope=all "${args[@]}" --report "$out.json" "$f" -o "$out" 2>"$tmp/log"
    rc=$?
    echo "$name: $action exit $rc"
    [ $rc -eq 0 ] || { fail "$name: $action: exit $rc"; cat "$tmp/log" >&2; }
    opt -passes=verify -disable-output "$out" || fail "$name: $action: invalid output"
    opt -load-pass-plugin="$plugin" "-passes=ir-sanitize-bundles<${params}scope=all>" \
      -S "$f" -o "$out.opt.ll" || fail "$name: $action: opt pass failed"
  done
  "$irs" restore -q "$tmp/$name.stash.ll" -o "$tmp/$name.restored.ll" ||
    fail "$name: restore failed"
  grep -v '^; ModuleID' "$tmp/$name.keep.ll" >"$tmp/a"
  grep -v '^; ModuleID' "$tmp/$name.restored.ll" >"$tmp/b"
  diff "$tmp/a" "$tmp/b" >&2 || fail "$name: stash/restore is not exact"
  echo "$name: round trip exact"
done
exit $failed
