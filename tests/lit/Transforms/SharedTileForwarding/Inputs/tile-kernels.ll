; Kernels for block-emulation.test: a tiled matmul with 4x4 tiles (B's
; padded to 5 per row), twice: without noalias (the pass leaves it as it is,
; its C store may overwrite A and B) and with (the pass forwards its tile
; reads and erases the tiles' stores).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@As_original = internal addrspace(3) global [16 x float] undef, align 4
@Bs_original = internal addrspace(3) global [20 x float] undef, align 4
@As_forwarded = internal addrspace(3) global [16 x float] undef, align 4
@Bs_forwarded = internal addrspace(3) global [20 x float] undef, align 4

define ptx_kernel void @tiled_original(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i64 %n, i64 %tiles) {
top:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %rowb = shl nuw nsw i32 %bx, 2
  %row32 = add nuw nsw i32 %rowb, %tx
  %row = zext i32 %row32 to i64
  %colb = shl nuw nsw i32 %by, 2
  %col32 = add nuw nsw i32 %colb, %ty
  %col = zext i32 %col32 to i64
  %tx64 = zext i32 %tx to i64
  %ty64 = zext i32 %ty to i64
  %ts = shl nuw nsw i64 %ty64, 2
  %s = add nuw nsw i64 %ts, %tx64
  %asp = getelementptr inbounds [16 x float], ptr addrspace(3) @As_original, i64 0, i64 %s
  %tp = mul nuw nsw i64 %ty64, 5
  %sp = add nuw nsw i64 %tp, %tx64
  %bsp = getelementptr inbounds [20 x float], ptr addrspace(3) @Bs_original, i64 0, i64 %sp
  br label %step

step:
  %t = phi i64 [ 0, %top ], [ %t1, %step.done ]
  %acc = phi float [ 0.0, %top ], [ %acc2, %step.done ]
  %t4 = shl nuw nsw i64 %t, 2
  %ak = add nuw nsw i64 %t4, %ty64
  %aoff0 = mul i64 %ak, %n
  %aoff = add i64 %aoff0, %row
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %aoff
  %av = load float, ptr addrspace(1) %ap, align 4
  store float %av, ptr addrspace(3) %asp, align 4
  %bk = add nuw nsw i64 %t4, %tx64
  %boff0 = mul i64 %col, %n
  %boff = add i64 %boff0, %bk
  %bp = getelementptr inbounds float, ptr addrspace(1) %b, i64 %boff
  %bv = load float, ptr addrspace(1) %bp, align 4
  store float %bv, ptr addrspace(3) %bsp, align 4
  call void @llvm.nvvm.barrier0()
  br label %inner

inner:
  %k = phi i64 [ 0, %step ], [ %k1, %inner ]
  %acc1 = phi float [ %acc, %step ], [ %acc2, %inner ]
  %k4 = shl nuw nsw i64 %k, 2
  %ai = add nuw nsw i64 %k4, %tx64
  %aip = getelementptr inbounds [16 x float], ptr addrspace(3) @As_original, i64 0, i64 %ai
  %x = load float, ptr addrspace(3) %aip, align 4
  %bi = add nuw nsw i64 %tp, %k
  %bip = getelementptr inbounds [20 x float], ptr addrspace(3) @Bs_original, i64 0, i64 %bi
  %y = load float, ptr addrspace(3) %bip, align 4
  %p = fmul float %x, %y
  %acc2 = fadd float %acc1, %p
  %k1 = add nuw nsw i64 %k, 1
  %kdone = icmp eq i64 %k1, 4
  br i1 %kdone, label %step.done, label %inner

step.done:
  call void @llvm.nvvm.barrier0()
  %t1 = add nuw nsw i64 %t, 1
  %tdone = icmp eq i64 %t1, %tiles
  br i1 %tdone, label %store, label %step

store:
  %coff0 = mul i64 %col, %n
  %coff = add i64 %coff0, %row
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %coff
  store float %acc2, ptr addrspace(1) %cp, align 4
  ret void
}

define ptx_kernel void @tiled_forwarded(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %b, ptr addrspace(1) noalias %c, i64 %n, i64 %tiles) {
top:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %rowb = shl nuw nsw i32 %bx, 2
  %row32 = add nuw nsw i32 %rowb, %tx
  %row = zext i32 %row32 to i64
  %colb = shl nuw nsw i32 %by, 2
  %col32 = add nuw nsw i32 %colb, %ty
  %col = zext i32 %col32 to i64
  %tx64 = zext i32 %tx to i64
  %ty64 = zext i32 %ty to i64
  %ts = shl nuw nsw i64 %ty64, 2
  %s = add nuw nsw i64 %ts, %tx64
  %asp = getelementptr inbounds [16 x float], ptr addrspace(3) @As_forwarded, i64 0, i64 %s
  %tp = mul nuw nsw i64 %ty64, 5
  %sp = add nuw nsw i64 %tp, %tx64
  %bsp = getelementptr inbounds [20 x float], ptr addrspace(3) @Bs_forwarded, i64 0, i64 %sp
  br label %step

step:
  %t = phi i64 [ 0, %top ], [ %t1, %step.done ]
  %acc = phi float [ 0.0, %top ], [ %acc2, %step.done ]
  %t4 = shl nuw nsw i64 %t, 2
  %ak = add nuw nsw i64 %t4, %ty64
  %aoff0 = mul i64 %ak, %n
  %aoff = add i64 %aoff0, %row
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %aoff
  %av = load float, ptr addrspace(1) %ap, align 4
  store float %av, ptr addrspace(3) %asp, align 4
  %bk = add nuw nsw i64 %t4, %tx64
  %boff0 = mul i64 %col, %n
  %boff = add i64 %boff0, %bk
  %bp = getelementptr inbounds float, ptr addrspace(1) %b, i64 %boff
  %bv = load float, ptr addrspace(1) %bp, align 4
  store float %bv, ptr addrspace(3) %bsp, align 4
  call void @llvm.nvvm.barrier0()
  br label %inner

inner:
  %k = phi i64 [ 0, %step ], [ %k1, %inner ]
  %acc1 = phi float [ %acc, %step ], [ %acc2, %inner ]
  %k4 = shl nuw nsw i64 %k, 2
  %ai = add nuw nsw i64 %k4, %tx64
  %aip = getelementptr inbounds [16 x float], ptr addrspace(3) @As_forwarded, i64 0, i64 %ai
  %x = load float, ptr addrspace(3) %aip, align 4
  %bi = add nuw nsw i64 %tp, %k
  %bip = getelementptr inbounds [20 x float], ptr addrspace(3) @Bs_forwarded, i64 0, i64 %bi
  %y = load float, ptr addrspace(3) %bip, align 4
  %p = fmul float %x, %y
  %acc2 = fadd float %acc1, %p
  %k1 = add nuw nsw i64 %k, 1
  %kdone = icmp eq i64 %k1, 4
  br i1 %kdone, label %step.done, label %inner

step.done:
  call void @llvm.nvvm.barrier0()
  %t1 = add nuw nsw i64 %t, 1
  %tdone = icmp eq i64 %t1, %tiles
  br i1 %tdone, label %store, label %step

store:
  %coff0 = mul i64 %col, %n
  %coff = add i64 %coff0, %row
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %coff
  store float %acc2, ptr addrspace(1) %cp, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier0()
