; C = A * B, Float64, one thread per element of C, a 1024-term sum each
; (matmul_f32.ll in Float64: the bench measures both).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array2 = type { ptr addrspace(1), i64, [2 x i64], i64 }

define ptx_kernel void @_Z6matmul13CuDeviceArrayI7Float64Li2ELi1EES_S_({ ptr, i32 } %state, %Array2 %"C::CuDeviceArray", %Array2 %"A::CuDeviceArray", %Array2 %"B::CuDeviceArray") {
top:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ox = mul i32 %bx, %nx
  %i32 = add i32 %ox, %tx
  %i = zext i32 %i32 to i64
  %oy = mul i32 %by, %ny
  %j32 = add i32 %oy, %ty
  %j = zext i32 %j32 to i64
  %rows = extractvalue %Array2 %"C::CuDeviceArray", 2, 0
  %cols = extractvalue %Array2 %"C::CuDeviceArray", 2, 1
  %n = extractvalue %Array2 %"A::CuDeviceArray", 2, 1
  %brows = extractvalue %Array2 %"B::CuDeviceArray", 2, 0
  %inr = icmp ult i64 %i, %rows
  %inc = icmp ult i64 %j, %cols
  %in = and i1 %inr, %inc
  br i1 %in, label %loop.pre, label %exit

loop.pre:
  %a = extractvalue %Array2 %"A::CuDeviceArray", 0
  %b = extractvalue %Array2 %"B::CuDeviceArray", 0
  %c = extractvalue %Array2 %"C::CuDeviceArray", 0
  %nz = icmp eq i64 %n, 0
  br i1 %nz, label %store, label %loop

loop:
  %k = phi i64 [ 0, %loop.pre ], [ %k1, %loop ]
  %acc = phi double [ 0.0, %loop.pre ], [ %acc1, %loop ]
  %ka = mul i64 %k, %rows
  %ia = add i64 %ka, %i
  %pa = getelementptr inbounds double, ptr addrspace(1) %a, i64 %ia
  %va = load double, ptr addrspace(1) %pa, align 8
  %jb = mul i64 %j, %brows
  %ib = add i64 %jb, %k
  %pb = getelementptr inbounds double, ptr addrspace(1) %b, i64 %ib
  %vb = load double, ptr addrspace(1) %pb, align 8
  %p = fmul double %va, %vb
  %acc1 = fadd double %acc, %p
  %k1 = add nuw i64 %k, 1
  %done = icmp eq i64 %k1, %n
  br i1 %done, label %store, label %loop

store:
  %sum = phi double [ 0.0, %loop.pre ], [ %acc1, %loop ]
  %jc = mul i64 %j, %rows
  %ic = add i64 %jc, %i
  %pc = getelementptr inbounds double, ptr addrspace(1) %c, i64 %ic
  store double %sum, ptr addrspace(1) %pc, align 8
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
