; --print-pipeline-passes prints the pipeline the default command runs, from
; the pipeline it parses (as opt prints the one it parsed), after reading the
; input; opt with the plugin replays it to the very module the command writes.
; RUN: %irs --print-pipeline-passes %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %irs --print-pipeline-passes --bundle gc-transition=stash --scope all \
; RUN:   --kernel 'k.1' --kernel 'odd,name' %S/Inputs/odd-kernel-names.ll | FileCheck %s --check-prefix=PARAMS
; RUN: %irs --print-pipeline-passes --no-splat %s | FileCheck %s --check-prefix=NOSPLAT

; DEFAULT: {{^}}ir-sanitize-bundles,ir-sanitize-splat{{$}}
; PARAMS: {{^}}ir-sanitize-bundles<gc-transition=stash;scope=all>,ir-sanitize-splat<kernel=k.1;kernel=odd%2Cname>{{$}}
; NOSPLAT: {{^}}ir-sanitize-bundles{{$}}

; It fails as the command would (issue 27 #9): a missing or malformed input
; is exit 3, a --kernel the input does not define exit 2, no input at all
; exit 2; nothing is printed on stdout then.
; RUN: rm -rf %t.d && mkdir %t.d
; RUN: %inputs/expect-exit 3 %irs --print-pipeline-passes %t.d/missing.ll > %t.d/out 2> %t.d/err
; RUN: FileCheck %s --check-prefix=MISSING < %t.d/err
; RUN: not test -s %t.d/out
; MISSING: ir-sanitize: error: {{.*}}missing.ll: No such file or directory
; RUN: echo 'not IR' > %t.d/bad.ll
; RUN: %inputs/expect-exit 3 %irs --print-pipeline-passes %t.d/bad.ll 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: ir-sanitize: error: {{.*}}bad.ll:1:1:
; RUN: %inputs/expect-exit 2 %irs --print-pipeline-passes --kernel nope %s > %t.d/out 2> %t.d/err
; RUN: FileCheck %s --check-prefix=KERNEL < %t.d/err
; RUN: not test -s %t.d/out
; KERNEL: ir-sanitize: error: no kernel named 'nope' in {{.*}}; its kernels: k.1
; RUN: %inputs/expect-exit 2 %irs --print-pipeline-passes 2>&1 | FileCheck %s --check-prefix=NOINPUT
; NOINPUT: ir-sanitize: error: no input file
; A --kernel is looked up only when the splat runs, as in the command.
; RUN: %irs --print-pipeline-passes --no-splat --kernel nope %s | FileCheck %s --check-prefix=NOSPLAT

; Replayed: identical modules, byte for byte.
; RUN: %irs -q %s -o %t.tool.ll --manifest %t.manifest.json
; RUN: %irs --print-pipeline-passes %s > %t.pipeline
; RUN: sh -c 'opt -load-pass-plugin=%plugin -passes="$(cat %t.pipeline)" -S %s -o %t.opt.ll'
; RUN: cmp %t.tool.ll %t.opt.ll
; RUN: %irs -q %s -o %t.tool2.ll --bundle gc-transition=stash --kernel k.1 --manifest %t.manifest2.json
; RUN: %irs --print-pipeline-passes --bundle gc-transition=stash --kernel k.1 %s > %t.pipeline2
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
