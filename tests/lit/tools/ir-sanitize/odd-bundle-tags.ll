; Bundle tags the pipeline syntax would misread (its separators, a quote,
; the parameter keyword `scope`) go into pipeline text escaped: the rewrite
; runs, --print-pipeline-passes prints text opt parses back to the same
; policy, and opt gives the module the command writes.
;
; RUN: rm -rf %t && mkdir -p %t
; RUN: %irs %s --bundle 'scope=keep' --bundle "a;b,c(d)=drop" \
; RUN:   --bundle "it's=keep" -q -o %t/tool.ll
; RUN: FileCheck %s --check-prefix=IR < %t/tool.ll
; IR: call void @f() [ "scope"(i32 1), "it's"(i32 2) ]
; IR-NOT: "a;b,c(d)"
;
; RUN: %irs --print-pipeline-passes %s --bundle 'scope=keep' \
; RUN:   --bundle "a;b,c(d)=drop" --bundle "it's=keep" > %t/pipeline
; RUN: FileCheck %s < %t/pipeline
; CHECK: {{^}}ir-sanitize-bundles<%73cope=keep;a%3Bb%2Cc%28d%29=drop;it%27s=keep>,ir-sanitize-splat{{$}}
; RUN: python3 %inputs/opt-pipeline.py %t/pipeline %plugin %s %t/opt.ll
; RUN: tail -n +2 %t/tool.ll > %t/tool.body.ll
; RUN: tail -n +2 %t/opt.ll > %t/opt.body.ll
; RUN: cmp %t/tool.body.ll %t/opt.body.ll
;
; `scope` as opt's own parameter still means the scope.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles<scope=all>' \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=SCOPE
; SCOPE: ir-sanitize-bundles<scope=all>

define void @g() {
  call void @f() [ "scope"(i32 1), "a;b,c(d)"(i32 3), "it's"(i32 2) ]
  ret void
}

declare void @f()
