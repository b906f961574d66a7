; --print-pipeline-passes prints the pipeline the default command runs, and
; opt with the plugin replays it to the very module the command writes.
; RUN: %irs --print-pipeline-passes | FileCheck %s --check-prefix=DEFAULT
; RUN: %irs --print-pipeline-passes --bundle gc-transition=stash --scope all \
; RUN:   --kernel 'k.1' --kernel 'odd,name' | FileCheck %s --check-prefix=PARAMS
; RUN: %irs --print-pipeline-passes --no-splat | FileCheck %s --check-prefix=NOSPLAT

; DEFAULT: {{^}}ir-sanitize-bundles,ir-sanitize-splat{{$}}
; PARAMS: {{^}}ir-sanitize-bundles<gc-transition=stash;scope=all>,ir-sanitize-splat<kernel=k.1;kernel=odd%2Cname>{{$}}
; NOSPLAT: {{^}}ir-sanitize-bundles{{$}}

; Replayed: identical modules, byte for byte.
; RUN: %irs -q %s -o %t.tool.ll --manifest %t.manifest.json
; RUN: %irs --print-pipeline-passes > %t.pipeline
; RUN: sh -c 'opt -load-pass-plugin=%plugin -passes="$(cat %t.pipeline)" -S %s -o %t.opt.ll'
; RUN: cmp %t.tool.ll %t.opt.ll
; RUN: %irs -q %s -o %t.tool2.ll --bundle gc-transition=stash --kernel k.1 --manifest %t.manifest2.json
; RUN: %irs --print-pipeline-passes --bundle gc-transition=stash --kernel k.1 > %t.pipeline2
; RUN: sh -c 'opt -load-pass-plugin=%plugin -passes="$(cat %t.pipeline2)" -S %s -o %t.opt2.ll'
; RUN: cmp %t.tool2.ll %t.opt2.ll
; RUN: FileCheck %s --check-prefix=STASHED < %t.opt2.ll

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @cuCtxSynchronize()

define i32 @julia_sync_4() {
  %r = call i32 @cuCtxSynchronize() [ "gc-transition"() ]
  ret i32 %r
}

define ptx_kernel void @k.1({ ptr addrspace(1), i64 } %a, float %x) {
  %p = extractvalue { ptr addrspace(1), i64 } %a, 0
  store float %x, ptr addrspace(1) %p
  ret void
}

; STASHED: define ptx_kernel void @k.1(ptr addrspace(1) %a.0, i64 %a.1, float %x)
