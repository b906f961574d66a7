; Entries that are not nodes, a key that is not an integer, a position out of
; range, two entries at one position, a local reference past the marker.
declare void @g()
declare void @ir_sanitize.stashed_bundle_operands(i64, ...)

define void @f(i64 %x) {
  call void @g(), !irs.stashed_bundles !0
  call void @g(), !irs.stashed_bundles !1
  call void @g(), !irs.stashed_bundles !2
  call void @g(), !irs.stashed_bundles !3
  call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 7, i64 %x)
  call void @g(), !irs.stashed_bundles !4
  call void @g(), !irs.stashed_bundles !5
  ret void
}

!0 = !{i64 0, !"not a node", i64 3}
!1 = !{!"key", !{!"a", i32 0}}
!2 = !{i64 0, !{!"a", i32 4000000000}}
!3 = !{i64 0, !{!"a", i32 0}, !{!"b", i32 0}}
!4 = !{i64 7, !{!"a", i32 0, !{i32 2}}, !{!"b", i32 1, !{i32 0}}, !{!"c", i32 2, !{i64 1, i64 2}}}
!5 = !{i64 0, !{!"", i32 0}, !{i32 0, i32 1}, !{!"t", i32 0, !{}}, !{!"u", i64 1}}
