//===- DerivativeAccesses.cpp - The passes for derivative kernels ---------===//
#include "ir-sanitize/Passes/DerivativeAccesses.h"

#include "ir-sanitize/Passes/Pipelines.h"

using namespace llvm;

namespace irs {

std::string derivativeAccessPipeline(const DerivativeAccessOptions &Opts) {
  DerivativePipelineOptions P;
  P.Accesses = Opts;
  P.GridStride = false;
  return derivativePipeline(P);
}

} // namespace irs
