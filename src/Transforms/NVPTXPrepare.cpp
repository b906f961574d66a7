//===- NVPTXPrepare.cpp - A module as NVPTX code generation wants it ------===//
#include "ir-sanitize/Transforms/NVPTXPrepare.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfo.h"

using namespace llvm;

namespace irs {

std::string ptxSafeName(StringRef Name) {
  std::string Safe = Name.str();
  for (char &C : Safe)
    if (!isAlnum(C) && C != '_' && C != '$')
      C = '_';
  return Safe;
}

PreservedAnalyses NVPTXPreparePass::run(Module &M, ModuleAnalysisManager &) {
  for (const std::string &Name : Kernels) {
    Function *F = M.getFunction(Name);
    std::string Safe = ptxSafeName(Name);
    if (F && !F->isDeclaration() && Safe != Name)
      F->setName(Safe);
  }
  StripDebugInfo(M);
  for (Function &F : M) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
  }
  return PreservedAnalyses::none();
}

} // namespace irs
