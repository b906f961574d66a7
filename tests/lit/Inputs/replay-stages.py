#!/usr/bin/env python3
"""Replays a command's `--print-pipeline-passes` stages with opt and llc.

usage: replay-stages.py STAGES PLUGIN INPUT EMIT_DIR OUT_DIR

Each line of STAGES is `OUTPUT: INPUT | opt ... [| llc ...][  # NOTE]`
(PipelineStage in include/ir-sanitize/Driver/PipelineStage.h). Every stage
reads INPUT (the module as given), OUT_DIR/sanitize.ll (the replayed
sanitize stage) or an earlier stage's output: EMIT_DIR's copy when EMIT_DIR
is a directory (gpu-check's, so that each stage is checked on its own), the
replayed one in OUT_DIR when EMIT_DIR is `-` (enzyme, which keeps none). It
writes OUT_DIR/OUTPUT (sanitize.ll for the sanitize stage), as text unless
it is PTX. Every opt gets -load-pass-plugin=PLUGIN.
"""
import os
import shlex
import subprocess
import sys


def stage_file(out_dir, name):
    return os.path.join(out_dir, "sanitize.ll" if name == "sanitize" else name)


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
        elif source == "sanitize" or emit_dir == "-":
            source = stage_file(out_dir, source)
        else:
            source = os.path.join(emit_dir, source)
        target = stage_file(out_dir, output)
        procs = []
        segments = command.split(" | ")
        for i, segment in enumerate(segments):
            argv = shlex.split(segment)
            if argv[0] == "opt":
                argv.insert(1, "-load-pass-plugin=" + plugin)
                if not output.endswith(".ptx") and "-S" not in argv:
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
