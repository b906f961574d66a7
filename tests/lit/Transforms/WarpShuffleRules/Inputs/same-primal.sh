#!/bin/bash
# same-primal.sh PLUGIN EXAMPLES OUT: each kernel optimised as given and
# after ir-sanitize-warp-rules (then nvptx-prepare, as code generation
# runs it after Enzyme), names stripped, into OUT/KERNEL.want and .got.
set -euo pipefail
plugin=$1 examples=$2 out=$3
for k in sum_abs2_f32 sum_dims1_f32 maximum_f32 warp_shuffles \
         warp_partial_masks sum_abs2_f64; do
  opt -passes='default<O1>,strip' "$examples/kernels/$k.ll" -S |
    grep -v '^; ModuleID\|^source_filename' > "$out/$k.want"
  opt -load-pass-plugin="$plugin" \
    -passes='ir-sanitize-warp-rules,ir-sanitize-nvptx-prepare,default<O1>,strip' \
    "$examples/kernels/$k.ll" -S |
    grep -v '^; ModuleID\|^source_filename' > "$out/$k.got"
done
