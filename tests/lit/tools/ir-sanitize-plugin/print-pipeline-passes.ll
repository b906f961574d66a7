; opt knows each pass class by its pipeline name (PassRegistry.def's CLASS
; column): -print-pipeline-passes prints the registered names, parameters as
; the parsers read them, and the printed text replays to the same module.
; RUN: opt -load-pass-plugin=%plugin -print-pipeline-passes -disable-output %s \
; RUN:   -passes='ir-sanitize-bundles<scope=all;gc-transition=stash>,ir-sanitize-splat<kernel=k%2C1>,function(ir-sanitize-merge-accumulations<reassociate-fp>)' \
; RUN:   | FileCheck %s --check-prefix=PRINT
; PRINT: {{^}}ir-sanitize-bundles<gc-transition=stash;scope=all>,ir-sanitize-splat<kernel=k%2C1>,function(ir-sanitize-merge-accumulations<reassociate-fp>),verify{{$}}

; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles<gc-transition=stash>,ir-sanitize-splat' -S %s -o %t.a.ll
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles<gc-transition=stash>,ir-sanitize-splat' -print-pipeline-passes -disable-output %s > %t.pipeline
; RUN: sh -c 'opt -load-pass-plugin=%plugin -passes="$(cat %t.pipeline)" -S %s -o %t.b.ll'
; RUN: cmp %t.a.ll %t.b.ll

; Pass selection by name (-print-after) reads the same mapping.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles,ir-sanitize-splat' \
; RUN:   -print-after=ir-sanitize-splat -disable-output %s 2>&1 | FileCheck %s --check-prefix=AFTER
; AFTER: IR Dump After {{.*}}KernelSplatPass
; AFTER-NOT: IR Dump After

declare i32 @cuCtxSynchronize()

define i32 @julia_sync_4() {
  %r = call i32 @cuCtxSynchronize() [ "gc-transition"() ]
  ret i32 %r
}

define ptx_kernel void @"k,1"({ ptr addrspace(1), i64 } %a, float %x) {
  %p = extractvalue { ptr addrspace(1), i64 } %a, 0
  store float %x, ptr addrspace(1) %p
  ret void
}
