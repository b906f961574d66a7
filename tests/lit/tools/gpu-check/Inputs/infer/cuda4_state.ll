; CUDA.jl 4 (Julia 1.9-1.11): the kernel state is `[1 x i64] %state`, the
; exception flag's address, which the kernel's exception path stores
; through; arrays with their length (CUDA.jl 3.7 on). Written in the shape
; of `CUDA.@device_code_llvm` output for y[i] = 2x[i], with bounds checks.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }

define ptx_kernel void @_Z6double13CuDeviceArrayI7Float32Li1ELi1EES_([1 x i64] %state, %Array1 %0, %Array1 %1) {
conversion:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %len = extractvalue %Array1 %1, 3
  %in = icmp ult i64 %i, %len
  br i1 %in, label %body, label %oob
body:
  %x = extractvalue %Array1 %1, 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %xp, align 4
  %w = fmul float %v, 2.0
  %y = extractvalue %Array1 %0, 0
  %ylen = extractvalue %Array1 %0, 3
  %yin = icmp ult i64 %i, %ylen
  br i1 %yin, label %store, label %oob
store:
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %w, ptr addrspace(1) %yp, align 4
  ret void
oob:
  %flag = extractvalue [1 x i64] %state, 0
  %fp = inttoptr i64 %flag to ptr
  store volatile i32 1, ptr %fp, align 4
  call void @llvm.trap()
  unreachable
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.trap()
