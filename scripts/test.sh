#!/usr/bin/env bash
# Builds everything (unit tests, runner, fake plugins...) and runs every test
# against each LLVM build, and the install-and-embed test of each. Prints
# real counts: unit test cases and lit tests passed, failed and skipped (a
# test that cannot run here, e.g. without an Enzyme plugin or a GPU, is
# skipped, never passed), and why tests were skipped. The LLVM 18 build is
# built and tested inside its Debian 13 root (scripts/trixie-root.sh).
#
# Environment: IRS_LLVM_VERSIONS, the builds to test (default: each of
# build/llvm-{16,18,19,22} that scripts/setup.sh made).
set -uo pipefail
cd "$(dirname "$0")/.."
versions=${IRS_LLVM_VERSIONS:-}
if [ -z "$versions" ]; then
  for v in 16 18 19 22; do
    [ -f "build/llvm-$v/CMakeCache.txt" ] && versions+=" $v"
  done
fi
if [ -z "$versions" ]; then
  echo "test.sh: no build/llvm-*; run scripts/setup.sh first" >&2
  exit 2
fi
failed=0
summary=()
# at V CMD...: CMD where LLVM V is (here, or inside the Debian 13 root).
at() {
  bash scripts/trixie-root.sh llvm "$@"
}
for v in $versions; do
  build=build/llvm-$v
  echo "== LLVM $v: building everything in $build"
  if ! at "$v" cmake --build "$build"; then
    summary+=("LLVM $v: BUILD FAILED")
    failed=1
    continue
  fi
  echo "== LLVM $v: tests"
  rm -f "$build/Testing/ctest.xml" "$build"/tests/lit-results*.json
  at "$v" ctest --test-dir "$build" -j "$(nproc)" --output-on-failure \
    --output-junit "$PWD/$build/Testing/ctest.xml" || failed=1
  # ctest's per-entry results (one entry per unit test case) and lit's
  # per-test results (tests/CMakeLists.txt has lit write them).
  counts=$(python3 - "$build/Testing/ctest.xml" "$build/tests" <<'EOF'
import json, os, re, sys, xml.etree.ElementTree as ET
unit = {"passed": 0, "failed": 0, "skipped": 0}
other = {"passed": 0, "failed": 0, "skipped": 0}
lit_ran = set()
try:
    cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
except (OSError, ET.ParseError):
    cases = []
for case in cases:
    name, status = case.get("name"), case.get("status")
    skip = case.find("skipped")
    # Not run: skipped (SKIP_RETURN_CODE) or disabled; not found is a failure.
    skipped = status == "disabled" or (status == "notrun" and skip is not None and
                                       "SKIP_" in (skip.get("message") or ""))
    kind = "passed" if status == "run" else "skipped" if skipped else "failed"
    if name == "lit" or name.startswith("lit-"):
        lit_ran.add(name)
        continue
    (unit if name.startswith("unit/") else other)[kind] += 1
def lit_counts(results, ran):
    c = {"passed": 0, "failed": 0, "skipped": 0}
    try:
        for test in json.load(open(results))["tests"]:
            code = test["code"]
            kind = ("passed" if code in ("PASS", "XFAIL") else
                    "skipped" if code in ("UNSUPPORTED", "SKIPPED", "EXCLUDED") else "failed")
            c[kind] += 1
    except (OSError, ValueError, KeyError):
        if ran:
            c["failed"] += 1  # lit ran but wrote no results: it failed
    return c
# Which Enzyme snapshot each lit run used: the configured one for "lit",
# NAME for "lit-enzyme-NAME" (tests/CMakeLists.txt).
site = open(os.path.join(sys.argv[2], "lit", "lit.site.cfg.py")).read()
configured = (re.search(r'enzyme_snapshot = "([^"]*)"', site) or [None, ""])[1]
runs = [("lit", os.path.join(sys.argv[2], "lit-results.json"), configured or "configured")]
for name in sorted(lit_ran - {"lit"}):
    runs.append((name, os.path.join(sys.argv[2], "lit-results-%s.json" % name[4:]), name[11:]))
lits = [("lit tests (Enzyme %s)" % snap, lit_counts(path, name in lit_ran)) for name, path, snap in runs]
def line(what, c):
    return "%s: %d passed, %d failed, %d skipped" % (what, c["passed"], c["failed"], c["skipped"])
print("  " + line("unit test cases", unit))
for what, c in lits:
    print("  " + line(what, c))
print("  " + line("other ctest entries (stress)", other))
print("FAILED" if unit["failed"] or other["failed"] or any(c["failed"] for _, c in lits) else "OK")
EOF
  )
  [ "$(tail -n 1 <<<"$counts")" = OK ] || failed=1
  summary+=("LLVM $v:" "$(sed '$d' <<<"$counts")")
  # Why tests were skipped: IRS_SKIP in unit tests, lit's notes, stress.
  reasons=$(grep -ho "SKIPPED: .*" "$build/Testing/Temporary/LastTest.log" 2>/dev/null | sort -u)
  [ -z "$reasons" ] || summary+=("$(sed 's/^/    /' <<<"$reasons")")
  # The install-and-consume test of the C interface.
  echo "== LLVM $v: install and embed"
  if at "$v" bash scripts/test-install.sh "$build"; then
    summary+=("  install and embed: passed")
  else
    summary+=("  install and embed: FAILED")
    failed=1
  fi
done
echo
echo "== test summary"
printf '%s\n' "${summary[@]}"
if [ "$failed" = 0 ]; then echo "all passed"; else echo "SOME TESTS FAILED"; fi
[ "$failed" = 0 ]
