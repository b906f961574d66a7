#!/usr/bin/env bash
# The benchmarks' one entry point:
#
#   bench/bench.sh CASE [ARGS...]
#
# CASE is one of bench/cases/*.sh; the comment at the top of each says what it
# measures, its arguments, environment and targets:
#   sanitize [INPUT.ll] [RUNS]   ir-sanitize, check, restore against opt's
#                                parse-and-print (then `splat 5000`)
#   splat [KERNELS] [RUNS]       the kernel splat on thousands of kernels
#   capi [INPUT.ll] [RUNS]       IRSNormalizeBundles through the C interface
#   enzyme [RUNS]                `ir-sanitize enzyme` against the same steps by hand
#   reduce                       `ir-sanitize reduce` on a large module
#   validate [N...] [RUNS]       gpu-check's spec validation on N array parameters
#   gpu prepare|run|compare|table ...  GPU derivative checks and timings (H200)
# Helpers (module generators, spec scaling, report tables) are in bench/lib;
# summaries of measured runs in bench/results.
set -euo pipefail
cases=$(cd "$(dirname "$0")/cases" && pwd)
if [ $# -lt 1 ] || [ ! -f "$cases/$1.sh" ]; then
  sed -n '2,17p' "$0" >&2
  exit 2
fi
exec bash "$cases/$1.sh" "${@:2}"
