; ir-sanitize-nvptx-libdevice: math intrinsics NVPTX cannot lower become
; libdevice calls, and what the module then calls is linked from the file
; given, internal; the rest of the file is not.
; RUN: llvm-as %S/Inputs/fake-libdevice.ll -o %t.bc
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-libdevice<path=%t.bc>' -S %s | FileCheck %s
; A module that needs libdevice and names no file, or a file that is not
; there, fails, saying so.
; RUN: not opt -load-pass-plugin=%plugin -passes=ir-sanitize-nvptx-libdevice -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-libdevice<path=%t.missing.bc>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-libdevice<file=x>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
; Printed as parsed (opt -print-pipeline-passes).
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-nvptx-libdevice<path=a%%20b.bc>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PRINT

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %x = load float, ptr addrspace(1) %p
  %c = call float @llvm.cosh.f32(float %x)
  %s = call float @llvm.sqrt.f32(float %c)
  store float %s, ptr addrspace(1) %p
  %y = load double, ptr addrspace(1) %q
  %e = call double @__nv_pow(double %y, double %y)
  store double %e, ptr addrspace(1) %q
  ret void
}

declare float @llvm.cosh.f32(float)
declare float @llvm.sqrt.f32(float)
declare double @__nv_pow(double, double)

; CHECK: target triple = "nvptx64-nvidia-cuda"
; CHECK: call float @__nv_coshf(float %x)
; CHECK: call float @llvm.sqrt.f32(
; CHECK: call double @__nv_pow(
; CHECK-NOT: @__nv_unused
; CHECK-DAG: define internal float @__nv_coshf(
; CHECK-DAG: define internal double @__nv_pow(
; CHECK-NOT: @__nv_unused

; NOFILE: ir-sanitize-nvptx-libdevice: PTX generation: the module calls libdevice (__nv_*) functions but libdevice.10.bc was not found (set CUDA_HOME)
; MISSING: ir-sanitize-nvptx-libdevice: PTX generation: {{.*}}.missing.bc: {{.*}}
; BAD: ir-sanitize-nvptx-libdevice: invalid parameter 'file=x' (expected path=FILE)
; PRINT: ir-sanitize-nvptx-libdevice<path=a%20b.bc>
