; On an invoke the leave must run on both edges. The normal destination and
; the landing pad are shared with another invoke here, so both edges are
; split; PHIs in the normal destination follow the new block.
; RUN: %irs %s -q -o - | FileCheck %s
; RUN: %irs %s -q -o - | opt -passes=verify -disable-output

declare i32 @cuMemAlloc(ptr, i64)
declare i32 @__gxx_personality_v0(...)
declare void @use(i32)

define i32 @julia_alloc_2(ptr %p, i64 %n, i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %b

a:
  %ra = invoke i32 @cuMemAlloc(ptr %p, i64 %n) [ "gc-transition"() ]
          to label %join unwind label %lpad

b:
  %rb = invoke i32 @cuMemAlloc(ptr %p, i64 8)
          to label %join unwind label %lpad

join:
  %r = phi i32 [ %ra, %a ], [ %rb, %b ]
  ret i32 %r

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define i32 @julia_alloc_2(
; CHECK:       a:
; CHECK-NEXT:    [[STATE:%[0-9]+]] = call i8 @jl_gc_safe_enter()
; CHECK-NEXT:    %ra = invoke i32 @cuMemAlloc(ptr %p, i64 %n)
; CHECK-NEXT:      to label %[[NORMAL:.*]] unwind label %[[UNWIND:.*]]
; CHECK:       [[NORMAL]]:
; CHECK-NEXT:    call void @jl_gc_safe_leave(i8 [[STATE]])
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    %r = phi i32 [ %ra, %[[NORMAL]] ], [ %rb, %b ]
; CHECK:       [[UNWIND]]:
; CHECK-NEXT:    landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK-NEXT:    call void @jl_gc_safe_leave(i8 [[STATE]])

; A single-predecessor destination gets the leave directly, after its PHIs
; and after the landingpad.
define i32 @julia_alloc_3(ptr %p, i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @cuMemAlloc(ptr %p, i64 %n) [ "jl_roots"(ptr %p), "gc-transition"() ]
          to label %ok unwind label %lpad

ok:
  %v = phi i32 [ %r, %entry ]
  call void @use(i32 %v)
  ret i32 %v

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define i32 @julia_alloc_3(
; CHECK:         [[STATE:%[0-9]+]] = call i8 @jl_gc_safe_enter()
; CHECK-NEXT:    %r = invoke i32 @cuMemAlloc(ptr %p, i64 %n) [ "jl_roots"(ptr %p) ]
; CHECK-NEXT:      to label %ok unwind label %lpad
; CHECK:       ok:
; CHECK-NEXT:    %v = phi i32 [ %r, %entry ]
; CHECK-NEXT:    call void @jl_gc_safe_leave(i8 [[STATE]])
; CHECK-NEXT:    call void @use(i32 %v)
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    call void @jl_gc_safe_leave(i8 [[STATE]])
; CHECK-NEXT:    resume
