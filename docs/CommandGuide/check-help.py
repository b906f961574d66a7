#!/usr/bin/env python3
"""Check a command-guide page against the command's --help (read on stdin).

Every option --help lists (long and short spelling) must be documented in
the page's OPTIONS section (its '####' entries), and every option documented
there must be one --help lists. With --exit-codes ExitCodes.def, every row
of the page's EXIT STATUS table must be a code of that table with its
meaning, word for word.

usage: COMMAND --help | check-help.py [--exit-codes ExitCodes.def] PAGE.md
Exit 0 when they agree; 1, with one line per difference, when not.
"""
import argparse
import re
import sys

FLAG = re.compile(r"^--?[A-Za-z][\w-]*$")


def help_options(text):
    """Flags from --help: CLI11's '  -o,--output OUTPUT' and the runner's
    '  --report FILE' lines (2 to 4 spaces, then a dash)."""
    flags = set()
    for line in text.splitlines():
        m = re.match(r"^ {2,4}(-\S+)", line)
        if m:
            flags.update(f for f in m.group(1).split(",") if FLAG.match(f))
    return flags


def section(page, title):
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), page,
                  re.M | re.S)
    return m.group(1) if m else None


def page_options(options):
    """Flags in the '####' entries of OPTIONS, from their code spans."""
    flags = []
    for line in options.splitlines():
        if line.startswith("#### "):
            for span in re.findall(r"`([^`]*)`", line):
                flags += [f for f in span.split() if FLAG.match(f)]
    return flags


def exit_codes(def_text):
    """{code: meaning} from ExitCodes.def's IRS_EXIT_CODE entries."""
    codes = {}
    for m in re.finditer(r"^IRS_EXIT_CODE\(\s*\w+\s*,\s*(\d+)\s*,((?:\s*\"[^\"]*\")+)\s*\)",
                         def_text, re.M):
        codes[m.group(1)] = "".join(re.findall(r"\"([^\"]*)\"", m.group(2)))
    return codes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exit-codes")
    ap.add_argument("page")
    args = ap.parse_args()
    page = open(args.page, encoding="utf-8").read()
    name = args.page.rsplit("/", 1)[-1]
    problems = []

    options = section(page, "OPTIONS")
    if options is None:
        problems.append("%s: no OPTIONS section" % name)
        options = ""
    documented = page_options(options)
    listed = help_options(sys.stdin.read())
    if not listed:
        problems.append("%s: --help lists no options (was it --help?)" % name)
    for flag in sorted(listed - set(documented)):
        problems.append("%s: OPTIONS lacks %s, which --help lists" % (name, flag))
    for flag in sorted(set(documented) - listed):
        problems.append("%s: OPTIONS documents %s, which --help does not list"
                        % (name, flag))
    for flag in sorted({f for f in documented if documented.count(f) > 1}):
        problems.append("%s: OPTIONS documents %s twice" % (name, flag))

    if args.exit_codes:
        codes = exit_codes(open(args.exit_codes, encoding="utf-8").read())
        table = section(page, "EXIT STATUS") or ""
        rows = re.findall(r"^\| *(\d+) *\| *(.*?) *\|$", table, re.M)
        if not rows:
            problems.append("%s: EXIT STATUS has no table of codes" % name)
        for code, meaning in rows:
            if code not in codes:
                problems.append("%s: exit code %s is not in ExitCodes.def"
                                % (name, code))
            elif meaning != codes[code]:
                problems.append("%s: exit code %s reads \"%s\", ExitCodes.def "
                                "says \"%s\"" % (name, code, meaning, codes[code]))

    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
