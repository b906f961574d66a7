; Arrays passed `ptr byval(%Array1)`, as GPUCompiler passes aggregates
; before lower_byval: the kernel loads the data pointer and the length out
; of the parameter's memory. y[i] = 2x[i] on Float64, guarded by x's length.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }

define ptx_kernel void @_Z6double13CuDeviceArrayI7Float64Li1ELi1EES_(ptr byval(%Array1) %0, ptr byval(%Array1) %1) {
conversion:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %lenp = getelementptr inbounds i8, ptr %1, i64 24
  %len = load i64, ptr %lenp, align 8
  %in = icmp ult i64 %i, %len
  br i1 %in, label %body, label %done
body:
  %x = load ptr addrspace(1), ptr %1, align 8
  %xp = getelementptr inbounds double, ptr addrspace(1) %x, i64 %i
  %v = load double, ptr addrspace(1) %xp, align 8
  %w = fmul double %v, 2.0
  %y = load ptr addrspace(1), ptr %0, align 8
  %yp = getelementptr inbounds double, ptr addrspace(1) %y, i64 %i
  store double %w, ptr addrspace(1) %yp, align 8
  ret void
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
