; #5: a global variable holds the marker's name.
@ir_sanitize.stashed_bundle_operands = global i64 0

declare void @g()

define void @f(i64 %x) {
  call void @g() [ "unknown_a"(i64 %x), "unknown_b"(i64 3) ]
  call void @g(), !irs.stashed_bundles !0
  ret void
}

!0 = !{i64 1, !1}
!1 = !{!"unknown_a", i32 0, !2}
!2 = !{i32 1}
