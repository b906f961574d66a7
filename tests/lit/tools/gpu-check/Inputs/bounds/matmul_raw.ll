; C[i*n + j] = sum_k A[i*n + k] * B[k*n + j] over raw pointers, 2-D
; indexing, guarded by i < n and j < n: its buffers need n*n elements.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z6matmul3PtrI7Float32ES_S_5Int64(ptr addrspace(1) %"C::Ptr", ptr addrspace(1) %"A::Ptr", ptr addrspace(1) %"B::Ptr", i64 %"n::Int64") {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %j0 = mul i32 %bx, %nx
  %j1 = add i32 %j0, %tx
  %j = zext i32 %j1 to i64
  %i0 = mul i32 %by, %ny
  %i1 = add i32 %i0, %ty
  %i = zext i32 %i1 to i64
  %n = add i64 %"n::Int64", 0
  %ci = icmp slt i64 %i, %n
  %cj = icmp slt i64 %j, %n
  %c = and i1 %ci, %cj
  br i1 %c, label %pre, label %exit
pre:
  %row = mul nsw i64 %i, %n
  br label %loop
loop:
  %k = phi i64 [ 0, %pre ], [ %k1, %loop ]
  %s = phi float [ 0.0, %pre ], [ %s1, %loop ]
  %ai = add nsw i64 %row, %k
  %ap = getelementptr inbounds float, ptr addrspace(1) %"A::Ptr", i64 %ai
  %a = load float, ptr addrspace(1) %ap, align 4
  %kn = mul nsw i64 %k, %n
  %bi = add nsw i64 %kn, %j
  %bp = getelementptr inbounds float, ptr addrspace(1) %"B::Ptr", i64 %bi
  %b = load float, ptr addrspace(1) %bp, align 4
  %p = fmul float %a, %b
  %s1 = fadd float %s, %p
  %k1 = add nuw nsw i64 %k, 1
  %more = icmp slt i64 %k1, %n
  br i1 %more, label %loop, label %done
done:
  %ci2 = add nsw i64 %row, %j
  %cp = getelementptr inbounds float, ptr addrspace(1) %"C::Ptr", i64 %ci2
  store float %s1, ptr addrspace(1) %cp, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
