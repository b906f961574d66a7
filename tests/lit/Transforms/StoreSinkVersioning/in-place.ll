; StoreSinkVersioning's in-place version: where this thread's clear of an
; element (`store c, p`) and its accumulations into one element (`atomicrmw
; fadd q, v`) are at one address, they become one store of c + v at the
; atomic's place (Enzyme's reverse of `y .= x .+ y`: d_dest[i] = 0, then
; d_y[i] += g with d_y == d_dest). The shapes below; each version's PTX is
; in tools/gpu-check/derivative-order.test.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-store-sink-versioning -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -passes=verify -disable-output %t.ll
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Two accumulations (x and y differentiated, y in place): the in-place test
; needs one of them at d_dest's element and each there or disjoint from it;
; the one there is summed, the other stays an atomic under its own test.
; CHECK-LABEL: define void @two_accumulations(
; CHECK:         %accesses.disjoint = and i1
; CHECK-NEXT:    %px.inplace = icmp eq i64 %dd.int, %px.int
; CHECK-NEXT:    %[[XOK:[0-9]+]] = or i1 %px.inplace, %[[XDISJ:[0-9]+]]
; CHECK-NEXT:    %py.inplace = icmp eq i64 %dd.int, %py.int
; CHECK-NEXT:    %[[ONE:[0-9]+]] = or i1 %px.inplace, %py.inplace
; CHECK-NEXT:    %[[YOK:[0-9]+]] = or i1 %py.inplace, %[[YDISJ:[0-9]+]]
; CHECK-NEXT:    %[[BOTH:[0-9]+]] = and i1 %[[XOK]], %[[YOK]]
; CHECK-NEXT:    %accesses.inplace = and i1 %[[BOTH]], %[[ONE]]
; CHECK:       entry.inplace:
; CHECK-NEXT:    %[[G:g[0-9]+]] = load float, ptr addrspace(1) %dd
; CHECK-NEXT:    %accumulated = fadd float 0.000000e+00, %[[G]]
; CHECK-NEXT:    %[[S1:accumulated[0-9]+]] = select i1 %px.inplace, float %accumulated, float 0.000000e+00
; CHECK-NEXT:    %[[NX:[0-9]+]] = xor i1 %px.inplace, true
; CHECK-NEXT:    br i1 %[[NX]], label %[[AX:[0-9]+]], label %[[CX:[0-9]+]]
; CHECK:       [[AX]]:
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %px, float %[[G]] monotonic
; CHECK:       [[CX]]:
; CHECK-NEXT:    %[[A2:accumulated[0-9]+]] = fadd float %[[S1]], %[[G]]
; CHECK-NEXT:    %[[S2:accumulated[0-9]+]] = select i1 %py.inplace, float %[[A2]], float %[[S1]]
; CHECK:         atomicrmw fadd ptr addrspace(1) %py, float %[[G]] monotonic
; CHECK:         store float %[[S2]], ptr addrspace(1) %dd, align 4
; CHECK-NEXT:    br label %entry.join
; CHECK:       entry.ordered:
; CHECK-NEXT:    load float
; CHECK-NEXT:    store float 0.000000e+00
; CHECK-NEXT:    atomicrmw fadd
; CHECK-NEXT:    atomicrmw fadd
define void @two_accumulations(ptr addrspace(1) %ddest, ptr addrspace(1) %dx, ptr addrspace(1) %dy, i64 %i) {
entry:
  %dd = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %dd, align 4
  store float 0.0, ptr addrspace(1) %dd, align 4
  %px = getelementptr inbounds float, ptr addrspace(1) %dx, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %px, float %g monotonic, align 4
  %py = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %b = atomicrmw fadd ptr addrspace(1) %py, float %g monotonic, align 4
  ret void
}

; Partial overlap: an 8-byte clear and a 4-byte accumulation (two leaves of
; different element size over one buffer) are never one element. No
; in-place version: where they overlap, the original order runs.
; CHECK-LABEL: define void @mixed_widths(
; CHECK-NOT:     icmp eq
; CHECK:         br i1 %accesses.disjoint, label %entry.fast, label %entry.ordered
; CHECK-NOT:     inplace
; CHECK:         ret void
define void @mixed_widths(ptr addrspace(1) %ddest, ptr addrspace(1) %dy, i64 %i) {
entry:
  %dd = getelementptr inbounds double, ptr addrspace(1) %ddest, i64 %i
  %g = load double, ptr addrspace(1) %dd, align 8
  store double 0.0, ptr addrspace(1) %dd, align 8
  %py = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %t = fptrunc double %g to float
  %a = atomicrmw fadd ptr addrspace(1) %py, float %t monotonic, align 4
  ret void
}

; A load between the clear and the accumulation would see the cleared
; element: the in-place test also needs it disjoint from the element (here
; the pair the fast version checks too, so the test is shared).
; CHECK-LABEL: define void @access_between(
; CHECK:         %[[ODISJ:[0-9]+]] = or i1
; CHECK:         %accesses.disjoint = and i1 %[[ODISJ]],
; CHECK-NEXT:    %py.inplace = icmp eq i64 %dd.int, %py.int
; CHECK-NEXT:    %accesses.inplace = and i1 %py.inplace, %[[ODISJ]]
; CHECK:       entry.inplace:
; CHECK-NEXT:    load float, ptr addrspace(1) %dd
; CHECK-NEXT:    load float, ptr addrspace(1) %po
; CHECK-NEXT:    %[[S:s[0-9]+]] = fadd float
; CHECK-NEXT:    %accumulated = fadd float 0.000000e+00, %[[S]]
; CHECK-NEXT:    store float %accumulated, ptr addrspace(1) %dd
; CHECK-NEXT:    br label %entry.join
define void @access_between(ptr addrspace(1) %ddest, ptr addrspace(1) %dy, ptr addrspace(1) %o, i64 %i) {
entry:
  %dd = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %dd, align 4
  store float 0.0, ptr addrspace(1) %dd, align 4
  %po = getelementptr inbounds float, ptr addrspace(1) %o, i64 %i
  %v = load float, ptr addrspace(1) %po, align 4
  %s = fadd float %g, %v
  %py = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %py, float %s monotonic, align 4
  ret void
}

; The atomic's old value is used: it cannot become a store.
; CHECK-LABEL: define float @old_value_used(
; CHECK-NOT:     inplace
; CHECK:         ret float
define float @old_value_used(ptr addrspace(1) %ddest, ptr addrspace(1) %dy, i64 %i) {
entry:
  %dd = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %dd, align 4
  store float 0.0, ptr addrspace(1) %dd, align 4
  %py = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %py, float %g monotonic, align 4
  ret float %a
}
