"""Prints a kernel whose one parameter nests aggregates DEPTH deep.

    gen-deep-kernel.py DEPTH [array|struct|mixed]

array: [1 x [1 x ... i8]]; struct: {{... i8}}; mixed alternates the two and
puts a float next to each struct level (so the leaves' offsets vary).
"""
import sys

depth = int(sys.argv[1])
shape = sys.argv[2] if len(sys.argv) > 2 else "array"
ty = "i8"
for level in range(depth):
    if shape == "array" or (shape == "mixed" and level % 2 == 0):
        ty = "[1 x %s]" % ty
    elif shape == "struct":
        ty = "{ %s }" % ty
    else:
        ty = "{ float, %s }" % ty
print('target triple = "nvptx64-nvidia-cuda"')
print("define ptx_kernel void @k(%s %%a) {" % ty)
print("  ret void")
print("}")
