; StoreSinkVersioning: loads and atomics before stores, behind a run-time
; test of this thread's addresses where alias analysis cannot decide.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-store-sink-versioning -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -passes=verify -disable-output %t.ll
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The reverse of dest = x + y after O2: primal recompute, then read and
; clear d_dest, accumulate into d_y. Three swapped pairs may overlap:
; (dest, d_dest load), (dest, d_y atomic), (d_dest store, d_y atomic).
; CHECK-LABEL: define float @reverse_add(
; The addresses the test needs move up; each is converted once.
; CHECK:       entry:
; CHECK-NEXT:    %x.addr = getelementptr
; CHECK-NEXT:    %dest.addr = getelementptr
; CHECK-NEXT:    %ddest.addr = getelementptr
; CHECK-NEXT:    %dy.addr = getelementptr
; CHECK-COUNT-3: ptrtoint
; CHECK-NOT:     ptrtoint
; CHECK:         %accesses.disjoint = and i1
; The in-place test: d_dest and d_y the same element, the pairs without
; d_dest's clearing store disjoint.
; CHECK-NEXT:    %dy.addr.inplace = icmp eq i64 %ddest.addr.int, %dy.addr.int
; CHECK-NEXT:    and i1 %dy.addr.inplace,
; CHECK-NEXT:    %accesses.inplace = and i1
; CHECK-NEXT:    br i1 %accesses.disjoint, label %entry.fast, label %entry.inplace.test
; The fast version: every load, then the atomic, then the stores in order.
; CHECK:       entry.fast:
; CHECK-NEXT:    %y.addr{{[0-9]+}} = getelementptr
; CHECK-NEXT:    %x.val{{[0-9]+}} = load float
; CHECK-NEXT:    %y.val{{[0-9]+}} = load float
; CHECK-NEXT:    %sum{{[0-9]+}} = fadd float
; What the test proved is stated for later passes: each swapped pair is
; disjoint here (scoped noalias metadata; the nodes are checked at the end).
; CHECK-NEXT:    %g{{[0-9]+}} = load float, ptr addrspace(1) %ddest.addr, align 4, !alias.scope ![[L:[0-9]+]], !noalias ![[D:[0-9]+]]
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %dy.addr, float %g{{[0-9]+}} monotonic, align 4, !alias.scope ![[A:[0-9]+]], !noalias ![[AN:[0-9]+]]
; CHECK-NEXT:    store float %sum{{[0-9]+}}, ptr addrspace(1) %dest.addr, align 4, !alias.scope ![[D]], !noalias ![[DN:[0-9]+]]
; CHECK-NEXT:    store float 0.000000e+00, ptr addrspace(1) %ddest.addr, align 4, !alias.scope ![[Z:[0-9]+]], !noalias ![[A]]
; CHECK-NEXT:    br label %entry.join
; CHECK:       entry.inplace.test:
; CHECK-NEXT:    br i1 %accesses.inplace, label %entry.inplace, label %entry.ordered
; The in-place version (y .= x .+ y): d_dest's clear and the accumulation
; into d_y, one element, are one store of 0 + g at the atomic's place.
; CHECK:       entry.inplace:
; CHECK-NEXT:    %y.addr{{[0-9]+}} = getelementptr
; CHECK-NEXT:    %x.val{{[0-9]+}} = load float
; CHECK-NEXT:    %y.val{{[0-9]+}} = load float
; CHECK-NEXT:    %sum{{[0-9]+}} = fadd float
; CHECK-NEXT:    %[[GI:g[0-9]+]] = load float, ptr addrspace(1) %ddest.addr
; CHECK-NEXT:    %accumulated = fadd float 0.000000e+00, %[[GI]]
; CHECK-NEXT:    store float %accumulated, ptr addrspace(1) %ddest.addr, align 4{{$}}
; CHECK-NEXT:    store float %sum{{[0-9]+}}, ptr addrspace(1) %dest.addr
; CHECK-NEXT:    br label %entry.join
; The generated order, kept for partly overlapping addresses.
; CHECK:       entry.ordered:
; CHECK-NEXT:    %x.val = load float
; CHECK-NEXT:    %y.addr = getelementptr
; CHECK-NEXT:    %y.val = load float
; CHECK-NEXT:    %sum = fadd float %x.val, %y.val
; CHECK-NEXT:    store float %sum, ptr addrspace(1) %dest.addr, align 4{{$}}
; CHECK-NEXT:    %g = load float, ptr addrspace(1) %ddest.addr, align 4{{$}}
; CHECK-NEXT:    store float 0.000000e+00, ptr addrspace(1) %ddest.addr, align 4{{$}}
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %dy.addr, float %g monotonic, align 4{{$}}
; CHECK-NEXT:    br label %entry.join
; Values the rest of the block uses come through phis.
; CHECK:       entry.join:
; CHECK-NEXT:    %[[G:g[0-9]+]] = phi float [ %g{{[0-9]+}}, %entry.fast ], [ %[[GI]], %entry.inplace ], [ %g, %entry.ordered ]
; CHECK-NEXT:    ret float %[[G]]
define float @reverse_add(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %dy,
                          ptr addrspace(1) %dest, ptr addrspace(1) %ddest, i64 %i) {
entry:
  %x.addr = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %x.val = load float, ptr addrspace(1) %x.addr, align 4
  %y.addr = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  %y.val = load float, ptr addrspace(1) %y.addr, align 4
  %sum = fadd float %x.val, %y.val
  %dest.addr = getelementptr inbounds float, ptr addrspace(1) %dest, i64 %i
  store float %sum, ptr addrspace(1) %dest.addr, align 4
  %ddest.addr = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %ddest.addr, align 4
  store float 0.0, ptr addrspace(1) %ddest.addr, align 4
  %dy.addr = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %dy.addr, float %g monotonic, align 4
  ret float %g
}

; Each pair is compared as [p, p + 4) against [q, q + 4).
; CHECK-LABEL: define void @one_pair(
; CHECK:         %d.addr.int = ptrtoint ptr addrspace(1) %d.addr to i64
; CHECK-NEXT:    %s.addr.int = ptrtoint ptr addrspace(1) %s.addr to i64
; CHECK-DAG:     %[[SE:.*]] = add i64 %s.addr.int, 8
; CHECK-DAG:     %[[DE:.*]] = add i64 %d.addr.int, 4
; CHECK-DAG:     %[[C1:.*]] = icmp ule i64 %[[DE]], %s.addr.int
; CHECK-DAG:     %[[C2:.*]] = icmp ule i64 %[[SE]], %d.addr.int
; CHECK:         %accesses.disjoint = or i1
; CHECK:       entry.fast:
; CHECK-NEXT:    getelementptr
; CHECK-NEXT:    load double, ptr addrspace(1) %s.addr
; CHECK-NEXT:    store float 0.000000e+00, ptr addrspace(1) %d.addr
; CHECK-NEXT:    store double
define void @one_pair(ptr addrspace(1) %d, ptr addrspace(1) %s, i64 %i, ptr addrspace(1) %out) {
entry:
  %d.addr = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  store float 0.0, ptr addrspace(1) %d.addr, align 4
  %s.addr = getelementptr inbounds double, ptr addrspace(1) %s, i64 %i
  %v = load double, ptr addrspace(1) %s.addr, align 8
  %o = getelementptr inbounds double, ptr addrspace(1) %out, i64 %i
  store double %v, ptr addrspace(1) %o, align 8
  ret void
}

; Disjoint by alias analysis (noalias): reordered in place, no test.
; CHECK-LABEL: define void @proven(
; CHECK-NOT:     disjoint
; CHECK:         %g = load float
; CHECK-NEXT:    atomicrmw fadd
; CHECK-NEXT:    store float 0.000000e+00
; CHECK-NEXT:    ret void
define void @proven(ptr addrspace(1) noalias %dy, ptr addrspace(1) noalias %ddest, i64 %i) {
entry:
  %ddest.addr = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %ddest.addr, align 4
  store float 0.0, ptr addrspace(1) %ddest.addr, align 4
  %dy.addr = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %dy.addr, float %g monotonic, align 4
  ret void
}

; A gather's reverse: the accumulation's address comes from an index the
; run loads before its first write, so the load moves before the test and
; the run is versioned like any other (the index is what it would be there).
; CHECK-LABEL: define void @gather_reverse(
; CHECK:         %j = load i64, ptr addrspace(1) %idx.addr
; CHECK-NEXT:    %dx.addr = getelementptr inbounds float, ptr addrspace(1) %dx, i64 %j
; CHECK:         %accesses.disjoint =
; CHECK:         br i1 %accesses.disjoint, label %entry.fast, label %entry.inplace.test
; CHECK:       entry.fast:
; CHECK-NEXT:    load float, ptr addrspace(1) %dout.addr
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %dx.addr
; CHECK-NEXT:    store float 0.000000e+00, ptr addrspace(1) %dout.addr
; CHECK:       entry.ordered:
; CHECK-NEXT:    load float, ptr addrspace(1) %dout.addr
; CHECK-NEXT:    store float 0.000000e+00, ptr addrspace(1) %dout.addr
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %dx.addr
define void @gather_reverse(ptr addrspace(1) %idx, ptr addrspace(1) %dout,
                            ptr addrspace(1) %dx, i64 %i) {
entry:
  %idx.addr = getelementptr inbounds i64, ptr addrspace(1) %idx, i64 %i
  %j = load i64, ptr addrspace(1) %idx.addr, align 8
  %dout.addr = getelementptr inbounds float, ptr addrspace(1) %dout, i64 %i
  %g = load float, ptr addrspace(1) %dout.addr, align 4
  store float 0.0, ptr addrspace(1) %dout.addr, align 4
  %dx.addr = getelementptr inbounds float, ptr addrspace(1) %dx, i64 %j
  %old = atomicrmw fadd ptr addrspace(1) %dx.addr, float %g monotonic, align 4
  ret void
}

; Left alone: the same address stored and accumulated (must alias), an
; address loaded within the run after a write it may overlap, a barrier between the accesses, a seq_cst
; atomic, a volatile store.
; CHECK-LABEL: define void @same_address(
; CHECK-NOT:     disjoint
; CHECK:         store float 0.000000e+00
; CHECK-NEXT:    atomicrmw fadd
define void @same_address(ptr addrspace(1) %p, i64 %i, float %g) {
entry:
  %a = getelementptr inbounds float, ptr addrspace(1) %p, i64 %i
  store float 0.0, ptr addrspace(1) %a, align 4
  %old = atomicrmw fadd ptr addrspace(1) %a, float %g monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @loaded_address(
; CHECK-NOT:     disjoint
; CHECK-NOT:     .fast
define void @loaded_address(ptr addrspace(1) %pp, ptr addrspace(1) %d, i64 %i) {
entry:
  %d.addr = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  store float 0.0, ptr addrspace(1) %d.addr, align 4
  %p = load ptr addrspace(1), ptr addrspace(1) %pp, align 8
  %v = load float, ptr addrspace(1) %p, align 4
  store float %v, ptr addrspace(1) %pp, align 4
  ret void
}

; CHECK-LABEL: define void @barrier_between(
; CHECK-NOT:     disjoint
; CHECK:         store float 0.000000e+00
; CHECK-NEXT:    call void @llvm.nvvm.barrier{{0|\.cta\.sync\.aligned\.all}}(
; CHECK-NEXT:    atomicrmw
define void @barrier_between(ptr addrspace(1) %d, ptr addrspace(1) %s, i64 %i, float %g) {
entry:
  %d.addr = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  %s.addr = getelementptr inbounds float, ptr addrspace(1) %s, i64 %i
  store float 0.0, ptr addrspace(1) %d.addr, align 4
  call void @llvm.nvvm.barrier0()
  %old = atomicrmw fadd ptr addrspace(1) %s.addr, float %g monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @strong_atomic(
; CHECK-NOT:     disjoint
; CHECK:         store float 0.000000e+00
; CHECK-NEXT:    atomicrmw fadd {{.*}} seq_cst
; CHECK-LABEL: define float @volatile_store(
; CHECK-NOT:     disjoint
; CHECK:         store volatile float 0.000000e+00
; CHECK-NEXT:    load float
define void @strong_atomic(ptr addrspace(1) %d, ptr addrspace(1) %s, i64 %i, float %g) {
entry:
  %d.addr = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  %s.addr = getelementptr inbounds float, ptr addrspace(1) %s, i64 %i
  store float 0.0, ptr addrspace(1) %d.addr, align 4
  %old = atomicrmw fadd ptr addrspace(1) %s.addr, float %g seq_cst, align 4
  ret void
}

define float @volatile_store(ptr addrspace(1) %d, ptr addrspace(1) %s, i64 %i) {
entry:
  %d.addr = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  %s.addr = getelementptr inbounds float, ptr addrspace(1) %s, i64 %i
  store volatile float 0.0, ptr addrspace(1) %d.addr, align 4
  %v = load float, ptr addrspace(1) %s.addr, align 4
  ret float %v
}

declare void @llvm.nvvm.barrier0() convergent nounwind

; Enzyme's reverse kernel: the primal under `if (c)`, its derivative under a
; second `if (c)`. The second test is known on the first's path, so both
; become one block and one run: the store to z is versioned with the rest.
; CHECK-LABEL: define void @repeated_branch(
; CHECK:       body:
; CHECK:         br i1 %accesses.disjoint, label %body.fast, label %body.inplace.test
; CHECK:       body.fast:
; CHECK:         load float
; CHECK:         load float, ptr addrspace(1) %dz.addr
; CHECK-NEXT:    fmul
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %dx.addr, float %g
; CHECK-NEXT:    store float %prod{{[0-9]+}}, ptr addrspace(1) %z.addr
; CHECK-NEXT:    store float 0.000000e+00, ptr addrspace(1) %dz.addr
; CHECK:       body.join:
; CHECK-NEXT:    br label %exit
; CHECK:       mid:
; CHECK-NEXT:    br label %exit
; CHECK-NOT:     phi
; CHECK:         ret void
define void @repeated_branch(ptr addrspace(1) %x, ptr addrspace(1) %z, ptr addrspace(1) %dx,
                             ptr addrspace(1) %dz, i64 %i, i64 %n) {
entry:
  %c = icmp slt i64 %i, %n
  br i1 %c, label %body, label %mid

body:
  %x.addr = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %x.val = load float, ptr addrspace(1) %x.addr, align 4
  %prod = fmul float %x.val, %x.val
  %z.addr = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  store float %prod, ptr addrspace(1) %z.addr, align 4
  br label %mid

mid:
  %x.cache = phi float [ %x.val, %body ], [ undef, %entry ]
  br i1 %c, label %reverse, label %exit

reverse:
  %dz.addr = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  %g0 = load float, ptr addrspace(1) %dz.addr, align 4
  store float 0.0, ptr addrspace(1) %dz.addr, align 4
  %g = fmul float %g0, %x.cache
  %dx.addr = getelementptr inbounds float, ptr addrspace(1) %dx, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %dx.addr, float %g monotonic, align 4
  br label %exit

exit:
  ret void
}

; Not joined: the second branch tests another value.
; CHECK-LABEL: define void @different_condition(
; CHECK:       mid:
; CHECK-NEXT:    br i1 %d, label %reverse, label %exit
define void @different_condition(ptr addrspace(1) %z, ptr addrspace(1) %dz, i64 %i, i64 %n) {
entry:
  %c = icmp slt i64 %i, %n
  %d = icmp sgt i64 %i, 7
  br i1 %c, label %body, label %mid

body:
  %z.addr = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  store float 1.0, ptr addrspace(1) %z.addr, align 4
  br label %mid

mid:
  br i1 %d, label %reverse, label %exit

reverse:
  %dz.addr = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  store float 0.0, ptr addrspace(1) %dz.addr, align 4
  br label %exit

exit:
  ret void
}

; The fast version of @reverse_add: one scope per access in a domain of its
; own; the load is disjoint from the dest store, the atomic from both
; stores.
; CHECK: ![[L]] = !{![[LS:[0-9]+]]}
; CHECK-NEXT: ![[LS]] = distinct !{![[LS]], ![[DOM:[0-9]+]]}
; CHECK-NEXT: ![[DOM]] = distinct !{![[DOM]], !"irs.disjoint"}
; CHECK-NEXT: ![[D]] = !{![[DS:[0-9]+]]}
; CHECK: ![[A]] = !{![[AS:[0-9]+]]}
; CHECK: ![[AN]] = !{![[DS]], ![[ZS:[0-9]+]]}
; CHECK: ![[DN]] = !{![[LS]], ![[AS]]}
; CHECK-NEXT: ![[Z]] = !{![[ZS]]}
