#!/usr/bin/env python3
"""Check that every repository path cited in docs/, include/ and src/ exists.

A citation is a word that starts with one of the repository's top-level
folders (src/, include/, tests/, docs/, scripts/, examples/, bench/, cmake/)
or with a layer of the library (Analysis/, Driver/, Enzyme/, GPU/, Launch/,
Passes/, Support/, Transforms/, then a file name: `Support/ExitCodes.def`),
and names a file or a folder. Words with a placeholder (NAME, N, *, <...>,
{...}, $VAR) or under build/ are not citations of a path in the tree.

usage: check-cited-paths.py SOURCE_DIR
Exit 0 when every cited path exists, 1 with one line per missing path
("FILE:LINE: PATH").
"""
import os
import re
import sys

TOP = ("src", "include", "tests", "docs", "scripts", "examples", "bench",
       "cmake")
LAYERS = ("Analysis", "CAPI", "Driver", "Enzyme", "GPU", "Launch", "Passes",
          "Support", "Transforms")
CITATION = re.compile(
    r"(?<![\w./-])((?:%s)/[\w.+/-]*[\w/]|(?:%s)/[\w.+-]+\.(?:h|cpp|def|in))"
    % ("|".join(TOP), "|".join(LAYERS)))
PLACEHOLDER = re.compile(r"(NAME|CASE|<|\{|\*|\$|/N/|/N$|XXX|\.\.\.)")
SCANNED = (".md", ".h", ".cpp", ".def", ".in", ".txt", ".cmake")


def exists(root, path):
    path = path.rstrip("/.")
    if os.path.exists(os.path.join(root, path)):
        return True
    head = path.split("/")[0]
    if head in LAYERS:  # a layer-relative name: its header or its source
        return any(
            os.path.exists(os.path.join(root, base, path))
            for base in ("include/ir-sanitize", "src", "tests/unit"))
    return False


def files(root):
    for top in ("docs", "include", "src"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith(SCANNED):
                    yield os.path.join(folder, name)
    yield os.path.join(root, "README.md")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    missing = []
    for path in files(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                for match in CITATION.finditer(line):
                    cited = match.group(1)
                    # "division-*.md": the word goes on with a placeholder.
                    after = line[match.end():match.end() + 2]
                    if after[:1] in ("*", "<", "{") or after[:1] == "-" and after[1:] in ("*", "<", "{"):
                        continue
                    if PLACEHOLDER.search(cited) or exists(root, cited):
                        continue
                    missing.append("%s:%d: %s" %
                                   (os.path.relpath(path, root), number, cited))
    for m in missing:
        print(m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
