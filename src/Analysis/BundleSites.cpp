//===- BundleSites.cpp - Which call sites carry which bundles -------------===//
#include "ir-sanitize/Analysis/BundleSites.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace irs {

static bool isCallInScope(const CallBase &CB, BundleScope Scope) {
  if (Scope == BundleScope::All)
    return true;
  const Function *Callee = CB.getCalledFunction();
  return !(Callee && Callee->isIntrinsic());
}

bool enzymeHandlesBundle(StringRef Tag) { return Tag == JlRootsTag; }

std::string calleeName(const CallBase &CB) {
  const Value *Callee = CB.getCalledOperand()->stripPointerCasts();
  if (const auto *F = dyn_cast<Function>(Callee))
    return F->getName().str();
  if (const auto *GA = dyn_cast<GlobalAlias>(Callee))
    return GA->getName().str();
  return "<indirect>";
}

SourceLocation sourceLocation(const Instruction &I) {
  const DebugLoc &DL = I.getDebugLoc();
  if (!DL)
    return {};
  return {cast<DIScope>(DL.getScope())->getFilename(), DL.getLine(),
          DL.getCol()};
}

SmallVector<CallBase *, 8> bundledCalls(Function &F, BundleScope Scope) {
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (CB->hasOperandBundles() && isCallInScope(*CB, Scope))
        Calls.push_back(CB);
  return Calls;
}

} // namespace irs
