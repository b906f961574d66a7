#!/usr/bin/env python3
# Run plan helper for the lit tests (plans are JSON; docs/run-plan.md).
#   plan.py show PLAN                   one line per field, "PATH = VALUE"
#                                       (arrays of numbers stay on one line)
#   plan.py set PLAN PATH VALUE ...     sets fields in place, for tests that
#                                       need a broken plan
# PATH is dotted with list indices ("kernels.1.params.6.relocs.0.buffer");
# VALUE is JSON when it parses as JSON (integers keep all their digits), else
# a string; "-" deletes the field.
import json
import sys


def show(value, path):
    if isinstance(value, dict):
        for key, child in value.items():
            show(child, f"{path}.{key}" if path else key)
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        for i, child in enumerate(value):
            show(child, f"{path}[{i}]")
    else:
        print(f"{path} = {json.dumps(value)}")


def set_fields(plan, edits):
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


command, plan_path = sys.argv[1], sys.argv[2]
with open(plan_path) as f:
    plan = json.load(f)
if command == "show":
    show(plan, "")
else:
    set_fields(plan, sys.argv[3:])
    with open(plan_path, "w") as f:
        json.dump(plan, f, indent=2)
