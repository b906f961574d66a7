; saxpy!(y, a, x, n) with CuDeviceArrays and an explicit `i <= n` guard
; (Julia's 1-based i): n bounds the kernel, not the arrays' lengths.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }

define ptx_kernel void @_Z6saxpy_13CuDeviceArrayI7Float32Li1ELi1EE7Float32S_5Int64(%Array1 %"y::CuDeviceArray", float %"a::Float32", %Array1 %"x::CuDeviceArray", i64 %"n::Int64") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i0 = add i32 %b, %tid
  %i0w = zext i32 %i0 to i64
  %i = add nuw nsw i64 %i0w, 1
  %in = icmp sle i64 %i, %"n::Int64"
  br i1 %in, label %body, label %exit
body:
  %k = add nsw i64 %i, -1
  %x = extractvalue %Array1 %"x::CuDeviceArray", 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %k
  %xv = load float, ptr addrspace(1) %xp, align 4
  %y = extractvalue %Array1 %"y::CuDeviceArray", 0
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %k
  %yv = load float, ptr addrspace(1) %yp, align 4
  %ax = fmul float %"a::Float32", %xv
  %r = fadd float %ax, %yv
  store float %r, ptr addrspace(1) %yp, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
