; A kernel that makes a musttail call keeps its parameters (the callee must
; have the caller's exact parameter list), and so does a kernel a musttail
; call reaches; each gets a note. Splatting @m used to leave its musttail
; call to @k mismatched: the verifier failed and the tool exited 5.
; RUN: %irs %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-splat -pass-remarks-missed=ir-sanitize-splat -S %s 2>&1 | FileCheck %s --check-prefixes=CHECK,NOTE

; NOTE-DAG: {{(note|remark)}}: {{.*}}kernel 'k' is not splatted: its address is used other than by direct (non-musttail) calls
; NOTE-DAG: {{(note|remark)}}: {{.*}}kernel 'm' is not splatted: it makes a musttail call, whose callee must keep the kernel's own parameters
; NOTE-DAG: {{(note|remark)}}: {{.*}}kernel 'n' is not splatted: it makes a musttail call

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k({ i32, float } %a)
define ptx_kernel void @k({ i32, float } %a) {
  ret void
}

; CHECK-LABEL: define ptx_kernel void @m({ i32, float } %a)
; CHECK-NEXT:    musttail call ptx_kernel void @k({ i32, float } %a)
define ptx_kernel void @m({ i32, float } %a) {
  musttail call ptx_kernel void @k({ i32, float } %a)
  ret void
}

; A kernel with a musttail call to a function that is not a kernel (a
; declaration) is left alone the same way.
; CHECK-LABEL: define ptx_kernel void @n({ i32, float } %a)
; CHECK-NEXT:    musttail call ptx_kernel void @helper({ i32, float } %a)
define ptx_kernel void @n({ i32, float } %a) {
  musttail call ptx_kernel void @helper({ i32, float } %a)
  ret void
}
declare ptx_kernel void @helper({ i32, float })

; Without musttail, the kernel is splatted and its plain tail call to @k
; keeps the aggregate, rebuilt from the leaves.
; CHECK-LABEL: define ptx_kernel void @t(i32 %a.0, float %a.1)
; CHECK:         tail call ptx_kernel void @helper({ i32, float } %a)
define ptx_kernel void @t({ i32, float } %a) {
  tail call ptx_kernel void @helper({ i32, float } %a)
  ret void
}
