#!/usr/bin/env python3
"""One Markdown table of two runs of the same plans, side by side.

    bench/lib/gpu-compare-table.py BASE_REPORTS NEW_REPORTS

For every <case>.n<log2 size>.json in both directories (bench/bench.sh gpu
compare writes them, each plan's two runs one after the other on one
machine): reverse / original of each (L2 warm / cold), NEW's reverse median
over BASE's (the A/B ratio a speed target is stated in; under 1 is faster)
and NEW's checks. Exit status 1 when a check of NEW failed or a report is
missing from NEW.
"""
import json
import os
import sys


def load(path):
    with open(path) as f:
        r = json.load(f)
    timings = {(t["kernel"], t.get("l2", "warm")): t for t in r["timings"]}
    return timings, r["checks"]


def pair(base, new, key, fmt):
    return " / ".join(fmt(base.get((key, l2)), new.get((key, l2))) for l2 in ("warm", "cold"))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base_dir, new_dir = sys.argv[1:]
    status = 0
    print("| case | base rev/orig, warm / cold | new rev/orig, warm / cold "
          "| new / base reverse median, warm / cold | checks (new) |")
    print("|---|---|---|---|---|")
    for name in sorted(f for f in os.listdir(base_dir) if f.endswith(".json")):
        new_path = os.path.join(new_dir, name)
        if not os.path.exists(new_path):
            print("gpu-compare-table.py: %s: no report in %s" % (name, new_dir), file=sys.stderr)
            status = 1
            continue
        try:
            (bt, _), (nt, checks) = load(os.path.join(base_dir, name)), load(new_path)
        except (OSError, ValueError, KeyError) as e:
            sys.exit("gpu-compare-table.py: %s: %s" % (name, e))
        status |= any(c["result"] == "FAIL" for c in checks)

        def ratio(t):
            return lambda l2: "%.3f" % t[("reverse", l2)]["ratio_to_original"] \
                if ("reverse", l2) in t else "—"

        def over(b, n):
            return "%.3f" % (n["median_ms"] / b["median_ms"]) if b and n else "—"

        both = lambda f: " / ".join(f(l2) for l2 in ("warm", "cold"))
        print("| %s | %s | %s | %s | %s |" % (
            name[: -len(".json")], both(ratio(bt)), both(ratio(nt)),
            pair(bt, nt, "reverse", over),
            ", ".join("%s %s" % (c["name"], c["result"]) for c in checks)))
    return status


if __name__ == "__main__":
    sys.exit(main())
