; #2: a marker call whose result is used must not be erased.
declare void @g()
declare i64 @ir_sanitize.stashed_bundle_operands(i64, ...)

define i64 @f(i64 %x) {
  %m = call i64 (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, i64 %x)
  call void @g(), !irs.stashed_bundles !0
  ret i64 %m
}

!0 = !{i64 1, !1}
!1 = !{!"unknown_a", i32 0, !2}
!2 = !{i32 1}
