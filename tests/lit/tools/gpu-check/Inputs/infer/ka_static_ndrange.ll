; KernelAbstractions with a static ndrange (in the kernel's type, with its
; static workgroup of 256): the launch would have to match it, and
; gpu-check does not read it from the name.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
%Meta = type { [1 x [1 x [1 x i64]]], { [1 x [1 x [1 x i64]]] } }

define ptx_kernel void @_Z8gpu_dbl_16CompilerMetadataI10StaticSizeI10_1048576_E12DynamicCheckv16CartesianIndicesILi1E5TupleI5OneToI5Int64EEE7NDRangeILi1ES0_10StaticSizeI6_256__ES8_vEE13CuDeviceArrayI7Float32Li1ELi1EES9_({ ptr, i32 } %state, %Meta %"__ctx__::CompilerMetadata", %Array1 %"z::CuDeviceArray", %Array1 %"x::CuDeviceArray") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = mul i32 %ctaid, 256
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %n = extractvalue %Meta %"__ctx__::CompilerMetadata", 0, 0, 0, 0
  %in = icmp slt i64 %i, %n
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
