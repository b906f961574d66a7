//===- IntegerPointerArguments.cpp - Array addresses as pointers ----------===//
#include "ir-sanitize/Transforms/IntegerPointerArguments.h"

#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Support/PassParameters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-integer-pointer-args"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumKernelsRetyped,
                         "Kernels whose i64 addresses became pointers");
ALWAYS_ENABLED_STATISTIC(NumArgsRetyped, "i64 parameters made pointers");

namespace irs {

static Function *retypeIntegerPointers(Function &F, ArrayRef<unsigned> Args) {
  LLVMContext &Ctx = F.getContext();
  PointerType *Ptr = PointerType::get(Ctx, 0);
  SmallVector<Type *, 16> Tys;
  AttributeList Attrs = F.getAttributes();
  bool Changed = false;
  for (Argument &Arg : F.args()) {
    bool Retype =
        is_contained(Args, Arg.getArgNo()) && Arg.getType()->isIntegerTy(64);
    Tys.push_back(Retype ? Ptr : Arg.getType());
    if (Retype) {
      Attrs = Attrs.removeParamAttributes(Ctx, Arg.getArgNo());
      ++NumArgsRetyped;
    }
    Changed |= Retype;
  }
  if (!Changed)
    return &F;
  ++NumKernelsRetyped;
  Function *NF =
      Function::Create(FunctionType::get(F.getReturnType(), Tys, false),
                       F.getLinkage(), F.getAddressSpace(), "", F.getParent());
  NF->copyAttributesFrom(&F);
  NF->setAttributes(Attrs);
  if (isKernel(F))
    NF->setCallingConv(CallingConv::PTX_Kernel);
  NF->splice(NF->begin(), &F);
  NF->setSubprogram(F.getSubprogram());
  F.setSubprogram(nullptr);
  IRBuilder<> B(&*NF->getEntryBlock().getFirstInsertionPt());
  for (Argument &Arg : F.args()) {
    Argument *New = NF->getArg(Arg.getArgNo());
    New->takeName(&Arg);
    Arg.replaceAllUsesWith(New->getType() == Arg.getType()
                               ? static_cast<Value *>(New)
                               : B.CreatePtrToInt(New, Arg.getType()));
  }
  dropNVVMAnnotations(F);
  NF->takeName(&F);
  F.eraseFromParent();
  return NF;
}

PreservedAnalyses IntegerPointerArgumentsPass::run(Module &M,
                                                   ModuleAnalysisManager &) {
  Function *F = M.getFunction(Kernel);
  if (!F || F->isDeclaration() || retypeIntegerPointers(*F, Args) == F)
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

void IntegerPointerArgumentsPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<IntegerPointerArgumentsPass> *>(this)
      ->printPipeline(OS, MapClassName2PassName);
  std::vector<std::string> Settings = {"kernel=" + escapePassParameter(Kernel)};
  for (unsigned Arg : Args)
    Settings.push_back("arg=" + std::to_string(Arg));
  printPassParameters(OS, Settings);
}

} // namespace irs
