; y[i] = x[i+1] - x[i] for i < n: with x of n elements, the last thread
; reads x[n], one past the end.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z4diff3PtrI7Float32ES_5Int64(ptr addrspace(1) %"y::Ptr", ptr addrspace(1) %"x::Ptr", i64 %"n::Int64") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %in = icmp slt i64 %i, %"n::Int64"
  br i1 %in, label %body, label %exit
body:
  %xp = getelementptr inbounds float, ptr addrspace(1) %"x::Ptr", i64 %i
  %v = load float, ptr addrspace(1) %xp, align 4
  %xq = getelementptr inbounds float, ptr addrspace(1) %xp, i64 1
  %u = load float, ptr addrspace(1) %xq, align 4
  %w = fsub float %u, %v
  %op = getelementptr inbounds float, ptr addrspace(1) %"y::Ptr", i64 %i
  store float %w, ptr addrspace(1) %op, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
