#!/usr/bin/env python3
"""The summary of one directory of ir-sanitize-gpurun reports, in Markdown.

    bench/lib/gpu-results-summary.py REPORTS_DIR TITLE [RECORDED]

REPORTS_DIR is what `bench/bench.sh gpu run PLANS REPORTS_DIR` (or one of
bench/experiments/*.sh) wrote: <case>.json reports and the runner's text in
summary.txt. Printed: TITLE, when and where it was measured (RECORDED, by
default today's date and this checkout's commit; the device from the
reports), one row per case (bench/lib/gpu-report-table.py's columns; a case
with no JSON report is read from summary.txt), and the runner's notes on the
grid-stride versions it timed. bench/results/*.md were written this way from
the raw reports, which stay out of the repository.
"""
import datetime
import importlib.util
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("table", os.path.join(here, "gpu-report-table.py"))
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)


def runner_text(directory):
    """{case: [lines]} of summary.txt, one block per `== case` header."""
    blocks, name = {}, None
    path = os.path.join(directory, "summary.txt")
    if not os.path.exists(path):
        return blocks
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("== "):  # named as the JSON report is
                name = line[3:].strip().split("/")[-1].replace(" ", ".")
                blocks[name] = []
            elif name is not None:
                blocks[name].append(line.rstrip("\n"))
    return blocks


def report_from_text(lines):
    """The report fields gpu-report-table.py reads, from the runner's text."""
    r = {"checks": [], "timings": []}
    section = None
    for line in lines:
        words = line.split()
        if not words or line.startswith("("):  # a legend
            continue
        if words[0] in ("check", "kernel") and len(words) > 2:
            section, has_l2, has_floor = words[0], "L2" in words, "floor" in words
            continue
        if words[0] == "device":
            r["device"] = line[len("device"):].strip()
        elif section == "check" and len(words) >= 2 and words[1] in ("PASS", "FAIL", "SKIPPED"):
            r["checks"].append({"name": words[0], "result": words[1]})
        elif section == "kernel" and re.match(r"^[0-9.]+$", words[2 if has_l2 else 1]):
            t = {"kernel": words[0], "l2": words[1] if has_l2 else "warm"}
            rest = words[2:] if has_l2 else words[1:]
            # median, min, ratio, [floor,] GB/s, % peak
            t["median_ms"], t["ratio_to_original"] = float(rest[0]), float(rest[2])
            t["percent_of_peak"] = float(rest[4 + has_floor])
            if has_floor:
                t["floor_ratio"] = float(rest[3])
            r["timings"].append(t)
    return r


def notes(lines):
    """The runner's indented launch notes (grid-stride versions) of one case."""
    return [l.strip() for l in lines if l.startswith("        ") and "grid-stride" in l]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    directory, title = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        recorded = sys.argv[3]
    else:
        commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        recorded = "%s, commit %s" % (datetime.date.today(), commit or "unknown")
    text = runner_text(directory)
    jsons = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    rows, devices = [], set()
    for f in jsons:
        path = os.path.join(directory, f)
        rows.append(table.row(path))
        devices.add(table.json.load(open(path)).get("device", "?"))
    for name, lines in text.items():
        if name + ".json" not in jsons:
            r = report_from_text(lines)
            devices.add(r.get("device", "?"))
            rows.append(table.row_of(name, r))
    print("# %s\n" % title)
    print("Recorded %s; device: %s.\n" % (recorded, "; ".join(sorted(devices))))
    table.print_header()
    for r in rows:
        print(r)
    launch = [(n, l) for n, lines in text.items() for l in notes(lines)]
    if launch:
        print("\nThe runner's grid-stride notes:\n")
        for n, l in launch:
            print("- %s: %s" % (n, l))


if __name__ == "__main__":
    main()
