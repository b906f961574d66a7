; Every shuffle mode and rule path in one kernel, for the device checks of
; ir-sanitize-warp-rules: y[i] = x + bfly(x, 1) + 2 up(x, 3) (segments of
; 16) + 3 idx(x, 5) (segments of 16) + 4 down(x, off) (off an argument:
; the run-time uniform test) + 5 down(x, lane % 3) (a b that differs
; between lanes: the gather from every lane) + 6 down(x as double words, 2).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z13warp_shuffles3PtrI7Float32ES_5Int32(ptr addrspace(1) %"y::Ptr", ptr addrspace(1) %"x::Ptr", i32 %"off::Int32") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %xp = getelementptr inbounds float, ptr addrspace(1) %"x::Ptr", i64 %i
  %x = load float, ptr addrspace(1) %xp, align 4
  %bf = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %x, i32 1, i32 31)
  %up = call float @llvm.nvvm.shfl.sync.up.f32(i32 -1, float %x, i32 3, i32 4096)
  %ix = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %x, i32 5, i32 4127)
  %dn = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %x, i32 %"off::Int32", i32 31)
  %lane = and i32 %tid, 31
  %vary = urem i32 %lane, 3
  %dv = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %x, i32 %vary, i32 31)
  %xd = fpext float %x to double
  %bits = bitcast double %xd to i64
  %hi64 = lshr i64 %bits, 32
  %hi = trunc i64 %hi64 to i32
  %shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %hi, i32 2, i32 31)
  %zhi = zext i32 %shi to i64
  %up64 = shl nuw i64 %zhi, 32
  %lo = trunc i64 %bits to i32
  %slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %lo, i32 2, i32 31)
  %zlo = zext i32 %slo to i64
  %or = or i64 %up64, %zlo
  %wd = bitcast i64 %or to double
  %w = fptrunc double %wd to float
  %s1 = fadd float %x, %bf
  %t2 = fmul float %up, 2.0
  %s2 = fadd float %s1, %t2
  %t3 = fmul float %ix, 3.0
  %s3 = fadd float %s2, %t3
  %t4 = fmul float %dn, 4.0
  %s4 = fadd float %s3, %t4
  %t5 = fmul float %dv, 5.0
  %s5 = fadd float %s4, %t5
  %t6 = fmul float %w, 6.0
  %s6 = fadd float %s5, %t6
  %yp = getelementptr inbounds float, ptr addrspace(1) %"y::Ptr", i64 %i
  store float %s6, ptr addrspace(1) %yp, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.up.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
