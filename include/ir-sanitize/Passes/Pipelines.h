//===- Pipelines.h - The text of every pipeline the tool runs ---*- C++ -*-===//
//
// Each job's pipeline as pass-pipeline text over the registry's names
// (PassRegistry.def) and LLVM's: the tool parses exactly this text
// (runPipeline), and `--print-pipeline-passes` prints it for opt to replay.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_PASSES_PIPELINES_H
#define IR_SANITIZE_PASSES_PIPELINES_H

#include "ir-sanitize/Enzyme/ActivitySpec.h"
#include "ir-sanitize/Support/BundlePolicy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace irs {

/// The sanitize steps: `ir-sanitize-bundles<POLICY>`, then (\p Splat)
/// `ir-sanitize-splat<kernel=K;...>` for \p Kernels (empty: every kernel).
std::string sanitizePipeline(const BundlePolicy &Policy, bool Splat,
                             llvm::ArrayRef<std::string> Kernels);

/// gpu-check's cleanup of the splatted module before Enzyme: folds the
/// aggregate each kernel rebuilds from its leaves at entry, through which
/// Enzyme's activity analysis cannot see.
inline constexpr llvm::StringLiteral EnzymeCleanupPipeline =
    "function(sroa,early-cse,instcombine,simplifycfg)";

/// `ir-sanitize-derivative-wrapper<fn=FN;mode=MODE;activity=...>`: the driver
/// Enzyme differentiates \p Fn through.
std::string derivativeWrapperPipeline(llvm::StringRef Fn, DiffMode Mode,
                                      const ActivityMap &Activities);

/// What runs after the optimisation pipeline of a derivative kernel.
struct DerivativePipelineOptions {
  bool SinkStores = true;         ///< ir-sanitize-store-sink-versioning
  bool MergeAccumulations = true; ///< ir-sanitize-merge-accumulations
  /// ir-sanitize-grid-stride, then ir-sanitize-invariant-division.
  bool GridStride = false;
  /// ir-sanitize-grid-stride's threads-per-multiprocessor (0: none).
  unsigned ThreadsPerMultiprocessor = 0;
};

/// Those passes as module-pipeline text; empty when \p Opts asks for none.
std::string derivativePipeline(const DerivativePipelineOptions &Opts);

} // namespace irs

#endif
