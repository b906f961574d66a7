//===- BundleRestore.h - Put stashed operand bundles back -------*- C++ -*-===//
//
// The inverse of the stash action of BundleNormalizePass: every call carrying
// a stash record (see Transforms/Utils/BundleStash.h), including copies of a
// call made by later tools, gets its bundles back at their original positions
// with their operands; records and operand markers are removed.
//
// opt: -passes=ir-sanitize-restore
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_BUNDLERESTORE_H
#define IR_SANITIZE_TRANSFORMS_BUNDLERESTORE_H

#include "llvm/IR/PassManager.h"

namespace irs {

struct RestoreStats {
  unsigned Calls = 0;   ///< Calls that carried a record.
  unsigned Bundles = 0; ///< Bundles re-attached.
  unsigned Lost = 0;    ///< Recorded bundles that could not be re-attached.
  unsigned OrphanMarkers = 0; ///< Operand markers whose call was gone.

  RestoreStats &operator+=(const RestoreStats &O) {
    Calls += O.Calls;
    Bundles += O.Bundles;
    Lost += O.Lost;
    OrphanMarkers += O.OrphanMarkers;
    return *this;
  }
};

/// Restores every stashed bundle in \p M.
RestoreStats restoreBundles(llvm::Module &M);

/// restoreBundles as a pass: adds its RestoreStats to the run's
/// (Analysis/PassResults.h).
class BundleRestorePass : public llvm::PassInfoMixin<BundleRestorePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace irs

#endif
