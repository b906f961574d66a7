//===- SplattedKernel.h - A splatted kernel and its manifest for fuzzing --===//
//
// Readers that check their input against a kernel (activities, launch
// specs) get this one: by-value and byval closures holding a CuDeviceArray-
// like struct, a float and an integer, splatted by the library itself.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TESTS_FUZZ_SPLATTEDKERNEL_H
#define IR_SANITIZE_TESTS_FUZZ_SPLATTEDKERNEL_H

#include "FuzzInput.h"

#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/SourceMgr.h"

namespace irs::fuzz {

inline constexpr const char *KernelIR = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%Array = type { ptr addrspace(1), i64, [2 x i64] }
define ptx_kernel void @k({ i64, %Array } %bc, ptr byval({ float, double }) %c, float %s, i32 %n) {
  ret void
}
)";

/// The splatted kernel and its manifest, made once per process.
struct SplattedKernel {
  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> M;
  KernelManifest Manifest;

  SplattedKernel() {
    llvm::SMDiagnostic Diag;
    M = llvm::parseAssemblyString(KernelIR, Diag, Ctx);
    if (!M)
      fail("the kernel does not parse: " + Diag.getMessage());
    llvm::Expected<LaunchManifest> LM = splatKernels(*M, {});
    if (!LM || LM->Kernels.size() != 1)
      fail("the kernel does not splat");
    Manifest = LM->Kernels[0];
  }
};

} // namespace irs::fuzz

#endif
