//===- Pipelines.h - The text of every pipeline the tool runs ---*- C++ -*-===//
//
// Each job's pipeline as pass-pipeline text over the registry's names
// (PassRegistry.def) and LLVM's: the tool parses exactly this text
// (runPipeline), and `--print-pipeline-passes` prints it for opt to replay.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_PASSES_PIPELINES_H
#define IR_SANITIZE_PASSES_PIPELINES_H

#include "ir-sanitize/Analysis/ActivitySpec.h"
#include "ir-sanitize/Support/BundlePolicy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace irs {

/// The sanitize steps: `ir-sanitize-bundles<POLICY>`, then (\p WarpRules)
/// `ir-sanitize-warp-rules`, then (\p Splat) `ir-sanitize-splat<kernel=K;
/// ...>` for \p Kernels (empty: every kernel).
std::string sanitizePipeline(const BundlePolicy &Policy, bool WarpRules,
                             bool Splat, llvm::ArrayRef<std::string> Kernels);

/// The splat alone: `ir-sanitize-splat<kernel=K;...>` (empty: every kernel).
std::string splatPipeline(llvm::ArrayRef<std::string> Kernels);

/// gpu-check's cleanup of the splatted module before Enzyme: folds the
/// aggregate each kernel rebuilds from its leaves at entry, through which
/// Enzyme's activity analysis cannot see. Inlining first: a kernel that
/// passes the rebuilt aggregate to a helper by reference (a getindex that
/// picks argument k of the closure) keeps it in memory otherwise, and there
/// Enzyme gives a const argument's slot of the shadow closure the primal
/// pointer, so the const array's values were read as its derivative (seen
/// on the H200 with bcast_add_2d, x differentiated and y const).
/// A function, not a constant: its instcombine spelling depends on the LLVM
/// version, which only the library's internal LLVMCompat.h knows.
std::string enzymeCleanupPipeline();

/// `ir-sanitize-derivative-wrapper<fn=FN;mode=MODE;activity=...>`: the
/// wrapper Enzyme differentiates \p Fn through.
std::string derivativeWrapperPipeline(llvm::StringRef Fn, DiffMode Mode,
                                      const ActivityMap &Activities);

/// The passes that reorder a derivative kernel's memory accesses
/// (Passes/DerivativeAccesses.h), defaults on.
struct DerivativeAccessOptions {
  /// ir-sanitize-store-sink-versioning: loads and atomics before stores
  /// where this thread's addresses are disjoint, Enzyme's order otherwise.
  bool SinkStores = true;
  /// ir-sanitize-merge-accumulations: two atomic additions into one element
  /// become one (floating-point sums reassociated).
  bool MergeAccumulations = true;
  /// ir-sanitize-aggregate-accumulations, last: the lanes of a warp that
  /// accumulate into one element sum first, one of them does the atomic
  /// (floating-point sums reassociated; needs sm_70's match.any, which
  /// gpu-check knows from --gpu-arch). On an H100 it made the bias gradient
  /// 8x and repeated gathers 2-3x faster, every kernel with distinct
  /// addresses within 1.1% (bench/results/accumulations.md).
  bool AggregateAccumulations = true;
};

/// How a derivative kernel accumulates, by name (gpu-check's
/// --accumulation, the C interface's accumulation=): "aggregated" (the
/// default: merged, then summed across a warp), "merged" (two atomic
/// additions into one element one), "separate" (as Enzyme emits them).
inline constexpr llvm::StringLiteral AccumulationModes[] = {
    "aggregated", "merged", "separate"};
/// Sets \p Opts' accumulation passes for \p Mode; false if it is none of
/// AccumulationModes.
bool setAccumulationMode(DerivativeAccessOptions &Opts, llvm::StringRef Mode);

/// What runs after the optimisation pipeline of a derivative kernel: the one
/// set of switches gpu-check, the PTX pipeline and the C interface share.
struct DerivativePipelineOptions {
  DerivativeAccessOptions Accesses;
  /// ir-sanitize-grid-stride, then ir-sanitize-invariant-division: kernels
  /// that accumulate atomically become grid-stride loops holding their sums
  /// in registers (the runner may launch fewer blocks).
  bool GridStride = true;
  /// ir-sanitize-grid-stride's threads-per-multiprocessor (0: none).
  unsigned ThreadsPerMultiprocessor = 0;
};

/// Those passes as module-pipeline text; empty when \p Opts asks for none.
std::string derivativePipeline(const DerivativePipelineOptions &Opts);

} // namespace irs

#endif
