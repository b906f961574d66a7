; KernelAbstractions `@kernel function mul!(z, @Const(x), y)
;     I = @index(Global, Linear); z[I] = x[I] * y[I]; end`
; compiled for CUDA with a dynamic ndrange and dynamic workgroup size. KA
; passes its CompilerMetadata as the first aggregate, before the arrays.
;
;   %state  CUDA.jl KernelState        { ptr, i32 }
;   %ctx    CompilerMetadata           { [1 x [1 x [1 x i64]]] ndrange, [2 x [1 x [1 x [1 x i64]]]] (blocks, workitems) }
;           ndrange:  CartesianIndices((OneTo(n),)),    n at path 0.0.0.0
;           blocks:   CartesianIndices((OneTo(nb),)),   nb at path 1.0.0.0.0
;           workitems: CartesianIndices((OneTo(gs),)),  gs at path 1.1.0.0.0
;   %z, %x, %y  CuDeviceArray{Float32,1}  { ptr addrspace(1) data, i64 maxsize, [1 x i64] dims, i64 len }
;
; As in KA, the global index comes from the metadata, not from ntid:
; I = ctaid * gs + tid (0-based), and the DynamicCheck skips I >= n and
; tid >= gs. Launch with blockDim.x = gs and gridDim.x = nb = cld(n, gs).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
%CompilerMetadata = type { [1 x [1 x [1 x i64]]], [2 x [1 x [1 x [1 x i64]]]] }

define ptx_kernel void @_Z8gpu_mul_16CompilerMetadata({ ptr, i32 } %state, %CompilerMetadata %ctx, %Array1 %z, %Array1 %x, %Array1 %y) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid64 = zext i32 %tid to i64
  %ctaid64 = zext i32 %ctaid to i64
  %n = extractvalue %CompilerMetadata %ctx, 0, 0, 0, 0
  %gs = extractvalue %CompilerMetadata %ctx, 1, 1, 0, 0, 0
  %groupstart = mul i64 %ctaid64, %gs
  %I = add i64 %groupstart, %tid64
  %in.range = icmp slt i64 %I, %n
  %in.group = icmp slt i64 %tid64, %gs
  %valid = and i1 %in.range, %in.group
  br i1 %valid, label %body, label %exit

body:
  %x.data = extractvalue %Array1 %x, 0
  %x.addr = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %I
  %x.val = load float, ptr addrspace(1) %x.addr, align 4
  %y.data = extractvalue %Array1 %y, 0
  %y.addr = getelementptr inbounds float, ptr addrspace(1) %y.data, i64 %I
  %y.val = load float, ptr addrspace(1) %y.addr, align 4
  %prod = fmul float %x.val, %y.val
  %z.data = extractvalue %Array1 %z, 0
  %z.addr = getelementptr inbounds float, ptr addrspace(1) %z.data, i64 %I
  store float %prod, ptr addrspace(1) %z.addr, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

attributes #0 = { nounwind }
