; `out[i] = x[idx[i]]` in Julia (CUDA.jl 5 arrays): idx holds 1-based Int64
; indices, which LLVM takes 1 off as a step back of one element after the
; GEP (its canonical form since 19); random values would read x out of
; bounds, and so would 0-based ones.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }

define ptx_kernel void @_Z6gather13CuDeviceArrayI7Float32Li1ELi1EE13CuDeviceArrayI5Int64Li1ELi1EES_({ ptr, i32 } %state, %Array1 %"out::CuDeviceArray", %Array1 %"idx::CuDeviceArray", %Array1 %"x::CuDeviceArray") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %len = extractvalue %Array1 %"out::CuDeviceArray", 3
  %in = icmp slt i64 %i, %len
  br i1 %in, label %body, label %exit
body:
  %idx.data = extractvalue %Array1 %"idx::CuDeviceArray", 0
  %ip = getelementptr inbounds i64, ptr addrspace(1) %idx.data, i64 %i
  %j = load i64, ptr addrspace(1) %ip, align 8
  %x.data = extractvalue %Array1 %"x::CuDeviceArray", 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %j
  %xq = getelementptr inbounds i8, ptr addrspace(1) %xp, i64 -4
  %v = load float, ptr addrspace(1) %xq, align 4
  %out.data = extractvalue %Array1 %"out::CuDeviceArray", 0
  %op = getelementptr inbounds float, ptr addrspace(1) %out.data, i64 %i
  store float %v, ptr addrspace(1) %op, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
