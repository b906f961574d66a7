#!/usr/bin/env python3
"""Adds bundled calls to an llvm-stress module (stdin -> stdout) for
tests/stress/stress.sh: before every terminator, one call whose bundles cycle
through the Julia shapes (gc-transition with zero or one operand, jl_roots,
Julia master's allocation tags, an unknown tag, several bundles on one call,
calls through a function pointer, an intrinsic with an assume bundle).
Operands are the function's arguments and the entry block's allocas, which
dominate every terminator. Every other unconditional branch becomes an invoke
of a bundled call unwinding to one landing pad shared by the function, so
that lowering on invokes splits normal edges (PHIs included) and shared
landing pads."""
import re
import sys

text = sys.stdin.read().splitlines()
out = []
args = {}
allocas = []
k = 0
TERMINATORS = re.compile(r"^  (br|ret|switch|unreachable|indirectbr|resume)\b")


def bundles(k):
    p = args.get("ptr", ["null"])[0]
    i64 = args.get("i64", ["0"])[0]
    i32 = args.get("i32", ["0"])[0]
    local = allocas[k % len(allocas)] if allocas else p
    shapes = [
        '[ "gc-transition"() ]',
        f'[ "jl_roots"(ptr {p}, ptr {local}), "gc-transition"(ptr {local}) ]',
        f'[ "julia.gc_alloc_ptr_offsets"(i64 0, i64 {i64}), "gc-transition"() ]',
        f'[ "unknown_tag"(i32 {i32}, ptr {local}), "jl_roots"(ptr {p}), "other"() ]',
    ]
    return shapes[k % len(shapes)]


invokes = 0
for line in text:
    m = re.match(r"^define .*?\((.*)\) \{", line)
    if m:
        args = {}
        allocas = []
        invokes = 0
        define_at = len(out)
        for a in m.group(1).split(", "):
            ty, name = a.rsplit(" ", 1)
            args.setdefault(ty, []).append(name)
    a = re.match(r"^  (%\S+) = alloca ", line)
    if a:
        allocas.append(a.group(1))
    if line == "}" and invokes:
        out[define_at] = out[define_at][:-2] + " personality ptr @__gxx_personality_v0 {"
        out.append("irs.lpad:")
        out.append("  %irs.lp = landingpad { ptr, i32 } cleanup")
        out.append("  resume { ptr, i32 } %irs.lp")
    br = re.match(r"^  br label (%\S+)$", line)
    if br and k % 2 == 0:
        out.append(f"  %irs.s{k} = invoke i32 @irs_stress_ccall(i32 {k}) {bundles(k)}")
        out.append(f"          to label {br.group(1)} unwind label %irs.lpad")
        invokes += 1
        k += 1
        continue
    if TERMINATORS.match(line):
        b = bundles(k)
        if k % 5 == 3 and "ptr" in args:
            out.append(f"  call void {args['ptr'][-1]}() {b}")
        elif k % 5 == 4 and "ptr" in args:
            out.append(f'  call void @llvm.assume(i1 true) [ "nonnull"(ptr {args["ptr"][0]}) ]')
            out.append(f"  %irs.s{k} = call i32 @irs_stress_ccall(i32 {k}) {b}")
        else:
            out.append(f"  %irs.s{k} = call i32 @irs_stress_ccall(i32 {k}) {b}")
        k += 1
    out.append(line)
out.append("declare i32 @irs_stress_ccall(i32)")
out.append("declare void @llvm.assume(i1)")
out.append("declare i32 @__gxx_personality_v0(...)")
print("\n".join(out))
