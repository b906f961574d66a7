#!/usr/bin/env python3
"""One Markdown table of ir-sanitize-gpurun JSON reports.

    bench/lib/gpu-report-table.py REPORTS_DIR_OR_FILE...

One row per report (<case>.n<log2 size>.json): the checks, the original's
median, forward and reverse as ratios to it (each with the L2 cache warm and
cold, ratios within one state), each kernel's achieved bandwidth (bytes it
must move over its median, cold L2 where measured) as % of the peak, and,
where the report has it, the floor: the ratio forward and reverse would give
if they moved their bytes at the rate a streaming copy attains (cold L2).
"""
import json
import os
import sys


def reports(args):
    for a in args:
        if os.path.isdir(a):
            for f in sorted(os.listdir(a)):
                if f.endswith(".json"):
                    yield os.path.join(a, f)
        else:
            yield a


def timings_of(r):
    """A report's timings by (kernel, L2 state). Reports from before the
    cold-L2 timings have no "l2": they are warm."""
    return {(x["kernel"], x.get("l2", "warm")): x for x in r["timings"]}


def checks_of(r):
    return ", ".join("%s %s" % (c["name"], c["result"]) for c in r["checks"])


def both(fmt):
    """fmt of each L2 state, warm / cold."""
    return " / ".join(fmt(l2) for l2 in ("warm", "cold"))


def row(path):
    with open(path) as f:
        r = json.load(f)
    return row_of(os.path.basename(path)[: -len(".json")], r)


def row_of(name, r):
    """The row of report r, named <case>.n<log2 size> (or any name)."""
    case, _, size = name.rpartition(".n")
    if not case:
        case, size = name, None
    t = timings_of(r)

    def ratio(k):
        return lambda l2: "%.2f" % t[k, l2]["ratio_to_original"] if (k, l2) in t else "—"

    def micros(l2):
        return "%.1f" % (t["original", l2]["median_ms"] * 1e3) if ("original", l2) in t else "—"

    def peak(k):
        x = t.get((k, "cold")) or t.get((k, "warm"))
        return "%.0f%%" % x["percent_of_peak"] if x and "percent_of_peak" in x else "—"

    def floor(k):
        x = t.get((k, "cold"))
        return "%.2f" % x["floor_ratio"] if x and x.get("floor_ratio") else "—"

    return "| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        case, "2^" + size if size else "—", checks_of(r), both(micros), both(ratio("forward")),
        both(ratio("reverse")), " / ".join(peak(k) for k in ("original", "forward", "reverse")),
        " / ".join(floor(k) for k in ("forward", "reverse")))


def print_header():
    print("| case | n | checks | original µs, L2 warm / cold | fwd / orig, warm / cold "
          "| rev / orig, warm / cold | % of peak, cold: orig / fwd / rev "
          "| floor, cold: fwd / rev |")
    print("|---|---|---|---|---|---|---|---|")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print_header()
    for p in reports(sys.argv[1:]):
        try:
            print(row(p))
        except (OSError, ValueError, KeyError) as e:
            sys.exit("gpu-report-table.py: %s: %s" % (p, e))


if __name__ == "__main__":
    main()
