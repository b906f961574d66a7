//===- StoreSinkVersioning.cpp - Loads first, stores last, when disjoint --===//
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <queue>

using namespace llvm;

namespace irs {
namespace {

/// Marks the branch between a versioned run's copies: its false successor
/// holds the run in its original order, which a second run leaves alone.
constexpr const char VersionedBranch[] = "irs.store_sink.versioned";

/// Runs longer than this are left alone (the pair test is quadratic).
constexpr unsigned MaxAccessesPerRun = 64;

/// Schedule classes: the fast version emits every ready instruction of a
/// lower class first.
enum class Kind { Pure, Load, Atomic, Store, Other };

Kind kindOf(const Instruction &I) {
  if (const auto *L = dyn_cast<LoadInst>(&I))
    return L->isSimple() ? Kind::Load : Kind::Other;
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return S->isSimple() ? Kind::Store : Kind::Other;
  if (const auto *A = dyn_cast<AtomicRMWInst>(&I))
    return !A->isVolatile() &&
                   !isStrongerThan(A->getOrdering(), AtomicOrdering::Monotonic)
               ? Kind::Atomic
               : Kind::Other;
  if (I.isTerminator() || I.isEHPad() || isa<PHINode>(I) ||
      isa<AllocaInst>(I) || I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
    return Kind::Other;
  // Duplicating a convergent call under a divergent branch is not allowed.
  if (const auto *CB = dyn_cast<CallBase>(&I); CB && CB->isConvergent())
    return Kind::Other;
  return Kind::Pure;
}

bool isAccess(Kind K) {
  return K == Kind::Load || K == Kind::Atomic || K == Kind::Store;
}

/// A straight-line run: from the first access to the last, nothing but
/// accesses and pure instructions in between.
struct Run {
  SmallVector<Instruction *, 32> Insts;
  Instruction *End = nullptr; ///< The first instruction after the run.
};

/// The first run at or after \p From in its block with a store followed by
/// another access (the pattern worth reordering).
std::optional<Run> nextRun(BasicBlock::iterator From, BasicBlock &BB) {
  Run R;
  unsigned Accesses = 0;
  bool SawStore = false, StoreThenAccess = false;
  auto Finish = [&]() -> bool {
    while (!R.Insts.empty() && !isAccess(kindOf(*R.Insts.back())))
      R.Insts.pop_back();
    if (StoreThenAccess && Accesses <= MaxAccessesPerRun) {
      R.End = R.Insts.back()->getNextNode();
      return true;
    }
    R.Insts.clear();
    Accesses = 0;
    SawStore = StoreThenAccess = false;
    return false;
  };
  for (auto It = From; It != BB.end(); ++It) {
    Kind K = kindOf(*It);
    if (K == Kind::Other) {
      if (Finish())
        return R;
      continue;
    }
    if (R.Insts.empty() && !isAccess(K))
      continue;
    R.Insts.push_back(&*It);
    if (isAccess(K)) {
      ++Accesses;
      StoreThenAccess |= SawStore;
      SawStore |= K == Kind::Store;
    }
  }
  return std::nullopt; // A block ends in a terminator, which is Other.
}

/// Loads first, then atomics, then stores, keeping data dependences and the
/// order of stores among stores and of atomics among atomics.
SmallVector<Instruction *, 32> fastOrder(const Run &R) {
  DenseMap<Instruction *, unsigned> Index;
  for (unsigned I = 0; I < R.Insts.size(); ++I)
    Index[R.Insts[I]] = I;
  std::vector<SmallVector<unsigned, 4>> Succs(R.Insts.size());
  std::vector<unsigned> Preds(R.Insts.size(), 0);
  auto AddEdge = [&](unsigned From, unsigned To) {
    Succs[From].push_back(To);
    ++Preds[To];
  };
  std::optional<unsigned> LastStore, LastAtomic;
  for (unsigned I = 0; I < R.Insts.size(); ++I) {
    for (Value *Op : R.Insts[I]->operands())
      if (auto *Def = dyn_cast<Instruction>(Op); Def && Index.count(Def))
        AddEdge(Index[Def], I);
    Kind K = kindOf(*R.Insts[I]);
    std::optional<unsigned> &Last = K == Kind::Store ? LastStore : LastAtomic;
    if (K == Kind::Store || K == Kind::Atomic) {
      if (Last)
        AddEdge(*Last, I);
      Last = I;
    }
  }
  using Key = std::pair<unsigned, unsigned>; // (kind, original index)
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> Ready;
  auto Push = [&](unsigned I) {
    Ready.push({static_cast<unsigned>(kindOf(*R.Insts[I])), I});
  };
  for (unsigned I = 0; I < R.Insts.size(); ++I)
    if (!Preds[I])
      Push(I);
  SmallVector<Instruction *, 32> Order;
  while (!Ready.empty()) {
    unsigned I = Ready.top().second;
    Ready.pop();
    Order.push_back(R.Insts[I]);
    for (unsigned S : Succs[I])
      if (!--Preds[S])
        Push(S);
  }
  return Order;
}

bool writes(const Instruction *I) { return !isa<LoadInst>(I); }

/// Access pairs whose order the fast version swaps and that may overlap, or
/// nothing when one pair must overlap (the fast version would never run).
std::optional<SmallVector<std::pair<Instruction *, Instruction *>, 8>>
pairsToCheck(const Run &R, ArrayRef<Instruction *> Order, BatchAAResults &AA) {
  DenseMap<Instruction *, unsigned> NewPos;
  for (unsigned I = 0; I < Order.size(); ++I)
    NewPos[Order[I]] = I;
  SmallVector<Instruction *, 32> Accesses;
  for (Instruction *I : R.Insts)
    if (isAccess(kindOf(*I)))
      Accesses.push_back(I);
  SmallVector<std::pair<Instruction *, Instruction *>, 8> Pairs;
  for (unsigned I = 0; I < Accesses.size(); ++I)
    for (unsigned J = I + 1; J < Accesses.size(); ++J) {
      Instruction *A = Accesses[I], *B = Accesses[J];
      if (NewPos[B] > NewPos[A] || (!writes(A) && !writes(B)))
        continue;
      AliasResult AR = AA.alias(MemoryLocation::get(A), MemoryLocation::get(B));
      if (AR == AliasResult::NoAlias)
        continue;
      if (AR == AliasResult::MustAlias)
        return std::nullopt;
      Pairs.push_back({A, B});
    }
  return Pairs;
}

Value *addressOf(Instruction *I) {
  if (auto *A = dyn_cast<AtomicRMWInst>(I))
    return A->getPointerOperand();
  return getLoadStorePointerOperand(I);
}

Type *accessedType(Instruction *I) {
  if (auto *A = dyn_cast<AtomicRMWInst>(I))
    return A->getValOperand()->getType();
  return getLoadStoreType(I);
}

/// Moves the run's instructions that compute \p Addr up to the run's start,
/// so that the check can use it; false when \p Addr depends on an access of
/// the run.
bool hoistAddress(Value *Addr, const Run &R,
                  SmallSetVector<Instruction *, 16> &Hoisted) {
  auto *I = dyn_cast<Instruction>(Addr);
  if (!I || !is_contained(R.Insts, I) || Hoisted.count(I))
    return true;
  if (kindOf(*I) != Kind::Pure)
    return false;
  for (Value *Op : I->operands())
    if (!hoistAddress(Op, R, Hoisted))
      return false;
  Hoisted.insert(I); // After its operands: a valid order to move them in.
  return true;
}

/// [X's address, + its size) and [Y's address, + its size) do not overlap.
/// \p AsInt holds each address converted once.
Value *disjoint(IRBuilder<> &B, Instruction *X, Instruction *Y,
                DenseMap<Value *, Value *> &AsInt) {
  const DataLayout &DL = X->getModule()->getDataLayout();
  Type *IntPtr = DL.getIntPtrType(addressOf(X)->getType());
  auto Start = [&](Instruction *I) {
    Value *&V = AsInt[addressOf(I)];
    if (!V)
      V = B.CreatePtrToInt(addressOf(I), IntPtr,
                           addressOf(I)->getName() + ".int");
    return V;
  };
  auto End = [&](Instruction *I) {
    uint64_t Size = DL.getTypeStoreSize(accessedType(I)).getFixedValue();
    return B.CreateAdd(Start(I), ConstantInt::get(IntPtr, Size));
  };
  return B.CreateOr(B.CreateICmpULE(End(X), Start(Y)),
                    B.CreateICmpULE(End(Y), Start(X)));
}

/// States in the fast copy what its test proved, as LoopVersioning does:
/// each checked pair is disjoint there (scoped noalias metadata in a domain
/// of its own, added to what the accesses carry), so that later passes
/// (GridStrideCoarsening) need not assume otherwise.
void annotateDisjoint(ArrayRef<std::pair<Instruction *, Instruction *>> Pairs,
                      ValueToValueMapTy &VMap) {
  LLVMContext &Ctx = Pairs.front().first->getContext();
  MDBuilder MDB(Ctx);
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("irs.disjoint");
  MapVector<Instruction *, MDNode *> Scope;
  MapVector<Instruction *, SmallVector<Metadata *, 4>> Disjoint;
  auto ScopeOf = [&](Instruction *I) {
    MDNode *&S = Scope[I];
    if (!S)
      S = MDB.createAnonymousAliasScope(Domain);
    return S;
  };
  for (auto [X, Y] : Pairs) {
    Disjoint[X].push_back(ScopeOf(Y));
    Disjoint[Y].push_back(ScopeOf(X));
  }
  for (auto &[I, Others] : Disjoint) {
    auto *Copy = cast<Instruction>(VMap[I]);
    Copy->setMetadata(
        LLVMContext::MD_alias_scope,
        MDNode::concatenate(Copy->getMetadata(LLVMContext::MD_alias_scope),
                            MDNode::get(Ctx, ScopeOf(I))));
    Copy->setMetadata(
        LLVMContext::MD_noalias,
        MDNode::concatenate(Copy->getMetadata(LLVMContext::MD_noalias),
                            MDNode::get(Ctx, Others)));
  }
}

/// Gives \p R a reordered copy selected by \p Pairs' disjointness; the
/// original run stays as the fallback. Returns the block after both.
BasicBlock *version(Run &R, ArrayRef<Instruction *> Order,
                    ArrayRef<std::pair<Instruction *, Instruction *>> Pairs,
                    ArrayRef<Instruction *> Hoisted) {
  Instruction *First = R.Insts.front();
  for (Instruction *I : Hoisted)
    I->moveBefore(First);
  BasicBlock *Pre = First->getParent();
  IRBuilder<> B(First);
  Value *AllDisjoint = nullptr;
  DenseMap<Value *, Value *> AsInt;
  for (auto [X, Y] : Pairs) {
    Value *D = disjoint(B, X, Y, AsInt);
    AllDisjoint = AllDisjoint ? B.CreateAnd(AllDisjoint, D) : D;
  }
  AllDisjoint->setName("accesses.disjoint");
  BasicBlock *Ordered =
      SplitBlock(Pre, First, static_cast<DominatorTree *>(nullptr), nullptr,
                 nullptr, Pre->getName() + ".ordered");
  BasicBlock *Join =
      SplitBlock(Ordered, R.End, static_cast<DominatorTree *>(nullptr), nullptr,
                 nullptr, Pre->getName() + ".join");
  ValueToValueMapTy VMap;
  BasicBlock *Fast = CloneBasicBlock(Ordered, VMap, "", Pre->getParent());
  Fast->setName(Pre->getName() + ".fast");
  Fast->moveAfter(Pre);
  for (Instruction &I : *Fast)
    RemapInstruction(&I, VMap,
                     RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  for (Instruction *I : Order)
    cast<Instruction>(VMap[I])->moveBefore(Fast->getTerminator());
  annotateDisjoint(Pairs, VMap);

  Instruction *OldBr = Pre->getTerminator();
  BranchInst::Create(Fast, Ordered, AllDisjoint, OldBr)
      ->setMetadata(VersionedBranch, MDNode::get(Pre->getContext(), {}));
  OldBr->eraseFromParent();

  IRBuilder<> JB(&Join->front());
  for (Instruction &I : *Ordered) {
    if (I.isTerminator() || I.getType()->isVoidTy())
      continue;
    auto UsedOutside = [&](Use &U) {
      auto *User = cast<Instruction>(U.getUser());
      return User->getParent() != Ordered && User->getParent() != Fast;
    };
    if (none_of(I.uses(), UsedOutside))
      continue;
    PHINode *Phi = JB.CreatePHI(I.getType(), 2, I.getName());
    I.replaceUsesWithIf(Phi, UsedOutside);
    Phi->addIncoming(VMap[&I], Fast);
    Phi->addIncoming(&I, Ordered);
  }
  return Join;
}

/// Whether \p BB is the original order of a run an earlier run versioned.
bool isFallbackOfVersionedRun(const BasicBlock &BB) {
  const BasicBlock *Pre = BB.getSinglePredecessor();
  const auto *Br = Pre ? dyn_cast<BranchInst>(Pre->getTerminator()) : nullptr;
  return Br && Br->getMetadata(VersionedBranch) && Br->isConditional() &&
         Br->getSuccessor(1) == &BB;
}

/// Reorders or versions the first suitable run at or after \p From; returns
/// where to continue looking (nothing at the end of the block).
std::optional<BasicBlock::iterator> transformNextRun(BasicBlock::iterator From,
                                                     AAResults &AAR,
                                                     StoreSinkStats &Stats) {
  std::optional<Run> R = nextRun(From, *From->getParent());
  if (!R)
    return std::nullopt;
  BasicBlock::iterator Next = R->End->getIterator();
  SmallVector<Instruction *, 32> Order = fastOrder(*R);
  BatchAAResults AA(AAR);
  auto Pairs = pairsToCheck(*R, Order, AA);
  if (!Pairs)
    return Next;
  if (Pairs->empty()) {
    for (Instruction *I : Order)
      I->moveBefore(R->End);
    ++Stats.Reordered;
    return Next;
  }
  SmallSetVector<Instruction *, 16> Hoisted;
  for (auto [X, Y] : *Pairs) {
    if (addressOf(X)->getType() != addressOf(Y)->getType() ||
        !hoistAddress(addressOf(X), *R, Hoisted) ||
        !hoistAddress(addressOf(Y), *R, Hoisted))
      return Next;
  }
  // Hoisted instructions leave the run; the rest is what gets copied.
  erase_if(R->Insts, [&](Instruction *I) { return Hoisted.count(I); });
  erase_if(Order, [&](Instruction *I) { return Hoisted.count(I); });
  BasicBlock *Join = version(*R, Order, *Pairs, Hoisted.getArrayRef());
  ++Stats.Versioned;
  Stats.Checks += Pairs->size();
  return Join->begin(); // The rest of the block.
}

/// Whether every use of \p V is in a block \p T dominates.
bool usedOnlyUnder(const Value &V, const BasicBlock *T,
                   const DominatorTree &DT) {
  return all_of(V.users(), [&](const User *U) {
    return DT.dominates(T, cast<Instruction>(U)->getParent());
  });
}

/// Enzyme's reverse kernels recompute the primal under `if (c)` and then
/// differentiate under a second `if (c)` on the same value:
///   E: br c, L, M      L: ...; br M      M: phis; br c, T, F
/// On L's path c holds, so L can go straight on to T (and M only to F): the
/// primal's accesses and the derivative's end up in one block, one run.
bool joinRepeatedBranch(BasicBlock &M, const DominatorTree &DT) {
  auto *Br = dyn_cast<BranchInst>(M.getTerminator());
  if (!Br || !Br->isConditional() || M.getFirstNonPHI() != Br ||
      pred_size(&M) != 2)
    return false;
  BasicBlock *T = Br->getSuccessor(0), *F = Br->getSuccessor(1);
  if (T->getSinglePredecessor() != &M || F == &M)
    return false;
  BasicBlock *L = nullptr, *E = nullptr;
  for (BasicBlock *P : predecessors(&M))
    (P->getSingleSuccessor() == &M ? L : E) = P;
  auto *EBr = E ? dyn_cast<BranchInst>(E->getTerminator()) : nullptr;
  if (!L || !EBr || L->getSinglePredecessor() != E || !EBr->isConditional() ||
      EBr->getCondition() != Br->getCondition() || EBr->getSuccessor(0) != L ||
      EBr->getSuccessor(1) != &M)
    return false;
  // c must not be redefined between E's branch and M's: only unreachable
  // code could define it in L or M and still use it in E.
  if (auto *CI = dyn_cast<Instruction>(Br->getCondition());
      CI && (CI->getParent() == L || CI->getParent() == &M))
    return false;
  for (PHINode &P : M.phis())
    if (!usedOnlyUnder(P, T, DT))
      return false;
  for (PHINode &P : make_early_inc_range(M.phis())) {
    P.replaceAllUsesWith(P.getIncomingValueForBlock(L));
    P.eraseFromParent();
  }
  L->getTerminator()->setSuccessor(0, T);
  T->replacePhiUsesWith(&M, L);
  BranchInst::Create(F, Br);
  Br->eraseFromParent();
  MergeBlockIntoPredecessor(T);
  return true;
}

/// joinRepeatedBranch until nothing changes; returns how many it joined.
unsigned joinRepeatedBranches(Function &F) {
  unsigned Joined = 0;
  for (bool Changed = true; Changed;) {
    Changed = false;
    DominatorTree DT(F);
    for (BasicBlock &BB : F)
      if (joinRepeatedBranch(BB, DT)) {
        ++Joined;
        Changed = true;
        break; // The tree is stale now.
      }
  }
  return Joined;
}

} // namespace

PreservedAnalyses StoreSinkVersioningPass::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  StoreSinkStats Local;
  StoreSinkStats &S = Stats ? *Stats : Local;
  unsigned Before = S.Versioned + S.Reordered;
  unsigned Joined = joinRepeatedBranches(F);
  S.Joined += Joined;
  if (Joined)
    FAM.invalidate(F, PreservedAnalyses::none());
  AAResults &AA = FAM.getResult<AAManager>(F);
  SmallVector<BasicBlock *, 16> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  for (BasicBlock *BB : Blocks) {
    if (isFallbackOfVersionedRun(*BB))
      continue;
    std::optional<BasicBlock::iterator> At = BB->begin();
    while (At)
      At = transformNextRun(*At, AA, S);
  }
  return !Joined && S.Versioned + S.Reordered == Before
             ? PreservedAnalyses::all()
             : PreservedAnalyses::none();
}

} // namespace irs
