//===- BundleRestore.cpp - Put stashed operand bundles back ---------------===//
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Analysis/PassResults.h"
#include "ir-sanitize/Transforms/Utils/BundleStash.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-restore"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumCalls, "Calls that carried a stash record");
ALWAYS_ENABLED_STATISTIC(NumRestored, "Operand bundles put back");
ALWAYS_ENABLED_STATISTIC(NumLost, "Stashed bundles that could not be put back");
ALWAYS_ENABLED_STATISTIC(NumOrphanMarkers,
                         "Stash markers erased whose call was gone");

namespace irs {

RestoreStats restoreBundles(Module &M) {
  RestoreStats Stats;
  for (Function &F : M) {
    SmallVector<CallBase *, 8> Recorded;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I); CB && hasStashRecord(*CB))
        Recorded.push_back(CB);
    if (Recorded.empty())
      continue;
    for (const RestoreOutcome &Out : restoreStashedBundles(F, Recorded)) {
      ++Stats.Calls;
      Stats.Bundles += Out.Restored;
      Stats.Lost += Out.Lost.size();
    }
  }
  Stats.OrphanMarkers = eraseStashMarkers(M);
  return Stats;
}

PreservedAnalyses BundleRestorePass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  RestoreStats S = restoreBundles(M);
  NumCalls += S.Calls;
  NumRestored += S.Bundles;
  NumLost += S.Lost;
  NumOrphanMarkers += S.OrphanMarkers;
  if (PassResults *Results = passResults(M, MAM))
    Results->get<RestoreStats>() += S;
  bool Changed = S.Calls || S.OrphanMarkers;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace irs
