; sum(abs2, x) over a Float64 vector on a CuArray: CUDA.jl's
; partial_mapreduce_grid(abs2, add_sum, neutral, Rreduce, Rother, Val(true),
; R, x) (src/mapreduce.jl) in the shape GPUCompiler gives it with CUDA.jl 5
; and Julia 1.11: the kernel state first, the ghosts (abs2, add_sum,
; Val(true)) gone, the CartesianIndices as their OneTo stops, R reshaped
; to (length(Rother), reduce_blocks), the mapped arrays as a tuple.
; reduce_block with shuffles: each thread folds a grid-stride slice,
; reduce_warp (shfl_down_sync by 1, 2, 4, 8, 16, a Float64 as two i32 words),
; the warps' results through CuStaticSharedArray(Float64, 32) and
; sync_threads, the first warp folds them, thread 1 writes R.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
%Array2 = type { ptr addrspace(1), i64, [2 x i64], i64 }

@shared = internal unnamed_addr addrspace(3) global [32 x double] undef, align 32

define ptx_kernel void @_Z22partial_mapreduce_grid4abs27add_sum7Float6416CartesianIndicesILi1E5TupleI5OneToI5Int64EEES3_3ValILb1EE13CuDeviceArrayIS1_Li2ELi1EE5TupleI13CuDeviceArrayIS1_Li1ELi1EEE({ i64, i32 } %state, double %"neutral::Float64", { [1 x [1 x i64]] } %"Rreduce::CartesianIndices", { [1 x [1 x i64]] } %"Rother::CartesianIndices", %Array2 %"R::CuDeviceArray", [1 x %Array1] %"As::Tuple") {
conversion:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %other.len = extractvalue { [1 x [1 x i64]] } %"Rother::CartesianIndices", 0, 0, 0
  %reduce.len = extractvalue { [1 x [1 x i64]] } %"Rreduce::CartesianIndices", 0, 0, 0
  %block = zext i32 %ctaid to i64
  ; fldmod1(blockIdx().x, length(Rother)), 0-based
  %block.reduce = udiv i64 %block, %other.len
  %block.other = urem i64 %block, %other.len
  %grid = zext i32 %nctaid to i64
  %grid.reduce = udiv i64 %grid, %other.len
  %threads = zext i32 %ntid to i64
  %thread = zext i32 %tid to i64
  %val0 = fadd double %"neutral::Float64", %"neutral::Float64"
  %first.base = mul i64 %block.reduce, %threads
  %first = add i64 %first.base, %thread
  %stride = mul i64 %threads, %grid.reduce
  %x.array = extractvalue [1 x %Array1] %"As::Tuple", 0
  %x.data = extractvalue %Array1 %x.array, 0
  %any = icmp ult i64 %first, %reduce.len
  br i1 %any, label %serial, label %folded

serial:
  %i = phi i64 [ %first, %conversion ], [ %i.next, %serial ]
  %val.acc = phi double [ %val0, %conversion ], [ %val.next, %serial ]
  %xp = getelementptr inbounds double, ptr addrspace(1) %x.data, i64 %i
  %x = load double, ptr addrspace(1) %xp, align 8
  %abs2 = fmul double %x, %x
  %val.next = fadd double %val.acc, %abs2
  %i.next = add i64 %i, %stride
  %more = icmp ult i64 %i.next, %reduce.len
  br i1 %more, label %serial, label %folded

folded:
  %val.loop = phi double [ %val0, %conversion ], [ %val.next, %serial ]
  %w0.bits = bitcast double %val.loop to i64
  %w0.hi64 = lshr i64 %w0.bits, 32
  %w0.hi = trunc i64 %w0.hi64 to i32
  %w0.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w0.hi, i32 1, i32 31)
  %w0.zhi = zext i32 %w0.shi to i64
  %w0.up = shl nuw i64 %w0.zhi, 32
  %w0.lo = trunc i64 %w0.bits to i32
  %w0.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w0.lo, i32 1, i32 31)
  %w0.zlo = zext i32 %w0.slo to i64
  %w0.or = or i64 %w0.up, %w0.zlo
  %w0.s = bitcast i64 %w0.or to double
  %w0 = fadd double %val.loop, %w0.s
  %w1.bits = bitcast double %w0 to i64
  %w1.hi64 = lshr i64 %w1.bits, 32
  %w1.hi = trunc i64 %w1.hi64 to i32
  %w1.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w1.hi, i32 2, i32 31)
  %w1.zhi = zext i32 %w1.shi to i64
  %w1.up = shl nuw i64 %w1.zhi, 32
  %w1.lo = trunc i64 %w1.bits to i32
  %w1.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w1.lo, i32 2, i32 31)
  %w1.zlo = zext i32 %w1.slo to i64
  %w1.or = or i64 %w1.up, %w1.zlo
  %w1.s = bitcast i64 %w1.or to double
  %w1 = fadd double %w0, %w1.s
  %w2.bits = bitcast double %w1 to i64
  %w2.hi64 = lshr i64 %w2.bits, 32
  %w2.hi = trunc i64 %w2.hi64 to i32
  %w2.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w2.hi, i32 4, i32 31)
  %w2.zhi = zext i32 %w2.shi to i64
  %w2.up = shl nuw i64 %w2.zhi, 32
  %w2.lo = trunc i64 %w2.bits to i32
  %w2.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w2.lo, i32 4, i32 31)
  %w2.zlo = zext i32 %w2.slo to i64
  %w2.or = or i64 %w2.up, %w2.zlo
  %w2.s = bitcast i64 %w2.or to double
  %w2 = fadd double %w1, %w2.s
  %w3.bits = bitcast double %w2 to i64
  %w3.hi64 = lshr i64 %w3.bits, 32
  %w3.hi = trunc i64 %w3.hi64 to i32
  %w3.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w3.hi, i32 8, i32 31)
  %w3.zhi = zext i32 %w3.shi to i64
  %w3.up = shl nuw i64 %w3.zhi, 32
  %w3.lo = trunc i64 %w3.bits to i32
  %w3.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w3.lo, i32 8, i32 31)
  %w3.zlo = zext i32 %w3.slo to i64
  %w3.or = or i64 %w3.up, %w3.zlo
  %w3.s = bitcast i64 %w3.or to double
  %w3 = fadd double %w2, %w3.s
  %w4.bits = bitcast double %w3 to i64
  %w4.hi64 = lshr i64 %w4.bits, 32
  %w4.hi = trunc i64 %w4.hi64 to i32
  %w4.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w4.hi, i32 16, i32 31)
  %w4.zhi = zext i32 %w4.shi to i64
  %w4.up = shl nuw i64 %w4.zhi, 32
  %w4.lo = trunc i64 %w4.bits to i32
  %w4.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w4.lo, i32 16, i32 31)
  %w4.zlo = zext i32 %w4.slo to i64
  %w4.or = or i64 %w4.up, %w4.zlo
  %w4.s = bitcast i64 %w4.or to double
  %w4 = fadd double %w3, %w4.s
  ; wid, lane = fldmod1(threadIdx().x, warpsize())
  %wid0 = lshr i32 %tid, 5
  %lane0 = and i32 %tid, 31
  %lane.first = icmp eq i32 %lane0, 0
  br i1 %lane.first, label %to.shared, label %synced

to.shared:
  %wid = zext i32 %wid0 to i64
  %slot = getelementptr inbounds [32 x double], ptr addrspace(3) @shared, i64 0, i64 %wid
  store double %w4, ptr addrspace(3) %slot, align 8
  br label %synced

synced:
  call void @llvm.nvvm.barrier0()
  ; read from shared memory only if that warp existed
  %warps.plus = add i32 %ntid, 31
  %warps = lshr i32 %warps.plus, 5
  %existed = icmp ult i32 %tid, %warps
  br i1 %existed, label %from.shared, label %read

from.shared:
  %lane = zext i32 %lane0 to i64
  %lslot = getelementptr inbounds [32 x double], ptr addrspace(3) @shared, i64 0, i64 %lane
  %partial = load double, ptr addrspace(3) %lslot, align 8
  br label %read

read:
  %val.shared = phi double [ %partial, %from.shared ], [ %"neutral::Float64", %synced ]
  %first.warp = icmp ult i32 %tid, 32
  br i1 %first.warp, label %final, label %done

final:
  %f0.bits = bitcast double %val.shared to i64
  %f0.hi64 = lshr i64 %f0.bits, 32
  %f0.hi = trunc i64 %f0.hi64 to i32
  %f0.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f0.hi, i32 1, i32 31)
  %f0.zhi = zext i32 %f0.shi to i64
  %f0.up = shl nuw i64 %f0.zhi, 32
  %f0.lo = trunc i64 %f0.bits to i32
  %f0.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f0.lo, i32 1, i32 31)
  %f0.zlo = zext i32 %f0.slo to i64
  %f0.or = or i64 %f0.up, %f0.zlo
  %f0.s = bitcast i64 %f0.or to double
  %f0 = fadd double %val.shared, %f0.s
  %f1.bits = bitcast double %f0 to i64
  %f1.hi64 = lshr i64 %f1.bits, 32
  %f1.hi = trunc i64 %f1.hi64 to i32
  %f1.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f1.hi, i32 2, i32 31)
  %f1.zhi = zext i32 %f1.shi to i64
  %f1.up = shl nuw i64 %f1.zhi, 32
  %f1.lo = trunc i64 %f1.bits to i32
  %f1.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f1.lo, i32 2, i32 31)
  %f1.zlo = zext i32 %f1.slo to i64
  %f1.or = or i64 %f1.up, %f1.zlo
  %f1.s = bitcast i64 %f1.or to double
  %f1 = fadd double %f0, %f1.s
  %f2.bits = bitcast double %f1 to i64
  %f2.hi64 = lshr i64 %f2.bits, 32
  %f2.hi = trunc i64 %f2.hi64 to i32
  %f2.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f2.hi, i32 4, i32 31)
  %f2.zhi = zext i32 %f2.shi to i64
  %f2.up = shl nuw i64 %f2.zhi, 32
  %f2.lo = trunc i64 %f2.bits to i32
  %f2.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f2.lo, i32 4, i32 31)
  %f2.zlo = zext i32 %f2.slo to i64
  %f2.or = or i64 %f2.up, %f2.zlo
  %f2.s = bitcast i64 %f2.or to double
  %f2 = fadd double %f1, %f2.s
  %f3.bits = bitcast double %f2 to i64
  %f3.hi64 = lshr i64 %f3.bits, 32
  %f3.hi = trunc i64 %f3.hi64 to i32
  %f3.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f3.hi, i32 8, i32 31)
  %f3.zhi = zext i32 %f3.shi to i64
  %f3.up = shl nuw i64 %f3.zhi, 32
  %f3.lo = trunc i64 %f3.bits to i32
  %f3.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f3.lo, i32 8, i32 31)
  %f3.zlo = zext i32 %f3.slo to i64
  %f3.or = or i64 %f3.up, %f3.zlo
  %f3.s = bitcast i64 %f3.or to double
  %f3 = fadd double %f2, %f3.s
  %f4.bits = bitcast double %f3 to i64
  %f4.hi64 = lshr i64 %f4.bits, 32
  %f4.hi = trunc i64 %f4.hi64 to i32
  %f4.shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f4.hi, i32 16, i32 31)
  %f4.zhi = zext i32 %f4.shi to i64
  %f4.up = shl nuw i64 %f4.zhi, 32
  %f4.lo = trunc i64 %f4.bits to i32
  %f4.slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %f4.lo, i32 16, i32 31)
  %f4.zlo = zext i32 %f4.slo to i64
  %f4.or = or i64 %f4.up, %f4.zlo
  %f4.s = bitcast i64 %f4.or to double
  %f4 = fadd double %f3, %f4.s
  br label %done

done:
  %val.block = phi double [ %f4, %final ], [ %val.shared, %read ]
  %thread.first = icmp eq i32 %tid, 0
  br i1 %thread.first, label %write, label %exit

write:
  ; R[Iother, blockIdx_reduce]
  %R.rows = extractvalue %Array2 %"R::CuDeviceArray", 2, 0
  %out.col = mul i64 %block.reduce, %R.rows
  %out = add i64 %out.col, %block.other
  %R.data = extractvalue %Array2 %"R::CuDeviceArray", 0
  %rp = getelementptr inbounds double, ptr addrspace(1) %R.data, i64 %out
  store double %val.block, ptr addrspace(1) %rp, align 8
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
