; StoreSinkVersioning is idempotent on in-place versions whose fold splits
; the copy into several blocks (several accumulations into the cleared
; buffer, each an atomic elsewhere under its own test): a second run leaves
; every block of every version alone. Before the fix only a version's first
; block was recognised (by its predecessor's marked branch), and the second
; run versioned the store and atomic after the split again. Shapes: a clear,
; two fadds and an fsub into other pointers; three fadds; two clears each
; with two fadds; accesses after the accumulations; doubles.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-store-sink-versioning -S %s -o %t.once.ll
; RUN: opt -passes=verify -disable-output %t.once.ll
; RUN: FileCheck %s < %t.once.ll
; RUN: opt -S %t.once.ll | grep -v '^; ModuleID' > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-store-sink-versioning -S %t.once.ll \
; RUN:   | grep -v '^; ModuleID' > %t.twice
; RUN: diff %t.want %t.twice
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; One versioned run each: one disjointness branch, one in-place branch.
; CHECK-LABEL: define void @fadd_fadd_fsub(
; CHECK-COUNT-1: br i1 %accesses.disjoint,
; CHECK-COUNT-1: br i1 %accesses.inplace,
; CHECK-NOT:     br i1 %accesses.
; CHECK:         ret void
define void @fadd_fadd_fsub(ptr addrspace(1) %ddest, ptr addrspace(1) %da, ptr addrspace(1) %db, ptr addrspace(1) %dc, i64 %i) {
entry:
  %dd = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %dd, align 4
  store float 0.0, ptr addrspace(1) %dd, align 4
  %pa = getelementptr inbounds float, ptr addrspace(1) %da, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %pa, float %g monotonic, align 4
  %pb = getelementptr inbounds float, ptr addrspace(1) %db, i64 %i
  %b = atomicrmw fadd ptr addrspace(1) %pb, float %g monotonic, align 4
  %pc = getelementptr inbounds float, ptr addrspace(1) %dc, i64 %i
  %c = atomicrmw fsub ptr addrspace(1) %pc, float %g monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @three_fadds(
; CHECK-COUNT-1: br i1 %accesses.disjoint,
; CHECK-COUNT-1: br i1 %accesses.inplace,
; CHECK-NOT:     br i1 %accesses.
; CHECK:         ret void
define void @three_fadds(ptr addrspace(1) %ddest, ptr addrspace(1) %da, ptr addrspace(1) %db, ptr addrspace(1) %dc, i64 %i) {
entry:
  %dd = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %dd, align 4
  store float 0.0, ptr addrspace(1) %dd, align 4
  %pa = getelementptr inbounds float, ptr addrspace(1) %da, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %pa, float %g monotonic, align 4
  %pb = getelementptr inbounds float, ptr addrspace(1) %db, i64 %i
  %b = atomicrmw fadd ptr addrspace(1) %pb, float %g monotonic, align 4
  %pc = getelementptr inbounds float, ptr addrspace(1) %dc, i64 %i
  %c = atomicrmw fadd ptr addrspace(1) %pc, float %g monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @two_clears(
; CHECK-COUNT-1: br i1 %accesses.disjoint,
; CHECK-COUNT-1: br i1 %accesses.inplace,
; CHECK-NOT:     br i1 %accesses.
; CHECK:         ret void
define void @two_clears(ptr addrspace(1) %d1, ptr addrspace(1) %d2, ptr addrspace(1) %da, ptr addrspace(1) %db, i64 %i) {
entry:
  %p1 = getelementptr inbounds float, ptr addrspace(1) %d1, i64 %i
  %g1 = load float, ptr addrspace(1) %p1, align 4
  store float 0.0, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds float, ptr addrspace(1) %d2, i64 %i
  %g2 = load float, ptr addrspace(1) %p2, align 4
  store float 0.0, ptr addrspace(1) %p2, align 4
  %pa = getelementptr inbounds float, ptr addrspace(1) %da, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %pa, float %g1 monotonic, align 4
  %pb = getelementptr inbounds float, ptr addrspace(1) %db, i64 %i
  %b = atomicrmw fadd ptr addrspace(1) %pb, float %g2 monotonic, align 4
  %a2 = atomicrmw fadd ptr addrspace(1) %pa, float %g2 monotonic, align 4
  %b2 = atomicrmw fadd ptr addrspace(1) %pb, float %g1 monotonic, align 4
  ret void
}

; A store and a load after the accumulations, and a second run of accesses
; after a call: the later run is versioned once too.
; CHECK-LABEL: define void @accesses_after(
; CHECK-COUNT-2: br i1 %accesses.disjoint{{[0-9]*}},
; CHECK-NOT:     br i1 %accesses.disjoint
; CHECK:         ret void
define void @accesses_after(ptr addrspace(1) %ddest, ptr addrspace(1) %da, ptr addrspace(1) %db, ptr addrspace(1) %out, i64 %i) {
entry:
  %dd = getelementptr inbounds double, ptr addrspace(1) %ddest, i64 %i
  %g = load double, ptr addrspace(1) %dd, align 8
  store double 0.0, ptr addrspace(1) %dd, align 8
  %pa = getelementptr inbounds double, ptr addrspace(1) %da, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %pa, double %g monotonic, align 8
  %pb = getelementptr inbounds double, ptr addrspace(1) %db, i64 %i
  %b = atomicrmw fadd ptr addrspace(1) %pb, double %g monotonic, align 8
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %i
  store double %g, ptr addrspace(1) %po, align 8
  %pn = getelementptr inbounds double, ptr addrspace(1) %dd, i64 1
  %v = load double, ptr addrspace(1) %pn, align 8
  call void @llvm.nvvm.barrier0()
  store double %v, ptr addrspace(1) %dd, align 8
  %w = load double, ptr addrspace(1) %pb, align 8
  store double %w, ptr addrspace(1) %po, align 8
  ret void
}

declare void @llvm.nvvm.barrier0()
