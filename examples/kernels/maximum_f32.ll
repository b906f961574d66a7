; maximum(x) over a Float32 vector: op is Julia's max (x - y's sign picks
; the larger, a NaN wins), neutral typemin(Float32) = -Inf; the derivative
; goes to the arg-max.
; CUDA.jl's partial_mapreduce_grid (src/mapreduce.jl) in the shape
; GPUCompiler gives it with CUDA.jl 5 and Julia 1.11: the kernel state
; first, the ghosts (f, op, Val(true)) gone, the CartesianIndices as their
; OneTo stops, R reshaped to (size(Rother)..., reduce_blocks), the mapped
; arrays as a tuple. reduce_block with shuffles: each thread folds a
; grid-stride slice, reduce_warp (shfl_down_sync by 1, 2, 4, 8, 16), the
; warps' results through CuStaticSharedArray(T, 32) and sync_threads, the
; first warp folds them, thread 1 writes R.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
%Array2 = type { ptr addrspace(1), i64, [2 x i64], i64 }

@shared = internal unnamed_addr addrspace(3) global [32 x float] undef, align 32

define ptx_kernel void @_Z22partial_mapreduce_grid8identity3max7Float3216CartesianIndicesILi1E5TupleI5OneToI5Int64EEES3_3ValILb1EE13CuDeviceArrayIS1_Li2ELi1EE5TupleI13CuDeviceArrayIS1_Li1ELi1EEE({ i64, i32 } %state, float %"neutral::Float32", { [1 x [1 x i64]] } %"Rreduce::CartesianIndices", { [1 x [1 x i64]] } %"Rother::CartesianIndices", %Array2 %"R::CuDeviceArray", [1 x %Array1] %"As::Tuple") {
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

  %val0.diff = fsub float %"neutral::Float32", %"neutral::Float32"
  %val0.dbits = bitcast float %val0.diff to i32
  %val0.neg = icmp slt i32 %val0.dbits, 0
  %val0.arg = select i1 %val0.neg, float %"neutral::Float32", float %"neutral::Float32"
  %val0.nan = fcmp uno float %"neutral::Float32", %"neutral::Float32"
  %val0 = select i1 %val0.nan, float %val0.diff, float %val0.arg
  %first.base = mul i64 %block.reduce, %threads
  %first = add i64 %first.base, %thread
  %stride = mul i64 %threads, %grid.reduce
  %x.array = extractvalue [1 x %Array1] %"As::Tuple", 0
  %x.data = extractvalue %Array1 %x.array, 0
  %any = icmp ult i64 %first, %reduce.len
  br i1 %any, label %serial, label %folded

serial:
  %i = phi i64 [ %first, %conversion ], [ %i.next, %serial ]
  %val.acc = phi float [ %val0, %conversion ], [ %val.next, %serial ]
  %xi = add i64 %i, 0
  %xp = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %xi
  %x = load float, ptr addrspace(1) %xp, align 4
  %val.next.diff = fsub float %val.acc, %x
  %val.next.dbits = bitcast float %val.next.diff to i32
  %val.next.neg = icmp slt i32 %val.next.dbits, 0
  %val.next.arg = select i1 %val.next.neg, float %x, float %val.acc
  %val.next.nan = fcmp uno float %val.acc, %x
  %val.next = select i1 %val.next.nan, float %val.next.diff, float %val.next.arg
  %i.next = add i64 %i, %stride
  %more = icmp ult i64 %i.next, %reduce.len
  br i1 %more, label %serial, label %folded

folded:
  %val.loop = phi float [ %val0, %conversion ], [ %val.next, %serial ]
  %w0.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %val.loop, i32 1, i32 31)
  %w0.diff = fsub float %val.loop, %w0.s
  %w0.dbits = bitcast float %w0.diff to i32
  %w0.neg = icmp slt i32 %w0.dbits, 0
  %w0.arg = select i1 %w0.neg, float %w0.s, float %val.loop
  %w0.nan = fcmp uno float %val.loop, %w0.s
  %w0 = select i1 %w0.nan, float %w0.diff, float %w0.arg
  %w1.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w0, i32 2, i32 31)
  %w1.diff = fsub float %w0, %w1.s
  %w1.dbits = bitcast float %w1.diff to i32
  %w1.neg = icmp slt i32 %w1.dbits, 0
  %w1.arg = select i1 %w1.neg, float %w1.s, float %w0
  %w1.nan = fcmp uno float %w0, %w1.s
  %w1 = select i1 %w1.nan, float %w1.diff, float %w1.arg
  %w2.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w1, i32 4, i32 31)
  %w2.diff = fsub float %w1, %w2.s
  %w2.dbits = bitcast float %w2.diff to i32
  %w2.neg = icmp slt i32 %w2.dbits, 0
  %w2.arg = select i1 %w2.neg, float %w2.s, float %w1
  %w2.nan = fcmp uno float %w1, %w2.s
  %w2 = select i1 %w2.nan, float %w2.diff, float %w2.arg
  %w3.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w2, i32 8, i32 31)
  %w3.diff = fsub float %w2, %w3.s
  %w3.dbits = bitcast float %w3.diff to i32
  %w3.neg = icmp slt i32 %w3.dbits, 0
  %w3.arg = select i1 %w3.neg, float %w3.s, float %w2
  %w3.nan = fcmp uno float %w2, %w3.s
  %w3 = select i1 %w3.nan, float %w3.diff, float %w3.arg
  %w4.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w3, i32 16, i32 31)
  %w4.diff = fsub float %w3, %w4.s
  %w4.dbits = bitcast float %w4.diff to i32
  %w4.neg = icmp slt i32 %w4.dbits, 0
  %w4.arg = select i1 %w4.neg, float %w4.s, float %w3
  %w4.nan = fcmp uno float %w3, %w4.s
  %w4 = select i1 %w4.nan, float %w4.diff, float %w4.arg
  ; wid, lane = fldmod1(threadIdx().x, warpsize())
  %wid0 = lshr i32 %tid, 5
  %lane0 = and i32 %tid, 31
  %lane.first = icmp eq i32 %lane0, 0
  br i1 %lane.first, label %to.shared, label %synced

to.shared:
  %wid = zext i32 %wid0 to i64
  %slot = getelementptr inbounds [32 x float], ptr addrspace(3) @shared, i64 0, i64 %wid
  store float %w4, ptr addrspace(3) %slot, align 4
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
  %lslot = getelementptr inbounds [32 x float], ptr addrspace(3) @shared, i64 0, i64 %lane
  %partial = load float, ptr addrspace(3) %lslot, align 4
  br label %read

read:
  %val.shared = phi float [ %partial, %from.shared ], [ %"neutral::Float32", %synced ]
  %first.warp = icmp ult i32 %tid, 32
  br i1 %first.warp, label %final, label %done

final:
  %f0.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %val.shared, i32 1, i32 31)
  %f0.diff = fsub float %val.shared, %f0.s
  %f0.dbits = bitcast float %f0.diff to i32
  %f0.neg = icmp slt i32 %f0.dbits, 0
  %f0.arg = select i1 %f0.neg, float %f0.s, float %val.shared
  %f0.nan = fcmp uno float %val.shared, %f0.s
  %f0 = select i1 %f0.nan, float %f0.diff, float %f0.arg
  %f1.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f0, i32 2, i32 31)
  %f1.diff = fsub float %f0, %f1.s
  %f1.dbits = bitcast float %f1.diff to i32
  %f1.neg = icmp slt i32 %f1.dbits, 0
  %f1.arg = select i1 %f1.neg, float %f1.s, float %f0
  %f1.nan = fcmp uno float %f0, %f1.s
  %f1 = select i1 %f1.nan, float %f1.diff, float %f1.arg
  %f2.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f1, i32 4, i32 31)
  %f2.diff = fsub float %f1, %f2.s
  %f2.dbits = bitcast float %f2.diff to i32
  %f2.neg = icmp slt i32 %f2.dbits, 0
  %f2.arg = select i1 %f2.neg, float %f2.s, float %f1
  %f2.nan = fcmp uno float %f1, %f2.s
  %f2 = select i1 %f2.nan, float %f2.diff, float %f2.arg
  %f3.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f2, i32 8, i32 31)
  %f3.diff = fsub float %f2, %f3.s
  %f3.dbits = bitcast float %f3.diff to i32
  %f3.neg = icmp slt i32 %f3.dbits, 0
  %f3.arg = select i1 %f3.neg, float %f3.s, float %f2
  %f3.nan = fcmp uno float %f2, %f3.s
  %f3 = select i1 %f3.nan, float %f3.diff, float %f3.arg
  %f4.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f3, i32 16, i32 31)
  %f4.diff = fsub float %f3, %f4.s
  %f4.dbits = bitcast float %f4.diff to i32
  %f4.neg = icmp slt i32 %f4.dbits, 0
  %f4.arg = select i1 %f4.neg, float %f4.s, float %f3
  %f4.nan = fcmp uno float %f3, %f4.s
  %f4 = select i1 %f4.nan, float %f4.diff, float %f4.arg
  br label %done

done:
  %val.block = phi float [ %f4, %final ], [ %val.shared, %read ]
  %thread.first = icmp eq i32 %tid, 0
  br i1 %thread.first, label %write, label %exit

write:
  ; R[Iother, blockIdx_reduce]
  %R.rows = extractvalue %Array2 %"R::CuDeviceArray", 2, 0
  %out.col = mul i64 %block.reduce, %R.rows
  %out = add i64 %out.col, %block.other
  %R.data = extractvalue %Array2 %"R::CuDeviceArray", 0
  %rp = getelementptr inbounds float, ptr addrspace(1) %R.data, i64 %out
  store float %val.block, ptr addrspace(1) %rp, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
