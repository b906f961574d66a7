; No broadcast: out[i, j] = v[j] * w[i, j], with v a vector. Which size of
; out v has is the kernel's business; --dims alone cannot say it.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Array1 = type { ptr addrspace(1), i64, [1 x i64], i64 }
%Array2 = type { ptr addrspace(1), i64, [2 x i64], i64 }

define ptx_kernel void @_Z5scale({ ptr, i32 } %state, %Array2 %"out::CuDeviceArray", %Array1 %"v::CuDeviceArray", %Array2 %"w::CuDeviceArray") {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %k32 = add i32 %b, %tid
  %k = zext i32 %k32 to i64
  %len = extractvalue %Array2 %"out::CuDeviceArray", 3
  %in = icmp slt i64 %k, %len
  br i1 %in, label %body, label %exit
body:
  %d0 = extractvalue %Array2 %"out::CuDeviceArray", 2, 0
  %j = udiv i64 %k, %d0
  %v.data = extractvalue %Array1 %"v::CuDeviceArray", 0
  %vp = getelementptr inbounds float, ptr addrspace(1) %v.data, i64 %j
  %vv = load float, ptr addrspace(1) %vp, align 4
  %w.data = extractvalue %Array2 %"w::CuDeviceArray", 0
  %wp = getelementptr inbounds float, ptr addrspace(1) %w.data, i64 %k
  %wv = load float, ptr addrspace(1) %wp, align 4
  %r = fmul float %vv, %wv
  %out.data = extractvalue %Array2 %"out::CuDeviceArray", 0
  %op = getelementptr inbounds float, ptr addrspace(1) %out.data, i64 %k
  store float %r, ptr addrspace(1) %op, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
