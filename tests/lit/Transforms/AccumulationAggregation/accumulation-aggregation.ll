; AccumulationAggregation: an atomic accumulation whose address lanes of a
; warp may share is summed across the lanes that share it (all active lanes
; where every one has the first one's address, else match.any's group; then
; rounds of shfl.sync.idx, or five butterfly shuffles where the group is the
; whole warp), and the first of them does the atomic; warps in
; which no lane shares its address with its neighbour (one shuffle and a
; vote) keep the plain atomic. Uniform addresses skip the tests; addresses
; that differ in every lane, and what is not an accumulation, are left alone.
; RUN: opt -load-pass-plugin=%plugin -passes='function(ir-sanitize-aggregate-accumulations<reassociate-fp>)' \
; RUN:   -pass-remarks=ir-sanitize-aggregate-accumulations \
; RUN:   -pass-remarks-missed=ir-sanitize-aggregate-accumulations -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: opt -load-pass-plugin=%plugin -passes='function(ir-sanitize-aggregate-accumulations)' -S %s \
; RUN:   | FileCheck %s --check-prefix=EXACT
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx78 %t.ll -o - | FileCheck %s --check-prefix=PTX
; RUN: not opt -load-pass-plugin=%plugin -passes='function(ir-sanitize-aggregate-accumulations<fast>)' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: ir-sanitize-aggregate-accumulations: unknown parameter 'fast' (expected reassociate-fp)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The bias gradient: every thread of a column adds into dv[k / n].
; CHECK-LABEL: define void @bias_gradient(
; CHECK:         %active = call i32 {{@llvm.nvvm.activemask\(\)|asm sideeffect "activemask.b32 \$0;", "=r"\(\)}}
; CHECK-NEXT:    %[[LANE:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT:    %[[ME:.*]] = shl i32 1, %[[LANE]]
; CHECK-NEXT:    %addr = ptrtoint ptr addrspace(1) %p to i64
; CHECK-NEXT:    %addr.low = trunc i64 %addr to i32
; CHECK-NEXT:    %below = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 %active, i32 %addr.low, i32 1, i32 0)
; CHECK:         %neighbours.share = call i1 @llvm.nvvm.vote.any.sync(i32 %active, i1
; CHECK-NEXT:    br i1 %neighbours.share, label %[[SHARE:.*]], label %[[PLAIN:.*]]
; CHECK:       [[SHARE]]:
; CHECK:         %one.address = call i1 @llvm.nvvm.vote.all.sync(i32 %active, i1
; CHECK:         br i1 %{{.*}}, label %[[GROUP:.*]], label %[[SUM:.*]]
; CHECK:       [[GROUP]]:
; CHECK-NEXT:    %matched = call i32 @llvm.nvvm.match.any.sync.i64(i32 %active, i64 %addr)
; CHECK-NEXT:    br label %[[SUM]]
; CHECK:       [[SUM]]:
; CHECK-NEXT:    %peers = phi i32 [ %active, %[[SHARE]] ], [ %matched, %[[GROUP]] ]
; CHECK-NEXT:    %whole.warp = icmp eq i32 %peers, -1
; CHECK-NEXT:    br i1 %whole.warp, label %[[WARP:.*]], label %[[PEERS:.*]]
; CHECK:       [[WARP]]:
; CHECK-NEXT:    call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %g, i32 16, i32 31)
; CHECK-COUNT-4: call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1,
; CHECK:         %[[WARPSUM:.*]] = fadd float
; CHECK-NEXT:    br label %[[JOIN:.*]]
; CHECK:       [[PEERS]]:
; CHECK:         %peers.above = and i32 %peers,
; CHECK:         %rank = call i32 @llvm.ctpop.i32(
; CHECK:       [[ROUND:.*\.round]]:
; CHECK-NEXT:    %partial = phi float [ %g, %[[PEERS]] ], [ %[[ADDED:.*]], %[[ROUND]] ]
; CHECK:         call float @llvm.nvvm.shfl.sync.idx.f32(i32 %active, float %partial, i32 %{{.*}}, i32 31)
; CHECK:         %out = call i32 @llvm.nvvm.vote.ballot.sync(i32 %active,
; CHECK:         call i1 @llvm.nvvm.vote.any.sync(i32 %active,
; CHECK:       [[JOIN]]:
; CHECK-NEXT:    %sum = phi float [ %[[WARPSUM]], %[[WARP]] ], [ %[[ADDED]], %{{.*}} ]
; CHECK:         %first = icmp eq i32 %[[LANE]],
; CHECK:         atomicrmw fadd ptr addrspace(1) %p, float %sum monotonic, align 4, !irs.aggregated
; CHECK:       [[PLAIN]]:
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4, !irs.aggregated
; REMARK: remark: {{.*}} an atomic accumulation is summed first across the lanes of a warp that share its address: one atomic per address and warp
; EXACT-LABEL: define void @bias_gradient(
; EXACT-NOT:     activemask
; EXACT:         ret void
define void @bias_gradient(ptr addrspace(1) %dv, i64 %n, float %g) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %k32 = add i32 %b, %tid
  %k = zext i32 %k32 to i64
  %j = udiv i64 %k, %n
  %p = getelementptr inbounds float, ptr addrspace(1) %dv, i64 %j
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

; `x .+ y`'s d_x[i]: a different element in every lane, left alone.
; CHECK-LABEL: define void @distinct(
; CHECK-NOT:     activemask
; CHECK:         atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4{{$}}
; REMARK: remark: {{.*}} an atomic accumulation stays as it is: its address differs in every lane of a warp
define void @distinct(ptr addrspace(1) %dx, float %g) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %k32 = add i32 %b, %tid
  %k = zext i32 %k32 to i64
  %k2 = shl nuw nsw i64 %k, 1
  %p = getelementptr inbounds float, ptr addrspace(1) %dx, i64 %k2
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

; A broadcast's Extruded index: i where x is kept (lanes distinct: the
; plain atomic), its default where it is extruded (every lane adds into one
; element: aggregated). keep is the same in every lane, so the branch on it
; does not diverge.
; CHECK-LABEL: define void @extruded(
; CHECK:         %[[KEPT:.*]] = icmp ne i8 %keep, 0
; CHECK:         br i1 %[[KEPT]], label %[[PLAINX:.*]], label %[[AGG:.*]]
; CHECK:       [[PLAINX]]:
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4, !irs.aggregated
; CHECK:       [[AGG]]:
; CHECK-NEXT:    %active = call i32 {{@llvm.nvvm.activemask\(\)|asm sideeffect "activemask.b32 \$0;", "=r"\(\)}}
; CHECK:         match.any.sync.i64
; REMARK: remark: {{.*}} an atomic accumulation stays plain where a condition the lanes share makes its address differ in every lane, and is summed across the lanes that share it elsewhere
define void @extruded(ptr addrspace(1) %dx, i8 %keep, i64 %default, float %g) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %k32 = add i32 %b, %tid
  %k = zext i32 %k32 to i64
  %kept = icmp ne i8 %keep, 0
  %j = select i1 %kept, i64 %k, i64 %default
  %p = getelementptr inbounds float, ptr addrspace(1) %dx, i64 %j
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

; One element per block: uniform, so no test, no match and no plain path:
; the active lanes are the peers. A double goes through the shuffles as two
; words, high first.
; CHECK-LABEL: define void @per_block(
; CHECK-NOT:     match.any
; CHECK-NOT:     %neighbours.share
; CHECK:         %peers.above = and i32 %active,
; CHECK:         .round:
; CHECK:         lshr i64 %{{.*}}, 32
; CHECK:         call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %active,
; CHECK:         call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %active,
; CHECK:         atomicrmw fadd ptr addrspace(1) %p, double %{{.*}} monotonic, align 8, !irs.aggregated
; CHECK-NOT:     atomicrmw
; CHECK:         ret void
; REMARK: remark: {{.*}} an atomic accumulation into one address for the whole warp is summed across the lanes first: one atomic per address and warp
define void @per_block(ptr addrspace(1) %d, double %g) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c = zext i32 %ctaid to i64
  %p = getelementptr inbounds double, ptr addrspace(1) %d, i64 %c
  %old = atomicrmw fadd ptr addrspace(1) %p, double %g monotonic, align 8
  ret void
}

; Integers add exactly: aggregated without reassociate-fp; sub sums what it
; subtracts.
; CHECK-LABEL: define void @integer_gather(
; CHECK:         %matched = call i32 @llvm.nvvm.match.any.sync.i64(
; CHECK:         add i32 %partial,
; CHECK:         atomicrmw sub ptr %p, i32 %{{.*}} monotonic, align 4, !irs.aggregated
; EXACT-LABEL: define void @integer_gather(
; EXACT:         match.any
define void @integer_gather(ptr %counts, ptr addrspace(1) %idx, i32 %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i32 %tid
  %j = load i32, ptr addrspace(1) %ip, align 4
  %p = getelementptr inbounds i32, ptr %counts, i32 %j
  %old = atomicrmw sub ptr %p, i32 %v monotonic, align 4
  ret void
}

; A 2-D broadcast's reverse (mmba_broadcast): the linear index split by the
; extent %n, each dimension kept or extruded. Its lanes are distinct where
; both are kept and the row stride spans a row (|stride| >= n), or only the
; first is kept and a row is at least a warp (n >= 32): a uniform test from
; the flags and sizes, no shuffle, before the plain atomic; elsewhere the
; neighbour test.
; CHECK-LABEL: define void @broadcast_2d(
; CHECK:         %[[SPAN:.*]] = icmp uge i64 %stride, %n
; CHECK:         %[[WIDE:.*]] = icmp uge i64 %n, 32
; CHECK:         %lanes.distinct = or i1
; CHECK-NEXT:    br i1 %lanes.distinct, label %[[PLAIN2D:.*]], label %[[TEST2D:.*]]
; CHECK:       [[PLAIN2D]]:
; CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4, !irs.aggregated
; CHECK:       [[TEST2D]]:
; CHECK-NEXT:    %active = call i32
; CHECK:         %neighbours.share = call i1 @llvm.nvvm.vote.any.sync(
; REMARK: remark: {{.*}} an atomic accumulation stays plain where a condition the lanes share makes its address differ in every lane
define void @broadcast_2d(ptr addrspace(1) %dx, i64 %n, i64 %stride.in, i8 %keep1, i8 %keep2, i64 %d1, i64 %d2, float %g) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = zext i32 %ctaid to i64
  %b = zext i32 %ntid to i64
  %t = zext i32 %tid to i64
  %base = mul nuw nsw i64 %b, %c
  %i = add nuw nsw i64 %base, %t
  %q = sdiv i64 %i, %n
  %qn = mul i64 %q, %n
  %r = sub i64 %i, %qn
  %k1b = and i8 %keep1, 1
  %k1 = icmp eq i8 %k1b, 0
  %col = select i1 %k1, i64 %d1, i64 %r
  %k2b = and i8 %keep2, 1
  %k2 = icmp eq i8 %k2b, 0
  %row = select i1 %k2, i64 %d2, i64 %q
  %stride = call i64 @llvm.smax.i64(i64 %stride.in, i64 0)
  %rowoff = mul i64 %row, %stride
  %rowp = getelementptr float, ptr addrspace(1) %dx, i64 %rowoff
  %p = getelementptr float, ptr addrspace(1) %rowp, i64 %col
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

; The row stride is the extent itself (an array of the loop's own shape):
; distinct in every lane, left alone.
; CHECK-LABEL: define void @own_extent(
; CHECK-NOT:     activemask
; CHECK:         atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4{{$}}
define void @own_extent(ptr addrspace(1) %dx, i64 %n, float %g) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %q = udiv i64 %i, %n
  %r = urem i64 %i, %n
  %rowoff = mul i64 %q, %n
  %off = add i64 %rowoff, %r
  %p = getelementptr float, ptr addrspace(1) %dx, i64 %off
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

; Only the quotient (a column's bias, every lane of a row on one element):
; no uniform test can find distinct lanes; the neighbour test decides.
; CHECK-LABEL: define void @row_only(
; CHECK-NOT:     lanes.distinct
; CHECK:         %neighbours.share = call i1 @llvm.nvvm.vote.any.sync(
define void @row_only(ptr addrspace(1) %dv, i64 %n, float %g) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %q = sdiv i64 %i, %n
  %p = getelementptr float, ptr addrspace(1) %dv, i64 %q
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

; The gather's reverse: the neighbour test goes where the address is known,
; before the load of the value it adds, whose latency then covers the
; shuffle and the vote.
; CHECK-LABEL: define void @test_before_value(
; CHECK:         %p = getelementptr inbounds float, ptr addrspace(1) %dx, i32 %j
; CHECK-NEXT:    %active = call i32
; CHECK:         %neighbours.share = call i1 @llvm.nvvm.vote.any.sync(
; CHECK-NEXT:    %gp = getelementptr
; CHECK-NEXT:    %g = load float, ptr addrspace(1) %gp, align 4
; CHECK-NEXT:    br i1 %neighbours.share,
define void @test_before_value(ptr addrspace(1) %dx, ptr addrspace(1) %idx, ptr addrspace(1) %dout) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i32 %tid
  %j = load i32, ptr addrspace(1) %ip, align 4
  %p = getelementptr inbounds float, ptr addrspace(1) %dx, i32 %j
  %gp = getelementptr inbounds float, ptr addrspace(1) %dout, i32 %tid
  %g = load float, ptr addrspace(1) %gp, align 4
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}

; Left alone: the old value used, seq_cst, shared memory, a target without
; match.any.
; CHECK-LABEL: define float @not_accumulations(
; CHECK-NOT:     activemask
; CHECK:         ret float
; CHECK-LABEL: define void @before_sm70(
; CHECK-NOT:     activemask
; CHECK:         ret void
; REMARK: remark: {{.*}} atomic accumulations stay as they are: the target has no match.any.sync (before sm_70)
define float @not_accumulations(ptr addrspace(1) %d, ptr addrspace(3) %s, float %g) {
entry:
  %a = atomicrmw fadd ptr addrspace(1) %d, float %g monotonic, align 4
  %b = atomicrmw fadd ptr addrspace(1) %d, float %g seq_cst, align 4
  %c = atomicrmw fadd ptr addrspace(3) %s, float %g monotonic, align 4
  ret float %a
}

define void @before_sm70(ptr addrspace(1) %d, float %g) #0 {
entry:
  %a = atomicrmw fadd ptr addrspace(1) %d, float %g monotonic, align 4
  ret void
}

; PTX-LABEL: .func bias_gradient(
; PTX:         activemask.b32
; PTX:         match.any.sync.b64
; PTX:         shfl.sync.idx.b32
; PTX:         {{atom|red}}.global.add.f32

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i64 @llvm.smax.i64(i64, i64)

attributes #0 = { "target-cpu"="sm_60" }
