; Each wrapper added is an optimization remark of
; ir-sanitize-derivative-wrapper, naming the mode and the activities.
; RUN: opt -load-pass-plugin=%plugin -pass-remarks=ir-sanitize -disable-output %s \
; RUN:   -passes='ir-sanitize-derivative-wrapper<fn=f;mode=forward;activity=dup.const>,ir-sanitize-derivative-wrapper<fn=f;mode=reverse;activity=dup.out>' \
; RUN:   2>&1 | FileCheck %s

define double @f(ptr %p, double %x) {
  store double %x, ptr %p
  ret double %x
}

; CHECK: remark: {{.*}} added f.fwd, which calls Enzyme on f in forward mode with activities dup, const
; CHECK: remark: {{.*}} added f.rev, which calls Enzyme on f in reverse mode with activities dup, out
