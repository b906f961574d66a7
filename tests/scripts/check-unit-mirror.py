#!/usr/bin/env python3
"""Check that tests/unit mirrors src/ file by file.

Each src/<path>/<Name>.cpp has its unit tests in
tests/unit/<path>/<Name>Test.cpp, and each tests/unit/**/*Test.cpp tests the
source file it mirrors. The exceptions below are tested another way; each
says how. Helper headers (*.h) and tests/unit/UnitTestMain.cpp are not test files.

usage: check-unit-mirror.py SOURCE_DIR
Exit 0 when every source file has its test file and every test file its
source file, 1 with one line per difference.
"""
import argparse
import os
import sys

# Source files without a unit test file, and why.
EXCEPTIONS = {
    # Passes are tested the LLVM way: opt with the plugin, in lit.
    "src/Transforms/AccumulationAggregation.cpp":
        "lit: tests/lit/Transforms/AccumulationAggregation",
    "src/Transforms/AccumulationMerging.cpp":
        "lit: tests/lit/Transforms/AccumulationMerging",
    "src/Transforms/GridStrideCoarsening.cpp":
        "lit: tests/lit/Transforms/GridStrideCoarsening",
    "src/Transforms/IntegerPointerArguments.cpp":
        "lit: tests/lit/Transforms/IntegerPointerArguments",
    "src/Transforms/InvariantDivision.cpp":
        "lit: tests/lit/Transforms/InvariantDivision",
    "src/Transforms/NVPTXPrepare.cpp": "lit: tests/lit/Transforms/NVPTXPrepare",
    "src/Transforms/NoAliasVersioning.cpp":
        "lit: tests/lit/Transforms/NoAliasVersioning",
    "src/Transforms/SharedTileForwarding.cpp":
        "lit: tests/lit/Transforms/SharedTileForwarding",
    "src/Transforms/StoreSinkVersioning.cpp":
        "lit: tests/lit/Transforms/StoreSinkVersioning",
    # Front ends: built into their executables, not a library the unit tests
    # link; they only parse, call the driver and print (lit,
    # tests/lit/tools/<command>).
    "src/tools/ir-sanitize/ir-sanitize.cpp": "front end: tests/lit/tools/*",
    "src/tools/ir-sanitize/CheckCommand.cpp": "front end: tests/lit/tools/check",
    "src/tools/ir-sanitize/EnzymeCommand.cpp":
        "front end: tests/lit/tools/enzyme",
    "src/tools/ir-sanitize/EnzymeOptions.cpp":
        "front end: tests/lit/tools/enzyme",
    "src/tools/ir-sanitize/GPUCheckCommand.cpp":
        "front end: tests/lit/tools/gpu-check",
    "src/tools/ir-sanitize/ReduceCommand.cpp":
        "front end: tests/lit/tools/reduce",
    "src/tools/ir-sanitize/RestoreCommand.cpp":
        "front end: tests/lit/tools/restore",
    "src/tools/ir-sanitize/SanitizeCommand.cpp":
        "front end: tests/lit/tools/ir-sanitize",
    "src/tools/ir-sanitize/SanitizeOptions.cpp":
        "front end: tests/lit/tools/ir-sanitize",
    "src/tools/ir-sanitize/Subcommands.cpp": "front end: tests/lit/tools/*",
    "src/tools/ir-sanitize-gpurun/ir-sanitize-gpurun.cpp":
        "front end: tests/lit/tools/ir-sanitize-gpurun",
    "src/tools/ir-sanitize-plugin/Plugin.cpp":
        "the opt plugin: every lit test that runs %opt with %plugin",
    # The runner's CUDA glue needs a GPU and the CUDA driver; it is built
    # only where cuda.h is found, into the runner executable. What it
    # computes (checks, launch arguments) is in the host library, unit-tested.
    "src/tools/ir-sanitize-gpurun/CudaDevice.cpp":
        "needs a GPU: tests/lit/tools/ir-sanitize-gpurun, gpu-check",
    "src/tools/ir-sanitize-gpurun/PlanRunner.cpp":
        "CUDA glue (launch, download, hand to Checks.cpp), needs a GPU: "
        "tests/lit/tools/ir-sanitize-gpurun",
}


def rel_files(root, top, suffix):
    out = set()
    for d, _, files in os.walk(os.path.join(root, top)):
        for f in files:
            if f.endswith(suffix):
                out.add(os.path.relpath(os.path.join(d, f), root))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source_dir")
    args = ap.parse_args()
    root = args.source_dir
    sources = rel_files(root, "src", ".cpp")
    tests = rel_files(root, os.path.join("tests", "unit"), "Test.cpp")
    problems = []
    for s in sorted(sources):
        mirror = "tests/unit/" + s[len("src/"):-len(".cpp")] + "Test.cpp"
        if s in EXCEPTIONS:
            if mirror in tests:
                problems.append(f"{s}: listed as an exception "
                                f"({EXCEPTIONS[s]}) but has {mirror}")
        elif mirror not in tests:
            problems.append(f"{s}: no unit test file {mirror}")
    for e in sorted(EXCEPTIONS):
        if e not in sources:
            problems.append(f"{e}: listed as an exception but does not exist")
    for t in sorted(tests):
        stem = t[len("tests/unit/"):-len("Test.cpp")]
        source = "src/" + stem + ".cpp"
        # A header-only LLVM-free utility (Support/InputFile.h) is its own
        # source.
        header = os.path.join("include", "ir-sanitize", stem + ".h")
        if source not in sources and not os.path.exists(
                os.path.join(root, header)):
            problems.append(f"{t}: mirrors no source file ({source})")
    # A test file that exists but is not built tests nothing.
    cmake = open(os.path.join(root, "tests", "CMakeLists.txt"),
                 encoding="utf-8").read()
    for t in sorted(tests):
        if t[len("tests/"):] not in cmake:
            problems.append(f"{t}: not in irs-unit-tests (tests/CMakeLists.txt)")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s); the rule: docs/DeveloperGuide.md, "
              "Tests")
        return 1
    print(f"unit-mirror: {len(sources) - len(EXCEPTIONS)} source files, "
          f"{len(tests)} test files, {len(EXCEPTIONS)} exceptions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
