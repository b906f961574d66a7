//===- DerivativeAccesses.cpp - The passes for derivative kernels ---------===//
#include "ir-sanitize/Passes/DerivativeAccesses.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace irs {

std::string derivativeAccessPipeline(const DerivativeAccessOptions &Opts) {
  DerivativePipelineOptions P;
  P.Accesses = Opts;
  P.GridStride = false;
  return derivativePipeline(P);
}

DerivativeAccessStats
optimizeDerivativeAccesses(Module &M, const DerivativeAccessOptions &Opts) {
  PassResults Results;
  std::string Text = derivativeAccessPipeline(Opts);
  if (!Text.empty()) // registered names: the text always parses
    cantFail(runPipeline(M, Text, &Results));
  return {Results.get<StoreSinkStats>(),
          Results.get<AccumulationMergingStats>()};
}

} // namespace irs
