; ir-sanitize-integer-pointer-args: the i64 arguments it is given become
; pointers converted back at entry; other arguments, and arguments it is not
; given, stay. The kernel loses its !nvvm.annotations entry (its calling
; convention says it is a kernel), others keep theirs (LLVM 21+ turns the
; entries into the calling convention as it reads the module).
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-integer-pointer-args<kernel=k;arg=0;arg=1;arg=2>' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %if nvvm-annotations %{ FileCheck %s --check-prefix=ANNOT < %t.ll %}
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-integer-pointer-args<kernel=k;arg=2>' -S %s -o %t.none.ll
; RUN: FileCheck %s --check-prefix=NONE < %t.none.ll
; RUN: %if nvvm-annotations %{ FileCheck %s --check-prefix=NONE-ANNOT < %t.none.ll %}
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-integer-pointer-args<arg=1>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

target triple = "nvptx64-nvidia-cuda"

define void @k(i64 noundef %a, i64 %b, float %x) {
  %p = inttoptr i64 %a to ptr addrspace(1)
  store float %x, ptr addrspace(1) %p
  %q = inttoptr i64 %b to ptr addrspace(1)
  store float %x, ptr addrspace(1) %q
  ret void
}

define void @other() {
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @other, !"kernel", i32 1}

; CHECK: define ptx_kernel void @k(ptr %a, ptr %b, float %x) {
; CHECK-NEXT: [[A:%.*]] = ptrtoint ptr %a to i64
; CHECK-NEXT: [[B:%.*]] = ptrtoint ptr %b to i64
; CHECK-NEXT: %p = inttoptr i64 [[A]] to ptr addrspace(1)
; ANNOT: !nvvm.annotations = !{[[OTHER:![0-9]+]]}
; ANNOT: [[OTHER]] = !{ptr @other, !"kernel", i32 1}

; NONE: define {{(ptx_kernel )?}}void @k(i64 noundef %a, i64 %b, float %x) {
; NONE-ANNOT: !nvvm.annotations = !{!0, !1}

; BAD: ir-sanitize-integer-pointer-args: kernel=NAME is required
