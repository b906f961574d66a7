; llvm.experimental.guard needs exactly one deopt bundle (the shape of
; LLVM's Transforms/GuardWidening tests).
declare void @llvm.experimental.guard(i1, ...)

define void @widen(i1 %a, i1 %b, i32 %x) {
entry:
  call void (i1, ...) @llvm.experimental.guard(i1 %a) [ "deopt"() ]
  call void (i1, ...) @llvm.experimental.guard(i1 %b) [ "deopt"(i32 %x, i32 0) ]
  ret void
}
