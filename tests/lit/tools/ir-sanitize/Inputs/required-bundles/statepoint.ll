; gc.relocate names its statepoint's gc-live operands by index (the shapes of
; LLVM's InstCombine/gc.relocate.ll and Verifier/statepoint.ll); a statepoint
; whose gc-live no relocate names may lose it.
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @foo()

define ptr addrspace(1) @relocated(ptr addrspace(1) %obj, ptr addrspace(1) %base) gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @foo, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %base, ptr addrspace(1) %obj), "deopt"(i32 1, ptr addrspace(1) %obj), "gc-transition"(i32 0) ]
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %o = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 1)
  ret ptr addrspace(1) %o
}

define void @unrelocated(ptr addrspace(1) %obj) gc "statepoint-example" {
entry:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @foo, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %obj) ]
  ret void
}
