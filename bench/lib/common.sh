# Shared by the bench/bench.sh benchmarks: sourced from the repository
# root, after `set -euo pipefail`.

# A scratch directory in $W, removed when the script exits; $1 names it.
bench_scratch() {
  W=$(mktemp -d "${TMPDIR:-/tmp}/irs-$1.XXXXXX")
  trap 'rm -rf "$W"' EXIT
}

# $IN: the file $1 or, if $1 is empty, a generated Julia 1.12-like host
# module of $2 megabytes (bench/lib/gen-julia-module.py) in $W.
bench_host_input() {
  if [ -n "$1" ]; then
    IN=$1
  else
    IN=$W/julia-host.ll
    python3 bench/lib/gen-julia-module.py "$IN" "$2"
  fi
  echo "input: $IN ($(du -m "$IN" | cut -f1) MB, $(grep -c '"gc-transition"' "$IN") gc-transition bundles)"
}

# $W/in.ll: a generated host module of $1 megabytes that Enzyme fails on only
# for its gc-transition bundles: Julia marks the runtime's lookup function
# inactive for Enzyme, and so does this.
bench_enzyme_input() {
  python3 bench/lib/gen-julia-module.py "$W/raw.ll" "$1" >/dev/null
  sed -e 's/^declare ptr @ijl_load_and_lookup(ptr, ptr, ptr)$/& #90/' \
      -e '$a attributes #90 = { nofree nounwind "enzyme_inactive" }' \
      "$W/raw.ll" > "$W/in.ll"
}

# $plugin: $ENZYME_PLUGIN or the plugin the build of ir-sanitize $1 was
# configured with; exits 0 with a SKIPPED line (from $2) when there is none.
bench_enzyme_plugin() {
  plugin=${ENZYME_PLUGIN:-$(sed -n 's/^#define IRS_DEFAULT_ENZYME_PLUGIN "\(.*\)"$/\1/p' \
    "$(dirname "$1")/../src/Enzyme/ConfiguredPlugin.h")}
  [ -f "$plugin" ] || { echo "$2: SKIPPED: no Enzyme plugin" >&2; exit 0; }
}

# The median of the numbers on stdin, one per line.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
