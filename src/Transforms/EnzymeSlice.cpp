//===- EnzymeSlice.cpp - What Enzyme's entry calls can reach --------------===//
#include "ir-sanitize/Transforms/EnzymeSlice.h"
#include "ir-sanitize/Analysis/EnzymeCalls.h"

#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"

#define DEBUG_TYPE "ir-sanitize-enzyme-slice"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumKept, "Global values Enzyme's entry calls reach");
ALWAYS_ENABLED_STATISTIC(NumRemoved, "Global values erased as unreachable");

using namespace llvm;

namespace irs {
namespace {

bool callsEnzymeEntry(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = CB->getCalledFunction())
        if (Callee->getName().starts_with("__enzyme_"))
          return true;
  return false;
}

/// The global values \p Roots reach, through instruction operands, constant
/// expressions, initialisers and aliasees.
SmallPtrSet<const GlobalValue *, 32>
reachableFrom(ArrayRef<const GlobalValue *> Roots) {
  SmallPtrSet<const GlobalValue *, 32> Reached;
  SmallPtrSet<const Constant *, 32> SeenConstants;
  SmallVector<const GlobalValue *, 32> Work;
  auto visit = [&](const Value *V, auto &Self) -> void {
    if (const auto *GV = dyn_cast<GlobalValue>(V)) {
      if (Reached.insert(GV).second)
        Work.push_back(GV);
    } else if (const auto *C = dyn_cast<Constant>(V)) {
      if (SeenConstants.insert(C).second)
        for (const Value *Op : C->operands())
          Self(Op, Self);
    }
  };
  for (const GlobalValue *R : Roots)
    visit(R, visit);
  while (!Work.empty()) {
    const GlobalValue *GV = Work.pop_back_val();
    if (const auto *F = dyn_cast<Function>(GV)) {
      for (const Value *Op : F->operands()) // Personality, prefix, prologue.
        visit(Op, visit);
      for (const Instruction &I : instructions(*F))
        for (const Value *Op : I.operands())
          visit(Op, visit);
    } else if (const auto *Var = dyn_cast<GlobalVariable>(GV)) {
      if (Var->hasInitializer())
        visit(Var->getInitializer(), visit);
    } else if (const auto *A = dyn_cast<GlobalAlias>(GV)) {
      visit(A->getAliasee(), visit);
    }
  }
  return Reached;
}

} // namespace

SliceStats sliceToEnzymeCalls(Module &M) {
  SmallVector<const GlobalValue *, 4> Roots;
  for (const Function &F : M)
    if (!F.isDeclaration() && callsEnzymeEntry(F))
      Roots.push_back(&F);
  // The rules the module registers for Enzyme, with what they name.
  for (const GlobalVariable &G : M.globals())
    if (isRuleRegistration(G))
      Roots.push_back(&G);
  SliceStats Stats;
  if (Roots.empty())
    return Stats;
  // Rare in Julia's output; kept rather than taken apart.
  for (const GlobalIFunc &I : M.ifuncs())
    Roots.push_back(&I);
  SmallPtrSet<const GlobalValue *, 32> Reached = reachableFrom(Roots);
  Stats.Kept = Reached.size();

  // Nothing reached uses what is not reached: drop the references the
  // unreached values make, then erase them.
  SmallVector<GlobalValue *, 64> Dead;
  for (GlobalValue &GV : M.global_values())
    if (!Reached.contains(&GV))
      Dead.push_back(&GV);
  for (GlobalValue *GV : Dead) {
    if (auto *F = dyn_cast<Function>(GV))
      F->deleteBody();
    else if (auto *Var = dyn_cast<GlobalVariable>(GV))
      Var->setInitializer(nullptr);
    else if (auto *A = dyn_cast<GlobalAlias>(GV))
      A->setAliasee(PoisonValue::get(A->getType()));
  }
  for (GlobalValue *GV : Dead) {
    GV->removeDeadConstantUsers();
    GV->replaceAllUsesWith(PoisonValue::get(GV->getType()));
    GV->eraseFromParent();
    ++Stats.Removed;
  }
  return Stats;
}

PreservedAnalyses EnzymeSlicePass::run(Module &M, ModuleAnalysisManager &MAM) {
  SliceStats S = sliceToEnzymeCalls(M);
  NumKept += S.Kept;
  NumRemoved += S.Removed;
  if (PassResults *Results = passResults(M, MAM)) {
    SliceStats &Sum = Results->get<SliceStats>();
    Sum.Kept += S.Kept;
    Sum.Removed += S.Removed;
  }
  return S.Removed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace irs
