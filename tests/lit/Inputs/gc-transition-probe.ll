; Does the Enzyme plugin under test differentiate through a call carrying a
; gc-transition bundle (Enzyme PR #2906)? lit.cfg.py asks a plugin it does not
; know with this module; opt exits 0 if it does.
define void @callee(ptr %p, double %v) noinline {
  store double %v, ptr %p
  ret void
}

define double @f(double %x) {
  %a = alloca double
  call void @callee(ptr %a, double %x) [ "gc-transition"() ]
  %y = load double, ptr %a
  %z = fmul double %y, %x
  ret double %z
}

define double @fwd(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

declare double @__enzyme_fwddiff(...)
