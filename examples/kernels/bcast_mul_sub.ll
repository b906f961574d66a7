; `r .= A .* x .- y` on 1-D CuArray{Float32}s: the first kernel of the loss
; sum(abs2, A .* x .- y) (the second is sum_abs2_f32.ll over r), as
; GPUArrays' broadcast kernel receives it: the inner `A .* x` stays a
; Broadcasted nested inside the outer one's args tuple.
;
;   %state  CUDA.jl KernelState        { ptr, i32 }
;   %r      CuDeviceArray{Float32,1}   { ptr addrspace(1) data, i64 maxsize, [1 x i64] dims, i64 len }
;   %bc     Broadcasted{-}             { { Inner, Extruded } args, [1 x [1 x i64]] axes }
;           Inner = Broadcasted{*}     { { Extruded, Extruded } args }   (axes `nothing`: a ghost)
;           Extruded                   { CuDeviceArray, [1 x i8] keeps, [1 x i64] defaults }
;
; Thread i (0-based, ctaid * ntid + tid): r[i] = A[jA] * x[jx] - y[jy], with
; j = keeps[0] ? i : defaults[0] - 1 for each Extruded.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
%Extruded1 = type { %Array1, [1 x i8], [1 x i64] }
%Inner = type { { %Extruded1, %Extruded1 } }
%Outer = type { { %Inner, %Extruded1 }, [1 x [1 x i64]] }

define ptx_kernel void @_Z16broadcast_kernel_mul_sub({ ptr, i32 } %state, %Array1 %r, %Outer %bc) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid64 = zext i32 %tid to i64
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %blockstart = mul i64 %ctaid64, %ntid64
  %i = add i64 %blockstart, %tid64
  %len = extractvalue %Array1 %r, 3
  %inbounds = icmp slt i64 %i, %len
  br i1 %inbounds, label %body, label %exit

body:
  %inner = extractvalue %Outer %bc, 0, 0
  %A = extractvalue %Inner %inner, 0, 0
  %A.val = call fastcc float @extruded_getindex(%Extruded1 %A, i64 %i)
  %x = extractvalue %Inner %inner, 0, 1
  %x.val = call fastcc float @extruded_getindex(%Extruded1 %x, i64 %i)
  %prod = fmul float %A.val, %x.val
  %y = extractvalue %Outer %bc, 0, 1
  %y.val = call fastcc float @extruded_getindex(%Extruded1 %y, i64 %i)
  %diff = fsub float %prod, %y.val
  %r.data = extractvalue %Array1 %r, 0
  %r.addr = getelementptr inbounds float, ptr addrspace(1) %r.data, i64 %i
  store float %diff, ptr addrspace(1) %r.addr, align 4
  br label %exit

exit:
  ret void
}

; Base.Broadcast._broadcast_getindex(::Extruded, i) for a 1-D Float32 array.
define internal fastcc float @extruded_getindex(%Extruded1 %e, i64 %i) #1 {
entry:
  %keep = extractvalue %Extruded1 %e, 1, 0
  %default = extractvalue %Extruded1 %e, 2, 0
  %keep1 = and i8 %keep, 1
  %kept = icmp ne i8 %keep1, 0
  %default0 = add i64 %default, -1
  %j = select i1 %kept, i64 %i, i64 %default0
  %data = extractvalue %Extruded1 %e, 0, 0
  %addr = getelementptr inbounds float, ptr addrspace(1) %data, i64 %j
  %val = load float, ptr addrspace(1) %addr, align 4
  ret float %val
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { nounwind }
attributes #1 = { alwaysinline nounwind }
