#!/usr/bin/env python3
"""Runs opt with a pipeline a command printed (--print-pipeline-passes).

usage: opt-pipeline.py PIPELINE_FILE PLUGIN INPUT OUTPUT

The pipeline goes to opt as one argument, the way a shell passes
-passes='...' (the printed text needs no further quoting: see
escapePassParameter); OUTPUT is written as text.
"""
import subprocess
import sys


def main():
    pipeline_file, plugin, module, output = sys.argv[1:5]
    text = open(pipeline_file, encoding="utf-8", errors="surrogateescape").read().strip()
    if "'" in text:
        sys.exit("the printed pipeline holds a quote: %s" % text)
    sys.exit(subprocess.call(["opt", "-load-pass-plugin=" + plugin,
                              "-passes=" + text, module, "-S", "-o", output]))


if __name__ == "__main__":
    main()
