//===- NVPTXPrepare.cpp - A module as NVPTX code generation wants it ------===//
#include "ir-sanitize/Transforms/NVPTXPrepare.h"
#include "ir-sanitize/Transforms/WarpShuffleRules.h"

#include "ir-sanitize/Support/PassParameters.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfo.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-nvptx-prepare"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumRenamed, "Kernels given a PTX-safe name");
ALWAYS_ENABLED_STATISTIC(NumDebugInfoStripped,
                         "Modules whose debug info was stripped");
ALWAYS_ENABLED_STATISTIC(NumTargetAttrsRemoved,
                         "target-cpu and target-features attributes removed");

namespace irs {

std::string ptxSafeName(StringRef Name) {
  std::string Safe = Name.str();
  for (char &C : Safe)
    if (!isAlnum(C) && C != '_' && C != '$')
      C = '_';
  return Safe;
}

PreservedAnalyses NVPTXPreparePass::run(Module &M, ModuleAnalysisManager &) {
  if (!DataLayout.empty())
    M.setDataLayout(DataLayout);
  for (const std::string &Name : Kernels) {
    Function *F = M.getFunction(Name);
    std::string Safe = ptxSafeName(Name);
    if (F && !F->isDeclaration() && Safe != Name) {
      F->setName(Safe);
      ++NumRenamed;
    }
  }
  finalizeWarpRules(M); // Enzyme is done with them
  if (StripDebugInfo(M))
    ++NumDebugInfoStripped;
  for (Function &F : M)
    for (StringRef Attr : {"target-cpu", "target-features"})
      if (F.hasFnAttribute(Attr)) {
        F.removeFnAttr(Attr);
        ++NumTargetAttrsRemoved;
      }
  return PreservedAnalyses::none();
}

void NVPTXPreparePass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<NVPTXPreparePass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  std::vector<std::string> Settings;
  for (const std::string &Kernel : Kernels)
    Settings.push_back("kernel=" + escapePassParameter(Kernel));
  if (!DataLayout.empty())
    Settings.push_back("datalayout=" + escapePassParameter(DataLayout));
  printPassParameters(OS, Settings);
}

} // namespace irs
