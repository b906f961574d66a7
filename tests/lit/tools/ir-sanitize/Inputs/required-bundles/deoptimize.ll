; llvm.experimental.deoptimize needs exactly one deopt bundle (the shape of
; LLVM's Transforms/Inline/deoptimize-intrinsic.ll); a call into a function
; that deoptimizes carries its own, which may go.
declare i8 @llvm.experimental.deoptimize.i8(...)
declare void @llvm.experimental.deoptimize.isVoid(...)

define i8 @callee(i1 %c) {
entry:
  br i1 %c, label %left, label %right
left:
  %v = call i8 (...) @llvm.experimental.deoptimize.i8(i32 1) [ "deopt"(i32 1), "unknown_a"(i32 2) ]
  ret i8 %v
right:
  %w = call i8 (...) @llvm.experimental.deoptimize.i8() [ "deopt"(i32 2, i1 %c) ]
  ret i8 %w
}

define i8 @caller(i1 %c) {
  %r = call i8 @callee(i1 %c) [ "deopt"(i32 3, i1 %c) ]
  ret i8 %r
}

define void @void_callee() {
  call void (...) @llvm.experimental.deoptimize.isVoid(i32 0) [ "deopt"() ]
  ret void
}
