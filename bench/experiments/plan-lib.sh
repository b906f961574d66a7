# Sourced by the experiment scripts in this directory.

# reverse_kernel PLAN: sets rev (the entry) and ptx (its PTX file) of the
# reverse kernel in PLAN/plan.json (docs/run-plan.md); exits 2 when it has
# none.
reverse_kernel() {
  rev='' ptx=''
  read -r rev ptx < <(python3 -c 'import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    if k["role"] == "reverse": print(k["entry"], k["ptx"])' "$1/plan.json") || true
  [ -n "$ptx" ] || { echo "$1/plan.json has no reverse kernel" >&2; exit 2; }
}
