"""A launch spec with its buffers in the earlier shape: an object keyed by
name instead of the run plan's array of objects with a name.

usage: old-spec-shape.py SPEC OUT"""
import json
import sys

spec = json.load(open(sys.argv[1]))
spec["buffers"] = {b.pop("name"): b for b in spec["buffers"]}
json.dump(spec, open(sys.argv[2], "w"), indent=1)
