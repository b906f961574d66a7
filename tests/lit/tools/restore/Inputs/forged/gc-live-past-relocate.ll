; A record that gives a statepoint a gc-live bundle shorter than the index
; its gc.relocate names: verifying the restored call read past the bundle's
; inputs (the verifier does not bounds-check them before it looks). A lost
; bundle, never a read out of bounds.
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @foo(ptr addrspace(1))
declare void @ir_sanitize.stashed_bundle_operands(i64, ...)

define ptr addrspace(1) @relocated(ptr addrspace(1) %obj) gc "statepoint-example" {
entry:
  call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, ptr addrspace(1) %obj)
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void (ptr addrspace(1))) @foo, i32 1, i32 0, ptr addrspace(1) %obj, i32 0, i32 0), !irs.stashed_bundles !{i64 1, !{!"gc-live", i32 0, !{i32 1}}}
  %o = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 5, i32 5)
  ret ptr addrspace(1) %o
}
