; AccumulationMerging: two adjacent atomic additions into what may be one
; element become one atomic of their sum, behind a test where alias
; analysis cannot decide; floating point only with reassociate-fp.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-merge-accumulations<reassociate-fp>' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-merge-accumulations -S %s \
; RUN:   | FileCheck %s --check-prefix=EXACT
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-merge-accumulations<fast>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: ir-sanitize-merge-accumulations: unknown parameter 'fast' (expected reassociate-fp)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; x .+ x: two pointer parameters, equal at run time. The second pointer's
; address arithmetic, between the two, moves up for the test.
; CHECK-LABEL: define void @two_params(
; CHECK:         %q = getelementptr inbounds float, ptr addrspace(1) %dx2, i64 %i
; CHECK-NEXT:    %same.element = icmp eq ptr addrspace(1) %p, %q
; CHECK-NEXT:    %accumulated = fadd float %a, %b
; CHECK-NEXT:    %[[V:[0-9]+]] = select i1 %same.element, float %accumulated, float %a
; CHECK-NEXT:    %old = atomicrmw fadd ptr addrspace(1) %p, float %[[V]] monotonic
; CHECK-NEXT:    br i1 %same.element, label %entry.merged, label %entry.second
; CHECK:       entry.second:
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %q, float %b monotonic
; CHECK-NEXT:    br label %entry.merged
; CHECK:       entry.merged:
; CHECK-NEXT:    store float 0.000000e+00
; CHECK-NEXT:    ret void
; Without reassociate-fp, floating-point accumulations stay as they are.
; EXACT-LABEL: define void @two_params(
; EXACT-NOT:     icmp
; EXACT-COUNT-2: atomicrmw fadd
define void @two_params(ptr addrspace(1) %dx1, ptr addrspace(1) %dx2, ptr addrspace(1) %dd,
                        i64 %i, float %a, float %b) {
entry:
  %p = getelementptr inbounds float, ptr addrspace(1) %dx1, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %p, float %a monotonic
  %q = getelementptr inbounds float, ptr addrspace(1) %dx2, i64 %i
  atomicrmw fadd ptr addrspace(1) %q, float %b monotonic
  store float 0.0, ptr addrspace(1) %dd
  ret void
}

; One address: no test; a third accumulation joins too.
; CHECK-LABEL: define void @same_pointer(
; CHECK-NEXT:    %accumulated = fadd float %a, %b
; CHECK-NEXT:    %accumulated1 = fadd float %accumulated, %c
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %p, float %accumulated1 monotonic
; CHECK-NEXT:    ret void
define void @same_pointer(ptr addrspace(1) %p, float %a, float %b, float %c) {
  atomicrmw fadd ptr addrspace(1) %p, float %a monotonic
  atomicrmw fadd ptr addrspace(1) %p, float %b monotonic
  atomicrmw fadd ptr addrspace(1) %p, float %c monotonic
  ret void
}

; Integer additions are exact: merged without reassociate-fp; `sub`
; subtracts the sum.
; EXACT-LABEL: define void @integers(
; EXACT-NEXT:    %same.element = icmp eq ptr addrspace(1) %p, %q
; EXACT-NEXT:    %accumulated = add i32 %a, %b
; EXACT:         atomicrmw sub ptr addrspace(1) %p
; EXACT:         atomicrmw sub ptr addrspace(1) %q, i32 %b
define void @integers(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %a, i32 %b) {
  atomicrmw sub ptr addrspace(1) %p, i32 %a monotonic
  atomicrmw sub ptr addrspace(1) %q, i32 %b monotonic
  ret void
}

; Left alone: provably different elements; a memory access between them;
; the second's old value used; a stronger ordering; different operations;
; the second's value computed from the first's result; volatile.
; CHECK-LABEL: define void @left_alone(
; CHECK-NOT:     icmp
; CHECK-NOT:     select
; CHECK-COUNT-13: atomicrmw
; CHECK-NOT:     select
; CHECK:         ret void
define void @left_alone(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %r,
                        float %a, float %b) {
  %p1 = getelementptr inbounds float, ptr addrspace(1) %p, i64 1
  atomicrmw fadd ptr addrspace(1) %p, float %a monotonic
  atomicrmw fadd ptr addrspace(1) %p1, float %b monotonic
  store float 0.0, ptr addrspace(1) %r
  atomicrmw fadd ptr addrspace(1) %q, float %a monotonic
  store float 1.0, ptr addrspace(1) %r
  atomicrmw fadd ptr addrspace(1) %p, float %b monotonic
  %used = atomicrmw fadd ptr addrspace(1) %q, float %b monotonic
  store float %used, ptr addrspace(1) %r
  atomicrmw fadd ptr addrspace(1) %p, float %a seq_cst
  atomicrmw fadd ptr addrspace(1) %q, float %b seq_cst
  store float 2.0, ptr addrspace(1) %r
  atomicrmw fadd ptr addrspace(1) %p, float %a monotonic
  atomicrmw fsub ptr addrspace(1) %q, float %b monotonic
  store float 3.0, ptr addrspace(1) %r
  %first = atomicrmw fadd ptr addrspace(1) %p, float %a monotonic
  %dep = fmul float %first, %b
  atomicrmw fadd ptr addrspace(1) %q, float %dep monotonic
  store float 4.0, ptr addrspace(1) %r
  atomicrmw volatile fadd ptr addrspace(1) %p, float %a monotonic
  atomicrmw fadd ptr addrspace(1) %q, float %b monotonic
  ret void
}
