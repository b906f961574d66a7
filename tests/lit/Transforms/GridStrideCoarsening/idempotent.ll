; GridStrideCoarsening is idempotent: a second run changes nothing; a kernel that already has its grid-stride version gets no second one
; (no NAME_grid_stride1).
; The input: the functions of the pass's main test. The second run's output
; is compared with the first's as opt prints it back (block predecessor
; lists and other printing details follow the use lists that reading sets).
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-grid-stride<reassociate-fp>' -S %s -o %t.once.ll
; RUN: FileCheck %s --check-prefix=ONCE < %t.once.ll
; RUN: opt -S %t.once.ll | grep -v '^; ModuleID' > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-grid-stride<reassociate-fp>' -S %t.once.ll \
; RUN:   | grep -v '^; ModuleID' > %t.twice
; RUN: diff %t.want %t.twice
; ONCE: define {{.*}} @held_grid_stride(
; ONCE: define {{.*}} @scoped_grid_stride(

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef

define ptx_kernel void @held(ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %start = mul nuw i32 %ctaid, %ntid
  %i32 = add nuw i32 %start, %tid
  %i = zext i32 %i32 to i64
  %in = icmp ult i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %zp = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  %g = load float, ptr addrspace(1) %zp, align 4
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
exit:
  ret void
}

define ptx_kernel void @advances(ptr addrspace(1) %dy, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
}

define ptx_kernel void @barrier(ptr addrspace(1) %dy, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  call void @llvm.nvvm.barrier0()
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
}

define ptx_kernel void @later_store(ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  %zp = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  store float 0.0, ptr addrspace(1) %zp, align 4
  ret void
}

define ptx_kernel void @shared(ptr addrspace(1) %dy, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  store float %g, ptr addrspace(3) @tile, align 4
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
}

define ptx_kernel void @scoped(ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4, !alias.scope !2, !noalias !4
  %zp = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  store float 0.0, ptr addrspace(1) %zp, align 4, !alias.scope !4, !noalias !2
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @scoped, !"maxntidx", i32 1024}
!1 = distinct !{!1, !"irs.disjoint"}
!2 = !{!3}
!3 = distinct !{!3, !1}
!4 = !{!5}
!5 = distinct !{!5, !1}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

