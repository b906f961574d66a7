; Kernels for warp-emulation.test: each lane adds its value into acc[idx],
; as a gather's reverse does (addresses from data: grouped by match.any), and
; into one element for the whole warp (uniform: no match).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @gather_i32(ptr %acc, ptr %idx, ptr %val) {
entry:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ip = getelementptr inbounds i32, ptr %idx, i32 %lane
  %j = load i32, ptr %ip, align 4
  %vp = getelementptr inbounds i32, ptr %val, i32 %lane
  %v = load i32, ptr %vp, align 4
  %p = getelementptr inbounds i32, ptr %acc, i32 %j
  %old = atomicrmw add ptr %p, i32 %v monotonic, align 4
  ret void
}

define void @gather_f64(ptr %acc, ptr %idx, ptr %val) {
entry:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ip = getelementptr inbounds i32, ptr %idx, i32 %lane
  %j = load i32, ptr %ip, align 4
  %vp = getelementptr inbounds i32, ptr %val, i32 %lane
  %vi = load i32, ptr %vp, align 4
  %v = sitofp i32 %vi to double
  %p = getelementptr inbounds double, ptr %acc, i32 %j
  %old = atomicrmw fadd ptr %p, double %v monotonic, align 8
  ret void
}

define void @uniform_f32(ptr %acc, ptr %idx, ptr %val) {
entry:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %vp = getelementptr inbounds i32, ptr %val, i32 %lane
  %vi = load i32, ptr %vp, align 4
  %v = sitofp i32 %vi to float
  %old = atomicrmw fadd ptr %acc, float %v monotonic, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
