#!/usr/bin/env bash
# StoreSinkVersioning on every corpus file LLVM parses, as given and after
# default<O2> (then also AccumulationMerging, as gpu-check runs them): the
# result must verify. Prints FAIL lines and a count of files
# and versioned runs (".fast" blocks).
# Usage: store-sink-versioning-corpus.sh OPT PLUGIN CORPUS_DIR TMP
set -u
opt=$1 plugin=$2 corpus=$3 tmp=$4
mkdir -p "$tmp"
files=0 versioned=0
for f in "$corpus"/*.ll; do
  "$opt" -disable-output "$f" 2>/dev/null || continue # pre-LLVM-7 debug info
  for pipeline in 'function(ir-sanitize-store-sink-versioning),verify' \
                  'default<O2>,function(ir-sanitize-store-sink-versioning,ir-sanitize-merge-accumulations<reassociate-fp>),verify'; do
    if ! "$opt" -load-pass-plugin="$plugin" -passes="$pipeline" -S "$f" \
        -o "$tmp/out.ll" 2>"$tmp/err.txt"; then
      echo "FAIL $f ($pipeline): $(head -c 300 "$tmp/err.txt")"
      continue
    fi
    versioned=$((versioned + $(grep -c '\.fast:' "$tmp/out.ll")))
  done
  files=$((files + 1))
done
echo "corpus: $files files, $versioned runs versioned"
