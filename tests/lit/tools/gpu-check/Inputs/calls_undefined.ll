; A kernel dumped before its runtime was linked in: it calls
; julia_exception_flag, which CUDA.jl links in later (a Cassette-era
; KernelAbstractions dump does this). malloc is the driver's own.
target triple = "nvptx64-nvidia-cuda"

declare i32 @julia_exception_flag()
declare ptr @malloc(i64)

define ptx_kernel void @first(ptr addrspace(1) %p) {
  %flag = call i32 @julia_exception_flag()
  %heap = call ptr @malloc(i64 8)
  %v = sitofp i32 %flag to float
  store float %v, ptr addrspace(1) %p
  store float %v, ptr %heap
  ret void
}
