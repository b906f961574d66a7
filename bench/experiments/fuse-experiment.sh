#!/usr/bin/env bash
# The experiment behind bench/results/GPUNotebook.md's "two accumulations into
# one element": a plan of a fixture that passes the same array twice
# (bcast_add_1d_self, bcast_neg_sub_nested), prepared with
# --accumulation=separate (the default now merges them), whose reverse kernel's fast
# version accumulates twice into one element of the shadow
# (`atom.add [p], g; atom.add [q], g` with p == q at run time), copied:
#   unfused  as generated
#   fused    the two atomics replaced by one of g + g (right only because
#            p == q in these fixtures; timing evidence, not a transform)
#
#   bench/experiments/fuse-experiment.sh PLAN OUTDIR     (here, no GPU needed)
#   then: ir-sanitize-gpurun OUTDIR/<variant> on the GPU machine
set -euo pipefail
plan=$1 out=$2
. "$(dirname "$0")/plan-lib.sh"
reverse_kernel "$plan" # sets rev, ptx
mkdir -p "$out"
for v in unfused fused; do rm -rf "${out:?}/$v"; cp -r "$plan" "$out/$v"; done
python3 - "$out/fused/$ptx" "$rev" <<'PY'
import re, sys
path, entry = sys.argv[1], sys.argv[2]
text = open(path).read()
start = text.index(".entry %s(" % entry)
end = text.index("\n}", start)
atom = r"\tatom\.global\.add\.f32 \t(%f\d+), \[(%rd\d+)\], (%f\d+);\n"
pair = re.compile(atom + atom)
def fuse(m):
    if m.group(3) != m.group(6):
        return m.group(0)
    return ("\tadd.f32 \t%s, %s, %s;\n\tatom.global.add.f32 \t%s, [%s], %s;\n"
            % (m.group(4), m.group(3), m.group(3), m.group(1), m.group(2), m.group(4)))
body, n = pair.subn(fuse, text[start:end], count=1)  # the fast version comes first
if n != 1 or body == text[start:end]:
    sys.exit("no pair of atomics with one value in " + entry)
open(path, "w").write(text[:start] + body + text[end:])
PY
diff "$plan/$ptx" "$out/fused/$ptx" || true
