; CUDA.jl 3's CuDeviceArray{Float64,2} { data, maxsize, dims } with typed
; pointers, indexed in two dimensions of threads:
;   out[i, j] = x[i, j] * x[i, j] + 2 x[i, j]
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array2 = type { double addrspace(1)*, i64, [2 x i64] }

define ptx_kernel void @_Z7square213CuDeviceArrayI7Float64Li2ELi1EES_(%Array2 %"out::CuDeviceArray", %Array2 %"x::CuDeviceArray") {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %i0 = mul i32 %bx, %nx
  %i1 = add i32 %i0, %tx
  %i = zext i32 %i1 to i64
  %j0 = mul i32 %by, %ny
  %j1 = add i32 %j0, %ty
  %j = zext i32 %j1 to i64
  %d0 = extractvalue %Array2 %"out::CuDeviceArray", 2, 0
  %d1 = extractvalue %Array2 %"out::CuDeviceArray", 2, 1
  %ini = icmp slt i64 %i, %d0
  %inj = icmp slt i64 %j, %d1
  %in = and i1 %ini, %inj
  br i1 %in, label %body, label %exit
body:
  %row = mul i64 %j, %d0
  %k = add i64 %row, %i
  %x.data = extractvalue %Array2 %"x::CuDeviceArray", 0
  %xp = getelementptr inbounds double, double addrspace(1)* %x.data, i64 %k
  %v = load double, double addrspace(1)* %xp, align 8
  %sq = fmul double %v, %v
  %tw = fmul double %v, 2.0
  %r = fadd double %sq, %tw
  %out.data = extractvalue %Array2 %"out::CuDeviceArray", 0
  %op = getelementptr inbounds double, double addrspace(1)* %out.data, i64 %k
  store double %r, double addrspace(1)* %op, align 8
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
