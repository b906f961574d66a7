#!/usr/bin/env python3
"""Check every list of exit codes against include/ir-sanitize/Support/ExitCodes.def.

- ir-sanitize-gpurun: the codes of its Exit enum (ir-sanitize-gpurun.cpp, which takes them
  from irs::ExitCode) are the codes its --help footer lists;
- every docs/CommandGuide page's EXIT STATUS table (rows `| 0 | meaning |`)
  lists codes of the .def with the .def's meaning, only codes that command
  can return (the runner's page: exactly the runner's codes; the others:
  codes with a brief, which ir-sanitize's --help footer lists), and at least
  0 and 2.

The C interface's IRSStatus and ir-sanitize's --help footer are checked at
compile time and by tests/unit/Support/ExitCodeTest.cpp.

usage: check-exit-codes.py SOURCE_DIR [--docs DIR]
Exit 0 when all agree, 1 with one line per difference, 77 (SKIPPED) when
there is no command-guide page to check.
"""
import argparse
import glob
import os
import re
import sys

SKIP = 77


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def strings(text):
    return "".join(re.findall(r'"([^"]*)"', text))


def parse_def(text):
    """({Name: (value, meaning)}, {Name: brief})."""
    codes, briefs = {}, {}
    for m in re.finditer(r"^IRS_EXIT_CODE\(\s*(\w+)\s*,\s*(\d+)\s*,(.*?)\)\s*$",
                         text, re.M | re.S):
        codes[m.group(1)] = (int(m.group(2)), strings(m.group(3)))
    for m in re.finditer(r"^IRS_EXIT_CODE_BRIEF\(\s*(\w+)\s*,(.*?)\)\s*$",
                         text, re.M | re.S):
        briefs[m.group(1)] = strings(m.group(2))
    return codes, briefs


def runner_codes(main_cpp, codes, problems):
    """The runner's codes: its Exit enum's, which its --help must list."""
    enum = re.search(r"enum Exit \{(.*?)\};", main_cpp, re.S)
    if not enum:
        problems.append("ir-sanitize-gpurun: ir-sanitize-gpurun.cpp has no 'enum Exit'")
        return set()
    names = re.findall(r"irs::ExitCode::(\w+)", enum.group(1))
    for n in names:
        if n not in codes:
            problems.append("ir-sanitize-gpurun: ExitCode::%s is not in "
                            "ExitCodes.def" % n)
    used = {codes[n][0] for n in names if n in codes}
    footer = re.search(r"^exit codes: (.*?)\n\)\";", main_cpp, re.M | re.S)
    listed = set()
    if footer:
        listed = {int(c) for c in re.findall(r"(?:^|,\s+)(\d+) ", footer.group(1))}
    if listed != used:
        problems.append("ir-sanitize-gpurun: --help lists exit codes %s, its "
                        "Exit enum has %s" % (sorted(listed), sorted(used)))
    return used


def page_rows(page):
    m = re.search(r"^## EXIT STATUS\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    body = m.group(1) if m else page
    return [(int(c), t) for c, t in
            re.findall(r"^\| *(\d+) *\| *(.*?) *\|$", body, re.M)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_dir")
    ap.add_argument("--docs", help="the command guide (default "
                    "SOURCE_DIR/docs/CommandGuide)")
    args = ap.parse_args()
    src = args.source_dir
    docs = args.docs or os.path.join(src, "docs", "CommandGuide")
    problems = []
    codes, briefs = parse_def(read(os.path.join(
        src, "include", "ir-sanitize", "Support", "ExitCodes.def")))
    meaning = {v: m for v, m in codes.values()}
    for n in briefs:
        if n not in codes:
            problems.append("ExitCodes.def: a brief for unknown code %s" % n)
    cli = {codes[n][0] for n in briefs if n in codes}
    runner = runner_codes(read(os.path.join(
        src, "src", "tools", "ir-sanitize-gpurun", "ir-sanitize-gpurun.cpp")), codes, problems)

    pages = sorted(p for p in glob.glob(os.path.join(docs, "*.md"))
                   if os.path.basename(p) != "index.md")
    for path in pages:
        name = os.path.basename(path)
        rows = page_rows(read(path))
        if not rows:
            problems.append("%s: no exit-code table" % name)
            continue
        returns = runner if name == "ir-sanitize-gpurun.md" else cli
        listed = {c for c, _ in rows}
        for code, text in rows:
            if code not in meaning:
                problems.append("%s: exit code %d is not in ExitCodes.def"
                                % (name, code))
            elif text != meaning[code]:
                problems.append('%s: exit code %d reads "%s", ExitCodes.def '
                                'says "%s"' % (name, code, text, meaning[code]))
            elif code not in returns:
                problems.append("%s: lists exit code %d, which this command "
                                "does not return" % (name, code))
        if name == "ir-sanitize-gpurun.md" and listed != runner:
            problems.append("%s: lists exit codes %s, the runner returns %s"
                            % (name, sorted(listed), sorted(runner)))
        for needed in (0, 2):
            if needed not in listed:
                problems.append("%s: lacks exit code %d" % (name, needed))

    for p in problems:
        print(p)
    if problems:
        return 1
    if not pages:
        print("SKIPPED: no command-guide page in %s; checked the runner only"
              % docs)
        return SKIP
    print("exit codes: %d pages and ir-sanitize-gpurun agree with "
          "ExitCodes.def" % len(pages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
