; AccumulationMerging is idempotent: a second run changes nothing; merged accumulations are not merged again.
; The input: the functions of the pass's main test. The second run's output
; is compared with the first's as opt prints it back (block predecessor
; lists and other printing details follow the use lists that reading sets).
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-merge-accumulations<reassociate-fp>' -S %s -o %t.once.ll
; RUN: FileCheck %s --check-prefix=ONCE < %t.once.ll
; RUN: opt -S %t.once.ll | grep -v '^; ModuleID' > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-merge-accumulations<reassociate-fp>' -S %t.once.ll \
; RUN:   | grep -v '^; ModuleID' > %t.twice
; RUN: diff %t.want %t.twice
; ONCE: .merged:

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

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

define void @same_pointer(ptr addrspace(1) %p, float %a, float %b, float %c) {
  atomicrmw fadd ptr addrspace(1) %p, float %a monotonic
  atomicrmw fadd ptr addrspace(1) %p, float %b monotonic
  atomicrmw fadd ptr addrspace(1) %p, float %c monotonic
  ret void
}

define void @integers(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %a, i32 %b) {
  atomicrmw sub ptr addrspace(1) %p, i32 %a monotonic
  atomicrmw sub ptr addrspace(1) %q, i32 %b monotonic
  ret void
}

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
