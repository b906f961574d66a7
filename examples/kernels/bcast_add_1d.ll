; `dest .= x .+ y` on 1-D CuArray{Float32}: GPUArrays' broadcast kernel as
; CUDA.jl hands it to PTX after GPUCompiler lowered its byval arguments.
;
;   %state  CUDA.jl KernelState                 { ptr, i32 }
;   %dest   CuDeviceArray{Float32,1}            { ptr addrspace(1) data, i64 maxsize, [1 x i64] dims, i64 len }
;   %bc     Broadcasted{+}                      { [2 x Extruded] args, [1 x [1 x i64]] axes }
;           Extruded                            { CuDeviceArray, [1 x i8] keeps, [1 x i64] defaults }
;
; The `+` and the broadcast style are ghosts. Thread i (0-based, from
; ctaid * ntid + tid) computes dest[i] = x[j] + y[j] where, per argument,
; j = keeps[0] ? i : defaults[0] - 1 (defaults are 1-based, as in Julia).
; Leaves after splatting: bc.0.0.0.0 is x's data pointer, bc.0.1.0.0 is y's.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z16broadcast_kernel_add_1d({ ptr, i32 } %state, { ptr addrspace(1), i64, [1 x i64], i64 } %dest, { [2 x { { ptr addrspace(1), i64, [1 x i64], i64 }, [1 x i8], [1 x i64] }], [1 x [1 x i64]] } %bc) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid64 = zext i32 %tid to i64
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %blockstart = mul i64 %ctaid64, %ntid64
  %i = add i64 %blockstart, %tid64
  %len = extractvalue { ptr addrspace(1), i64, [1 x i64], i64 } %dest, 3
  %inbounds = icmp slt i64 %i, %len
  br i1 %inbounds, label %body, label %exit

body:
  %x.keep = extractvalue { [2 x { { ptr addrspace(1), i64, [1 x i64], i64 }, [1 x i8], [1 x i64] }], [1 x [1 x i64]] } %bc, 0, 0, 1, 0
  %x.default = extractvalue { [2 x { { ptr addrspace(1), i64, [1 x i64], i64 }, [1 x i8], [1 x i64] }], [1 x [1 x i64]] } %bc, 0, 0, 2, 0
  %x.keep1 = and i8 %x.keep, 1
  %x.kept = icmp ne i8 %x.keep1, 0
  %x.default0 = add i64 %x.default, -1
  %x.j = select i1 %x.kept, i64 %i, i64 %x.default0
  %x.data = extractvalue { [2 x { { ptr addrspace(1), i64, [1 x i64], i64 }, [1 x i8], [1 x i64] }], [1 x [1 x i64]] } %bc, 0, 0, 0, 0
  %x.addr = getelementptr inbounds float, ptr addrspace(1) %x.data, i64 %x.j
  %x.val = load float, ptr addrspace(1) %x.addr, align 4
  %y.keep = extractvalue { [2 x { { ptr addrspace(1), i64, [1 x i64], i64 }, [1 x i8], [1 x i64] }], [1 x [1 x i64]] } %bc, 0, 1, 1, 0
  %y.default = extractvalue { [2 x { { ptr addrspace(1), i64, [1 x i64], i64 }, [1 x i8], [1 x i64] }], [1 x [1 x i64]] } %bc, 0, 1, 2, 0
  %y.keep1 = and i8 %y.keep, 1
  %y.kept = icmp ne i8 %y.keep1, 0
  %y.default0 = add i64 %y.default, -1
  %y.j = select i1 %y.kept, i64 %i, i64 %y.default0
  %y.data = extractvalue { [2 x { { ptr addrspace(1), i64, [1 x i64], i64 }, [1 x i8], [1 x i64] }], [1 x [1 x i64]] } %bc, 0, 1, 0, 0
  %y.addr = getelementptr inbounds float, ptr addrspace(1) %y.data, i64 %y.j
  %y.val = load float, ptr addrspace(1) %y.addr, align 4
  %sum = fadd float %x.val, %y.val
  %dest.data = extractvalue { ptr addrspace(1), i64, [1 x i64], i64 } %dest, 0
  %dest.addr = getelementptr inbounds float, ptr addrspace(1) %dest.data, i64 %i
  store float %sum, ptr addrspace(1) %dest.addr, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { nounwind }
