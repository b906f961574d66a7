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

#include "ir-sanitize/Transforms/PassCounters.h"

#include "llvm/IR/PassManager.h"

namespace irs {

/// The counters of restore (Transforms/PassCounters.h).
#define IRS_RESTORE_COUNTERS(X)                                                \
  X(Calls, NumCalls, "calls", "Calls that carried a stash record")             \
  X(Bundles, NumRestored, "bundles", "Operand bundles put back")               \
  X(Lost, NumLost, "lost", "Stashed bundles that could not be put back")       \
  X(OrphanMarkers, NumOrphanMarkers, "orphan_markers",                         \
    "Stash markers erased whose call was gone")

struct RestoreStats {
  IRS_RESTORE_COUNTERS(IRS_COUNTER_FIELD)

  RestoreStats &operator+=(const RestoreStats &O) {
    IRS_RESTORE_COUNTERS(IRS_COUNTER_ADD)
    return *this;
  }
};

/// Restores every stashed bundle in \p M.
RestoreStats restoreBundles(llvm::Module &M);

/// restoreBundles as a pass: adds its RestoreStats to the run's
/// (Transforms/PassResults.h).
class BundleRestorePass : public llvm::PassInfoMixin<BundleRestorePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace irs

#endif
