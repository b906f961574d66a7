; Raw Ptr{Float64} parameters passed as i64 (before Julia 1.12), the
; doubles moved as i64 (as LLVM did for a plain copy: staging into shared
; memory here), and one Float64 array the kernel never touches: the element
; types come from the mangled name, in GPUCompiler's earlier mangling
; (Ptr{T} spelled as a type, names-only substitutions: `S_IS0_E` is
; Ptr{Float64}). The kernel: y[i] = x[i] * s, i < n.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@shmem = internal addrspace(3) global [256 x i64] undef, align 8

define ptx_kernel void @_Z12julia_scaled3PtrI7Float64ES_IS0_ES_IS0_E5Int32S0_(i64 %0, i64 %1, i64 %2, i32 %3, double %4) {
top:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = shl i32 %ctaid, 8
  %i32 = add i32 %b, %tid
  %in = icmp slt i32 %i32, %3
  br i1 %in, label %body, label %exit
body:
  %i = zext i32 %i32 to i64
  %xa = inttoptr i64 %1 to ptr addrspace(1)
  %xp = getelementptr inbounds double, ptr addrspace(1) %xa, i64 %i
  %bits = load i64, ptr addrspace(1) %xp, align 8
  %t = zext i32 %tid to i64
  %sp = getelementptr inbounds [256 x i64], ptr addrspace(3) @shmem, i64 0, i64 %t
  store i64 %bits, ptr addrspace(3) %sp, align 8
  call void @llvm.nvvm.barrier0()
  %sv = load double, ptr addrspace(3) %sp, align 8
  %w = fmul double %sv, %4
  %ya = inttoptr i64 %0 to ptr addrspace(1)
  %yp = getelementptr inbounds double, ptr addrspace(1) %ya, i64 %i
  store double %w, ptr addrspace(1) %yp, align 8
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
