; CUDA.jl 5's CuDeviceArray{Float32,3} { data, maxsize, dims, len }
; indexed in three dimensions of threads and blocks:
;   out[i, j, k] = 2 x[i, j, k]
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array3 = type { ptr addrspace(1), i64, [3 x i64], i64 }

define ptx_kernel void @_Z7scale3d13CuDeviceArrayI7Float32Li3ELi1EES_(%Array3 %"out::CuDeviceArray", %Array3 %"x::CuDeviceArray") {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %nz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %i0 = mul i32 %bx, %nx
  %i1 = add i32 %i0, %tx
  %i = zext i32 %i1 to i64
  %j0 = mul i32 %by, %ny
  %j1 = add i32 %j0, %ty
  %j = zext i32 %j1 to i64
  %k0 = mul i32 %bz, %nz
  %k1 = add i32 %k0, %tz
  %k = zext i32 %k1 to i64
  %d0 = extractvalue %Array3 %"out::CuDeviceArray", 2, 0
  %d1 = extractvalue %Array3 %"out::CuDeviceArray", 2, 1
  %d2 = extractvalue %Array3 %"out::CuDeviceArray", 2, 2
  %ini = icmp slt i64 %i, %d0
  %inj = icmp slt i64 %j, %d1
  %ink = icmp slt i64 %k, %d2
  %inij = and i1 %ini, %inj
  %in = and i1 %inij, %ink
  br i1 %in, label %body, label %exit
body:
  %plane = mul i64 %k, %d1
  %rows = add i64 %plane, %j
  %row = mul i64 %rows, %d0
  %lin = add i64 %row, %i
  %x.data = extractvalue %Array3 %"x::CuDeviceArray", 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %lin
  %v = load float, ptr addrspace(1) %xp, align 4
  %r = fmul float %v, 2.0
  %out.data = extractvalue %Array3 %"out::CuDeviceArray", 0
  %op = getelementptr inbounds float, ptr addrspace(1) %out.data, i64 %lin
  store float %r, ptr addrspace(1) %op, align 4
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
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
