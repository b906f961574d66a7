; Two calls name one marker (copies of a call share their record's key). The
; default command restores and re-stashes only the call that still carries
; a bundle; the marker the other record names must stay, so that restore
; later brings back both (issue 21: never erase what a record still names).
; RUN: %irs %s -q -o %t.stashed.ll
; RUN: %irs restore %t.stashed.ll -o %t.restored.ll 2>&1 | FileCheck %s --check-prefix=COUNT
; RUN: FileCheck %s < %t.restored.ll

declare void @g()
declare void @ir_sanitize.stashed_bundle_operands(i64, ...)

define void @f(i64 %x) {
  call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, i64 %x)
  call void @g() [ "jl_roots"() ], !irs.stashed_bundles !0
  call void @g(), !irs.stashed_bundles !0
  ret void
}

!0 = !{i64 1, !1}
!1 = !{!"unknown_a", i32 1, !2}
!2 = !{i32 1}

; COUNT: restored 2 bundles on 2 calls
; CHECK: call void @g() [ "jl_roots"(), "unknown_a"(i64 %x) ]
; CHECK-NEXT: call void @g() [ "unknown_a"(i64 %x) ]
