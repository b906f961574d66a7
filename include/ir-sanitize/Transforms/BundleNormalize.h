//===- BundleNormalize.h - Bundles Enzyme can handle ------------*- C++ -*-===//
//
// Enzyme aborts on any operand bundle other than jl_roots
// (GradientUtils::getInvertedBundles). This pass applies a BundlePolicy to
// every call site in scope: keep, drop, stash (for `restore`) or lower
// (gc-transition to jl_gc_safe_enter/leave), and accounts for every bundle in
// an optional BundleReport.
//
// opt: -passes='ir-sanitize-bundles<gc-transition=stash;scope=all>'
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_BUNDLENORMALIZE_H
#define IR_SANITIZE_TRANSFORMS_BUNDLENORMALIZE_H

#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/BundleReport.h"

#include "llvm/IR/PassManager.h"

namespace irs {

/// Applies \p Policy to \p M; records every bundle seen in \p Report if given.
/// Returns whether \p M changed.
bool normalizeBundles(llvm::Module &M, const BundlePolicy &Policy,
                      BundleReport *Report = nullptr);

/// normalizeBundles as a pass: reports into the run's BundleReport
/// (Transforms/PassResults.h; its runner sets the report's detail).
class BundleNormalizePass : public llvm::PassInfoMixin<BundleNormalizePass> {
public:
  explicit BundleNormalizePass(BundlePolicy Policy)
      : Policy(std::move(Policy)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  BundlePolicy Policy;
};

} // namespace irs

#endif
