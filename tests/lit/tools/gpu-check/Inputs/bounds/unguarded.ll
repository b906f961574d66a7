; `y[i] = -x[i]` with no bounds check: in bounds only where the launch runs
; exactly as many threads as the arrays have elements.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
define ptx_kernel void @_Z3neg13CuDeviceArrayI7Float32Li1ELi1EES_(%Array1 %0, %Array1 %1) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %x = extractvalue %Array1 %1, 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %xp, align 4
  %w = fneg float %v
  %y = extractvalue %Array1 %0, 0
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %w, ptr addrspace(1) %yp, align 4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
