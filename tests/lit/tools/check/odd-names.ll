; A finding is one line whatever bytes the tag and the names hold: a newline
; or a terminal escape in a bundle tag comes out as \XX, as LLVM IR spells it.
; RUN: %inputs/expect-exit 1 %irs check %s | FileCheck %s
; CHECK:      odd-names.ll: 2 call sites with bundles Enzyme rejects:
; CHECK-NEXT:   f: call to g: bundle "line\0Abreak" (0 operands): rejected by every Enzyme{{$}}
; CHECK-NEXT:   f: call to g: bundle "\1B[31mred" (0 operands): rejected by every Enzyme{{$}}
; CHECK-NOT:  {{.}}

declare void @g()

define void @f() {
  call void @g() [ "line\0Abreak"() ]
  call void @g() [ "\1B[31mred"() ]
  ret void
}
