//===- DerivativeAccesses.h - The passes for derivative kernels -*- C++ -*-===//
//
// The two passes that make Enzyme's GPU derivative kernels run near the
// memory-bandwidth limit, in the order they must run: StoreSinkVersioning
// (loads and atomics before stores where this thread's addresses are
// disjoint), then AccumulationMerging (one atomic where two accumulate into
// one element). gpu-check runs them after its default<O2> pipeline; a host that
// compiles derivatives itself (GPUCompiler through the C API's
// IRSOptimizeDerivativeAccesses) runs them on the optimised module.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_PASSES_DERIVATIVEACCESSES_H
#define IR_SANITIZE_PASSES_DERIVATIVEACCESSES_H

#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Transforms/AccumulationMerging.h"
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"

#include "llvm/IR/Module.h"

#include <string>

namespace irs {

struct DerivativeAccessStats {
  StoreSinkStats Sink;
  AccumulationMergingStats Merge;
};

/// Their pipeline text (Pipelines.h), empty when \p Opts asks for none.
std::string derivativeAccessPipeline(const DerivativeAccessOptions &Opts);

/// Runs them on every function \p M defines, with LLVM's default alias
/// analysis; \p M should already be optimised (the runs they reorder are the
/// inlined, simplified ones).
DerivativeAccessStats
optimizeDerivativeAccesses(llvm::Module &M,
                           const DerivativeAccessOptions &Opts);

} // namespace irs

#endif
