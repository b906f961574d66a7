//===- PassResults.cpp - What a pipeline's passes hand to its runner ------===//
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace irs {

AnalysisKey PassResultsAnalysis::Key;

PassResults *passResults(Module &M, ModuleAnalysisManager &MAM) {
  auto *R = MAM.getCachedResult<PassResultsAnalysis>(M);
  return R ? R->Results : nullptr;
}

PassResults *passResults(Function &F, FunctionAnalysisManager &FAM) {
  auto &MAMProxy = FAM.getResult<ModuleAnalysisManagerFunctionProxy>(F);
  auto *R = MAMProxy.getCachedResult<PassResultsAnalysis>(*F.getParent());
  return R ? R->Results : nullptr;
}

void reportPassFailure(Module &M, PassResults *Results, StringRef PassName,
                       Error E) {
  if (Results)
    Results->fail(std::move(E));
  else
    M.getContext().emitError(PassName + ": " + toString(std::move(E)));
}

} // namespace irs
