#!/usr/bin/env python3
"""Replays `ir-sanitize gpu-check --print-pipeline-passes` with opt and llc.

usage: replay-stages.py STAGES PLUGIN INPUT EMIT_DIR OUT_DIR

Each line of STAGES is `OUTPUT: INPUT | opt ... [| llc ...][  # NOTE]`
(GPUCheckStage in include/ir-sanitize/Driver/GPUCheck.h). Every stage reads
INPUT (the module as given), OUT_DIR/sanitize.ll (the replayed sanitize
stage) or, for a file of gpu-check's directory, EMIT_DIR's copy (so that each
stage is checked on its own), and writes OUT_DIR/OUTPUT (sanitize.ll for the
sanitize stage). Every opt gets -load-pass-plugin=PLUGIN.
"""
import os
import shlex
import subprocess
import sys


def main():
    stages, plugin, module, emit_dir, out_dir = sys.argv[1:6]
    os.makedirs(out_dir, exist_ok=True)
    for line in open(stages):
        line = line.split("  # ")[0].strip()
        if not line:
            continue
        output, rest = line.split(": ", 1)
        source, command = rest.split(" | ", 1)
        if source == "INPUT":
            source = module
        elif source == "sanitize":
            source = os.path.join(out_dir, "sanitize.ll")
        else:
            source = os.path.join(emit_dir, source)
        target = os.path.join(out_dir, "sanitize.ll" if output == "sanitize" else output)
        procs = []
        segments = command.split(" | ")
        for i, segment in enumerate(segments):
            argv = shlex.split(segment)
            if argv[0] == "opt":
                argv.insert(1, "-load-pass-plugin=" + plugin)
                if output.endswith(".ll") and "-S" not in argv:
                    argv.append("-S")
            if i == 0:
                argv.append(source)
            if i == len(segments) - 1:
                argv += ["-o", target]
            stdin = procs[-1].stdout if procs else None
            procs.append(subprocess.Popen(argv, stdin=stdin,
                                          stdout=subprocess.PIPE if i < len(segments) - 1 else None))
        for p in procs:
            if p.wait() != 0:
                sys.exit("stage %s failed: %s" % (output, command))


if __name__ == "__main__":
    main()
