#!/usr/bin/env python3
"""Check docs/Passes.md's pass table against `ir-sanitize --print-passes`.

Each pass the command prints (from PassRegistry.def) must be a row of the
page's table with the same unit, parameters and purpose, and each row must be
a pass it prints.

usage: ir-sanitize --print-passes | check-pass-table.py PASSES.md
Exit 0 when they agree; 1, with one line per difference, when not.
"""
import re
import sys

HEADING = re.compile(r"^(Module|Function) passes( with params)?:$")
PASS = re.compile(r"^  ([^<\s]+)(?:<(\S*)>)? - (.+)$")


def printed(text):
    """{name: (unit, params, purpose)} from --print-passes."""
    passes, unit = {}, None
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            unit = m.group(1).lower()
            continue
        m = PASS.match(line)
        if not m or unit is None:
            raise SystemExit("unexpected --print-passes line: %r" % line)
        passes[m.group(1)] = (unit, m.group(2) or "", m.group(3))
    return passes


def cells(row):
    """A table row's cells; `\\|` is a '|' inside a cell."""
    parts = re.split(r"(?<!\\)\|", row.strip())[1:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def documented(page):
    """{name: (unit, params, purpose)} from the rows naming a `pass`."""
    rows = {}
    for line in page.splitlines():
        if not line.startswith("| `"):
            continue
        c = cells(line)
        if len(c) < 4:
            continue
        name, unit, params, purpose = c[0].strip("`"), c[1], c[2].strip("`"), c[3]
        if name in rows:
            rows[name] = None  # reported as twice
        else:
            rows[name] = (unit, params, purpose)
    return rows


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    page_path = sys.argv[1]
    name = page_path.rsplit("/", 1)[-1]
    listed = printed(sys.stdin.read())
    rows = documented(open(page_path, encoding="utf-8").read())
    problems = []
    if not listed:
        problems.append("%s: --print-passes lists no passes" % name)
    fields = ("unit", "parameters", "purpose")
    for p in sorted(listed.keys() - rows.keys()):
        problems.append("%s: no row for %s, which --print-passes lists"
                        % (name, p))
    for p in sorted(rows.keys() - listed.keys()):
        problems.append("%s: row for %s, which --print-passes does not list"
                        % (name, p))
    for p in sorted(listed.keys() & rows.keys()):
        if rows[p] is None:
            problems.append("%s: %s has two rows" % (name, p))
            continue
        for field, want, got in zip(fields, listed[p], rows[p]):
            if want != got:
                problems.append("%s: %s's %s reads \"%s\", PassRegistry.def "
                                "says \"%s\"" % (name, p, field, got, want))
    for p in problems:
        print(p)
    if problems:
        print("update %s from include/ir-sanitize/Passes/PassRegistry.def"
              % page_path)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
