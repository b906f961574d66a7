; out[i] = t[i] (a 4-D CuDeviceArray read linearly) for i < m and i < n:
; two integers bound the thread index, and the array has rank 4.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array4 = type { ptr addrspace(1), i64, [4 x i64], i64 }

define ptx_kernel void @_Z4copy3PtrI7Float32E13CuDeviceArrayIS0_Li4ELi1EE5Int64S3_(ptr addrspace(1) %"out::Ptr", %Array4 %"t::CuDeviceArray", i64 %"m::Int64", i64 %"n::Int64") {
top:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = shl i32 %ctaid, 8
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %inm = icmp slt i64 %i, %"m::Int64"
  %inn = icmp slt i64 %i, %"n::Int64"
  %in = and i1 %inm, %inn
  br i1 %in, label %body, label %exit
body:
  %t = extractvalue %Array4 %"t::CuDeviceArray", 0
  %tp = getelementptr inbounds float, ptr addrspace(1) %t, i64 %i
  %v = load float, ptr addrspace(1) %tp, align 4
  %op = getelementptr inbounds float, ptr addrspace(1) %"out::Ptr", i64 %i
  store float %v, ptr addrspace(1) %op, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
