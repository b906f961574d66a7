; The splat's decisions are optimization remarks of ir-sanitize-splat: each
; kernel splatted (passed) and each kernel or parameter left whole, with why
; (missed: the notes the ir-sanitize command prints).
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-splat \
; RUN:   -pass-remarks=ir-sanitize -pass-remarks-missed=ir-sanitize \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; Without -pass-remarks-missed the notes stay quiet.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-splat \
; RUN:   -pass-remarks=ir-sanitize-splat -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PASSED

define ptx_kernel void @k({ ptr addrspace(1), i64 } %a, float %x) {
  %p = extractvalue { ptr addrspace(1), i64 } %a, 0
  store float %x, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @escapes({ i32, float } %a) {
  ret void
}

@table = global ptr @escapes

; CHECK-DAG: remark: {{.*}} kernel 'k' splatted: 2 parameters into 3
; CHECK-DAG: remark: {{.*}} kernel 'escapes' is not splatted: its address is used other than by direct (non-musttail) calls
; PASSED: remark: {{.*}} kernel 'k' splatted: 2 parameters into 3
; PASSED-NOT: not splatted
