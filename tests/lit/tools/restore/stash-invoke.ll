; stash and drop on an invoke: the new invoke keeps both destinations, the
; marker goes before it, and restore rebuilds the invoke exactly.
; RUN: %irs %s -q -o %t.stash.ll
; RUN: FileCheck %s --check-prefix=STASH < %t.stash.ll
; RUN: %irs restore %t.stash.ll -q -o %t.back.ll
; RUN: %irs restore %s -q -o %t.ref.ll
; RUN: grep -v '^; ModuleID' %t.ref.ll > %t.a
; RUN: grep -v '^; ModuleID' %t.back.ll > %t.b
; RUN: diff %t.a %t.b
; RUN: %irs %s -q --bundle julia.gc_alloc_zeroinit=drop -o - | FileCheck %s --check-prefix=DROP

declare ptr addrspace(10) @jl_gc_alloc(ptr, i64)
declare i32 @__gxx_personality_v0(...)

define ptr addrspace(10) @julia_alloc_5(ptr %ptls, i64 %n) personality ptr @__gxx_personality_v0 {
top:
  %o = invoke ptr addrspace(10) @jl_gc_alloc(ptr %ptls, i64 %n) [ "julia.gc_alloc_zeroinit"(ptr %ptls, i64 %n) ]
          to label %ok unwind label %lpad

ok:
  ret ptr addrspace(10) %o

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; STASH:      call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, ptr %ptls, i64 %n)
; STASH-NEXT: %o = invoke ptr addrspace(10) @jl_gc_alloc(ptr %ptls, i64 %n)
; STASH-NEXT:   to label %ok unwind label %lpad, !irs.stashed_bundles
; DROP:      %o = invoke ptr addrspace(10) @jl_gc_alloc(ptr %ptls, i64 %n)
; DROP-NEXT:   to label %ok unwind label %lpad{{$}}
; DROP-NOT: stashed
