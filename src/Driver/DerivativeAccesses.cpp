//===- DerivativeAccesses.cpp - Derivative kernels near the memory floor --===//
#include "ir-sanitize/Driver/DerivativeAccesses.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Transforms/PassResults.h"

using namespace llvm;

namespace irs {

DerivativeAccessStats
optimizeDerivativeAccesses(Module &M, const DerivativeAccessOptions &Opts) {
  PassResults Results;
  std::string Text = derivativeAccessPipeline(Opts);
  if (!Text.empty()) // registered names: the text always parses
    cantFail(runPipeline(M, Text, &Results));
  return {Results.get<StoreSinkStats>(),
          Results.get<AccumulationMergingStats>(),
          Results.get<AccumulationAggregationStats>()};
}

} // namespace irs
