//===- EnzymeDriver.cpp - A derivative driver for Enzyme, as a pass -------===//
#include "ir-sanitize/Transforms/EnzymeDriver.h"

#include "ir-sanitize/Support/ExitCodes.h"

using namespace llvm;

namespace irs {

PreservedAnalyses EnzymeDriverPass::run(Module &M, ModuleAnalysisManager &) {
  if (Sinks.Failure && *Sinks.Failure) // an earlier driver failed
    return PreservedAnalyses::all();
  Function *F = M.getFunction(Fn);
  Expected<GeneratedDriver> G =
      F ? generateDriver(M, *F, Mode, Activities)
        : Expected<GeneratedDriver>(
              makeToolError(ExitCode::Usage, "no function named '" + Fn + "'"));
  if (!G && Sinks.Failure) {
    *Sinks.Failure = joinErrors(std::move(*Sinks.Failure), G.takeError());
    return PreservedAnalyses::all();
  }
  if (!G) {
    M.getContext().emitError("ir-sanitize-enzyme-driver: " +
                             toString(G.takeError()));
    return PreservedAnalyses::all();
  }
  if (Sinks.Drivers)
    Sinks.Drivers->push_back(std::move(*G));
  return PreservedAnalyses::none();
}

} // namespace irs
