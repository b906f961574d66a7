; out[i] = x[idx[i]] with the index staged through shared memory (as a
; block loads its indices once, then synchronises): tile[t] = idx[i];
; sync_threads(); out[i] = x[tile[t]].
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x i64] undef, align 8

define ptx_kernel void @_Z13shared_gather3PtrI7Float32ES_3PtrI5Int64E(ptr addrspace(1) %"out::Ptr", ptr addrspace(1) %"x::Ptr", ptr addrspace(1) %"idx::Ptr") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = mul i32 %ctaid, 256
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %t = zext i32 %tid to i64
  %ip = getelementptr inbounds i64, ptr addrspace(1) %"idx::Ptr", i64 %i
  %j = load i64, ptr addrspace(1) %ip, align 8
  %sp = getelementptr inbounds [256 x i64], ptr addrspace(3) @tile, i64 0, i64 %t
  store i64 %j, ptr addrspace(3) %sp, align 8
  call void @llvm.nvvm.barrier0()
  %k = load i64, ptr addrspace(3) %sp, align 8
  %xp = getelementptr inbounds float, ptr addrspace(1) %"x::Ptr", i64 %k
  %v = load float, ptr addrspace(1) %xp, align 4
  %op = getelementptr inbounds float, ptr addrspace(1) %"out::Ptr", i64 %i
  store float %v, ptr addrspace(1) %op, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
