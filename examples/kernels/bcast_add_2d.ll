; `dest .= x .+ y` on 2-D CuArray{Float32}: GPUArrays' broadcast kernel after
; GPUCompiler's byval lowering, in the less optimised form where the
; Broadcasted is spilled to a stack slot and read back field by field.
;
;   %state  CUDA.jl KernelState        { ptr, i32 }
;   %dest   CuDeviceArray{Float32,2}   { ptr addrspace(1) data, i64 maxsize, [2 x i64] dims, i64 len }
;   %bc     Broadcasted{+}             { [2 x Extruded] args, [2 x [1 x i64]] axes }
;           Extruded                   { CuDeviceArray{Float32,2}, [2 x i8] keeps, [2 x i64] defaults }
;
; Thread i (0-based linear, ctaid * ntid + tid) owns the column-major element
; (r, c) = (i mod dims[0], i div dims[0]) of dest, with dims[0] read from
; bc's axes. Per argument a, r' = keeps[0] ? r : defaults[0] - 1 and
; c' = keeps[1] ? c : defaults[1] - 1 (so an n x 1 `y` broadcasts along
; columns), and dest[i] = x[r' + c' * x.dims[0]] + y[r' + c' * y.dims[0]].
; Launch bound: at most 1024 threads per block (!nvvm.annotations).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array2 = type { ptr addrspace(1), i64, [2 x i64], i64 }
%Extruded2 = type { %Array2, [2 x i8], [2 x i64] }
%Broadcasted2 = type { [2 x %Extruded2], [2 x [1 x i64]] }

define ptx_kernel void @_Z16broadcast_kernel_add_2d({ ptr, i32 } %state, %Array2 %dest, %Broadcasted2 %bc) #0 {
entry:
  %bc.slot = alloca %Broadcasted2, align 8
  store %Broadcasted2 %bc, ptr %bc.slot, align 8
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid64 = zext i32 %tid to i64
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %blockstart = mul i64 %ctaid64, %ntid64
  %i = add i64 %blockstart, %tid64
  %len = extractvalue %Array2 %dest, 3
  %inbounds = icmp slt i64 %i, %len
  br i1 %inbounds, label %body, label %exit

body:
  %rows.addr = getelementptr inbounds %Broadcasted2, ptr %bc.slot, i64 0, i32 1, i64 0, i64 0
  %rows = load i64, ptr %rows.addr, align 8
  %r = urem i64 %i, %rows
  %c = udiv i64 %i, %rows
  %x.val = call fastcc float @extruded_getindex(ptr %bc.slot, i64 0, i64 %r, i64 %c)
  %y.val = call fastcc float @extruded_getindex(ptr %bc.slot, i64 1, i64 %r, i64 %c)
  %sum = fadd float %x.val, %y.val
  %dest.data = extractvalue %Array2 %dest, 0
  %dest.addr = getelementptr inbounds float, ptr addrspace(1) %dest.data, i64 %i
  store float %sum, ptr addrspace(1) %dest.addr, align 4
  br label %exit

exit:
  ret void
}

; Base.Broadcast._broadcast_getindex for argument %k of the spilled Broadcasted.
define internal fastcc float @extruded_getindex(ptr %bc, i64 %k, i64 %r, i64 %c) #1 {
entry:
  %keep.r.addr = getelementptr inbounds %Broadcasted2, ptr %bc, i64 0, i32 0, i64 %k, i32 1, i64 0
  %keep.r = load i8, ptr %keep.r.addr, align 1
  %keep.c.addr = getelementptr inbounds %Broadcasted2, ptr %bc, i64 0, i32 0, i64 %k, i32 1, i64 1
  %keep.c = load i8, ptr %keep.c.addr, align 1
  %def.r.addr = getelementptr inbounds %Broadcasted2, ptr %bc, i64 0, i32 0, i64 %k, i32 2, i64 0
  %def.r = load i64, ptr %def.r.addr, align 8
  %def.c.addr = getelementptr inbounds %Broadcasted2, ptr %bc, i64 0, i32 0, i64 %k, i32 2, i64 1
  %def.c = load i64, ptr %def.c.addr, align 8
  %keep.r1 = and i8 %keep.r, 1
  %kept.r = icmp ne i8 %keep.r1, 0
  %def.r0 = add i64 %def.r, -1
  %rr = select i1 %kept.r, i64 %r, i64 %def.r0
  %keep.c1 = and i8 %keep.c, 1
  %kept.c = icmp ne i8 %keep.c1, 0
  %def.c0 = add i64 %def.c, -1
  %cc = select i1 %kept.c, i64 %c, i64 %def.c0
  %dim0.addr = getelementptr inbounds %Broadcasted2, ptr %bc, i64 0, i32 0, i64 %k, i32 0, i32 2, i64 0
  %dim0 = load i64, ptr %dim0.addr, align 8
  %colstart = mul i64 %cc, %dim0
  %lin = add i64 %colstart, %rr
  %data.addr = getelementptr inbounds %Broadcasted2, ptr %bc, i64 0, i32 0, i64 %k, i32 0, i32 0
  %data = load ptr addrspace(1), ptr %data.addr, align 8
  %elt.addr = getelementptr inbounds float, ptr addrspace(1) %data, i64 %lin
  %elt = load float, ptr addrspace(1) %elt.addr, align 4
  ret float %elt
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { nounwind }
attributes #1 = { alwaysinline nounwind }

!nvvm.annotations = !{!0}
!0 = !{ptr @_Z16broadcast_kernel_add_2d, !"maxntidx", i32 1024}
