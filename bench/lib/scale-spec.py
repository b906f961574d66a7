#!/usr/bin/env python3
"""Scales a gpu-check launch spec written for N elements to N * FACTOR.

    bench/lib/scale-spec.py SPEC FACTOR [--paths LEAF,...] > SCALED.json

N is the spec's thread count (`threads`, or grid x block). Scaled by FACTOR:
the thread count (`threads`, or the first grid dimension), every buffer of a
multiple of N elements, every integer argument equal to N, 4N or 8N (counts and
byte sizes of f32/f64 arrays), and the arguments named by --paths (a second
array dimension, a block count: values that are not N-sized themselves).
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("factor", type=int)
    ap.add_argument("--paths", default="", help="leaf paths also scaled")
    a = ap.parse_args()
    if a.factor < 1:
        sys.exit("scale-spec.py: FACTOR must be a positive integer")
    with open(a.spec) as f:
        spec = json.load(f)
    k = a.factor
    if "threads" in spec:
        n = spec["threads"]
        spec["threads"] = n * k
    else:
        n = 1
        for g, b in zip(spec["grid"], spec["block"]):
            n *= g * b
        spec["grid"][0] *= k
    for buf in spec["buffers"].values():
        if buf["count"] % n == 0:
            buf["count"] *= k
    extra = set(p for p in a.paths.split(",") if p)
    unknown = extra - set(spec["args"])
    if unknown:
        sys.exit("scale-spec.py: %s: no argument %s" % (a.spec, ", ".join(sorted(unknown))))
    for path, value in spec["args"].items():
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        if path in extra or value in (n, 4 * n, 8 * n):
            spec["args"][path] = value * k
    json.dump(spec, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
