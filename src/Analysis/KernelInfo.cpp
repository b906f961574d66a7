//===- KernelInfo.cpp - Which functions are GPU kernel entries ------------===//
#include "ir-sanitize/Analysis/KernelInfo.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace irs {

static bool hasKernelCallingConv(const Function &F) {
  switch (F.getCallingConv()) {
  case CallingConv::PTX_Kernel:
  case CallingConv::AMDGPU_KERNEL:
  case CallingConv::SPIR_KERNEL:
    return true;
  default:
    return false;
  }
}

namespace {

/// Calls \p Each(F, Key, Value) for every key/value pair of every
/// `!nvvm.annotations` entry !{ptr @f, !"key", i32 value, ...}. Julia and
/// CUDAnative write these and nothing checks their shape: entries that do
/// not name a function, and pairs that are not a string and an integer,
/// are skipped.
void forEachAnnotation(
    const Module &M,
    function_ref<void(const Function &, StringRef, const ConstantInt &)> Each) {
  const NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations");
  if (!Annotations)
    return;
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
      if (Key && Value)
        Each(*F, Key->getString(), *Value);
    }
  }
}

} // namespace

static SmallPtrSet<const Function *, 8> findAnnotatedKernels(const Module &M) {
  SmallPtrSet<const Function *, 8> Kernels;
  forEachAnnotation(
      M, [&](const Function &F, StringRef Key, const ConstantInt &Value) {
        if (Key == "kernel" && !Value.isZero())
          Kernels.insert(&F);
      });
  return Kernels;
}

std::optional<uint64_t> nvvmAnnotation(const Function &F, StringRef Key) {
  std::optional<uint64_t> Found;
  if (F.getParent())
    forEachAnnotation(*F.getParent(), [&](const Function &G, StringRef K,
                                          const ConstantInt &Value) {
      if (&G == &F && K == Key && !Found)
        Found = Value.getLimitedValue();
    });
  return Found;
}

SmallVector<const MDNode *, 2> nvvmAnnotationsOf(const Function &F) {
  SmallVector<const MDNode *, 2> Found;
  const NamedMDNode *NMD =
      F.getParent() ? F.getParent()->getNamedMetadata("nvvm.annotations")
                    : nullptr;
  if (!NMD)
    return Found;
  for (const MDNode *N : NMD->operands()) {
    if (N->getNumOperands() == 0)
      continue;
    if (auto *VAM = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get()))
      if (VAM->getValue() == &F)
        Found.push_back(N);
  }
  return Found;
}

void copyNVVMAnnotations(const Function &From, Function &To) {
  NamedMDNode *NMD = To.getParent()->getNamedMetadata("nvvm.annotations");
  if (!NMD)
    return;
  for (const MDNode *N : nvvmAnnotationsOf(From)) {
    SmallVector<Metadata *, 4> Ops(N->op_begin(), N->op_end());
    Ops[0] = ValueAsMetadata::get(&To);
    NMD->addOperand(MDNode::get(To.getContext(), Ops));
  }
}

void addNVVMAnnotation(Function &F, StringRef Key, uint32_t Value) {
  LLVMContext &Ctx = F.getContext();
  F.getParent()
      ->getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(
          MDNode::get(Ctx, {ValueAsMetadata::get(&F), MDString::get(Ctx, Key),
                            ConstantAsMetadata::get(ConstantInt::get(
                                Type::getInt32Ty(Ctx), Value))}));
}

void dropNVVMAnnotations(Function &F) {
  NamedMDNode *NMD = F.getParent()->getNamedMetadata("nvvm.annotations");
  if (!NMD)
    return;
  SmallVector<MDNode *, 8> Keep;
  for (MDNode *N : NMD->operands()) {
    auto *VAM = N->getNumOperands()
                    ? dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get())
                    : nullptr;
    if (!VAM || VAM->getValue() != &F)
      Keep.push_back(N);
  }
  NMD->clearOperands();
  for (MDNode *N : Keep)
    NMD->addOperand(N);
}

bool isKernel(const Function &F) {
  if (hasKernelCallingConv(F))
    return true;
  return F.getParent() && findAnnotatedKernels(*F.getParent()).count(&F);
}

bool looksLikeNVPTX(const Module &M) {
  if (M.getNamedMetadata("nvvm.annotations"))
    return true;
  for (const Function &F : M)
    if (F.getCallingConv() == CallingConv::PTX_Kernel ||
        F.getName().starts_with("llvm.nvvm."))
      return true;
  return false;
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
