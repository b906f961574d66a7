; y[i] = e[i].w * x[e[i].src]: an array of structs Edge { src::Int64,
; w::Float32 } whose integer field indexes x.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Edge = type { i64, float }

define ptx_kernel void @_Z11edge_gather3PtrI7Float32ES0_3PtrI4EdgeE(ptr addrspace(1) %"y::Ptr", ptr addrspace(1) %"x::Ptr", ptr addrspace(1) %"e::Ptr") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %sp = getelementptr inbounds %Edge, ptr addrspace(1) %"e::Ptr", i64 %i, i32 0
  %src = load i64, ptr addrspace(1) %sp, align 8
  %wp = getelementptr inbounds %Edge, ptr addrspace(1) %"e::Ptr", i64 %i, i32 1
  %w = load float, ptr addrspace(1) %wp, align 8
  %xp = getelementptr inbounds float, ptr addrspace(1) %"x::Ptr", i64 %src
  %v = load float, ptr addrspace(1) %xp, align 4
  %r = fmul float %w, %v
  %yp = getelementptr inbounds float, ptr addrspace(1) %"y::Ptr", i64 %i
  store float %r, ptr addrspace(1) %yp, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
