#!/usr/bin/env bash
# Install-and-consume test: installs a build into a temporary prefix, builds
# the out-of-tree consumer examples/embed-c against the installed CMake
# package, runs it on the examples and checks that what it gets through the C
# interface equals what the command line writes for the same input: check
# JSON, bundle report, launch manifest, the rewritten and the restored module.
# Then checks the Julia example's ccalls against the installed header and
# library, and builds embed-c with pkg-config alone from the moved prefix.
#
#   scripts/test-install.sh [BUILD_DIR]      (default build/llvm-19)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/llvm-19}
W=$(mktemp -d "${TMPDIR:-/tmp}/irs-install.XXXXXX")
trap 'rm -rf "$W"' EXIT
cmake --install "$build" --prefix "$W/prefix" >/dev/null
for f in bin/ir-sanitize lib/IRSanitize.so lib/libIRSanitize.a \
  include/ir-sanitize-c/IRSanitize.h include/ir-sanitize/Config.h \
  lib/cmake/IRSanitize/IRSanitizeConfig.cmake lib/pkgconfig/ir-sanitize.pc; do
  [ -e "$W/prefix/$f" ] || { echo "test-install: $f was not installed" >&2; exit 1; }
done
# Only public headers are installed, and they include only installed ones.
for f in Support/LLVMCompat.h Support/AnalysisManagers.h Support/JSONDepth.h \
  Support/Messages.h Support/BoundedJSON.h Support/CheckedArithmetic.h \
  Transforms/Utils/BundleStash.h; do
  [ ! -e "$W/prefix/include/ir-sanitize/$f" ] ||
    { echo "test-install: internal header $f was installed" >&2; exit 1; }
done
missing=$(cd "$W/prefix/include" && { grep -rhoE '#include "ir-sanitize[^"]*"' . || true; } |
  sed 's/#include "\(.*\)"/\1/' | sort -u | while read -r h; do
    [ -e "$h" ] || echo "$h"; done)
[ -z "$missing" ] ||
  { echo "test-install: installed headers include uninstalled ones:" $missing >&2; exit 1; }
soname=$(objdump -p "$W/prefix/lib/libIRSanitize.so" | awk '/SONAME/ { print $2 }')
[ -n "$soname" ] && [ -e "$W/prefix/lib/$soname" ] ||
  { echo "test-install: libIRSanitize.so has no SONAME or no file named by it" >&2; exit 1; }
cmake -S examples/embed-c -B "$W/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$W/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$W/consumer" >/dev/null
# The installed ir-sanitize, so that the installed tree is what is checked.
irs=$W/prefix/bin/ir-sanitize
# The build's own LLVM tools, as its lit configuration names them.
llvm_bin=${LLVM_BIN:-$(sed -n 's/^config.llvm_tools_dir = "\(.*\)"$/\1/p' \
  "$build/tests/lit/lit.site.cfg.py")}

# same NAME FILE_FROM_C FILE_FROM_CLI
same() {
  cmp -s "$2" "$3" || { echo "test-install: $1: C API and command line differ:" >&2
    diff "$2" "$3" | head -20 >&2; exit 1; }
}

# case INPUT "C POLICY" CLI-POLICY-OPTIONS...
run_case() {
  local in=$1 policy=$2 name
  shift 2
  name=$(basename "$in" .ll)
  local c=$W/c-$name cli=$W/cli-$name
  mkdir -p "$c" "$cli"
  "$W/consumer/embed-c" "$in" "$c" "$policy" > "$c/stdout"
  grep -q "IRSSplatKernels(no_such_kernel): status 2: no kernel named" "$c/stdout"
  "$irs" check --format=json "$in" > "$cli/check.json" || [ $? -eq 1 ]
  "$irs" "$in" "$@" -q --no-splat -o /dev/null --report="$cli/report.json"
  "$irs" "$in" "$@" -q -o "$cli/sanitized.ll" --manifest="$cli/manifest.json"
  "$irs" restore "$cli/sanitized.ll" -q -o "$cli/restored.ll" || [ $? -eq 1 ]
  for f in check.json report.json manifest.json; do
    same "$name/$f" "$c/$f" "$cli/$f"
  done
  # restore reads the module back from a file, whose name is its identifier.
  sed -i "1,2s|$cli/sanitized.ll|$in|" "$cli/restored.ll"
  # Modules go through opt -S: LLVM 19/20 print debug values in whichever
  # form a process-wide flag says (the command keeps the input's form;
  # LLVM-C prints records); opt prints records from both, and that spelling
  # is all it changes. Not through bitcode (llvm-as | llvm-dis): it writes
  # Enzyme's metadata arguments of a varargs call as other values, which
  # LLVM 16 and 18 then refuse to read back and 19 and 22 read as constants.
  # The derivative-access passes, through the installed opt plugin.
  "$llvm_bin/opt" -load-pass-plugin="$W/prefix/lib/IRSanitize.so" -S "$c/restored.ll" \
    -passes='function(ir-sanitize-store-sink-versioning,ir-sanitize-merge-accumulations<reassociate-fp>,early-cse)' \
    -o "$cli/accesses.ll"
  for f in sanitized.ll restored.ll accesses.ll; do
    "$llvm_bin/opt" -S -o "$c/$f.dis" <"$c/$f"
    "$llvm_bin/opt" -S -o "$cli/$f.dis" <"$cli/$f"
    same "$name/$f" "$c/$f.dis" "$cli/$f.dis"
  done
  # The repacked launch arguments, recomputed from the manifest.
  python3 - "$cli/manifest.json" > "$cli/repack.txt" <<'PY'
import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    print("kernel " + k["name"])
    for p in k["params"]:
        o, s, a = p["offset"], p["size"], p["orig_index"]
        print("  param %d = arg %d [%d, %d):" % (p["index"], a, o, o + s) +
              "".join(" %02x" % ((a * 37 + j) & 0xff) for j in range(o, o + s)))
PY
  same "$name/repack.txt" "$c/repack.txt" "$cli/repack.txt"
  echo "test-install: $name: C API = command line ($(grep -c '^  param' "$c/repack.txt") repacked parameters)"
}

run_case examples/cuda_ccall_gc_transition_fwddiff.ll "gc-transition=stash;scope=all" \
  --bundle gc-transition=stash --scope all
run_case examples/cuda_ccall_gc_transition_autodiff.ll "" 
for k in examples/kernels/*.ll; do
  run_case "$k" ""
done

# The Julia example, which cannot run here: its ccalls against the installed
# header and library, its manifest fields against a manifest the installed
# command wrote; a wrong argument type must be caught.
julia_check() {
  python3 scripts/check-julia-ccalls.py "$W/prefix/include/ir-sanitize-c/IRSanitize.h" \
    "$W/prefix/lib/libIRSanitize.so" --manifest "$W/cli-bcast_add_2d/manifest.json" "$@"
}
julia_check examples/julia/sanitize.jl
sed 's/(Ref{Cuint}, /(Ref{Cint}, /' examples/julia/sanitize.jl > "$W/wrong.jl"
if julia_check "$W/wrong.jl" 2>/dev/null; then
  echo "test-install: check-julia-ccalls.py missed a wrong argument type" >&2; exit 1
fi

# pkg-config alone, from the install moved elsewhere: ir-sanitize.pc finds
# its prefix from its own place, so the consumer compiles, links and runs
# against the moved tree and gets what the CMake consumer got.
mv "$W/prefix" "$W/moved"
pc() { PKG_CONFIG_LIBDIR="$W/moved/lib/pkgconfig" PKG_CONFIG_PATH= pkg-config "$@" ir-sanitize; }
[ -e "$(pc --variable=includedir)/ir-sanitize-c/IRSanitize.h" ] ||
  { echo "test-install: ir-sanitize.pc does not follow the moved prefix:" \
    "includedir=$(pc --variable=includedir)" >&2; exit 1; }
# shellcheck disable=SC2046 # pkg-config prints several words on purpose.
cc examples/embed-c/main.c $(pc --cflags) -o "$W/embed-c-pc" $(pc --libs) \
  -Wl,-rpath,"$(pc --variable=libdir)"
ldd "$W/embed-c-pc" | grep -q "$W/moved/.*libIRSanitize" ||
  { echo "test-install: the pkg-config consumer does not use the moved library" >&2; exit 1; }
in=examples/cuda_ccall_gc_transition_fwddiff.ll
mkdir -p "$W/pc"
"$W/embed-c-pc" "$in" "$W/pc" "gc-transition=stash;scope=all" > "$W/pc/stdout"
for f in "$W/c-$(basename "$in" .ll)"/*; do
  case $f in *.dis) continue ;; esac
  cmp -s "$f" "$W/pc/$(basename "$f")" || { echo "test-install: pkg-config" \
    "consumer: $(basename "$f") differs from the CMake consumer's" >&2; exit 1; }
done
echo "test-install: pkg-config consumer from a moved prefix = CMake consumer"
echo "test-install: OK"
