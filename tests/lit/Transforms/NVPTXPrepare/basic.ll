; ir-sanitize-nvptx-prepare: the named kernels get names PTX can state, debug
; info and per-function targets go.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-prepare<kernel=k.1;kernel=odd%2Cname>' -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-nvptx-prepare -S %s | FileCheck %s --check-prefix=NONAMES
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-prepare<k.1>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
; The target's data layout replaces the module's; one that does not parse is
; refused (setDataLayout would abort).
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-prepare<datalayout=e-i64:64-n16:32:64>' -S %s | FileCheck %s --check-prefix=LAYOUT
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-prepare<datalayout=e-q>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADLAYOUT

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k.1() #0 !dbg !5 {
  ret void, !dbg !8
}

define ptx_kernel void @"odd,name"() {
  ret void
}

define void @helper.2() #0 {
  ret void
}

attributes #0 = { nounwind "target-cpu"="sm_70" "target-features"="+ptx63" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !1, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.jl", directory: ".")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 2, !"Dwarf Version", i32 4}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 1, scope: !5)

; CHECK: define ptx_kernel void @k_1() #0 {
; CHECK-NEXT: ret void{{$}}
; CHECK: define ptx_kernel void @odd_name()
; CHECK: define void @helper.2() #0
; CHECK: attributes #0 = { nounwind }
; CHECK-NOT: !dbg
; CHECK-NOT: DICompileUnit

; NONAMES: define ptx_kernel void @k.1() #0 {
; NONAMES: attributes #0 = { nounwind }

; BAD: ir-sanitize-nvptx-prepare: invalid parameter 'k.1' (expected kernel=NAME or datalayout=DL)
; LAYOUT: target datalayout = "e-i64:64-n16:32:64"
; BADLAYOUT: ir-sanitize-nvptx-prepare: invalid datalayout: 
