#!/usr/bin/env bash
# First set-up on a Debian 12 machine (as root or with sudo): installs the
# Debian packages, builds the default build (build/llvm-19: the command-line
# tool and the opt plugin, nothing else) and runs the main job on the shipped
# example, ending with a one-screen summary. scripts/test.sh then builds and
# runs everything else (unit tests, runner, fake plugins).
#
# Environment:
#   IRS_LLVM_VERSIONS  the LLVM builds to make, default "19"; "16 18 19 22"
#                      for all (Julia 1.11, Julia 1.12, the default, Julia
#                      master). 18 is built inside a Debian 13 root that
#                      scripts/trixie-root.sh makes (needs root and the
#                      network; IRS_TRIXIE_ROOT says where)
#   IRS_CMAKE_ARGS     more configure options (.ci/run: -DIRS_WERROR=ON)
#   IRS_DEV_TOOLS=1    also the sanitizer and fuzzing tool chain (clang-19,
#                      libFuzzer) for the asan preset (.ci/run)
#   ENZYME_PLUGIN      the Enzyme plugin for the main job (else the build's
#                      configured one, else ../shared/enzyme/LLVMEnzyme-19.so)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
versions=${IRS_LLVM_VERSIONS:-19}

# --- The main job on the shipped examples (README: "The main job") ---
# (defined first: `setup.sh --main-job BUILD MAJOR` runs just this, which is
# how it runs inside the Debian 13 root)
# Two host modules, each with a bundle Enzyme may reject: Julia 1.12's
# gc-transition on a CUDA driver ccall (rejected by Enzymes before PR #2906,
# accepted since) and Julia master's julia.gc_alloc_ptr_offsets on an
# allocation (rejected by every Enzyme). For each: check asks the Enzyme at
# hand which bundles it rejects, the rewrite removes what Enzyme cannot take
# (lowered, or stashed and restored after Enzyme), and Enzyme runs on both
# sides: the original must do what check said, the rewritten module must
# differentiate. Files in build/main-job/NAME.
main_case() {
  local irs=$1 in=$2 tag=$3 plugin=$4 ok=1 rc verdict
  local out=build/main-job/$(basename "$in" .ll)
  mkdir -p "$out"
  echo " $in"
  local asked=()
  [ -n "$plugin" ] && asked=(--enzyme-plugin "$plugin")
  rc=0
  "$irs" check "$in" "${asked[@]}" >"$out/check.txt" 2>&1 || rc=$?
  if grep -q "bundle \"$tag\".*: rejected" "$out/check.txt" && [ "$rc" = 1 ]; then
    verdict=rejects
  elif grep -q "^  \"$tag\"(.*accepted" "$out/check.txt" && [ "$rc" = 0 ]; then
    verdict=accepts
  else
    echo "  check      FAILED: exit $rc (see $out/check.txt)"
    return 1
  fi
  echo "  check      exit $rc: \"$tag\" $( [ $verdict = rejects ] && echo rejected || echo accepted) by ${plugin:+this }Enzyme"
  rc=0
  "$irs" "$in" -o "$out/clean.ll" --report="$out/report.json" 2>"$out/rewrite.err" || rc=$?
  if [ "$rc" = 0 ] && ! grep -q "\"$tag\"(" "$out/clean.ll"; then
    echo "  rewrite    exit 0: $out/clean.ll"
    echo "             $(sed -n '1{s/^[^:]*: [^:]*: //;s/; no kernel.*//;p}' "$out/rewrite.err")"
  else
    echo "  rewrite    FAILED: exit $rc (see $out/rewrite.err)"
    return 1
  fi
  [ -n "$plugin" ] || return 0
  local enzyme=("$opt" -load-pass-plugin="$plugin" -load="$plugin" -enzyme-preopt=false -passes=enzyme -S)
  rc=0
  # In a subshell whose stderr is the log, so that the shell's "Aborted"
  # lands there too.
  ("${enzyme[@]}" "$in" -o "$out/original.diff.ll"; exit $?) >"$out/original.enzyme.log" 2>&1 || rc=$?
  local original
  if [ $verdict = rejects ] && [ "$rc" != 0 ] && grep -q "unsupported tag $tag" "$out/original.enzyme.log"; then
    original="aborts as check said (unsupported tag $tag)"
  elif [ $verdict = accepts ] && [ "$rc" = 0 ]; then
    original="differentiated, as check said"
  else
    original="UNEXPECTED: exit $rc (see $out/original.enzyme.log)"
    ok=0
  fi
  echo "  Enzyme     original:  $original"
  rc=0
  ("${enzyme[@]}" "$out/clean.ll" -o "$out/diff.ll"; exit $?) >"$out/clean.enzyme.log" 2>&1 || rc=$?
  if [ "$rc" = 0 ] && grep -q '^define .*@fwddiffe' "$out/diff.ll" &&
    "$irs" restore "$out/diff.ll" -o "$out/restored.ll" 2>"$out/restore.err"; then
    echo "             rewritten: differentiated, then $(sed -n '1{s/^[^:]*: [^:]*: //;p}' "$out/restore.err"): $out/restored.ll"
  else
    echo "             rewritten: FAILED: exit $rc (see $out/clean.enzyme.log)"
    ok=0
  fi
  [ "$ok" = 1 ]
}

main_job() {
  local build=$1 major=$2 ok=1 skipped=""
  local irs=$build/bin/ir-sanitize opt=/usr/lib/llvm-$major/bin/opt
  rm -rf build/main-job && mkdir -p build/main-job
  local plugin=${ENZYME_PLUGIN:-}
  # The configured plugin: -DIRS_ENZYME_PLUGIN, else the one configure found.
  [ -n "$plugin" ] || plugin=$(sed -n 's/^IRS_ENZYME_PLUGIN\(_FOUND\)\{0,1\}:[A-Z]*=\(.*[^D]\)$/\2/p' \
    "$build/CMakeCache.txt" | head -n 1)
  [ -n "$plugin" ] || plugin=../shared/enzyme/LLVMEnzyme-$major.so
  echo
  if [ -f "$plugin" ]; then
    echo "== main job (LLVM $major), Enzyme $plugin"
    echo "   sha256 $(sha256sum "$plugin" | cut -c1-16)...: check asks it which bundles it rejects"
  else
    echo "== main job (LLVM $major), Enzyme SKIPPED: no LLVMEnzyme-$major.so (looked at"
    echo "   \$ENZYME_PLUGIN, the build's IRS_ENZYME_PLUGIN, ../shared/enzyme). Build one (about 10 min):"
    echo "   git clone https://github.com/EnzymeAD/Enzyme ~/Enzyme && bash scripts/build-enzyme.sh ~/Enzyme $major"
    echo "   ENZYME_PLUGIN=\$PWD/build/enzyme-$major/Enzyme/LLVMEnzyme-$major.so bash scripts/setup.sh"
    plugin=""
    skipped=" (Enzyme SKIPPED)"
  fi
  main_case "$irs" examples/cuda_ccall_gc_transition_fwddiff.ll gc-transition "$plugin" || ok=0
  main_case "$irs" examples/julia_master_gc_alloc_ptr_offsets_fwddiff.ll julia.gc_alloc_ptr_offsets "$plugin" || ok=0
  if [ "$ok" = 1 ]; then
    echo "  result     OK$skipped"
  else
    echo "  result     FAILED"
  fi
  [ "$ok" = 1 ]
}

if [ "${1:-}" = --main-job ]; then
  main_job "$2" "$3"
  exit
fi

# --- Debian packages ---
# What every build needs, here and inside the Debian 13 root.
packages=(cmake ninja-build g++ python3 ccache pkgconf catch2 libcli11-dev nlohmann-json3-dev
  libzstd-dev zlib1g-dev)
host_packages=("${packages[@]}" clang-format-19)
root_packages=()
for v in $versions; do
  llvm=("llvm-$v" "llvm-$v-dev" "llvm-$v-tools")
  if bash scripts/trixie-root.sh holds "$v"; then
    root_packages+=("${llvm[@]}")
  else
    host_packages+=("${llvm[@]}")
  fi
done
[ "${IRS_DEV_TOOLS:-0}" = 1 ] && host_packages+=(clang-19 libfuzzer-19-dev libclang-rt-19-dev)
if ! dpkg -s "${host_packages[@]}" >/dev/null 2>&1; then
  echo "== setup: installing Debian packages"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${host_packages[@]}" >/dev/null
fi
apt_s=$((SECONDS - start))
# LLVM 18: the Debian 13 root, made the first time (scripts/trixie-root.sh).
if [ ${#root_packages[@]} -gt 0 ]; then
  bash scripts/trixie-root.sh ensure "${packages[@]}" "${root_packages[@]}"
fi
root_s=$((SECONDS - start - apt_s))

# --- Builds: what the main job needs (scripts/test.sh builds the rest) ---
for v in $versions; do
  echo "== setup: building build/llvm-$v (ir-sanitize and the opt plugin)"
  # Where LLVM $v is: here, or inside the Debian 13 root (LLVM 18).
  # IRS_CMAKE_ARGS is a list of options, split on spaces on purpose.
  # shellcheck disable=SC2086
  bash scripts/trixie-root.sh llvm "$v" cmake -S . -B "build/llvm-$v" -G Ninja \
    -DIRS_LLVM_VERSION="$v" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    ${IRS_CMAKE_ARGS:-} >/dev/null
  bash scripts/trixie-root.sh llvm "$v" cmake --build "build/llvm-$v" --target ir-sanitize IRSanitizePlugin
done
build_s=$((SECONDS - start - apt_s - root_s))

# Prefer the default build; otherwise the first one made.
v=19
case " $versions " in *" 19 "*) ;; *) read -r v _ <<<"$versions" ;; esac
job_start=$SECONDS
status=0
bash scripts/trixie-root.sh llvm "$v" bash scripts/setup.sh --main-job "build/llvm-$v" "$v" || status=$?
root_time=""
[ ${#root_packages[@]} = 0 ] || root_time=", Debian 13 root ${root_s} s"
echo "set-up took $((SECONDS - start)) s: packages ${apt_s} s$root_time, build ${build_s} s, main job $((SECONDS - job_start)) s"
echo "next: bash scripts/test.sh   (builds and runs every test)"
exit "$status"
