//===- StoreSinkVersioning.cpp - Loads first, stores last, when disjoint --===//
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"

#include "AddressRanges.h"

#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
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

#define DEBUG_TYPE "ir-sanitize-store-sink-versioning"

IRS_STORE_SINK_COUNTERS(IRS_COUNTER_STATISTIC)

namespace {
/// Adds \p S to the STATISTICs and to \p Results' StoreSinkStats.
void reportStats(const irs::StoreSinkStats &S, irs::PassResults *Results) {
  IRS_STORE_SINK_COUNTERS(IRS_COUNTER_BUMP)
  if (Results)
    Results->get<irs::StoreSinkStats>() += S;
}
} // namespace

namespace irs {
namespace {

/// Marks the branch between a versioned run's copies: its false successor
/// holds the run in its original order.
constexpr const char VersionedBranch[] = "irs.store_sink.versioned";
/// Marks the terminator of every block of a versioned run's versions (the
/// copies, the blocks a fold splits off them, the original order), whose
/// order is chosen: a second run leaves them alone.
constexpr const char VersionBlock[] = "irs.store_sink.version";

using AccessPair = std::pair<Instruction *, Instruction *>;

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
std::optional<SmallVector<AccessPair, 8>>
pairsToCheck(const Run &R, ArrayRef<Instruction *> Order, BatchAAResults &AA) {
  DenseMap<Instruction *, unsigned> NewPos;
  for (unsigned I = 0; I < Order.size(); ++I)
    NewPos[Order[I]] = I;
  SmallVector<Instruction *, 32> Accesses;
  for (Instruction *I : R.Insts)
    if (isAccess(kindOf(*I)))
      Accesses.push_back(I);
  SmallVector<AccessPair, 8> Pairs;
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

/// Whether load \p L reads what it would at the run's start: no write of
/// the run before it may overlap it (so an index loaded before the run's
/// first store, as a gather's reverse loads idx[i], can be tested on).
bool readsAsAtStart(LoadInst *L, const Run &R, BatchAAResults &AA) {
  for (Instruction *I : R.Insts) {
    if (I == L)
      return true;
    if (isAccess(kindOf(*I)) && writes(I) &&
        AA.alias(MemoryLocation::get(I), MemoryLocation::get(L)) !=
            AliasResult::NoAlias)
      return false;
  }
  llvm_unreachable("the load is in the run");
}

/// Moves the run's instructions that compute \p Addr up to the run's start,
/// so that the check can use it; false when \p Addr depends on an access of
/// the run other than a load that reads there what it reads at the start.
bool hoistAddress(Value *Addr, const Run &R, BatchAAResults &AA,
                  SmallSetVector<Instruction *, 16> &Hoisted) {
  auto *I = dyn_cast<Instruction>(Addr);
  if (!I || !is_contained(R.Insts, I) || Hoisted.count(I))
    return true;
  auto *L = dyn_cast<LoadInst>(I);
  if (kindOf(*I) != Kind::Pure &&
      !(L && kindOf(*L) == Kind::Load && readsAsAtStart(L, R, AA)))
    return false;
  for (Value *Op : I->operands())
    if (!hoistAddress(Op, R, AA, Hoisted))
      return false;
  Hoisted.insert(I); // After its operands: a valid order to move them in.
  return true;
}

/// States in the fast copy what its test proved, as LoopVersioning does:
/// each checked pair is disjoint there (scoped noalias metadata in a domain
/// of its own, added to what the accesses carry), so that later passes
/// (GridStrideCoarsening) need not assume otherwise.
void annotateDisjoint(ArrayRef<AccessPair> Pairs, ValueToValueMapTy &VMap) {
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

/// A clear and the accumulations into one element: `store c, p` and, later
/// in the run, `atomicrmw fadd p, v1`, `atomicrmw fadd p, v2`, ... (Enzyme's
/// reverse of an in-place broadcast: d_dest[i] = 0, then d_y[i] += g with
/// d_y == d_dest, once per occurrence of y). Where this thread's addresses
/// are all equal, the in-place version makes them one `store (c + v1) + v2`
/// at the last atomic's place; the header says why that has the original's
/// outcomes.
struct ClearThenAdd {
  StoreInst *Clear;
  SmallVector<AtomicRMWInst *, 2> Adds;
};

/// The in-place version's plan: the pairs folded, and those that must be
/// disjoint for the fold and the reordering to be exact.
struct InPlacePlan {
  SmallVector<ClearThenAdd, 4> Folds;
  SmallVector<AccessPair, 8> Disjoint;
};

/// Whether \p X, \p Y (in this order in the run) can be one store where
/// their addresses are equal: the same type, the atomic's old value unused,
/// and the stored value computed before the run (the fold moves it to the
/// atomic's place, which the fast order may put before its definition).
bool foldable(Instruction *X, Instruction *Y, const Run &R) {
  auto *S = dyn_cast<StoreInst>(X);
  auto *A = dyn_cast<AtomicRMWInst>(Y);
  if (!S || !A || A->getOperation() != AtomicRMWInst::FAdd || !A->use_empty() ||
      S->getValueOperand()->getType() != A->getValOperand()->getType())
    return false;
  auto *C = dyn_cast<Instruction>(S->getValueOperand());
  return !C || !is_contained(R.Insts, C);
}

/// The checked pairs that fold: per clear, its foldable accumulations in
/// run order (\p Pairs lists them so), each accumulation in one fold.
SmallVector<ClearThenAdd, 4> findFolds(const Run &R,
                                       ArrayRef<AccessPair> Pairs) {
  SmallVector<ClearThenAdd, 4> Folds;
  SmallPtrSet<Instruction *, 8> Folded;
  for (auto [X, Y] : Pairs) {
    if (Folded.count(Y) || !foldable(X, Y, R))
      continue;
    // (A copy: a lambda may capture a structured binding only from C++20.)
    Instruction *Clear = X;
    auto It =
        find_if(Folds, [&](const ClearThenAdd &F) { return F.Clear == Clear; });
    if (It == Folds.end())
      It = Folds.insert(Folds.end(), {cast<StoreInst>(X), {}});
    It->Adds.push_back(cast<AtomicRMWInst>(Y));
    Folded.insert(Y);
  }
  return Folds;
}

/// The in-place version of run \p R, or nothing when no checked pair can be
/// folded. Folding is exact when nothing between a clear and its last
/// accumulation touches the element but the fold itself (checked); the
/// reordering then needs the checked pairs without the folded clears, each
/// accumulation now standing for its part of the new store.
std::optional<InPlacePlan> planInPlace(const Run &R, ArrayRef<AccessPair> Pairs,
                                       BatchAAResults &AA) {
  InPlacePlan P;
  P.Folds = findFolds(R, Pairs);
  if (P.Folds.empty())
    return std::nullopt;
  SmallPtrSet<Instruction *, 8> Cleared;
  for (const ClearThenAdd &F : P.Folds)
    Cleared.insert(F.Clear);
  for (auto [X, Y] : Pairs)
    if (!Cleared.count(X) && !Cleared.count(Y))
      P.Disjoint.push_back({X, Y});
  for (const ClearThenAdd &F : P.Folds) {
    auto Between = make_range(std::next(find(R.Insts, F.Clear)),
                              find(R.Insts, F.Adds.back()));
    for (Instruction *Z : Between) {
      if (!isAccess(kindOf(*Z)) || is_contained(F.Adds, Z))
        continue;
      AliasResult AR =
          AA.alias(MemoryLocation::get(Z), MemoryLocation::get(F.Clear));
      if (AR == AliasResult::MustAlias)
        return std::nullopt;
      if (AR != AliasResult::NoAlias)
        P.Disjoint.push_back({F.Clear, Z});
    }
  }
  return P;
}

/// The tests the versions branch on, computed before the run, sharing each
/// address's conversion and each pair's disjointness and equality.
class RunTests {
public:
  explicit RunTests(Instruction *Before) : B(Before) {}

  /// The conjunction of \p Pairs' disjointness and what \p Folds need: a
  /// fold of one accumulation, that its address is the clear's; of several,
  /// that one is and each is that or disjoint from it. Named \p Name.
  Value *all(ArrayRef<AccessPair> Pairs, ArrayRef<ClearThenAdd> Folds,
             const Twine &Name) {
    Value *All = nullptr;
    auto And = [&](Value *V) { All = All ? B.CreateAnd(All, V) : V; };
    for (const ClearThenAdd &F : Folds) {
      if (F.Adds.size() == 1) {
        And(equal(F.Clear, F.Adds.front()));
        continue;
      }
      Value *Any = nullptr;
      for (AtomicRMWInst *Add : F.Adds) {
        Value *Eq = equal(F.Clear, Add);
        Any = Any ? B.CreateOr(Any, Eq) : Eq;
        And(B.CreateOr(Eq, disjoint({F.Clear, Add})));
      }
      And(Any);
    }
    for (AccessPair P : Pairs)
      And(disjoint(P));
    All->setName(Name);
    return All;
  }

  /// The test all() made that \p Clear's and \p Add's addresses are equal
  /// (the builder's place is inside the run once it is split).
  Value *madeEqual(Instruction *Clear, Instruction *Add) const {
    Value *E = Equal.lookup({Clear, Add});
    assert(E && "all() tests every accumulation of a fold");
    return E;
  }

private:
  /// This thread's addresses of \p Clear and \p Add are equal.
  Value *equal(Instruction *Clear, Instruction *Add) {
    Value *&E = Equal[{Clear, Add}];
    if (!E) {
      Value *ClearInt = asInt(Clear); // first: see disjoint()
      E = B.CreateICmpEQ(ClearInt, asInt(Add),
                         addressOf(Add)->getName() + ".inplace");
    }
    return E;
  }

  Value *asInt(Instruction *I) {
    Value *&V = AsInt[addressOf(I)];
    if (!V)
      V = B.CreatePtrToInt(addressOf(I),
                           I->getModule()->getDataLayout().getIntPtrType(
                               addressOf(I)->getType()),
                           addressOf(I)->getName() + ".int");
    return V;
  }
  /// [X's address, + its size) and [Y's address, + its size) do not
  /// overlap.
  Value *disjoint(AccessPair P) {
    Value *&D = Disjoint[P];
    if (D)
      return D;
    auto [X, Y] = P;
    const DataLayout &DL = X->getModule()->getDataLayout();
    Type *IntPtr = DL.getIntPtrType(addressOf(X)->getType());
    auto End = [&](Instruction *I, Value *Start) {
      uint64_t Size = DL.getTypeStoreSize(accessedType(I)).getFixedValue();
      return B.CreateAdd(Start, ConstantInt::get(IntPtr, Size));
    };
    // One instruction per statement: C++ leaves the order of evaluating
    // arguments open, and the instructions' order must not depend on the
    // compiler (gcc and clang builds printed them differently).
    Value *XStart = asInt(X);
    Value *YStart = asInt(Y);
    Value *XEnd = End(X, XStart);
    Value *YEnd = End(Y, YStart);
    D = rangesApart(B, XStart, XEnd, YStart, YEnd);
    return D;
  }

  IRBuilder<> B;
  DenseMap<Value *, Value *> AsInt;
  DenseMap<AccessPair, Value *> Disjoint, Equal;
};

/// A copy of block \p Ordered named \p Suffix, placed after \p After, its
/// run's instructions in \p Order; what \p Pairs' test proved is stated.
BasicBlock *reorderedCopy(BasicBlock *Ordered, BasicBlock *After,
                          StringRef Suffix, ArrayRef<Instruction *> Order,
                          ArrayRef<AccessPair> Pairs, ValueToValueMapTy &VMap) {
  BasicBlock *Copy = CloneBasicBlock(Ordered, VMap, "", Ordered->getParent());
  Copy->setName(After->getName() + Suffix);
  Copy->moveAfter(After);
  for (Instruction &I : *Copy)
    RemapInstruction(&I, VMap,
                     RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  for (Instruction *I : Order)
    cast<Instruction>(VMap[I])->moveBefore(Copy->getTerminator());
  if (!Pairs.empty())
    annotateDisjoint(Pairs, VMap);
  return Copy;
}

/// In the in-place copy: each fold's clear goes, and the accumulations into
/// its element become a sum (in their order, each adding as its atomic
/// would) stored to it at the last one's place. Of several accumulations,
/// those into another element (disjoint, tested) stay atomics, under their
/// own test.
void foldClearsIntoAdds(ArrayRef<ClearThenAdd> Folds, ValueToValueMapTy &VMap,
                        const RunTests &Tests) {
  for (const ClearThenAdd &F : Folds) {
    Value *Sum = F.Clear->getValueOperand();
    for (AtomicRMWInst *Orig : F.Adds) {
      auto *Add = cast<AtomicRMWInst>(VMap[Orig]);
      IRBuilder<> B(Add);
      Value *Added = B.CreateFAdd(Sum, Add->getValOperand(), "accumulated");
      if (F.Adds.size() == 1) {
        Sum = Added;
      } else {
        Value *Eq = Tests.madeEqual(F.Clear, Orig);
        Sum = B.CreateSelect(Eq, Added, Sum, "accumulated");
        Instruction *Elsewhere = SplitBlockAndInsertIfThen(
            B.CreateNot(Eq), Add, /*Unreachable=*/false);
        Add->moveBefore(Elsewhere);
        B.SetInsertPoint(Elsewhere->getParent()->getSingleSuccessor(),
                         Elsewhere->getParent()->getSingleSuccessor()->begin());
      }
      if (Orig == F.Adds.back()) {
        StoreInst *St = B.CreateAlignedStore(Sum, F.Clear->getPointerOperand(),
                                             F.Clear->getAlign());
        St->copyMetadata(*F.Clear, {LLVMContext::MD_dbg});
      }
      if (F.Adds.size() == 1)
        Add->eraseFromParent();
    }
    cast<Instruction>(VMap[F.Clear])->eraseFromParent();
  }
}

/// A conditional branch to \p Then or \p Else, marked as a versioned run's.
void branchVersions(Value *Cond, BasicBlock *Then, BasicBlock *Else,
                    BasicBlock *From) {
  Instruction *Old = From->getTerminator();
  BranchInst::Create(Then, Else, Cond, Old)
      ->setMetadata(VersionedBranch, MDNode::get(From->getContext(), {}));
  Old->eraseFromParent();
}

/// Values of \p Ordered used after it come through phis in \p Join, one
/// incoming value per copy.
void joinCopies(BasicBlock *Ordered, BasicBlock *Join,
                ArrayRef<std::pair<BasicBlock *, ValueToValueMapTy *>> Copies) {
  IRBuilder<> JB(&Join->front());
  for (Instruction &I : *Ordered) {
    if (I.isTerminator() || I.getType()->isVoidTy())
      continue;
    auto UsedOutside = [&](Use &U) {
      BasicBlock *UB = cast<Instruction>(U.getUser())->getParent();
      return UB != Ordered &&
             none_of(Copies, [&](const auto &C) { return C.first == UB; });
    };
    if (none_of(I.uses(), UsedOutside))
      continue;
    PHINode *Phi = JB.CreatePHI(I.getType(), Copies.size() + 1, I.getName());
    I.replaceUsesWithIf(Phi, UsedOutside);
    for (auto [Block, VMap] : Copies)
      Phi->addIncoming((*VMap)[&I], Block);
    Phi->addIncoming(&I, Ordered);
  }
}

/// Marks every block between \p Pre's branch and \p Join as a version: by
/// what this pass made, not by the shape of the blocks (a fold splits the
/// in-place copy into several).
void markVersions(BasicBlock *Pre, BasicBlock *Join) {
  MDNode *Mark = MDNode::get(Pre->getContext(), {});
  SmallVector<BasicBlock *, 8> Work(successors(Pre));
  SmallPtrSet<BasicBlock *, 8> Seen;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Join || !Seen.insert(BB).second)
      continue;
    BB->getTerminator()->setMetadata(VersionBlock, Mark);
    append_range(Work, successors(BB));
  }
}

/// Gives \p R a reordered copy selected by \p Pairs' disjointness and, with
/// \p InPlace, a folded copy selected by its test; the original run stays as
/// the fallback. Returns the block after them.
BasicBlock *version(Run &R, ArrayRef<Instruction *> Order,
                    ArrayRef<AccessPair> Pairs,
                    const std::optional<InPlacePlan> &InPlace,
                    ArrayRef<Instruction *> Hoisted) {
  Instruction *First = R.Insts.front();
  for (Instruction *I : Hoisted)
    I->moveBefore(First);
  BasicBlock *Pre = First->getParent();
  RunTests Tests(First);
  Value *AllDisjoint = Tests.all(Pairs, {}, "accesses.disjoint");
  Value *Equal =
      InPlace ? Tests.all(InPlace->Disjoint, InPlace->Folds, "accesses.inplace")
              : nullptr;
  auto Split = [&](BasicBlock *BB, Instruction *At, StringRef Suffix) {
    return SplitBlock(BB, At, static_cast<DominatorTree *>(nullptr), nullptr,
                      nullptr, Pre->getName() + Suffix);
  };
  BasicBlock *Ordered = Split(Pre, First, ".ordered");
  BasicBlock *Join = Split(Ordered, R.End, ".join");
  ValueToValueMapTy FastMap, InPlaceMap;
  BasicBlock *Fast =
      reorderedCopy(Ordered, Pre, ".fast", Order, Pairs, FastMap);
  SmallVector<std::pair<BasicBlock *, ValueToValueMapTy *>, 2> Copies = {
      {Fast, &FastMap}};
  BasicBlock *Else = Ordered;
  if (InPlace) {
    BasicBlock *Test =
        BasicBlock::Create(Pre->getContext(), Pre->getName() + ".inplace.test",
                           Pre->getParent(), Ordered);
    BranchInst::Create(Ordered, Test);
    BasicBlock *Folded =
        reorderedCopy(Ordered, Test, "", Order, InPlace->Disjoint, InPlaceMap);
    Folded->setName(Pre->getName() + ".inplace");
    Instruction *FoldedEnd = Folded->getTerminator();
    foldClearsIntoAdds(InPlace->Folds, InPlaceMap, Tests);
    branchVersions(Equal, Folded, Ordered, Test);
    Copies.push_back({FoldedEnd->getParent(), &InPlaceMap});
    Else = Test;
  }
  branchVersions(AllDisjoint, Fast, Else, Pre);
  joinCopies(Ordered, Join, Copies);
  markVersions(Pre, Join);
  return Join;
}

/// Whether \p BB is a version of a run an earlier run versioned.
bool isVersionOfVersionedRun(const BasicBlock &BB) {
  return BB.getTerminator()->getMetadata(VersionBlock);
}

/// Says what became of \p R: "a run of N instructions WHAT", a remark
/// named \p Name, passed when \p Done, else missed.
void remarkRun(OptimizationRemarkEmitter &ORE, const Run &R, bool Done,
               StringRef Name, const Twine &What) {
  auto Text = [&] {
    return ("a run of " + Twine(R.Insts.size()) + " instructions " + What)
        .str();
  };
  if (Done)
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, Name, R.Insts.front()) << Text();
    });
  else
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, Name, R.Insts.front())
             << Text();
    });
}

/// Reorders or versions the first suitable run at or after \p From; returns
/// where to continue looking (nothing at the end of the block).
std::optional<BasicBlock::iterator>
transformNextRun(BasicBlock::iterator From, AAResults &AAR,
                 StoreSinkStats &Stats, OptimizationRemarkEmitter &ORE) {
  std::optional<Run> R = nextRun(From, *From->getParent());
  if (!R)
    return std::nullopt;
  BasicBlock::iterator Next = R->End->getIterator();
  SmallVector<Instruction *, 32> Order = fastOrder(*R);
  BatchAAResults AA(AAR);
  auto Pairs = pairsToCheck(*R, Order, AA);
  if (!Pairs) {
    remarkRun(ORE, *R, false, "NotVersioned",
              "keeps its order: a store and a later access always overlap");
    return Next;
  }
  if (Pairs->empty()) {
    for (Instruction *I : Order)
      I->moveBefore(R->End);
    ++Stats.Reordered;
    remarkRun(ORE, *R, true, "Reordered",
              "has its loads and atomics before its stores: they never "
              "overlap");
    return Next;
  }
  std::optional<InPlacePlan> InPlace = planInPlace(*R, *Pairs, AA);
  SmallSetVector<Instruction *, 16> Hoisted;
  auto Hoist = [&](ArrayRef<AccessPair> Checked) {
    return all_of(Checked, [&](AccessPair P) {
      return addressOf(P.first)->getType() == addressOf(P.second)->getType() &&
             hoistAddress(addressOf(P.first), *R, AA, Hoisted) &&
             hoistAddress(addressOf(P.second), *R, AA, Hoisted);
    });
  };
  if (!Hoist(*Pairs)) {
    remarkRun(ORE, *R, false, "NotVersioned",
              "keeps its order: an address to compare is computed inside it");
    return Next;
  }
  if (InPlace && !Hoist(InPlace->Disjoint))
    InPlace.reset();
  remarkRun(ORE, *R, true, "Versioned",
            "is versioned on " + Twine(Pairs->size()) + " address comparisons" +
                (InPlace ? ", with an in-place version" : ""));
  // Hoisted instructions leave the run; the rest is what gets copied.
  erase_if(R->Insts, [&](Instruction *I) { return Hoisted.count(I); });
  erase_if(Order, [&](Instruction *I) { return Hoisted.count(I); });
  BasicBlock *Join = version(*R, Order, *Pairs, InPlace, Hoisted.getArrayRef());
  ++Stats.Versioned;
  Stats.Checks += Pairs->size();
  if (InPlace) {
    ++Stats.InPlace;
    for (const ClearThenAdd &F : InPlace->Folds)
      Stats.Checks += F.Adds.size();
    Stats.Checks += InPlace->Disjoint.size();
  }
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
  StoreSinkStats S;
  unsigned Joined = joinRepeatedBranches(F);
  S.Joined += Joined;
  if (Joined)
    FAM.invalidate(F, PreservedAnalyses::none());
  AAResults &AA = FAM.getResult<AAManager>(F);
  OptimizationRemarkEmitter ORE(&F);
  SmallVector<BasicBlock *, 16> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  for (BasicBlock *BB : Blocks) {
    if (isVersionOfVersionedRun(*BB))
      continue;
    std::optional<BasicBlock::iterator> At = BB->begin();
    while (At)
      At = transformNextRun(*At, AA, S, ORE);
  }
  reportStats(S, passResults(F, FAM));
  return !Joined && S.Versioned + S.Reordered == 0 ? PreservedAnalyses::all()
                                                   : PreservedAnalyses::none();
}

} // namespace irs
