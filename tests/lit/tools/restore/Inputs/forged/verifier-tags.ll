; #6: records with the tags the verifier constrains, in shapes it refuses.
; Each is a lost bundle, never a broken module.
declare void @g()
declare ptr @p()
declare void @llvm.assume(i1)
declare void @llvm.experimental.deoptimize.isVoid(...)
declare void @ir_sanitize.stashed_bundle_operands(i64, ...)

define void @deopt_twice() {
  call void @g() [ "deopt"(i32 1) ], !irs.stashed_bundles !{i64 0, !{!"deopt", i32 1, i32 2}}
  ret void
}

define void @deopt_twice_in_record() {
  call void @g(), !irs.stashed_bundles !{i64 0, !{!"deopt", i32 0, i32 1}, !{!"deopt", i32 1, i32 2}}
  ret void
}

define void @kcfi_not_constant(i32 %x) {
  call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, i32 %x)
  call void @g(), !irs.stashed_bundles !{i64 1, !{!"kcfi", i32 0, !{i32 1}}}
  ret void
}

define void @kcfi_i64(ptr %fn) {
  call void %fn(), !irs.stashed_bundles !{i64 0, !{!"kcfi", i32 0, i64 1}}
  ret void
}

define void @funclet_constant() {
  call void @g(), !irs.stashed_bundles !{i64 0, !{!"funclet", i32 0, i32 0}}
  ret void
}

define void @ptrauth_one_operand(ptr %fn) {
  call void %fn(), !irs.stashed_bundles !{i64 0, !{!"ptrauth", i32 0, i32 0}}
  ret void
}

define void @ptrauth_direct() {
  call void @g(), !irs.stashed_bundles !{i64 0, !{!"ptrauth", i32 0, i32 0, i64 1}}
  ret void
}

define void @preallocated_constant() {
  call void @g(), !irs.stashed_bundles !{i64 0, !{!"preallocated", i32 0, i32 0}}
  ret void
}

define void @convergencectrl_constant() {
  call void @g(), !irs.stashed_bundles !{i64 0, !{!"convergencectrl", i32 0, i32 0}}
  ret void
}

define void @attachedcall_void() {
  call void @g(), !irs.stashed_bundles !{i64 0, !{!"clang.arc.attachedcall", i32 0, ptr @g}}
  ret void
}

define void @attachedcall_not_function() {
  %r = call ptr @p(), !irs.stashed_bundles !{i64 0, !{!"clang.arc.attachedcall", i32 0, i64 1}}
  ret void
}

define void @assume_align_not_pointer() {
  call void @llvm.assume(i1 true), !irs.stashed_bundles !{i64 0, !{!"align", i32 0, i64 8, i64 8}}
  ret void
}

define void @assume_unknown_attribute() {
  call void @llvm.assume(i1 true), !irs.stashed_bundles !{i64 0, !{!"not_an_attribute", i32 0, ptr null}}
  ret void
}

define void @deoptimize_second_deopt() {
  call void (...) @llvm.experimental.deoptimize.isVoid() [ "deopt"() ], !irs.stashed_bundles !{i64 0, !{!"deopt", i32 0, i32 3}}
  ret void
}
