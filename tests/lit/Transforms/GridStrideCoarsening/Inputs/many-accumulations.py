"""Writes a kernel with N atomic accumulations into y[i mod rows]: more
than GridStrideCoarsening checks (64) when N is 65."""
import sys

n = int(sys.argv[1])
print('target triple = "nvptx64-nvidia-cuda"')
print("define ptx_kernel void @many(ptr addrspace(1) %dy, i64 %rows, float %g) {")
print("  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()")
print("  %i = zext i32 %c to i64")
print("  %r = urem i64 %i, %rows")
print("  %p = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r")
for k in range(n):
    print("  %%a%d = atomicrmw fadd ptr addrspace(1) %%p, float %%g monotonic" % k)
print("  ret void")
print("}")
print("declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()")
