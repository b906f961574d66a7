; LLVM's verifier aborts (report_fatal_error in getGCStrategy) on a
; gc.relocate in a function whose gc strategy LLVM does not know: found by
; the restore fuzz target (issue 21). Such input is refused before the
; verifier runs: exit 3, one line, nothing written.
; RUN: %inputs/expect-exit 3 %irs %s -o %t.ll 2>&1 | FileCheck %s
; RUN: %inputs/expect-exit 3 %irs restore %s -o %t.ll 2>&1 | FileCheck %s
; RUN: %inputs/expect-exit 3 %irs check %s 2>&1 | FileCheck %s
; RUN: not test -e %t.ll

; CHECK: error: {{.*}}unknown-gc.ll: {{.*}}@relocated uses the garbage collector 'no-such-gc', which LLVM does not know

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @foo()

define ptr addrspace(1) @relocated(ptr addrspace(1) %obj) gc "no-such-gc" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @foo, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %obj) ]
  %o = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  ret ptr addrspace(1) %o
}
