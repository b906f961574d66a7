//===- AddDerivativeWrapper.cpp - An Enzyme wrapper as a pass ------------===//
//-------===//
#include "ir-sanitize/Transforms/AddDerivativeWrapper.h"

#include "ir-sanitize/Support/ToolError.h"

using namespace llvm;

namespace irs {

PreservedAnalyses AddDerivativeWrapperPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  if (Sinks.Failure && *Sinks.Failure) // an earlier wrapper failed
    return PreservedAnalyses::all();
  Function *F = M.getFunction(Fn);
  Expected<DerivativeWrapper> G =
      F ? generateDerivativeWrapper(M, *F, Mode, Activities)
        : Expected<DerivativeWrapper>(
              makeToolError(ExitCode::Usage, "no function named '" + Fn + "'"));
  if (!G && Sinks.Failure) {
    *Sinks.Failure = joinErrors(std::move(*Sinks.Failure), G.takeError());
    return PreservedAnalyses::all();
  }
  if (!G) {
    M.getContext().emitError("ir-sanitize-derivative-wrapper: " +
                             toString(G.takeError()));
    return PreservedAnalyses::all();
  }
  if (Sinks.Wrappers)
    Sinks.Wrappers->push_back(std::move(*G));
  return PreservedAnalyses::none();
}

} // namespace irs
