//===- AccumulationMerging.cpp - One atomic per element, not two ----------===//
#include "ir-sanitize/Transforms/AccumulationMerging.h"

#include "Accumulation.h"

#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-merge-accumulations"

IRS_ACCUMULATION_MERGING_COUNTERS(IRS_COUNTER_STATISTIC)

namespace irs {
namespace {

bool touchesMemory(const Instruction &I) {
  return I.mayReadOrWriteMemory() || I.mayHaveSideEffects() ||
         I.isTerminator() || isa<PHINode>(I);
}

/// The next instruction after \p A that touches memory, if it is an
/// accumulation \p A can absorb: same operation, type, ordering and scope,
/// and its old value unused.
AtomicRMWInst *partnerOf(AtomicRMWInst &A) {
  Instruction *I = A.getNextNode();
  while (I && !touchesMemory(*I))
    I = I->getNextNode();
  auto *B = dyn_cast_or_null<AtomicRMWInst>(I);
  if (!B || !B->use_empty() || B->isVolatile() ||
      B->getOperation() != A.getOperation() ||
      B->getOrdering() != A.getOrdering() ||
      B->getSyncScopeID() != A.getSyncScopeID() ||
      B->getType() != A.getType() ||
      B->getPointerOperand()->getType() != A.getPointerOperand()->getType())
    return nullptr;
  return B;
}

/// Moves what \p B's operands are computed from, where that lies between
/// \p A and \p B, above \p A; false (nothing moved) when it uses \p A.
bool hoistOperands(AtomicRMWInst &A, AtomicRMWInst &B) {
  SmallVector<Instruction *, 8> Needed; // in block order
  SmallPtrSet<Instruction *, 8> Between;
  for (Instruction *I = A.getNextNode(); I != &B; I = I->getNextNode())
    Between.insert(I);
  SmallVector<Value *, 8> Work(B.operands());
  SmallPtrSet<Instruction *, 8> Seen;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (I == &A)
      return false;
    if (!I || !Between.count(I) || !Seen.insert(I).second)
      continue;
    Needed.push_back(I);
    append_range(Work, I->operands());
  }
  sort(Needed,
       [](Instruction *X, Instruction *Y) { return X->comesBefore(Y); });
  for (Instruction *I : Needed)
    I->moveBefore(*A.getParent(), A.getIterator());
  return true;
}

/// A takes B's value where their addresses are equal; B runs only where
/// they are not. Returns the block after both.
BasicBlock *mergeGuarded(AtomicRMWInst &A, AtomicRMWInst &B) {
  IRBuilder<> Builder(&A);
  Value *Same = Builder.CreateICmpEQ(A.getPointerOperand(),
                                     B.getPointerOperand(), "same.element");
  Value *Sum = accumulate(Builder, A, A.getValOperand(), B.getValOperand());
  A.setOperand(1, Builder.CreateSelect(Same, Sum, A.getValOperand()));
  BasicBlock *Pre = A.getParent();
  BasicBlock *Second =
      SplitBlock(Pre, &B, static_cast<DominatorTree *>(nullptr), nullptr,
                 nullptr, Pre->getName() + ".second");
  BasicBlock *Join =
      SplitBlock(Second, B.getNextNode(), static_cast<DominatorTree *>(nullptr),
                 nullptr, nullptr, Pre->getName() + ".merged");
  Pre->getTerminator()->eraseFromParent();
  BranchInst::Create(Join, Second, Same, Pre);
  return Join;
}

/// Merges the pairs in \p BB; returns the block after a guarded merge (the
/// rest of \p BB, to go on with), or null at the block's end.
BasicBlock *mergeInBlock(BasicBlock &BB, bool ReassociateFP, AAResults &AA,
                         AccumulationMergingStats &Stats,
                         OptimizationRemarkEmitter &ORE) {
  for (Instruction *I = &BB.front(); I; I = I->getNextNode()) {
    auto *A = dyn_cast<AtomicRMWInst>(I);
    if (!A || !isAccumulation(*A, ReassociateFP))
      continue;
    while (AtomicRMWInst *B = partnerOf(*A)) {
      AliasResult AR = AA.alias(MemoryLocation::get(A), MemoryLocation::get(B));
      if (AR == AliasResult::NoAlias)
        break;
      if (!hoistOperands(*A, *B)) {
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "NotMerged", B)
                 << "two atomic additions that may go to one element stay "
                    "apart: the second's operands cannot move up to the first";
        });
        break;
      }
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Merged", A)
               << "merged two atomic additions into one"
               << (AR == AliasResult::MustAlias
                       ? ": they go to the same element"
                       : ", behind a test that they go to the same element");
      });
      if (AR != AliasResult::MustAlias) {
        ++Stats.Guarded;
        return mergeGuarded(*A, *B);
      }
      IRBuilder<> Builder(A);
      A->setOperand(
          1, accumulate(Builder, *A, A->getValOperand(), B->getValOperand()));
      B->eraseFromParent();
      ++Stats.Merged; // and A may absorb the next one too
    }
  }
  return nullptr;
}

} // namespace

PreservedAnalyses AccumulationMergingPass::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  AccumulationMergingStats S;
  AAResults &AA = FAM.getResult<AAManager>(F);
  OptimizationRemarkEmitter ORE(&F);
  SmallVector<BasicBlock *, 16> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  for (BasicBlock *BB : Blocks)
    while (BB)
      BB = mergeInBlock(*BB, ReassociateFP, AA, S, ORE);
  IRS_ACCUMULATION_MERGING_COUNTERS(IRS_COUNTER_BUMP)
  if (PassResults *Results = passResults(F, FAM))
    Results->get<AccumulationMergingStats>() += S;
  return S.Merged + S.Guarded == 0 ? PreservedAnalyses::all()
                                   : PreservedAnalyses::none();
}

void AccumulationMergingPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<AccumulationMergingPass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  if (ReassociateFP)
    printPassParameters(OS, {"reassociate-fp"});
}

} // namespace irs
