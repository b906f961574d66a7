//===- BundleRestore.cpp - Put stashed operand bundles back ---------------===//
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/Utils/BundleStash.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

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

PreservedAnalyses BundleRestorePass::run(Module &M, ModuleAnalysisManager &) {
  RestoreStats S = restoreBundles(M);
  if (Stats)
    *Stats = S;
  bool Changed = S.Calls || S.OrphanMarkers;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace irs
