; GridStrideCoarsening: a kernel that accumulates atomically gets a second
; kernel, <name>_grid_stride, looping over virtual blocks (its last
; parameter the x block count), that sums repeated additions into one
; element in registers. The kernel itself is left as it was.
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-grid-stride<reassociate-fp>' \
; RUN:   -pass-remarks=ir-sanitize-grid-stride -pass-remarks-missed=ir-sanitize-grid-stride \
; RUN:   -S %s -o %t.ll 2>%t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: opt -passes=verify -disable-output %t.ll
; Without reassociate-fp a floating-point accumulation is not one to hold.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-grid-stride -S %s \
; RUN:   | FileCheck %s --check-prefix=EXACT
; EXACT-NOT: _grid_stride
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-grid-stride<fast>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: ir-sanitize-grid-stride: unknown parameter 'fast' (expected reassociate-fp)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef

; REMARK:      remark: {{.*}} added held_grid_stride, a grid-stride loop; accumulations held in registers: 1
; REMARK-NEXT: remark: {{.*}} advances has no grid-stride version: every accumulation moves to another element with each block
; REMARK-NEXT: remark: {{.*}} barrier has no grid-stride version: a convergent call (a barrier, shuffle or vote)
; REMARK-NEXT: remark: {{.*}} later_store has no grid-stride version: no accumulation it could hold in registers
; REMARK-NEXT: remark: {{.*}} shared has no grid-stride version: shared memory
; REMARK-NEXT: remark: {{.*}} added scoped_grid_stride, a grid-stride loop; accumulations held in registers: 1

; Each kernel, then the versions added.
; RUN: grep '^define' %t.ll | FileCheck %s --check-prefix=DEFS
; DEFS:      define ptx_kernel void @held(
; DEFS-NEXT: define ptx_kernel void @advances(
; DEFS-NEXT: define ptx_kernel void @barrier(
; DEFS-NEXT: define ptx_kernel void @later_store(
; DEFS-NEXT: define ptx_kernel void @shared(
; DEFS-NEXT: define ptx_kernel void @scoped(
; DEFS-NEXT: define ptx_kernel void @held_grid_stride(
; DEFS-NEXT: define ptx_kernel void @scoped_grid_stride(
; DEFS-NOT:  define

; The 2-D broadcast's shape: thread i adds into dy[i mod rows]; blocks that
; are rows apart add into the same element.
; CHECK-LABEL: define ptx_kernel void @held(ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, i64 %n) {
; CHECK-NOT:   grid
; CHECK:       ret void
define ptx_kernel void @held(ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %start = mul nuw i32 %ctaid, %ntid
  %i32 = add nuw i32 %start, %tid
  %i = zext i32 %i32 to i64
  %in = icmp ult i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %zp = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  %g = load float, ptr addrspace(1) %zp, align 4
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
exit:
  ret void
}

; The version: the body runs for blocks ctaid.x, ctaid.x + nctaid.x, ...
; below grid.x; an addition into the element the last one went to waits in
; registers, one into another element makes the held sum go out first and
; then goes out itself; the loop's end makes the held sum go out.
; CHECK-LABEL: define ptx_kernel void @held_grid_stride(
; CHECK-SAME:    ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, i64 %n, i32 %grid.x) #[[ATTRS:[0-9]+]] {
; CHECK-NEXT:  grid.entry:
; CHECK-NEXT:    %[[FIRST:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT:    %[[STEP:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK-NEXT:    %[[ANY:[0-9]+]] = icmp ult i32 %[[FIRST]], %grid.x
; CHECK-NEXT:    br i1 %[[ANY]], label %grid.block, label %grid.exit
; CHECK:       grid.block:
; CHECK-DAG:     %[[PENDING:held.pending[0-9.]*]] = phi i1 [ false, %grid.entry ], [ %{{.*}}, %grid.next ]
; CHECK-DAG:     %[[SUM:held.sum[0-9.]*]] = phi float [ 0.000000e+00, %grid.entry ], [ %{{.*}}, %grid.next ]
; CHECK-DAG:     %[[ELT:held.element[0-9.]*]] = phi ptr addrspace(1) [ null, %grid.entry ], [ %{{.*}}, %grid.next ]
; CHECK-DAG:     %vblock.x = phi i32 [ %[[FIRST]], %grid.entry ], [ %vblock.next, %grid.next ]
; CHECK:       entry:
; CHECK:         %start = mul nuw i32 %vblock.x, %ntid
; CHECK:       body:
; CHECK:         %same.element = icmp eq ptr addrspace(1) %[[ELT]], %yp
; CHECK-NEXT:    %accumulated = fadd float %[[SUM]], %g
; CHECK-NEXT:    %merged = select i1 %[[PENDING]], float %accumulated, float %g
; CHECK-NEXT:    %[[OTHER:[0-9]+]] = xor i1 %same.element, true
; CHECK-NEXT:    br i1 %[[OTHER]], label %[[OUT:[0-9]+]], label %[[JOIN:[0-9]+]]
; CHECK:       [[OUT]]:
; CHECK-NEXT:    br i1 %[[PENDING]], label %[[FLUSH:[0-9]+]], label %[[SELF:[0-9]+]]
; CHECK:       [[FLUSH]]:
; CHECK-NEXT:    %held.flush{{[0-9]*}} = atomicrmw fadd ptr addrspace(1) %[[ELT]], float %[[SUM]] monotonic, align 4
; CHECK:       [[SELF]]:
; CHECK-NEXT:    %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
; CHECK:       [[JOIN]]:
; CHECK-NEXT:    select i1 %same.element, float %merged, float %[[SUM]]
; CHECK:       grid.next:
; CHECK:         %vblock.next = add nuw i32 %vblock.x, %[[STEP]]
; CHECK-NEXT:    %[[MORE:[0-9]+]] = icmp ult i32 %vblock.next, %grid.x
; CHECK-NEXT:    br i1 %[[MORE]], label %grid.block, label %grid.exit
; CHECK:       grid.exit:
; CHECK:         %held.flush = atomicrmw fadd ptr addrspace(1)
; CHECK:         ret void
; CHECK-NOT:   @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK:       }

; Thread i adds into dy[i]: another element in every block, nothing to hold.
define ptx_kernel void @advances(ptr addrspace(1) %dy, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
}

; A barrier orders the threads of a block: not coarsened.
define ptx_kernel void @barrier(ptr addrspace(1) %dy, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  call void @llvm.nvvm.barrier0()
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
}

; A store after the addition that may hit its element (y .= ... in place):
; holding the addition past it would change what this thread leaves there.
define ptx_kernel void @later_store(ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  %zp = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  store float 0.0, ptr addrspace(1) %zp, align 4
  ret void
}

; Shared memory lives per block; one thread running several blocks would
; see another block's.
define ptx_kernel void @shared(ptr addrspace(1) %dy, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  store float %g, ptr addrspace(3) @tile, align 4
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4
  ret void
}

; StoreSinkVersioning's fast version: the later store is disjoint by its
; run-time test, which scoped noalias metadata states. The launch bound is
; copied for the version.
; CHECK-LABEL: define ptx_kernel void @scoped_grid_stride(
; CHECK:         store float 0.000000e+00, ptr addrspace(1) %zp, align 4, !alias.scope
define ptx_kernel void @scoped(ptr addrspace(1) %dy, ptr addrspace(1) %dz, i64 %rows, float %g) {
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = zext i32 %ctaid to i64
  %r = urem i64 %i, %rows
  %yp = getelementptr inbounds float, ptr addrspace(1) %dy, i64 %r
  %old = atomicrmw fadd ptr addrspace(1) %yp, float %g monotonic, align 4, !alias.scope !2, !noalias !4
  %zp = getelementptr inbounds float, ptr addrspace(1) %dz, i64 %i
  store float 0.0, ptr addrspace(1) %zp, align 4, !alias.scope !4, !noalias !2
  ret void
}

; CHECK: attributes #[[ATTRS]] = { "irs-grid-stride-param"="4" }

; The launch bound goes with the version: an annotation, or from LLVM 21 on
; the attribute LLVM upgrades annotations into.
; RUN: FileCheck %s --check-prefix=%if nvvm-annotations %{ANNOT%} %else %{ATTR%} < %t.ll
; ANNOT: !nvvm.annotations = !{!0, ![[COPY:[0-9]+]]}
; ANNOT: !0 = !{ptr @scoped, !"maxntidx", i32 1024}
; ANNOT: ![[COPY]] = !{ptr @scoped_grid_stride, !"maxntidx", i32 1024}
; ATTR:  define ptx_kernel void @scoped_grid_stride({{.*}}) #[[SA:[0-9]+]] {
; ATTR:  attributes #[[SA]] = { {{.*}}"nvvm.maxntid"="1024" }

!nvvm.annotations = !{!0}
!0 = !{ptr @scoped, !"maxntidx", i32 1024}
!1 = distinct !{!1, !"irs.disjoint"}
!2 = !{!3}
!3 = distinct !{!3, !1}
!4 = !{!5}
!5 = distinct !{!5, !1}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

; Each accumulation is checked against every access: past 64 the kernel is
; left alone; 64 are held.
; RUN: python3 %S/Inputs/many-accumulations.py 65 > %t.65.ll
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-grid-stride<reassociate-fp>' \
; RUN:   -pass-remarks-missed=ir-sanitize-grid-stride -disable-output %t.65.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MANY
; MANY: many has no grid-stride version: more than 64 accumulations
; RUN: python3 %S/Inputs/many-accumulations.py 64 > %t.64.ll
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-grid-stride<reassociate-fp>' \
; RUN:   -pass-remarks=ir-sanitize-grid-stride -disable-output %t.64.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SIXTYFOUR
; SIXTYFOUR: added many_grid_stride, a grid-stride loop; accumulations held in registers: 64
