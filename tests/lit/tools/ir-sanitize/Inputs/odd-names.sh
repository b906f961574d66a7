#!/usr/bin/env bash
# odd-names.sh IRS KERNEL_MODULE SPEC: passes names with a newline and a terminal
# escape sequence wherever the command line takes a name; each error must be
# one line, with the name escaped.
irs=$1 module=$2 spec=$3
odd=$'evil\nname\e[31m\\'
"$irs" -q "$module" --kernel "$odd" -o /dev/null; echo "exit $?"
"$irs" gpu-check -q --no-run "$module" --kernel "$odd" --spec "$spec"; echo "exit $?"
"$irs" enzyme --emit-driver-only -q "$module" --fn "$odd" --mode=forward -o /dev/null; echo "exit $?"
