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

; A 2-D broadcast's reverse accumulation (d_x[row * stride + col], the lane's
; index split by %n, each part kept or extruded): the uniform test of the
; sizes picks the plain atomic or the aggregation.
define void @broadcast_2d_i32(ptr %acc, ptr %val, i64 %n, i64 %stride, i8 %keep1, i8 %keep2) {
entry:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %lane to i64
  %q = sdiv i64 %i, %n
  %qn = mul i64 %q, %n
  %r = sub i64 %i, %qn
  %k1 = icmp eq i8 %keep1, 0
  %col = select i1 %k1, i64 3, i64 %r
  %k2 = icmp eq i8 %keep2, 0
  %row = select i1 %k2, i64 5, i64 %q
  %rowoff = mul i64 %row, %stride
  %rowp = getelementptr i32, ptr %acc, i64 %rowoff
  %p = getelementptr i32, ptr %rowp, i64 %col
  %vp = getelementptr inbounds i32, ptr %val, i32 %lane
  %v = load i32, ptr %vp, align 4
  %old = atomicrmw add ptr %p, i32 %v monotonic, align 4
  ret void
}
