; A libdevice of three functions (libdevice.10.bc's triple), one of which
; the kernel does not call.
target triple = "nvptx64-nvidia-gpulibs"

define float @__nv_coshf(float %x) {
  ret float %x
}

define double @__nv_pow(double %x, double %y) {
  ret double %y
}

define float @__nv_unused(float %x) {
  ret float %x
}
