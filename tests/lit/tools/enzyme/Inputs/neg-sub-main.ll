; Runs the derivative of neg-sub-fwd.ll under lli: b = [1, 2, 3], db = [1,
; 10, 100]; prints out and dout. Stubs stand in for the Julia runtime and
; the CUDA driver, counting the gc-safe transitions.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128-ni:10:11:12:13"
target triple = "x86_64-unknown-linux-gnu"

@gc_enter = global i32 0
@gc_leave = global i32 0
@fmt = private constant [37 x i8] c"out %g %g %g dout %g %g %g gc %d %d\0A\00"

define i8 @jl_gc_safe_enter() {
  %c = load i32, ptr @gc_enter
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @gc_enter
  ret i8 0
}
define void @jl_gc_safe_leave(i8 %s) {
  %c = load i32, ptr @gc_leave
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @gc_leave
  ret void
}
define i32 @cuMemPrefetchAsync(ptr %p, i64 %bytes, i32 %dev, ptr %s) {
  ret i32 0
}

define i32 @main() {
  %b = alloca [3 x double]
  %db = alloca [3 x double]
  %out = alloca [3 x double]
  %dout = alloca [3 x double]
  store [3 x double] [double 1.0, double 2.0, double 3.0], ptr %b
  store [3 x double] [double 1.0, double 10.0, double 100.0], ptr %db
  store [3 x double] zeroinitializer, ptr %out
  store [3 x double] zeroinitializer, ptr %dout
  call void @julia_fwddiff_neg_sub(ptr %out, ptr %dout, ptr %b, ptr %db, i64 3, ptr null)
  %o = load [3 x double], ptr %out
  %o0 = extractvalue [3 x double] %o, 0
  %o1 = extractvalue [3 x double] %o, 1
  %o2 = extractvalue [3 x double] %o, 2
  %d = load [3 x double], ptr %dout
  %d0 = extractvalue [3 x double] %d, 0
  %d1 = extractvalue [3 x double] %d, 1
  %d2 = extractvalue [3 x double] %d, 2
  %e = load i32, ptr @gc_enter
  %l = load i32, ptr @gc_leave
  call i32 (ptr, ...) @printf(ptr @fmt, double %o0, double %o1, double %o2, double %d0, double %d1, double %d2, i32 %e, i32 %l)
  ret i32 0
}
declare void @julia_fwddiff_neg_sub(ptr, ptr, ptr, ptr, i64, ptr)
declare i32 @printf(ptr, ...)
