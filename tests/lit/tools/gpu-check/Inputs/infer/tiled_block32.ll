; A tiled kernel that hard-codes its 32x32 block, as shared-memory kernels
; do (`i = (blockIdx().x - 1) * 32 + threadIdx().x`, no blockDim): the
; launch keeps 32x32 blocks, whose indices its arrays were sized for;
; 16x16 blocks on a grid for 16x16 would index twice past the end.
; out[i, j] = x[i, j] staged through shared memory.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array2 = type { ptr addrspace(1), i64, [2 x i64], i64 }

@tile = internal addrspace(3) global [1024 x float] undef, align 4

define ptx_kernel void @_Z4tile13CuDeviceArrayI7Float32Li2ELi1EES_({ ptr, i32 } %state, %Array2 %"out::CuDeviceArray", %Array2 %"x::CuDeviceArray") {
top:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx1 = add nuw nsw i32 %bx, 1
  %bx64 = zext i32 %bx1 to i64
  %ox = shl nuw nsw i64 %bx64, 5
  %tx64 = zext i32 %tx to i64
  %i0 = add nsw i64 %ox, -32
  %i = add nsw i64 %i0, %tx64
  %oy = mul nuw nsw i32 %by, 32
  %j32 = add nuw nsw i32 %oy, %ty
  %j = zext i32 %j32 to i64
  %rows = extractvalue %Array2 %"x::CuDeviceArray", 2, 0
  %lin0 = mul i64 %j, %rows
  %lin = add i64 %lin0, %i
  %x = extractvalue %Array2 %"x::CuDeviceArray", 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %lin
  %v = load float, ptr addrspace(1) %xp, align 4
  %t = mul nuw nsw i32 %ty, 32
  %s32 = add nuw nsw i32 %t, %tx
  %s = zext i32 %s32 to i64
  %sp = getelementptr inbounds [1024 x float], ptr addrspace(3) @tile, i64 0, i64 %s
  store float %v, ptr addrspace(3) %sp, align 4
  call void @llvm.nvvm.barrier0()
  %w = load float, ptr addrspace(3) %sp, align 4
  %o = extractvalue %Array2 %"out::CuDeviceArray", 0
  %op = getelementptr inbounds float, ptr addrspace(1) %o, i64 %lin
  store float %w, ptr addrspace(1) %op, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier0()
