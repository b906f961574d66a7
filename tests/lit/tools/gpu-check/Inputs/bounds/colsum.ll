; y[i] = sum of x[i + k*n] for k < m, i < n: column sums of an n x m
; matrix, whose loop m bounds (an integer that no thread index is compared
; with).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z6colsum3PtrI7Float32ES0_5Int64S1_(ptr addrspace(1) %"y::Ptr", ptr addrspace(1) %"x::Ptr", i64 %"n::Int64", i64 %"m::Int64") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %in = icmp slt i64 %i, %"n::Int64"
  br i1 %in, label %pre, label %exit
pre:
  %any = icmp sgt i64 %"m::Int64", 0
  br i1 %any, label %loop, label %done
loop:
  %k = phi i64 [ 0, %pre ], [ %k1, %loop ]
  %acc = phi float [ 0.0, %pre ], [ %acc1, %loop ]
  %row = mul nsw i64 %k, %"n::Int64"
  %idx = add nsw i64 %row, %i
  %xp = getelementptr inbounds float, ptr addrspace(1) %"x::Ptr", i64 %idx
  %v = load float, ptr addrspace(1) %xp, align 4
  %acc1 = fadd float %acc, %v
  %k1 = add nuw nsw i64 %k, 1
  %more = icmp slt i64 %k1, %"m::Int64"
  br i1 %more, label %loop, label %done
done:
  %r = phi float [ 0.0, %pre ], [ %acc1, %loop ]
  %yp = getelementptr inbounds float, ptr addrspace(1) %"y::Ptr", i64 %i
  store float %r, ptr addrspace(1) %yp, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
