; KernelAbstractions `@kernel f(z, @Const(x)); I = @index(Global); z[I] = 2x[I]`
; instantiated with a static ndrange of 1048576 and a static workgroup of
; 256 (KernelAbstractions' StaticSize, in the kernel's type as GPUCompiler
; mangles it): every size is in the type, so the CompilerMetadata is a
; ghost and the kernel compares with constants. The launch is the type's:
; 4096 blocks of 256 threads, on arrays of 1048576 elements.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }

define ptx_kernel void @_Z8gpu_dbl_16CompilerMetadataI10StaticSizeI10_1048576__E12DynamicCheckvv7NDRangeILi1ES0_I7_4096__ES0_I6_256__EvvEE13CuDeviceArrayI7Float32Li1ELi1EESA_({ ptr, i32 } %state, %Array1 %"z::CuDeviceArray", %Array1 %"x::CuDeviceArray") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = mul i32 %ctaid, 256
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %in = icmp ult i64 %i, 1048576
  br i1 %in, label %body, label %exit
body:
  %x.data = extractvalue %Array1 %"x::CuDeviceArray", 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %i
  %v = load float, ptr addrspace(1) %xp, align 4
  %w = fmul float %v, 2.0
  %z.data = extractvalue %Array1 %"z::CuDeviceArray", 0
  %zp = getelementptr inbounds float, ptr addrspace(1) %z.data, i64 %i
  store float %w, ptr addrspace(1) %zp, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
