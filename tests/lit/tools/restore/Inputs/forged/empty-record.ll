; #1: an empty record, on a call without bundles and on one with a bundle.
declare void @g()

define void @f() {
  call void @g(), !irs.stashed_bundles !0
  call void @g() [ "unknown_a"(i64 1) ], !irs.stashed_bundles !0
  ret void
}

!0 = !{}
