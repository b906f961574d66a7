; C = A * B through 32x32 shared-memory tiles, as CUDA.jl's classic tiled
; matmul: the block (32x32, hard-coded) loads one tile of A and one of B per
; step, waits, accumulates 32 products from the tiles, waits again. Sizes
; are multiples of 32 (no guards). The tiles are overwritten every step, so
; what the reverse pass needs from them is not in global memory any more.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array2 = type { ptr addrspace(1), i64, [2 x i64], i64 }

@As = internal addrspace(3) global [1024 x float] undef, align 4
@Bs = internal addrspace(3) global [1024 x float] undef, align 4

define ptx_kernel void @_Z12tiled_matmul13CuDeviceArrayI7Float32Li2ELi1EES_S_({ ptr, i32 } %state, %Array2 %"C::CuDeviceArray", %Array2 %"A::CuDeviceArray", %Array2 %"B::CuDeviceArray") {
top:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %rowb = shl nuw nsw i32 %bx, 5
  %row32 = add nuw nsw i32 %rowb, %tx
  %row = zext i32 %row32 to i64
  %colb = shl nuw nsw i32 %by, 5
  %col32 = add nuw nsw i32 %colb, %ty
  %col = zext i32 %col32 to i64
  %tx64 = zext i32 %tx to i64
  %ty64 = zext i32 %ty to i64
  %rows = extractvalue %Array2 %"C::CuDeviceArray", 2, 0
  %n = extractvalue %Array2 %"A::CuDeviceArray", 2, 1
  %brows = extractvalue %Array2 %"B::CuDeviceArray", 2, 0
  %a = extractvalue %Array2 %"A::CuDeviceArray", 0
  %b = extractvalue %Array2 %"B::CuDeviceArray", 0
  %c = extractvalue %Array2 %"C::CuDeviceArray", 0
  %tiles = lshr i64 %n, 5
  %ts = mul nuw nsw i64 %ty64, 32
  %s = add nuw nsw i64 %ts, %tx64
  %asp = getelementptr inbounds [1024 x float], ptr addrspace(3) @As, i64 0, i64 %s
  %bsp = getelementptr inbounds [1024 x float], ptr addrspace(3) @Bs, i64 0, i64 %s
  %none = icmp eq i64 %tiles, 0
  br i1 %none, label %store, label %step

step:
  %t = phi i64 [ 0, %top ], [ %t1, %step.done ]
  %acc = phi float [ 0.0, %top ], [ %acc2, %step.done ]
  ; As[tx, ty] = A[row, t*32 + ty]; Bs[tx, ty] = B[t*32 + tx, col]
  %t32 = shl nuw nsw i64 %t, 5
  %ak = add nuw nsw i64 %t32, %ty64
  %aoff0 = mul i64 %ak, %rows
  %aoff = add i64 %aoff0, %row
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %aoff
  %av = load float, ptr addrspace(1) %ap, align 4
  store float %av, ptr addrspace(3) %asp, align 4
  %bk = add nuw nsw i64 %t32, %tx64
  %boff0 = mul i64 %col, %brows
  %boff = add i64 %boff0, %bk
  %bp = getelementptr inbounds float, ptr addrspace(1) %b, i64 %boff
  %bv = load float, ptr addrspace(1) %bp, align 4
  store float %bv, ptr addrspace(3) %bsp, align 4
  call void @llvm.nvvm.barrier0()
  br label %inner

inner:
  %k = phi i64 [ 0, %step ], [ %k1, %inner ]
  %acc1 = phi float [ %acc, %step ], [ %acc2, %inner ]
  ; As[tx, k] * Bs[k, ty]
  %k32 = mul nuw nsw i64 %k, 32
  %ai = add nuw nsw i64 %k32, %tx64
  %aip = getelementptr inbounds [1024 x float], ptr addrspace(3) @As, i64 0, i64 %ai
  %x = load float, ptr addrspace(3) %aip, align 4
  %bi = add nuw nsw i64 %ts, %k
  %bip = getelementptr inbounds [1024 x float], ptr addrspace(3) @Bs, i64 0, i64 %bi
  %y = load float, ptr addrspace(3) %bip, align 4
  %p = fmul float %x, %y
  %acc2 = fadd float %acc1, %p
  %k1 = add nuw nsw i64 %k, 1
  %kdone = icmp eq i64 %k1, 32
  br i1 %kdone, label %step.done, label %inner

step.done:
  call void @llvm.nvvm.barrier0()
  %t1 = add nuw nsw i64 %t, 1
  %tdone = icmp eq i64 %t1, %tiles
  br i1 %tdone, label %store, label %step

store:
  %sum = phi float [ 0.0, %top ], [ %acc2, %step.done ]
  %coff0 = mul i64 %col, %rows
  %coff = add i64 %coff0, %row
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %coff
  store float %sum, ptr addrspace(1) %cp, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier0()
