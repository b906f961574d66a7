; A struct of the user's own ({ data, count }) that no known layout matches:
; its address has no size gpu-check could trust.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z4fill6MyView({ ptr, i32 } %state, { ptr addrspace(1), i32 } %"v::MyView") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = extractvalue { ptr addrspace(1), i32 } %"v::MyView", 1
  %in = icmp slt i32 %tid, %n
  br i1 %in, label %body, label %exit
body:
  %data = extractvalue { ptr addrspace(1), i32 } %"v::MyView", 0
  %i = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %data, i64 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
