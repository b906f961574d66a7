; A module with nothing to rewrite comes out the same as LLVM's own
; parse-and-print (same functions, instructions, metadata); check is clean.
; RUN: %irs %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=SUMMARY
; RUN: opt -S %s -o %t.ref.ll
; RUN: grep -v '^; ModuleID' %t.ll > %t.a
; RUN: grep -v '^; ModuleID' %t.ref.ll > %t.b
; RUN: diff %t.a %t.b
; RUN: %irs check %s | FileCheck %s --check-prefix=CLEAN
; SUMMARY: 1 bundles on 1 call sites: lowered 0, stashed 0, dropped 0, kept 1
; CLEAN: nothing-to-do.ll: clean: nothing that makes Enzyme abort

declare i32 @jl_f(ptr addrspace(10))

define i32 @julia_roots_only_3(ptr addrspace(10) %x) !dbg !3 {
top:
  %r = call i32 @jl_f(ptr addrspace(10) %x) [ "jl_roots"(ptr addrspace(10) %x) ], !dbg !6, !tbaa !7
  ret i32 %r
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !2, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "roots.jl", directory: ".")
!3 = distinct !DISubprogram(name: "roots_only", scope: null, file: !2, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!6 = !DILocation(line: 2, column: 3, scope: !3)
!7 = !{!8, !8, i64 0}
!8 = !{!"jtbaa_data", !9, i64 0}
!9 = !{!"jtbaa"}
