; #3: in unreachable code a marker call carrying its own record dominates
; itself; it is neither its own marker nor erased twice.
declare void @ir_sanitize.stashed_bundle_operands(i64, ...)

define void @f(i64 %x) {
entry:
  ret void
dead:
  call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, i64 %x), !irs.stashed_bundles !0
  ret void
}

!0 = !{i64 1, !1}
!1 = !{!"unknown_a", i32 0, !2}
!2 = !{i32 1}
