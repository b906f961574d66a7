; StoreSinkVersioning is idempotent: a second run changes nothing; the fallback of a versioned run (the original order) is not versioned
; again.
; The input: the functions of the pass's main test. The second run's output
; is compared with the first's as opt prints it back (block predecessor
; lists and other printing details follow the use lists that reading sets).
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-store-sink-versioning' -S %s -o %t.once.ll
; RUN: FileCheck %s --check-prefix=ONCE < %t.once.ll
; RUN: opt -S %t.once.ll | grep -v '^; ModuleID' > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-store-sink-versioning' -S %t.once.ll \
; RUN:   | grep -v '^; ModuleID' > %t.twice
; RUN: diff %t.want %t.twice
; ONCE: br i1 %accesses.disjoint, label %entry.fast, label %entry.ordered

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

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

define void @proven(ptr addrspace(1) noalias %dy, ptr addrspace(1) noalias %ddest, i64 %i) {
entry:
  %ddest.addr = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %ddest.addr, align 4
  store float 0.0, ptr addrspace(1) %ddest.addr, align 4
  %dy.addr = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %dy.addr, float %g monotonic, align 4
  ret void
}

define void @same_address(ptr addrspace(1) %p, i64 %i, float %g) {
entry:
  %a = getelementptr inbounds float, ptr addrspace(1) %p, i64 %i
  store float 0.0, ptr addrspace(1) %a, align 4
  %old = atomicrmw fadd ptr addrspace(1) %a, float %g monotonic, align 4
  ret void
}

define void @loaded_address(ptr addrspace(1) %pp, ptr addrspace(1) %d, i64 %i) {
entry:
  %d.addr = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  store float 0.0, ptr addrspace(1) %d.addr, align 4
  %p = load ptr addrspace(1), ptr addrspace(1) %pp, align 8
  %v = load float, ptr addrspace(1) %p, align 4
  store float %v, ptr addrspace(1) %pp, align 4
  ret void
}

define void @barrier_between(ptr addrspace(1) %d, ptr addrspace(1) %s, i64 %i, float %g) {
entry:
  %d.addr = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  %s.addr = getelementptr inbounds float, ptr addrspace(1) %s, i64 %i
  store float 0.0, ptr addrspace(1) %d.addr, align 4
  call void @llvm.nvvm.barrier0()
  %old = atomicrmw fadd ptr addrspace(1) %s.addr, float %g monotonic, align 4
  ret void
}

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

