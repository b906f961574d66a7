//===- DerivativeAccesses.h - Optimising derivative kernels -----*- C++ -*-===//
//
// One call for a host that compiles derivative kernels itself (GPUCompiler
// through the C interface's IRSOptimizeDerivativeAccesses): the passes of
// Passes/DerivativeAccesses.h, run on an optimised module, and what they did.
// gpu-check runs the same passes inside its derivative pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_DERIVATIVEACCESSES_H
#define IR_SANITIZE_DRIVER_DERIVATIVEACCESSES_H

#include "ir-sanitize/Passes/DerivativeAccesses.h"
#include "ir-sanitize/Transforms/AccumulationAggregation.h"
#include "ir-sanitize/Transforms/AccumulationMerging.h"
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"

#include "llvm/IR/Module.h"

namespace irs {

struct DerivativeAccessStats {
  StoreSinkStats Sink;
  AccumulationMergingStats Merge;
  AccumulationAggregationStats Aggregate;
};

/// Runs them on every function \p M defines, with LLVM's default alias
/// analysis; \p M should already be optimised (the runs they reorder are the
/// inlined, simplified ones).
DerivativeAccessStats
optimizeDerivativeAccesses(llvm::Module &M,
                           const DerivativeAccessOptions &Opts);

} // namespace irs

#endif
