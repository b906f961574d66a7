; `dest .= ForwardDiff.Dual.(x, true)` on a 1-D CuArray{Float32}: the
; broadcast that broke GPUArrays' source-level splat. At the IR level the
; function `Type{Dual}` is a ghost; the args tuple mixes an Extruded array
; and a Bool (i8). Each dest element is a Dual{Nothing,Float32,1}:
; { float value, [1 x float] partials }.
;
;   %state  CUDA.jl KernelState                  { ptr, i32 }
;   %dest   CuDeviceArray{Dual{Nothing,Float32,1},1}  { ptr addrspace(1) data, i64 maxsize, [1 x i64] dims, i64 len }
;   %bc     Broadcasted{Type{Dual}}              { { Extruded, i8 } args, [1 x [1 x i64]] axes }
;           Extruded                             { CuDeviceArray{Float32,1}, [1 x i8] keeps, [1 x i64] defaults }
;
; Thread i (0-based, ctaid * ntid + tid): dest[i] = Dual(x[j], Float32(b & 1))
; with j = keeps[0] ? i : defaults[0] - 1.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
%Extruded1 = type { %Array1, [1 x i8], [1 x i64] }
%Dual = type { float, [1 x float] }

define ptx_kernel void @_Z16broadcast_kernel_dual({ ptr, i32 } %state, %Array1 %dest, { { %Extruded1, i8 }, [1 x [1 x i64]] } %bc) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid64 = zext i32 %tid to i64
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %blockstart = mul i64 %ctaid64, %ntid64
  %i = add i64 %blockstart, %tid64
  %len = extractvalue %Array1 %dest, 3
  %inbounds = icmp slt i64 %i, %len
  br i1 %inbounds, label %body, label %exit

body:
  %keep = extractvalue { { %Extruded1, i8 }, [1 x [1 x i64]] } %bc, 0, 0, 1, 0
  %default = extractvalue { { %Extruded1, i8 }, [1 x [1 x i64]] } %bc, 0, 0, 2, 0
  %keep1 = and i8 %keep, 1
  %kept = icmp ne i8 %keep1, 0
  %default0 = add i64 %default, -1
  %j = select i1 %kept, i64 %i, i64 %default0
  %x.data = extractvalue { { %Extruded1, i8 }, [1 x [1 x i64]] } %bc, 0, 0, 0, 0
  %x.addr = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %j
  %x.val = load float, ptr addrspace(1) %x.addr, align 4
  %flag = extractvalue { { %Extruded1, i8 }, [1 x [1 x i64]] } %bc, 0, 1
  %flag1 = and i8 %flag, 1
  %partial = uitofp i8 %flag1 to float
  %dual.0 = insertvalue %Dual poison, float %x.val, 0
  %dual = insertvalue %Dual %dual.0, float %partial, 1, 0
  %dest.data = extractvalue %Array1 %dest, 0
  %dest.addr = getelementptr inbounds %Dual, ptr addrspace(1) %dest.data, i64 %i
  store %Dual %dual, ptr addrspace(1) %dest.addr, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { nounwind }
