#!/usr/bin/env python3
"""One Markdown table of ir-sanitize-gpurun JSON reports.

    scripts/gpu-report-table.py REPORTS_DIR_OR_FILE...

One row per report (<case>.n<log2 size>.json): the checks, the original's
median, forward and reverse as ratios to it, and each kernel's achieved
bandwidth (bytes it must move over its median) as GB/s and % of the peak.
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


def row(path):
    with open(path) as f:
        r = json.load(f)
    name = os.path.basename(path)[: -len(".json")]
    case, _, size = name.rpartition(".n")
    if not case:
        case, size = name, "?"
    checks = ", ".join("%s %s" % (c["name"], c["result"]) for c in r["checks"])
    t = {x["kernel"]: x for x in r["timings"]}

    def ratio(k):
        return "%.2f" % t[k]["ratio_to_original"] if k in t else "—"

    def bw(k):
        if k not in t or "bytes_per_second" not in t[k]:
            return "—"
        return "%.0f (%.0f%%)" % (t[k]["bytes_per_second"] * 1e-9, t[k]["percent_of_peak"])

    orig = "%.1f" % (t["original"]["median_ms"] * 1e3) if "original" in t else "—"
    return "| %s | 2^%s | %s | %s | %s | %s | %s | %s | %s |" % (
        case, size, checks, orig, ratio("forward"), ratio("reverse"),
        bw("original"), bw("forward"), bw("reverse"))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| case | n | checks | original µs | fwd / orig | rev / orig "
          "| original GB/s (% peak) | forward GB/s (% peak) | reverse GB/s (% peak) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for p in reports(sys.argv[1:]):
        try:
            print(row(p))
        except (OSError, ValueError, KeyError) as e:
            sys.exit("gpu-report-table.py: %s: %s" % (p, e))


if __name__ == "__main__":
    main()
