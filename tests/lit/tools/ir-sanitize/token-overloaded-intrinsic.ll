; LLVM's parser renames every intrinsic declaration to its mangled name after
; reading the module, and its mangler has no spelling for token or label: a
; declaration overloaded on one kills the process (llvm_unreachable or a stack
; overflow, LLVM 19 and 22; found by the restore fuzzer). The text is probed
; with the intrinsics renamed first: such a declaration is refused in one line
; (exit 3), pointing at it, with nothing written.
; RUN: rm -rf %t && mkdir -p %t
; RUN: sed 's/^declare .*gc.relocate.p1.*$/&\ndeclare token @llvm.experimental.gc.relocate.p4(token, i32, i32)/' %s > %t/relocate.ll
; RUN: %inputs/expect-exit 3 %irs %t/relocate.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=RELOCATE
; RUN: printf 'declare i1 @llvm.is.constant.x(\n  label)\n' > %t/label.ll
; RUN: %inputs/expect-exit 3 %irs %t/label.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=LABEL
; LLVM 22's parser refuses a label parameter itself.
; LABEL: ir-sanitize: error: {{.*}}label.ll:{{1:13: intrinsic @llvm.is.constant.x is overloaded on a token or label type|2:3: invalid type for function argument}}
; RUN: printf 'declare token @"llvm.ssa.copy.token"(token)\n' > %t/quoted.ll
; RUN: %inputs/expect-exit 3 %irs %t/quoted.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=QUOTED
; QUOTED: ir-sanitize: error: {{.*}}quoted.ll:1:{{[0-9]+}}: intrinsic @llvm.ssa.copy.token is overloaded on a token or label type
; RUN: not test -e %t/out.ll
;
; Tokens where the intrinsic is not overloaded on them read as before.
; RUN: %irs %s -o %t/good.ll
; RUN: FileCheck %s --check-prefix=GOOD < %t/good.ll
; GOOD: %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(
; GOOD: %p.relocated = call coldcc ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)

declare void @callee()

define ptr addrspace(1) @julia_keep_1(ptr addrspace(1) %p) gc "statepoint-example" {
top:
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @callee, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %p) ]
  %p.relocated = call coldcc ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  ret ptr addrspace(1) %p.relocated
}

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
; The declaration the first run adds follows the last line.
; RELOCATE:     ir-sanitize: error: {{.*}}relocate.ll:[[#@LINE+3]]:16: intrinsic @llvm.experimental.gc.relocate.p4 is overloaded on a token or label type, which LLVM's reader cannot name
; RELOCATE-NOT: {{.}}
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
