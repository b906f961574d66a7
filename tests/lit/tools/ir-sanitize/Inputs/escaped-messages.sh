#!/usr/bin/env bash
# escaped-messages.sh IRS MODULE KERNEL_MODULE SPEC TMPDIR: passes a newline
# and a terminal escape sequence in every kind of user text that reaches an
# error message; prints each error, its exit code, its number of lines and
# of raw ESC bytes (each error must be one line without ESC).
irs=$1 module=$2 kmodule=$3 spec=$4 tmp=$5
odd=$'x\ny\e[31m'
run() {
  "$@" > /dev/null 2> "$tmp/err"
  local code=$?
  cat "$tmp/err"
  echo "exit $code lines $(wc -l < "$tmp/err") esc $(tr -cd '\033' < "$tmp/err" | wc -c)"
}
run "$irs" "$module" --bundle "$odd=$odd" -o /dev/null
run "$irs" "$module" --scope "$odd" -o /dev/null
run "$irs" "$module" -o "$tmp/no/$odd.ll"
run "$irs" "$tmp/$odd.ll" -o /dev/null
run "$irs" enzyme "$module" --fn f --mode=forward --enzyme-plugin "$tmp/$odd.so" -o /dev/null
printf '{"threads": 1, "buffers": {"d": {"type": "f32", "count": 1, "output": true}}, "args": {"x\\ny\\u001b[31m": 0}}' > "$tmp/spec.json"
run "$irs" gpu-check -q --no-run "$kmodule" --spec "$tmp/spec.json" --emit-dir "$tmp/out"
# Exit 4 without -q: no success summary before the error.
run "$irs" "$module" --report "$tmp/no/report.json" -o "$tmp/out.ll"
