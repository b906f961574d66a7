; Stash removes every non-jl_roots bundle (the default for unknown tags) and
; records it on the call; function-local operands travel in a marker call,
; constants inline. restore puts all of them back exactly, in their original
; order, and removes the records, the markers and the marker declaration.
; RUN: %irs %s --bundle gc-transition=stash -q -o %t.stashed.ll
; RUN: FileCheck %s --check-prefix=STASH < %t.stashed.ll
; RUN: %irs restore %t.stashed.ll -o %t.restored.ll 2>&1 | FileCheck %s --check-prefix=COUNT
; RUN: %irs %s --bundle gc-transition=keep --bundle unknown_bundle=keep --bundle julia.gc_alloc_ptr_offsets=keep -q -o %t.orig.ll
; RUN: grep -v '^; ModuleID' %t.orig.ll > %t.a
; RUN: grep -v '^; ModuleID' %t.restored.ll > %t.b
; RUN: diff %t.a %t.b
; RUN: FileCheck %s --check-prefix=RESTORED < %t.restored.ll

@g = global i64 0

declare i32 @cuLaunchKernel(ptr, i32)
declare ptr addrspace(10) @jl_alloc(i64)
declare ptr @julia.get_pgcstack()

define i32 @julia_launch_7(ptr %f, ptr addrspace(10) %a, ptr addrspace(10) %b) {
top:
  %pgcstack = call ptr @julia.get_pgcstack()
  %ptls = getelementptr inbounds i8, ptr %pgcstack, i64 16
  %r = call i32 @cuLaunchKernel(ptr %f, i32 1) [ "jl_roots"(ptr addrspace(10) %a, ptr addrspace(10) %b), "gc-transition"(ptr %ptls), "unknown_bundle"(ptr @g, i64 7, ptr addrspace(10) %b) ]
  %o = call ptr addrspace(10) @jl_alloc(i64 16) [ "julia.gc_alloc_ptr_offsets"(i64 0, i64 8) ]
  ret i32 %r
}

; STASH-LABEL: define i32 @julia_launch_7(
; STASH:      call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 [[KEY:[0-9]+]], ptr %ptls, ptr addrspace(10) %b)
; STASH-NEXT: %r = call i32 @cuLaunchKernel(ptr %f, i32 1) [ "jl_roots"(ptr addrspace(10) %a, ptr addrspace(10) %b) ], !irs.stashed_bundles [[REC:![0-9]+]]
; STASH-NEXT: %o = call ptr addrspace(10) @jl_alloc(i64 16), !irs.stashed_bundles [[REC2:![0-9]+]]
; STASH: declare void @ir_sanitize.stashed_bundle_operands(i64, ...) [[MATTR:#[0-9]+]]
; STASH: attributes [[MATTR]] = { nofree nounwind willreturn memory(inaccessiblemem: readwrite) "enzyme_inactive" "enzyme_no_escaping_allocation" }
; STASH: [[REC]] = !{i64 [[KEY]], [[GC:![0-9]+]], [[UNK:![0-9]+]]}
; STASH: [[GC]] = !{!"gc-transition", i32 1, [[L1:![0-9]+]]}
; STASH: [[L1]] = !{i32 1}
; STASH: [[UNK]] = !{!"unknown_bundle", i32 2, ptr @g, i64 7, [[L2:![0-9]+]]}
; STASH: [[L2]] = !{i32 2}
; STASH: [[REC2]] = !{i64 0, [[ALLOC:![0-9]+]]}
; STASH: [[ALLOC]] = !{!"julia.gc_alloc_ptr_offsets", i32 0, i64 0, i64 8}

; COUNT: restored 3 bundles on 2 calls

; RESTORED-NOT: irs.stashed_bundles
; RESTORED-NOT: ir_sanitize.stashed_bundle_operands
