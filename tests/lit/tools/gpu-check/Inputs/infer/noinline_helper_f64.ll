; Arrays handed whole to a noinline helper that moves Float64: the helper's
; loads and stores type them (the kernel's own body never touches them, and
; its name says nothing).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }

define void @julia_scale(%Array1 %y, %Array1 %x, i64 %i) noinline {
entry:
  %len = extractvalue %Array1 %x, 3
  %in = icmp ult i64 %i, %len
  br i1 %in, label %body, label %exit
body:
  %xd = extractvalue %Array1 %x, 0
  %xp = getelementptr inbounds double, ptr addrspace(1) %xd, i64 %i
  %v = load double, ptr addrspace(1) %xp, align 8
  %w = fmul double %v, 3.0
  %yd = extractvalue %Array1 %y, 0
  %yp = getelementptr inbounds double, ptr addrspace(1) %yd, i64 %i
  store double %w, ptr addrspace(1) %yp, align 8
  br label %exit
exit:
  ret void
}

define ptx_kernel void @kernel_scale(%Array1 %0, %Array1 %1) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  call void @julia_scale(%Array1 %0, %Array1 %1, i64 %i)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
