; --scope=ccalls (default) leaves calls to LLVM intrinsics alone; declaration
; callees, ccall thunks with a body and function pointers are all ccalls.
; --scope=all touches intrinsics too. Several bundles on one call.
; RUN: %irs %s -q -o - | FileCheck %s --check-prefixes=COMMON,CCALLS
; RUN: %irs %s -q --scope=all -o - | FileCheck %s --check-prefixes=COMMON,ALL
; RUN: not %irs check %s | FileCheck %s --check-prefix=CHECK-CCALLS --implicit-check-not=llvm.assume
; RUN: not %irs check %s --scope=all | FileCheck %s --check-prefix=CHECK-ALL

declare void @llvm.assume(i1)
declare i32 @cuInit(i32)
@jlplt_cuInit_8_got = global ptr null

define internal i32 @jlplt_cuInit_8(i32 %0) {
  %f = load ptr, ptr @jlplt_cuInit_8_got, align 8
  %r = tail call i32 %f(i32 %0)
  ret i32 %r
}

define void @julia_init_9(ptr %fptr, ptr addrspace(10) %root) {
top:
  call void @llvm.assume(i1 true) [ "align"(ptr %fptr, i64 8), "nonnull"(ptr %fptr) ]
  %a = call i32 @cuInit(i32 0) [ "other"(i64 1), "jl_roots"(ptr addrspace(10) %root), "gc-transition"() ]
  %b = call i32 @jlplt_cuInit_8(i32 0) [ "julia.gc_alloc_zeroinit"() ]
  %c = call i32 %fptr(i32 0) [ "julia.gc_alloc_zeroinit_indirect"() ]
  ret void
}

; CCALLS: call void @llvm.assume(i1 true) [ "align"(ptr %fptr, i64 8), "nonnull"(ptr %fptr) ]
; ALL:    call void @llvm.assume(i1 true), !irs.stashed_bundles
; COMMON:      [[STATE:%[0-9]+]] = call i8 @jl_gc_safe_enter()
; COMMON-NEXT: %a = call i32 @cuInit(i32 0) [ "jl_roots"(ptr addrspace(10) %root) ], !irs.stashed_bundles [[A:![0-9]+]]
; COMMON-NEXT: call void @jl_gc_safe_leave(i8 [[STATE]])
; COMMON-NEXT: %b = call i32 @jlplt_cuInit_8(i32 0), !irs.stashed_bundles
; COMMON-NEXT: %c = call i32 %fptr(i32 0), !irs.stashed_bundles
; COMMON: [[A]] = !{i64 0, [[OTHER:![0-9]+]]}
; COMMON: [[OTHER]] = !{!"other", i32 0, i64 1}

; CHECK-CCALLS: 4 call sites with bundles Enzyme rejects:
; CHECK-CCALLS-NEXT: julia_init_9: call to cuInit: bundle "other" (1 operands)
; CHECK-CCALLS-NEXT: julia_init_9: call to cuInit: bundle "gc-transition" (0 operands)
; CHECK-CCALLS-NEXT: julia_init_9: call to jlplt_cuInit_8: bundle "julia.gc_alloc_zeroinit" (0 operands)
; CHECK-CCALLS-NEXT: julia_init_9: call to <indirect>: bundle "julia.gc_alloc_zeroinit_indirect" (0 operands)
; CHECK-ALL: 6 call sites with bundles Enzyme rejects:
; CHECK-ALL-NEXT: julia_init_9: call to llvm.assume: bundle "align" (2 operands)
