; #4: the recorded call is laid out before the block of its dominating
; marker, and that marker carries a record of its own.
declare void @g()
declare void @ir_sanitize.stashed_bundle_operands(i64, ...)

define void @f(i64 %x) {
entry:
  br label %second
first:
  call void @g(), !irs.stashed_bundles !0
  ret void
second:
  call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, i64 %x), !irs.stashed_bundles !3
  br label %first
}

!0 = !{i64 1, !1}
!1 = !{!"unknown_a", i32 0, !2}
!2 = !{i32 1}
!3 = !{i64 0, !4}
!4 = !{!"unknown_b", i32 0, i64 5}
