//===- BundleRestore.cpp - Put stashed operand bundles back ---------------===//
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/PassResults.h"
#include "ir-sanitize/Transforms/Utils/BundleStash.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-restore"

IRS_RESTORE_COUNTERS(IRS_COUNTER_STATISTIC)

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
  IRS_RESTORE_COUNTERS(IRS_COUNTER_BUMP)
  if (PassResults *Results = passResults(M, MAM))
    Results->get<RestoreStats>() += S;
  bool Changed = S.Calls || S.OrphanMarkers;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace irs
