//===- DerivativeAccesses.h - The passes for derivative kernels -*- C++ -*-===//
//
// The two passes that make Enzyme's GPU derivative kernels run near the
// memory-bandwidth limit, in the order they must run: StoreSinkVersioning
// (loads and atomics before stores where this thread's addresses are
// disjoint), then AccumulationMerging (one atomic where two accumulate into
// one element). gpu-check runs them after its default<O2> pipeline; a host that
// compiles derivatives itself runs them on the optimised module through
// Driver/DerivativeAccesses.h (the C API's IRSOptimizeDerivativeAccesses).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_PASSES_DERIVATIVEACCESSES_H
#define IR_SANITIZE_PASSES_DERIVATIVEACCESSES_H

#include "ir-sanitize/Passes/Pipelines.h"

#include <string>

namespace irs {

/// Their pipeline text (Pipelines.h), empty when \p Opts asks for none.
std::string derivativeAccessPipeline(const DerivativeAccessOptions &Opts);

} // namespace irs

#endif
