#!/usr/bin/env python3
# edit-plan.py PLAN PATH VALUE [PATH VALUE...]: sets fields of a run plan in
# place, for tests that need a broken plan. PATH is dotted ("launch.grid.0",
# "kernels.1.params.6.relocs.0.buffer"); VALUE is JSON when it parses as
# JSON (numbers keep all their digits), else a string; "-" deletes the field.
import json
import sys

plan_path = sys.argv[1]
with open(plan_path) as f:
    plan = json.load(f)
edits = sys.argv[2:]
for path, text in zip(edits[::2], edits[1::2]):
    *parents, last = path.split(".")
    node = plan
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    key = int(last) if isinstance(node, list) else last
    if text == "-":
        del node[key]
        continue
    try:
        node[key] = json.loads(text)
    except ValueError:
        node[key] = text
with open(plan_path, "w") as f:
    json.dump(plan, f, indent=2)
