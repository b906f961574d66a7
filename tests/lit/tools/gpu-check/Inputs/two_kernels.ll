; Two kernels: gpu-check must be told which one to check.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @first(ptr addrspace(1) %p) {
  store float 1.0, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @second(ptr addrspace(1) %p) {
  store float 2.0, ptr addrspace(1) %p
  ret void
}
