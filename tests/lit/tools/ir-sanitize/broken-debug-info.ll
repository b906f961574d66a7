; Broken debug info: stripped with LLVM's one-line warning when stripping
; fixes it, else refused as bad input (exit 3) with nothing written. Found by
; the module fuzzer: a compile unit named outside llvm.dbg.cu survived the
; strip, and the rewritten module failed the output verifier (exit 5).
; RUN: rm -rf %t && mkdir -p %t
; RUN: sed 's/^!llvm.dbg.cu/!llvm.dbz.cu/' %s > %t/held.ll
; RUN: %inputs/expect-exit 3 %irs %t/held.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=HELD
; RUN: not test -e %t/out.ll
; HELD:      warning: ignoring invalid debug info in {{.*}}held.ll
; HELD-NEXT: ir-sanitize: error: {{.*}}held.ll: invalid debug info that cannot be stripped: DICompileUnit not listed in llvm.dbg.cu
; HELD-NOT:  {{.}}
; Outdated debug info is stripped too; a compile unit held elsewhere then
; stays behind, and is refused the same way (found by the module fuzzer).
; RUN: sed 's/"Debug Info Version", i32 3/"Debug Info Version", i32 0/' %s > %t/old.ll
; RUN: echo '!held = !{!1}' >> %t/old.ll
; RUN: %inputs/expect-exit 3 %irs %t/old.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=OLD
; RUN: not test -e %t/out.ll
; OLD:      warning: ignoring debug info with an invalid version (0) in {{.*}}old.ll
; OLD-NEXT: ir-sanitize: error: {{.*}}old.ll: invalid debug info that cannot be stripped: DICompileUnit not listed in llvm.dbg.cu
; RUN: sed 's/unit: !1)/unit: !1, retainedNodes: !{i32 1})/' %s > %t/strippable.ll
; RUN: %irs %t/strippable.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=STRIP
; RUN: opt -passes=verify -disable-output %t/out.ll
; RUN: not grep dbg %t/out.ll
; STRIP:      warning: ignoring invalid debug info in {{.*}}strippable.ll
; STRIP-NEXT: ir-sanitize: {{.*}}strippable.ll: 1 bundles on 1 call sites

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
