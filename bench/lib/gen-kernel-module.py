#!/usr/bin/env python3
"""Replicates the kernels of one NVPTX module for bench/bench.sh splat.

    gen-kernel-module.py IN.ll OUT.ll COPIES [CALLER_EVERY [TAG]]

IN.ll must have no debug info (run `opt -strip-debug` first: copies of a
function cannot share its DISubprogram). Every function defined in IN.ll is
written COPIES times, renamed NAME<TAG>_<copy>; kernels marked in
!nvvm.annotations get their entries copied too. With CALLER_EVERY = k > 0,
every k-th copy of each kernel also gets a device function that calls it
with its aggregate arguments, so that call rewriting is measured as well.
The copies of several inputs are joined with llvm-link. Deterministic."""
import re
import sys

src, out_path, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
caller_every = int(sys.argv[4]) if len(sys.argv) > 4 else 0
tag = sys.argv[5] if len(sys.argv) > 5 else ""
text = open(src).read()

define_re = re.compile(r"^define [^\n]*?@([\w.$]+)\(.*?^}\n", re.M | re.S)
defs = [(m.group(1), m.group(0)) for m in define_re.finditer(text)]
names = [n for n, _ in defs]
rest = define_re.sub("", text)
ref = re.compile(r"@(" + "|".join(map(re.escape, names)) + r")\b")

ann_line = re.search(r"^!nvvm\.annotations = !\{(.*)\}$", rest, re.M)
ann_ids = [int(i) for i in re.findall(r"!(\d+)", ann_line.group(1))] if ann_line else []
nodes = {int(i): body for i, body in re.findall(r"^!(\d+) = (.*)$", rest, re.M)}
next_id = max(nodes, default=-1) + 1

def split_params(params):
    """Top-level comma split (struct and array types contain commas)."""
    out, depth, cur = [], 0, ""
    for ch in params:
        depth += ch in "{[(<"
        depth -= ch in "}])>"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])


body, new_ann = [], []
for c in range(copies):
    rename = lambda m: f"@{m.group(1)}{tag}_{c}"
    for name, d in defs:
        body.append(ref.sub(rename, d))
        kernel = " ptx_kernel " in d.split("(")[0] or any(
            f"@{name}," in nodes[i] and '"kernel"' in nodes[i] for i in ann_ids)
        if caller_every and kernel and c % caller_every == 0:
            params = re.match(r"define [^\n]*?@[\w.$]+\((.*)\)[^(]*\{", d.split("\n")[0]).group(1)
            args = [re.sub(r"\s+%[\w.\"]+$", "", p) for p in split_params(params)]
            sig = ", ".join(f"{a} %a{i}" for i, a in enumerate(args))
            call = ", ".join(f"{a} %a{i}" for i, a in enumerate(args))
            cc = "ptx_kernel " if " ptx_kernel " in d.split("(")[0] else ""
            body.append(f"define void @call_{name}{tag}_{c}({sig}) {{\n"
                        f"  call {cc}void @{name}{tag}_{c}({call})\n  ret void\n}}\n")
    if c > 0:
        new_ann += [ref.sub(rename, nodes[i]) for i in ann_ids]

# The original annotation nodes now name copy 0.
rest = ref.sub(lambda m: f"@{m.group(1)}{tag}_0", rest)
if ann_line:
    ids = [f"!{i}" for i in ann_ids] + [f"!{next_id + k}" for k in range(len(new_ann))]
    rest = rest.replace(ann_line.group(0), "!nvvm.annotations = !{" + ", ".join(ids) + "}")
    rest += "".join(f"!{next_id + k} = {n}\n" for k, n in enumerate(new_ann))
open(out_path, "w").write(rest + "\n" + "\n".join(body))
