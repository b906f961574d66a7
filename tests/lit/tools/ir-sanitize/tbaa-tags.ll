; LLVM's parser upgrades each instruction's !tbaa tag after reading the
; module, and that upgrade, like the verifier's TBAA check, crashes on a tag
; without a first operand, and the verifier also on a null operand in the type
; nodes it walks (found by the module fuzzer; LLVM 16 to 22). The
; tags are parsed under a private kind and checked before LLVM sees them: such
; a tag is refused in one line (exit 3) with nothing written.
; RUN: rm -rf %t && mkdir -p %t
; RUN: sed 's/!tbaa !7$/!tbaa !{null, !8}/' %s > %t/null.ll
; RUN: %inputs/expect-exit 3 %irs %t/null.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=NULL
; RUN: sed 's/!tbaa !7$/!tbaa !4/' %s > %t/di.ll
; RUN: %inputs/expect-exit 3 %irs %t/di.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=NULL
; RUN: sed 's/!tbaa !7$/!tbaa !5/' %s > %t/empty.ll
; RUN: %inputs/expect-exit 3 %irs %t/empty.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=NULL
; The verifier walks the type nodes too: a !DI node as a scalar's parent.
; RUN: sed 's/^!9 = !{!"jtbaa_old", !10}$/!9 = !{!"jtbaa_old", !4}/' %s > %t/parent.ll
; RUN: %inputs/expect-exit 3 %irs %t/parent.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=NULL
; RUN: not test -e %t/out.ll
; NULL:      ir-sanitize: error: {{.*}}.ll: invalid IR: a !tbaa tag in @julia_tagged_1 has no first operand, or reaches a null one
; NULL-NOT:  {{.}}
;
; Everything else reads as LLVM reads it: an old scalar tag (!9) is upgraded
; to the struct-path form, the named node !tbaa and the string that spells
; ", !tbaa" stay as they are.
; RUN: %irs %s -o %t/good.ll
; RUN: opt -passes=verify -disable-output %t/good.ll
; RUN: FileCheck %s --check-prefix=GOOD < %t/good.ll
; GOOD:      @seen = {{.*}}c"x, !tbaa !7"
; GOOD:      %a = load i32, ptr %p, align 4, !tbaa [[DATA:![0-9]+]]
; GOOD-NEXT: %b = load i32, ptr %p, align 4, !tbaa [[OLD:![0-9]+]]
; GOOD:      !tbaa = !{[[ROOT:![0-9]+]]}
; GOOD-DAG:  [[DATA]] = !{[[TY:![0-9]+]], [[TY]], i64 0}
; GOOD-DAG:  [[OLD]] = !{[[SCALAR:![0-9]+]], [[SCALAR]], i64 0}
; GOOD-DAG:  [[SCALAR]] = !{!"jtbaa_old", [[ROOT]]}

@seen = constant [11 x i8] c"x, !tbaa !7"

define i32 @julia_tagged_1(ptr %p) !dbg !3 {
top:
  %a = load i32, ptr %p, align 4, !tbaa !7
  %b = load i32, ptr %p, align 4, !tbaa !9
  %c = add i32 %a, %b, !dbg !6
  ret i32 %c
}

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!tbaa = !{!10}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !2, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "tagged.jl", directory: ".")
!3 = distinct !DISubprogram(name: "tagged", scope: null, file: !2, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!6 = !DILocation(line: 2, column: 3, scope: !3)
!7 = !{!8, !8, i64 0}
!8 = !{!"jtbaa_data", !10, i64 0}
!9 = !{!"jtbaa_old", !10}
!10 = !{!"jtbaa"}
