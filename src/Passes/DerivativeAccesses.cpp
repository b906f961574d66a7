//===- DerivativeAccesses.cpp - The passes for derivative kernels ---------===//
#include "ir-sanitize/Passes/DerivativeAccesses.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace irs {

std::string derivativeAccessPipeline(const DerivativeAccessOptions &Opts) {
  DerivativePipelineOptions P;
  P.SinkStores = Opts.SinkStores;
  P.MergeAccumulations = Opts.MergeAccumulations;
  return derivativePipeline(P);
}

DerivativeAccessStats
optimizeDerivativeAccesses(Module &M, const DerivativeAccessOptions &Opts) {
  DerivativeAccessStats Stats;
  PassSinks Sinks;
  Sinks.StoreSink = &Stats.Sink;
  Sinks.Merge = &Stats.Merge;
  std::string Text = derivativeAccessPipeline(Opts);
  if (!Text.empty()) // registered names: the text always parses
    cantFail(runPipeline(M, Text, Sinks));
  return Stats;
}

} // namespace irs
