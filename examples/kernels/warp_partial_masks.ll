; Shuffles under divergence, with partial member masks: lanes 0-15 shuffle
; down by 1 among themselves (mask 0x0000ffff, clamp 15: lane 15 reads
; itself), lanes 16-31 exchange by a butterfly of 2 (mask 0xffff0000):
;   y[i] = x[i] + 2 s[i]
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z18warp_partial_masks3PtrI7Float32ES_(ptr addrspace(1) %"y::Ptr", ptr addrspace(1) %"x::Ptr") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
  %xp = getelementptr inbounds float, ptr addrspace(1) %"x::Ptr", i64 %i
  %x = load float, ptr addrspace(1) %xp, align 4
  %lane = and i32 %tid, 31
  %low = icmp ult i32 %lane, 16
  br i1 %low, label %lower, label %upper

lower:
  %d = call float @llvm.nvvm.shfl.sync.down.f32(i32 65535, float %x, i32 1, i32 15)
  br label %join

upper:
  %u = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -65536, float %x, i32 2, i32 31)
  br label %join

join:
  %s = phi float [ %d, %lower ], [ %u, %upper ]
  %t = fmul float %s, 2.0
  %y = fadd float %x, %t
  %yp = getelementptr inbounds float, ptr addrspace(1) %"y::Ptr", i64 %i
  store float %y, ptr addrspace(1) %yp, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
