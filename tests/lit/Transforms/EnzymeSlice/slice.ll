; ir-sanitize-enzyme-slice erases every function, global and alias that no
; function calling an __enzyme_* entry point reaches (the unit test counts);
; a module without such calls is left as it is; a second run changes nothing.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-enzyme-slice -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-enzyme-slice -S %t.ll | grep -v '^; ModuleID' > %t.twice.ll
; RUN: grep -v '^; ModuleID' %t.ll | diff - %t.twice.ll
; RUN: printf '@g = global i64 0\ndefine void @h() {\n  ret void\n}\n' > %t.plain.ll
; RUN: opt -S %t.plain.ll | grep -v '^; ModuleID' > %t.plain.want.ll
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-enzyme-slice -S %t.plain.ll | grep -v '^; ModuleID' > %t.plain.got.ll
; RUN: diff %t.plain.want.ll %t.plain.got.ll

@table = internal constant [1 x ptr] [ptr @callee]
@unused = global i64 0
@alias = alias void (), ptr @ballast

declare double @__enzyme_fwddiff(...)

define double @f(double %x) {
  %t = load ptr, ptr @table
  call void %t()
  %y = fmul double %x, %x
  ret double %y
}

define void @callee() {
  ret void
}

define double @driver(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

define void @ballast() {
  store i64 1, ptr @unused
  ret void
}

; CHECK-DAG: @table = internal constant
; CHECK-DAG: define double @f(
; CHECK-DAG: define void @callee(
; CHECK-DAG: define double @driver(
; CHECK-DAG: declare double @__enzyme_fwddiff(
; CHECK-NOT: @unused
; CHECK-NOT: @alias
; CHECK-NOT: @ballast
