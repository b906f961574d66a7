; NoAliasVersioning: the Enzyme call in a derivative driver gets a second
; version on a copy of the function whose array parameters are noalias,
; taken where every array's and shadow's [address, address + extent) is apart
; from every other (arguments only, tested per call). Enzyme then reloads the
; loop's loads in the reverse pass where it cached them in device malloc.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-noalias-version<fn=k.rev;extent=0:1;extent=2:3>' \
; RUN:   -pass-remarks=ir-sanitize-noalias-version -pass-remarks-missed=ir-sanitize-noalias-version \
; RUN:   -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: opt -passes=verify -disable-output %t.ll
; A pointer the function reads that has no extent: one version only.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-noalias-version<fn=k.rev;extent=0:1>' \
; RUN:   -pass-remarks-missed=ir-sanitize-noalias-version -S %s -o %t.one.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSED
; RUN: not grep -e '@sum_into.noalias' %t.one.ll
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-noalias-version<extent=0:1>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: ir-sanitize-noalias-version: fn=NAME is required
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; out[0] = sum(x[i]^2 for i < n)
define internal void @sum_into(ptr addrspace(1) %out, i64 %outbytes, ptr addrspace(1) %x, i64 %xbytes, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %sq = fmul float %v, %v
  %acc.next = fadd float %acc, %sq
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  store float %acc.next, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define void @k.rev(
; CHECK:         %arrays.disjoint = and i1
; CHECK-NEXT:    br i1 %arrays.disjoint, label %[[NA:.*]], label %[[PLAIN:.*]]
; CHECK:       [[NA]]:
; CHECK-NEXT:    call void (ptr, ...) @__enzyme_autodiff(ptr @sum_into.noalias,
; CHECK:       [[PLAIN]]:
; CHECK-NEXT:    call void (ptr, ...) @__enzyme_autodiff(ptr @sum_into,
; CHECK-LABEL: define internal void @sum_into.noalias(ptr addrspace(1) noalias %out, i64 %outbytes, ptr addrspace(1) noalias %x,
; REMARK: the Enzyme call on sum_into takes sum_into.noalias where its arrays are apart (tested at run time)
; MISSED: the Enzyme call on sum_into keeps one version: parameter 2 is a pointer the function may access and has no extent
define void @k.rev(ptr addrspace(1) %out, ptr addrspace(1) %dout, i64 %outbytes,
                   ptr addrspace(1) %x, ptr addrspace(1) %dx, i64 %xbytes, i64 %n) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @sum_into,
      metadata !"enzyme_dup", ptr addrspace(1) %out, ptr addrspace(1) %dout,
      metadata !"enzyme_const", i64 %outbytes,
      metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx,
      metadata !"enzyme_const", i64 %xbytes,
      metadata !"enzyme_const", i64 %n)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

; No loop: Enzyme keeps what it needs in registers; one version.
; LOOPLESS: the Enzyme call on scale keeps one version: it has no loop (Enzyme caches nothing in memory)
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-noalias-version<fn=s.rev;extent=0:1;extent=2:3>' \
; RUN:   -pass-remarks-missed=ir-sanitize-noalias-version -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LOOPLESS
define internal void @scale(ptr addrspace(1) %out, i64 %outbytes, ptr addrspace(1) %x, i64 %xbytes) {
entry:
  %v = load float, ptr addrspace(1) %x, align 4
  %w = fmul float %v, %v
  store float %w, ptr addrspace(1) %out, align 4
  ret void
}

define void @s.rev(ptr addrspace(1) %out, ptr addrspace(1) %dout, i64 %outbytes,
                   ptr addrspace(1) %x, ptr addrspace(1) %dx, i64 %xbytes) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @scale,
      metadata !"enzyme_dup", ptr addrspace(1) %out, ptr addrspace(1) %dout,
      metadata !"enzyme_const", i64 %outbytes,
      metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx,
      metadata !"enzyme_const", i64 %xbytes)
  ret void
}
