; ir-sanitize-derivative-wrapper: the driver Enzyme differentiates a function
; through, with one activity per parameter; errors as generateDerivativeWrapper's.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-derivative-wrapper<fn=f;mode=forward;activity=dup.const>,ir-sanitize-derivative-wrapper<fn=f;mode=reverse;activity=dup.const>' -S %s | FileCheck %s
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-derivative-wrapper<fn=f;mode=forward>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-derivative-wrapper<fn=f;mode=forward;activity=dup.active>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADACT
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-derivative-wrapper<fn=f;mode=forward;activity=dup>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT

define void @f(ptr %p, i64 %n) {
  store double 1.0, ptr %p
  ret void
}

; CHECK: define void @f.fwd(ptr %p, ptr %p.shadow, i64 %n)
; CHECK: call void (ptr, ...) @__enzyme_fwddiff(ptr @f.primal, metadata !"enzyme_dup", ptr %p, ptr %p.shadow, metadata !"enzyme_const", i64 %n)
; CHECK: define void @f.rev(ptr %p, ptr %p.shadow, i64 %n)
; CHECK: @__enzyme_autodiff(ptr @f.primal{{(\.[0-9]+)?}}, metadata !"enzyme_dup"

; MISSING: ir-sanitize-derivative-wrapper: fn=NAME, mode=forward|reverse and activity=A.A... are required
; BADACT: ir-sanitize-derivative-wrapper: unknown activity 'active' (expected const, dup, dupnoneed or out)
; COUNT: ir-sanitize-derivative-wrapper: activity list for f has 1
