; A gc.relocate in a function that names no garbage collector makes LLVM's
; verifier abort too (getGCStrategy("") in report_fatal_error; found by the
; module fuzz target in CI, after unknown-gc.ll's fix). Refused the same
; way: exit 3, one line, nothing written.
; RUN: %inputs/expect-exit 3 %irs %s -o %t.ll 2>&1 | FileCheck %s
; RUN: %inputs/expect-exit 3 %irs check %s 2>&1 | FileCheck %s
; RUN: not test -e %t.ll

; CHECK: error: {{.*}}gc-relocate-without-gc.ll: {{.*}}@relocated calls gc.relocate but names no garbage collector

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @foo()

define ptr addrspace(1) @relocated(ptr addrspace(1) %obj) {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @foo, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %obj) ]
  %o = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  ret ptr addrspace(1) %o
}
