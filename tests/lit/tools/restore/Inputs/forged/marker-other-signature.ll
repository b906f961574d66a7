; #6: the marker's name declared with another signature is not a marker.
declare void @g()
declare void @ir_sanitize.stashed_bundle_operands(i32)

define void @f(i64 %x) {
  call void @ir_sanitize.stashed_bundle_operands(i32 1)
  call void @g(), !irs.stashed_bundles !0
  call void @g() [ "unknown_b"(i64 %x) ]
  ret void
}

!0 = !{i64 1, !1}
!1 = !{!"unknown_a", i32 0, !2}
!2 = !{i32 1}
