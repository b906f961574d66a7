; Each bundle's decision is an optimization remark of ir-sanitize-bundles:
; what was lowered, stashed or dropped (passed), kept against the policy and
; why (missed), kept as the policy says (analysis). -pass-remarks matches
; the pass name, so `ir-sanitize` selects every pass's, a pass name one's.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles<julia.x=drop;julia.y=stash>' \
; RUN:   -pass-remarks=ir-sanitize -pass-remarks-missed=ir-sanitize \
; RUN:   -pass-remarks-analysis=ir-sanitize -disable-output %s 2>&1 | FileCheck %s
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles' \
; RUN:   -pass-remarks=ir-sanitize-splat -pass-remarks-missed=ir-sanitize-splat \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=OTHER --allow-empty

declare void @jl_call()
declare i32 @cuCtxSynchronize()

define void @julia_f(ptr %ptls, ptr %a, ptr %b) {
  %r = call i32 @cuCtxSynchronize() [ "jl_roots"(ptr %a), "gc-transition"() ]
  call void @jl_call() [ "julia.x"() ]
  call void @jl_call() [ "julia.y"(i32 1) ]
  call void @jl_call() [ "gc-transition"(ptr %a, ptr %b) ]
  ret void
}

; CHECK-DAG: remark: {{.*}} kept the 'jl_roots' bundle of the call to cuCtxSynchronize, as the policy says
; CHECK-DAG: remark: {{.*}} lowered the 'gc-transition' bundle of the call to cuCtxSynchronize
; CHECK-DAG: remark: {{.*}} dropped the 'julia.x' bundle of the call to jl_call
; CHECK-DAG: remark: {{.*}} stashed the 'julia.y' bundle of the call to jl_call
; CHECK-DAG: remark: {{.*}} kept the 'gc-transition' bundle of the call to jl_call instead of 'lower': gc-transition with more than one operand is not a Julia form
; OTHER-NOT: remark
