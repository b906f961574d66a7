; The same passes run in-process from opt, with pass parameters.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-bundles -S %s -o - | FileCheck %s --check-prefix=DEFAULT
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles<gc-transition=stash;scope=all>' -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=STASH < %t.ll
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-restore -S %t.ll -o - | FileCheck %s --check-prefix=RESTORED
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles<jl_roots=lower>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-bundles<scope=everything>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSCOPE

declare void @llvm.assume(i1)
declare i32 @cuCtxSynchronize()

define i32 @julia_sync_4(ptr %p) {
top:
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 8) ]
  %r = call i32 @cuCtxSynchronize() [ "gc-transition"() ]
  ret i32 %r
}

; DEFAULT: call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 8) ]
; DEFAULT: call i8 @jl_gc_safe_enter()
; STASH: call void @llvm.assume(i1 true), !irs.stashed_bundles
; STASH: %r = call i32 @cuCtxSynchronize(), !irs.stashed_bundles
; RESTORED: call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 8) ]
; RESTORED: %r = call i32 @cuCtxSynchronize() [ "gc-transition"() ]
; BAD: ir-sanitize-bundles: 'lower' is defined only for the gc-transition bundle
; BADSCOPE: ir-sanitize-bundles: unknown scope 'everything'
