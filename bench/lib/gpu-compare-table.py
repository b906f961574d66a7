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
import importlib.util
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("table", os.path.join(here, "gpu-report-table.py"))
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)


def load(path):
    with open(path) as f:
        r = json.load(f)
    return table.timings_of(r), r


def reverse_ratio(t):
    """Reverse / original of timings t, per L2 state."""
    return lambda l2: "%.3f" % t["reverse", l2]["ratio_to_original"] if ("reverse", l2) in t else "—"


def reverse_over(bt, nt):
    """New's reverse median over base's, per L2 state."""
    def f(l2):
        b, n = bt.get(("reverse", l2)), nt.get(("reverse", l2))
        return "%.3f" % (n["median_ms"] / b["median_ms"]) if b and n else "—"
    return f


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
            (bt, _), (nt, nr) = load(os.path.join(base_dir, name)), load(new_path)
        except (OSError, ValueError, KeyError) as e:
            sys.exit("gpu-compare-table.py: %s: %s" % (name, e))
        status |= any(c["result"] == "FAIL" for c in nr["checks"])
        print("| %s | %s | %s | %s | %s |" % (
            name[: -len(".json")], table.both(reverse_ratio(bt)), table.both(reverse_ratio(nt)),
            table.both(reverse_over(bt, nt)), table.checks_of(nr)))
    return status


if __name__ == "__main__":
    sys.exit(main())
