; gc-transition is lowered to jl_gc_safe_enter/leave around the call, in both
; the Julia 1.12 form (no operand) and the Julia master form (ptls operand).
; jl_roots stays on the call.
; RUN: %irs %s -q -o - | FileCheck %s

declare i32 @cuStreamSynchronize(ptr)
declare ptr @julia.get_pgcstack()

define i32 @julia_sync_12(ptr %stream, ptr addrspace(10) %root) {
top:
; CHECK-LABEL: define i32 @julia_sync_12(
; CHECK:      [[STATE:%[0-9]+]] = call i8 @jl_gc_safe_enter(), !dbg [[LOC:![0-9]+]]
; CHECK-NEXT: %r = call i32 @cuStreamSynchronize(ptr %stream) [ "jl_roots"(ptr addrspace(10) %root) ], !dbg [[LOC]]
; CHECK-NEXT: call void @jl_gc_safe_leave(i8 [[STATE]]), !dbg [[LOC]]
; CHECK-NEXT: ret i32 %r
  %r = call i32 @cuStreamSynchronize(ptr %stream) [ "jl_roots"(ptr addrspace(10) %root), "gc-transition"() ], !dbg !7
  ret i32 %r
}

define i32 @julia_sync_master_13(ptr %stream) {
top:
; CHECK-LABEL: define i32 @julia_sync_master_13(
; CHECK:      %pgcstack = call ptr @julia.get_pgcstack()
; CHECK-NEXT: %ptls = getelementptr inbounds i8, ptr %pgcstack, i64 16
; CHECK-NEXT: [[STATE:%[0-9]+]] = call i8 @jl_gc_safe_enter()
; CHECK-NEXT: %r = call i32 @cuStreamSynchronize(ptr %stream){{$}}
; CHECK-NEXT: call void @jl_gc_safe_leave(i8 [[STATE]])
  %pgcstack = call ptr @julia.get_pgcstack()
  %ptls = getelementptr inbounds i8, ptr %pgcstack, i64 16
  %r = call i32 @cuStreamSynchronize(ptr %stream) [ "gc-transition"(ptr %ptls) ]
  ret i32 %r
}

; Through a function pointer (a ccall without a thunk) and with a void result.
define void @julia_indirect_14(ptr %fptr) {
top:
; CHECK-LABEL: define void @julia_indirect_14(
; CHECK:      [[STATE:%[0-9]+]] = call i8 @jl_gc_safe_enter()
; CHECK-NEXT: call void %fptr(i32 1){{$}}
; CHECK-NEXT: call void @jl_gc_safe_leave(i8 [[STATE]])
  call void %fptr(i32 1) [ "gc-transition"() ]
  ret void
}

; CHECK: declare i8 @jl_gc_safe_enter() [[ATTRS:#[0-9]+]]
; CHECK: declare void @jl_gc_safe_leave(i8) [[ATTRS]]
; CHECK: attributes [[ATTRS]] = { nofree nounwind "enzyme_inactive" "enzyme_no_escaping_allocation" }

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !2, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "libcuda.jl", directory: ".")
!3 = distinct !DISubprogram(name: "sync", scope: null, file: !2, line: 10, type: !4, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !1)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!7 = !DILocation(line: 11, column: 5, scope: !3)
