; SharedTileForwarding: a read of a shared-memory tile becomes a read of the
; element the tile copied, where the function never writes the copied memory
; (here: noalias arrays, only C written), one barrier separates the tile's
; one store of the phase from the read, and no tile store follows the read
; before the next barrier. The storing thread is decoded from the read's
; offset (remainder and quotient by the store's strides) and the copied
; element's address computed again with it.
; RUN: opt -load-pass-plugin=%plugin -passes='function(ir-sanitize-forward-shared-tiles)' \
; RUN:   -pass-remarks=ir-sanitize-forward-shared-tiles \
; RUN:   -pass-remarks-missed=ir-sanitize-forward-shared-tiles -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: opt -passes=verify -disable-output %t.ll
; A second run finds no tile left to forward.
; RUN: opt -load-pass-plugin=%plugin -passes='function(ir-sanitize-forward-shared-tiles)' -S %t.ll -o %t.twice.ll
; RUN: sed 1d %t.ll > %t.once.ll
; RUN: sed 1d %t.twice.ll | diff %t.once.ll -
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@As = internal addrspace(3) global [1024 x float] undef, align 4
@Bs = internal addrspace(3) global [1056 x float] undef, align 4
@Ts = internal addrspace(3) global [64 x float] undef, align 4

; The tiled matmul's step: As[tx + 32 ty] = A[row + (t32 + ty) n], read at
; As[tx + 32 k]; Bs padded to 33 per row (against bank conflicts):
; Bs[tx + 33 ty] = B[(t32 + tx) + col n], read at Bs[k + 33 ty]. A kernel: the
; tiles' stores go with the last read.
; CHECK-LABEL: define ptx_kernel void @matmul_step(
; CHECK:       inner:
; CHECK:         %[[A_TX:.*]] = urem i64 %{{.*}}, 32
; CHECK-NEXT:    %tile.tid = trunc i64 %[[A_TX]] to i32
; CHECK-NEXT:    %[[A_TY:.*]] = udiv i64 %{{.*}}, 128
; CHECK-NEXT:    %tile.tid1 = trunc i64 %[[A_TY]] to i32
; CHECK:         %ak.tile = add nuw nsw i64 %t32, %ty64.tile
; CHECK:         %row32.tile = add nuw nsw i32 %rowb, %tile.tid
; CHECK:         %x = load float, ptr addrspace(1) %ap.tile, align 4
; CHECK:         urem i64 %{{.*}}, 33
; CHECK:         udiv i64 %{{.*}}, 132
; CHECK:         %y = load float, ptr addrspace(1) %bp.tile, align 4
; CHECK-NOT:     addrspace(3)
; CHECK:         ret void
; REMARK-COUNT-2: remark: {{.*}} a shared-memory read reads the element its tile copied
define ptx_kernel void @matmul_step(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %b, ptr addrspace(1) noalias %c, i64 %n, i64 %tiles) {
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
  %ts = mul nuw nsw i64 %ty64, 32
  %s = add nuw nsw i64 %ts, %tx64
  %asp = getelementptr inbounds [1024 x float], ptr addrspace(3) @As, i64 0, i64 %s
  %tp = mul nuw nsw i64 %ty64, 33
  %sp = add nuw nsw i64 %tp, %tx64
  %bsp = getelementptr inbounds [1056 x float], ptr addrspace(3) @Bs, i64 0, i64 %sp
  br label %step

step:
  %t = phi i64 [ 0, %top ], [ %t1, %step.done ]
  %acc = phi float [ 0.0, %top ], [ %acc2, %step.done ]
  %t32 = shl nuw nsw i64 %t, 5
  %ak = add nuw nsw i64 %t32, %ty64
  %aoff0 = mul i64 %ak, %n
  %aoff = add i64 %aoff0, %row
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %aoff
  %av = load float, ptr addrspace(1) %ap, align 4
  store float %av, ptr addrspace(3) %asp, align 4
  %bk = add nuw nsw i64 %t32, %tx64
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
  %k32 = mul nuw nsw i64 %k, 32
  %ai = add nuw nsw i64 %k32, %tx64
  %aip = getelementptr inbounds [1024 x float], ptr addrspace(3) @As, i64 0, i64 %ai
  %x = load float, ptr addrspace(3) %aip, align 4
  %bi = add nuw nsw i64 %tp, %k
  %bip = getelementptr inbounds [1056 x float], ptr addrspace(3) @Bs, i64 0, i64 %bi
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
  %coff0 = mul i64 %col, %n
  %coff = add i64 %coff0, %row
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %coff
  store float %acc2, ptr addrspace(1) %cp, align 4
  ret void
}

; Without noalias, the store to %c may overwrite what the tile copies.
; CHECK-LABEL: define ptx_kernel void @may_alias(
; CHECK:         store float %v, ptr addrspace(3) %tsp
; CHECK:         load float, ptr addrspace(3)
; REMARK: remark: {{.*}} a shared-memory read stays: the memory the tile copies may be written in the function
define ptx_kernel void @may_alias(ptr addrspace(1) %a, ptr addrspace(1) %c) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %ap, align 4
  %tsp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %i
  store float %v, ptr addrspace(3) %tsp, align 4
  call void @llvm.nvvm.barrier0()
  %j = xor i64 %i, 1
  %rp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %j
  %r = load float, ptr addrspace(3) %rp, align 4
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store float %r, ptr addrspace(1) %cp, align 4
  ret void
}

; A neighbour's element read without a barrier in between; and, in the
; second function, a tile store after the read before any barrier (the next
; step would overwrite what another thread still reads).
; CHECK-LABEL: define ptx_kernel void @no_barrier(
; CHECK:         load float, ptr addrspace(3)
; CHECK-LABEL: define ptx_kernel void @overwritten_after(
; CHECK:         load float, ptr addrspace(3)
; REMARK-COUNT-2: remark: {{.*}} a shared-memory read stays: the read does not come from one barrier after one tile store of the same phase, or a tile store may follow it before the next barrier
define ptx_kernel void @no_barrier(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %c) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %ap, align 4
  %tsp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %i
  store float %v, ptr addrspace(3) %tsp, align 4
  %j = xor i64 %i, 1
  %rp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %j
  %r = load float, ptr addrspace(3) %rp, align 4
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store float %r, ptr addrspace(1) %cp, align 4
  ret void
}

define ptx_kernel void @overwritten_after(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %c) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %ap, align 4
  %tsp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %i
  store float %v, ptr addrspace(3) %tsp, align 4
  call void @llvm.nvvm.barrier0()
  %j = xor i64 %i, 1
  %rp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %j
  %r = load float, ptr addrspace(3) %rp, align 4
  store float %v, ptr addrspace(3) %tsp, align 4
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store float %r, ptr addrspace(1) %cp, align 4
  ret void
}

; A helper (not a kernel, not only differentiated): the read is forwarded
; (a neighbour's element, through xor: decoded from the offset), but the
; tile's store stays, since its caller may read the tile after it returns.
; CHECK-LABEL: define void @helper(
; CHECK:         store float %v, ptr addrspace(3) %tsp
; CHECK:         %j = xor i64 %i, 1
; CHECK:         %tile.tid = trunc i64 %{{.*}} to i32
; CHECK-NEXT:    %i.tile = zext i32 %tile.tid to i64
; CHECK-NEXT:    %ap.tile = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i.tile
; CHECK-NEXT:    %r = load float, ptr addrspace(1) %ap.tile, align 4
; REMARK: remark: {{.*}} a shared-memory read reads the element its tile copied
define void @helper(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %c) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %ap, align 4
  %tsp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %i
  store float %v, ptr addrspace(3) %tsp, align 4
  call void @llvm.nvvm.barrier0()
  %j = xor i64 %i, 1
  %rp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %j
  %r = load float, ptr addrspace(3) %rp, align 4
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store float %r, ptr addrspace(1) %cp, align 4
  ret void
}

; Two stores of the tile in one phase (halves): which one a read sees
; is not decoded, so neither read moves.
; CHECK-LABEL: define ptx_kernel void @two_stores(
; CHECK:         load float, ptr addrspace(3)
; REMARK: remark: {{.*}} a shared-memory read stays: the read does not come from one barrier after one tile store
define ptx_kernel void @two_stores(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %c) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %ap, align 4
  %tsp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %i
  store float %v, ptr addrspace(3) %tsp, align 4
  %i2 = add nuw nsw i64 %i, 32
  %ap2 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i2
  %v2 = load float, ptr addrspace(1) %ap2, align 4
  %tsp2 = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %i2
  store float %v2, ptr addrspace(3) %tsp2, align 4
  call void @llvm.nvvm.barrier0()
  %j = xor i64 %i, 1
  %rp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %j
  %r = load float, ptr addrspace(3) %rp, align 4
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store float %r, ptr addrspace(1) %cp, align 4
  ret void
}

; The second read of Ts is indexed through a read of Ks that the index
; cancels (i + k - k): forwarding it leaves the read of Ks unused, and Ks's
; reads are forwarded after Ts's. The dead index is deleted only at the end,
; so the read of Ks is still there to forward (deleting it at once freed an
; instruction the pass was about to rewrite).
; CHECK-LABEL: define ptx_kernel void @dead_index(
; CHECK-NOT:     addrspace(3)
; CHECK:         ret void
; REMARK-COUNT-3: remark: {{.*}} a shared-memory read reads the element its tile copied
@Ks = internal addrspace(3) global [64 x i32] undef, align 4
define ptx_kernel void @dead_index(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %b, ptr addrspace(1) noalias %c) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %ap, align 4
  %tsp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %i
  store float %v, ptr addrspace(3) %tsp, align 4
  %bp = getelementptr inbounds i32, ptr addrspace(1) %b, i64 %i
  %w = load i32, ptr addrspace(1) %bp, align 4
  %ksp = getelementptr inbounds [64 x i32], ptr addrspace(3) @Ks, i64 0, i64 %i
  store i32 %w, ptr addrspace(3) %ksp, align 4
  call void @llvm.nvvm.barrier0()
  %j = xor i64 %i, 1
  %r0p = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %j
  %r0 = load float, ptr addrspace(3) %r0p, align 4
  %kp = getelementptr inbounds [64 x i32], ptr addrspace(3) @Ks, i64 0, i64 %j
  %k32 = load i32, ptr addrspace(3) %kp, align 4
  %k = sext i32 %k32 to i64
  %up = add i64 %i, %k
  %back = sub i64 %up, %k
  %rp = getelementptr inbounds [64 x float], ptr addrspace(3) @Ts, i64 0, i64 %back
  %r = load float, ptr addrspace(3) %rp, align 4
  %s = fadd float %r0, %r
  %cp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store float %s, ptr addrspace(1) %cp, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier0()
