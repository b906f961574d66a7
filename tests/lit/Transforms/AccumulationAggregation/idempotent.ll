; AccumulationAggregation is idempotent: a second run changes nothing; the
; atomics it emitted (and the plain path's) are marked and not aggregated
; again.
; The second run's output is compared with the first's as opt prints it
; back (block predecessor lists follow the use lists that reading sets).
; RUN: opt -load-pass-plugin=%plugin -passes='function(ir-sanitize-aggregate-accumulations<reassociate-fp>)' -S %s -o %t.once.ll
; RUN: FileCheck %s --check-prefix=ONCE < %t.once.ll
; RUN: opt -S %t.once.ll | grep -v '^; ModuleID' > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes='function(ir-sanitize-aggregate-accumulations<reassociate-fp>)' -S %t.once.ll \
; RUN:   | grep -v '^; ModuleID' > %t.twice
; RUN: diff %t.want %t.twice
; ONCE: match.any.sync

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @gather_reverse(ptr addrspace(1) %dx, ptr addrspace(1) %idx, ptr addrspace(1) %dout) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ip = getelementptr inbounds i64, ptr addrspace(1) %idx, i32 %tid
  %j = load i64, ptr addrspace(1) %ip, align 8
  %gp = getelementptr inbounds float, ptr addrspace(1) %dout, i32 %tid
  %g = load float, ptr addrspace(1) %gp, align 4
  %p = getelementptr inbounds float, ptr addrspace(1) %dx, i64 %j
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

define void @per_block(ptr addrspace(1) %d, double %g) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %p = getelementptr inbounds double, ptr addrspace(1) %d, i32 %ctaid
  %old = atomicrmw fadd ptr addrspace(1) %p, double %g monotonic, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
