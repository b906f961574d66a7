"""A kernel with N CuDeviceArray parameters (CUDA.jl 5's layout) that stores
to each, and a launch spec binding each to a buffer of its own: what the
spec validation meets at its largest (bench/cases/validate.sh).

usage: gen-array-kernel.py N KERNEL.ll SPEC.json"""
import json
import sys

n = int(sys.argv[1])
array = "{ ptr addrspace(1), i64, [1 x i64], i64 }"
params = ", ".join("%s %%a%d" % (array, i) for i in range(n))
body = []
for i in range(n):
    body.append("  %%p%d = extractvalue %s %%a%d, 0" % (i, array, i))
    body.append("  store float 1.0, ptr addrspace(1) %%p%d" % i)
with open(sys.argv[2], "w") as f:
    f.write('target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"\n'
            'target triple = "nvptx64-nvidia-cuda"\n\n'
            "define ptx_kernel void @k(%s) {\n%s\n  ret void\n}\n" %
            (params, "\n".join(body)))
buffers = [{"name": "b%d" % i, "type": "f32", "count": 4, "output": True}
           for i in range(n)]
args = {}
for i in range(n):
    args["%d.0" % i] = "buffer:b%d" % i
    args["%d.1" % i] = 16  # maxsize in bytes
    args["%d.2.0" % i] = 4
    args["%d.3" % i] = 4
with open(sys.argv[3], "w") as f:
    json.dump({"threads": 1, "checks": "primal", "buffers": buffers,
               "args": args}, f)
