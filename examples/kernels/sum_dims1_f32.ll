; sum(x; dims=1) over a Float32 matrix, one block a column (Rreduce the
; rows, Rother the columns); also the second launch of a two-launch sum,
; which reduces the first's partial results (an array 1 x blocks, Rreduce
; over its second dimension).
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

define ptx_kernel void @_Z22partial_mapreduce_grid8identity7add_sum7Float3216CartesianIndicesILi2E5TupleI5OneToI5Int64EEES3_3ValILb1EE13CuDeviceArrayIS1_Li2ELi1EE5TupleI13CuDeviceArrayIS1_Li2ELi1EEE({ i64, i32 } %state, float %"neutral::Float32", { [2 x [1 x i64]] } %"Rreduce::CartesianIndices", { [2 x [1 x i64]] } %"Rother::CartesianIndices", %Array2 %"R::CuDeviceArray", [1 x %Array2] %"As::Tuple") {
conversion:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %other.1 = extractvalue { [2 x [1 x i64]] } %"Rother::CartesianIndices", 0, 0, 0
  %other.2 = extractvalue { [2 x [1 x i64]] } %"Rother::CartesianIndices", 0, 1, 0
  %other.len = mul i64 %other.1, %other.2
  %reduce.1 = extractvalue { [2 x [1 x i64]] } %"Rreduce::CartesianIndices", 0, 0, 0
  %reduce.2 = extractvalue { [2 x [1 x i64]] } %"Rreduce::CartesianIndices", 0, 1, 0
  %reduce.len = mul i64 %reduce.1, %reduce.2
  %block = zext i32 %ctaid to i64
  ; fldmod1(blockIdx().x, length(Rother)), 0-based
  %block.reduce = udiv i64 %block, %other.len
  %block.other = urem i64 %block, %other.len
  %grid = zext i32 %nctaid to i64
  %grid.reduce = udiv i64 %grid, %other.len
  %threads = zext i32 %ntid to i64
  %thread = zext i32 %tid to i64

  %val0 = fadd float %"neutral::Float32", %"neutral::Float32"
  %first.base = mul i64 %block.reduce, %threads
  %first = add i64 %first.base, %thread
  %stride = mul i64 %threads, %grid.reduce
  %x.array = extractvalue [1 x %Array2] %"As::Tuple", 0
  %x.data = extractvalue %Array2 %x.array, 0
  %any = icmp ult i64 %first, %reduce.len
  br i1 %any, label %serial, label %folded

serial:
  %i = phi i64 [ %first, %conversion ], [ %i.next, %serial ]
  %val.acc = phi float [ %val0, %conversion ], [ %val.next, %serial ]
  %x.rows = extractvalue %Array2 %x.array, 2, 0
  %x.col = mul i64 %block.other, %x.rows
  %xi = add i64 %x.col, %i
  %xp = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %xi
  %x = load float, ptr addrspace(1) %xp, align 4
  %val.next = fadd float %val.acc, %x
  %i.next = add i64 %i, %stride
  %more = icmp ult i64 %i.next, %reduce.len
  br i1 %more, label %serial, label %folded

folded:
  %val.loop = phi float [ %val0, %conversion ], [ %val.next, %serial ]
  %w0.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %val.loop, i32 1, i32 31)
  %w0 = fadd float %val.loop, %w0.s
  %w1.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w0, i32 2, i32 31)
  %w1 = fadd float %w0, %w1.s
  %w2.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w1, i32 4, i32 31)
  %w2 = fadd float %w1, %w2.s
  %w3.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w2, i32 8, i32 31)
  %w3 = fadd float %w2, %w3.s
  %w4.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %w3, i32 16, i32 31)
  %w4 = fadd float %w3, %w4.s
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
  %f0 = fadd float %val.shared, %f0.s
  %f1.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f0, i32 2, i32 31)
  %f1 = fadd float %f0, %f1.s
  %f2.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f1, i32 4, i32 31)
  %f2 = fadd float %f1, %f2.s
  %f3.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f2, i32 8, i32 31)
  %f3 = fadd float %f2, %f3.s
  %f4.s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f3, i32 16, i32 31)
  %f4 = fadd float %f3, %f4.s
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
