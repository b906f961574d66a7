#!/usr/bin/env python3
"""compare-plans.py HAND INFERRED: whether two gpu-check plan directories
launch the same thing, up to buffer names, seeds and init kinds.

Compared: the launch, the checks, and every kernel's role, entry and
parameters (sizes, argument bytes, relocations with their buffer mapped,
address kind and access); each buffer's type, count, output and wrt.
Buffers are mapped by where their addresses are packed, in plan order; a
buffer one plan binds twice and the other binds to two buffers differs.
Prints the first difference and exits 1, or prints "same launch"."""
import json
import sys


def load(d):
    with open(d + "/plan.json") as f:
        return json.load(f)


def relocs(plan):
    for k, kernel in enumerate(plan["kernels"]):
        for p, param in enumerate(kernel["params"]):
            for r, reloc in enumerate(param.get("relocs", [])):
                yield (k, p, r), reloc["buffer"]


def main():
    hand, inferred = load(sys.argv[1]), load(sys.argv[2])
    names = {}
    for (where, a), (_, b) in zip(relocs(hand), relocs(inferred)):
        if names.setdefault(a, b) != b:
            sys.exit("differ: buffer %s is bound at %s as %s and as %s"
                     % (a, where, names[a], b))
    if len(set(names.values())) != len(names):
        sys.exit("differ: buffers are mapped %s" % names)

    def same(what, x, y):
        if x != y:
            sys.exit("differ: %s: %s vs %s" % (what, json.dumps(x), json.dumps(y)))

    for key in ("launch", "checks"):
        same(key, hand.get(key), inferred.get(key))
    by_name = {b["name"]: b for b in inferred["buffers"]}
    same("buffer count", len(hand["buffers"]), len(inferred["buffers"]))
    for b in hand["buffers"]:
        other = by_name.get(names.get(b["name"]))
        if other is None:
            sys.exit("differ: buffer %s is not bound the same way" % b["name"])
        for key in ("type", "count", "output", "wrt"):
            same("buffer %s %s" % (b["name"], key), b[key], other[key])
    same("kernel count", len(hand["kernels"]), len(inferred["kernels"]))
    for k, (x, y) in enumerate(zip(hand["kernels"], inferred["kernels"])):
        for key in set(x) | set(y):
            if key != "params":
                same("kernels[%d].%s" % (k, key), x.get(key), y.get(key))
        same("kernels[%d] params" % k, len(x["params"]), len(y["params"]))
        for p, (a, b) in enumerate(zip(x["params"], y["params"])):
            a = dict(a, relocs=[dict(r, buffer=names[r["buffer"]]) for r in a.get("relocs", [])])
            b = dict(b, relocs=b.get("relocs", []))
            same("kernels[%d].params[%d]" % (k, p), a, b)
    print("same launch")


if __name__ == "__main__":
    main()
