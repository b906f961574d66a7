; Two kernels, one with a name that needs escaping in pipeline text
; (print-pipeline-passes.ll).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k.1({ ptr addrspace(1), i64 } %a, float %x) {
  %p = extractvalue { ptr addrspace(1), i64 } %a, 0
  store float %x, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @"odd,name"({ ptr addrspace(1), i64 } %a, float %x) {
  %p = extractvalue { ptr addrspace(1), i64 } %a, 0
  store float %x, ptr addrspace(1) %p
  ret void
}
