//===- KernelInfo.cpp - Which functions are GPU kernel entries ------------===//
#include "ir-sanitize/Analysis/KernelInfo.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace irs {

bool hasKernelCallingConv(const Function &F) {
  switch (F.getCallingConv()) {
  case CallingConv::PTX_Kernel:
  case CallingConv::AMDGPU_KERNEL:
  case CallingConv::SPIR_KERNEL:
    return true;
  default:
    return false;
  }
}

SmallPtrSet<const Function *, 8> findAnnotatedKernels(const Module &M) {
  SmallPtrSet<const Function *, 8> Kernels;
  const NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations");
  if (!Annotations)
    return Kernels;
  // Each entry is !{ptr @f, !"key", i32 value, !"key", i32 value, ...}.
  for (const MDNode *Entry : Annotations->operands()) {
    if (Entry->getNumOperands() < 3)
      continue;
    auto *F = mdconst::dyn_extract_or_null<Function>(Entry->getOperand(0));
    if (!F)
      continue;
    for (unsigned I = 1; I + 1 < Entry->getNumOperands(); I += 2) {
      auto *Key = dyn_cast_or_null<MDString>(Entry->getOperand(I));
      auto *Value =
          mdconst::dyn_extract_or_null<ConstantInt>(Entry->getOperand(I + 1));
      if (Key && Value && Key->getString() == "kernel" && !Value->isZero())
        Kernels.insert(F);
    }
  }
  return Kernels;
}

bool isKernel(const Function &F) {
  if (hasKernelCallingConv(F))
    return true;
  return F.getParent() && findAnnotatedKernels(*F.getParent()).count(&F);
}

SmallVector<Function *> findKernels(Module &M) {
  SmallPtrSet<const Function *, 8> Annotated = findAnnotatedKernels(M);
  SmallVector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && (hasKernelCallingConv(F) || Annotated.count(&F)))
      Kernels.push_back(&F);
  return Kernels;
}

} // namespace irs
