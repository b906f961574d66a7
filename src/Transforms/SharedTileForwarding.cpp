//===- SharedTileForwarding.cpp - Tiles read from where they came from ----===//
#include "ir-sanitize/Transforms/SharedTileForwarding.h"

#include "WarpLanes.h"

#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-forward-shared-tiles"

IRS_SHARED_TILE_FORWARDING_COUNTERS(IRS_COUNTER_STATISTIC)

namespace irs {
namespace {

constexpr unsigned MaxDepth = 32;

/// A barrier every thread of the block meets, making the block's shared-
/// memory writes before it visible after it: bar.sync without a thread
/// count, under any of the names LLVM 16 to 22 give it.
bool isBlockBarrier(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || !Callee->isIntrinsic())
    return false;
  StringRef Name = Callee->getName();
  if (Name.consume_front("llvm.nvvm.barrier0"))
    return Name.empty() || Name == ".and" || Name == ".or" || Name == ".popc";
  if (Name == "llvm.nvvm.barrier.sync")
    return true;
  return Name.consume_front("llvm.nvvm.barrier.cta.") &&
         !Name.contains("arrive") && Name.ends_with(".all");
}

/// The thread-index dimension \p S is (through extensions), if it is one.
std::optional<unsigned> scevThreadIndexDim(const SCEV *S) {
  while (const auto *Cast = dyn_cast<SCEVIntegralCastExpr>(S))
    S = Cast->getOperand();
  const auto *U = dyn_cast<SCEVUnknown>(S);
  return U ? threadIndexDim(U->getValue()) : std::nullopt;
}

bool readsThreadIndex(const SCEV *S) {
  return SCEVExprContains(S, [](const SCEV *X) {
    const auto *U = dyn_cast<SCEVUnknown>(X);
    return U && threadIndexDim(U->getValue());
  });
}

/// A tile store's byte offset, c + sum of Coef[d] * tid.d; false where it
/// is not of that form.
struct TileOffset {
  const SCEV *Base = nullptr;
  uint64_t Coef[3] = {0, 0, 0};
};

bool decompose(ScalarEvolution &SE, const SCEV *Off, TileOffset &T) {
  SmallVector<const SCEV *, 4> Terms;
  if (const auto *Add = dyn_cast<SCEVAddExpr>(Off))
    append_range(Terms, Add->operands());
  else
    Terms.push_back(Off);
  SmallVector<const SCEV *, 4> Rest;
  for (const SCEV *Term : Terms) {
    if (!readsThreadIndex(Term)) {
      Rest.push_back(Term);
      continue;
    }
    uint64_t Scale = 1;
    if (const auto *Mul = dyn_cast<SCEVMulExpr>(Term);
        Mul && Mul->getNumOperands() == 2)
      if (const auto *C = dyn_cast<SCEVConstant>(Mul->getOperand(0))) {
        if (C->getAPInt().isNegative() || C->getAPInt().getActiveBits() > 32)
          return false;
        Scale = C->getAPInt().getZExtValue();
        Term = Mul->getOperand(1);
      }
    std::optional<unsigned> Dim = scevThreadIndexDim(Term);
    if (!Dim || T.Coef[*Dim] != 0)
      return false;
    T.Coef[*Dim] = Scale;
  }
  T.Base = Rest.empty() ? SE.getZero(Off->getType()) : SE.getAddExpr(Rest);
  return true;
}

/// What one store of a tile copies: the load whose value it stores.
struct TileStore {
  StoreInst *Store;
  LoadInst *Source;
};

/// What a walk's visitor says of an instruction.
enum class Step { Continue, Stop, Fail };

/// Visits the instructions after \p From (before it, \p Backward), block by
/// block, each block once, not past an instruction the visitor stops at.
/// False when the visitor fails one, or a backward walk reaches the entry
/// with \p EntryFails.
template <typename Fn>
bool walk(Instruction &From, bool Backward, bool EntryFails, Fn Visit) {
  auto Scan = [&](BasicBlock &BB, Instruction *After) {
    auto Run = [&](auto It, auto End) {
      for (; It != End; ++It)
        if (Step S = Visit(*It); S != Step::Continue)
          return S;
      return Step::Continue;
    };
    if (Backward)
      return Run(After ? std::next(After->getReverseIterator()) : BB.rbegin(),
                 BB.rend());
    return Run(After ? std::next(After->getIterator()) : BB.begin(), BB.end());
  };
  SmallPtrSet<BasicBlock *, 16> Entered;
  SmallVector<BasicBlock *, 8> Work;
  auto Onward = [&](BasicBlock &BB) {
    if (Backward && pred_empty(&BB))
      return !EntryFails;
    auto Add = [&](BasicBlock *Next) {
      if (Entered.insert(Next).second)
        Work.push_back(Next);
    };
    if (Backward)
      for_each(predecessors(&BB), Add);
    else
      for_each(successors(&BB), Add);
    return true;
  };
  Step S = Scan(*From.getParent(), &From);
  if (S == Step::Fail || (S == Step::Continue && !Onward(*From.getParent())))
    return false;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    S = Scan(*BB, nullptr);
    if (S == Step::Fail || (S == Step::Continue && !Onward(*BB)))
      return false;
  }
  return true;
}

/// Whether \p F's shared memory is dead when it returns: a kernel, or a
/// function only Enzyme's entry points take (their drivers read no tile).
bool sharedMemoryDiesWith(const Function &F) {
  if (F.getCallingConv() == CallingConv::PTX_Kernel)
    return true;
  return !F.use_empty() && all_of(F.users(), [&](const User *U) {
    const auto *Call = dyn_cast<CallBase>(U);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    return Callee && Callee != &F && isEnzymeEntryPoint(Callee->getName());
  });
}

/// How to find the storing thread of a read: the read's offset minus the
/// store's shared part, and the store's thread strides, smallest first.
struct TileDecoding {
  const SCEV *Digits = nullptr;
  SmallVector<std::pair<unsigned, uint64_t>, 3> Strides; // dim, bytes
};

/// The tiles of one function and what writes them.
class TileForwarder {
public:
  TileForwarder(Function &F, FunctionAnalysisManager &FAM)
      : F(F), AA(FAM.getResult<AAManager>(F)),
        SE(FAM.getResult<ScalarEvolutionAnalysis>(F)),
        DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        LI(FAM.getResult<LoopAnalysis>(F)), ORE(&F) {}

  SharedTileForwardingStats run();

private:
  /// The shared global \p Ptr points into, if any.
  static GlobalVariable *tileOf(Value *Ptr) {
    auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
    return G && G->getAddressSpace() == compat::SharedAddressSpace ? G
                                                                   : nullptr;
  }
  bool mayWrite(Instruction &I, const MemoryLocation &Loc) {
    return !isBlockBarrier(I) && I.mayWriteToMemory() &&
           isModSet(AA.getModRefInfo(&I, Loc));
  }
  static bool isTileStore(Instruction &I, const GlobalVariable &G) {
    auto *S = dyn_cast<StoreInst>(&I);
    return S && tileOf(S->getPointerOperand()) == &G;
  }
  const char *collectStores(GlobalVariable &G);
  bool neverWritten(const LoadInst &Source);
  const char *forward(LoadInst &L, GlobalVariable &G);
  const TileStore *phaseStore(LoadInst &L, GlobalVariable &G);
  const char *planDecoding(LoadInst &L, const TileStore &T, TileDecoding &Plan);
  void emitDecoding(LoadInst &L, const TileDecoding &Plan,
                    Value *(&Decoded)[3]);
  bool dependsOn(Value *V, unsigned Dims, DenseMap<Value *, bool> &Memo,
                 unsigned Depth = 0);
  bool rematerializable(Value *V, unsigned Dims, Instruction &At,
                        DenseMap<Value *, bool> &Memo, unsigned Depth = 0);
  Value *rematerialize(Value *V, unsigned Dims, Value *const (&Decoded)[3],
                       DenseMap<Value *, bool> &Memo,
                       DenseMap<Value *, Value *> &Map, Instruction &At);
  bool readsTile(GlobalVariable &G);
  unsigned eraseStores(GlobalVariable &G);

  Function &F;
  AAResults &AA;
  ScalarEvolution &SE;
  DominatorTree &DT;
  LoopInfo &LI;
  OptimizationRemarkEmitter ORE;
  DenseMap<GlobalVariable *, SmallVector<TileStore, 2>> Stores;
  /// What the rewrites left unused, deleted once the last read is done: a
  /// dead index could be a tile read still to come.
  SmallVector<WeakTrackingVH, 16> MaybeDead;
};

/// Records \p G's stores in F; the reason where something else may write
/// it or a store is not a copy of memory F never writes.
const char *TileForwarder::collectStores(GlobalVariable &G) {
  MemoryLocation Whole = MemoryLocation::getBeforeOrAfter(&G);
  SmallVector<TileStore, 2> &List = Stores[&G];
  for (Instruction &I : instructions(F)) {
    if (isTileStore(I, G)) {
      auto &S = cast<StoreInst>(I);
      auto *Source = dyn_cast<LoadInst>(S.getValueOperand());
      if (!S.isSimple() || !Source || !Source->isSimple() ||
          tileOf(Source->getPointerOperand()))
        return "a store to the tile is not a copy of a load from memory "
               "outside it";
      if (!neverWritten(*Source))
        return "the memory the tile copies may be written in the function";
      List.push_back({&S, Source});
    } else if (mayWrite(I, Whole)) {
      return "something other than a store writes the tile";
    }
  }
  return List.empty() ? "nothing in the function writes the tile" : nullptr;
}

bool TileForwarder::neverWritten(const LoadInst &Source) {
  MemoryLocation Loc =
      MemoryLocation::getBeforeOrAfter(Source.getPointerOperand());
  return none_of(instructions(F),
                 [&](Instruction &I) { return mayWrite(I, Loc); });
}

/// The store whose value \p L reads: every path to \p L comes from one
/// barrier without another barrier or tile store, the store is the last
/// tile store before that barrier in its block and the only one of its
/// phase; null otherwise.
const TileStore *TileForwarder::phaseStore(LoadInst &L, GlobalVariable &G) {
  Instruction *Barrier = nullptr;
  bool OneBarrier =
      walk(L, /*Backward=*/true, /*EntryFails=*/true, [&](Instruction &I) {
        if (isTileStore(I, G))
          return Step::Fail;
        if (!isBlockBarrier(I))
          return Step::Continue;
        if (Barrier && Barrier != &I)
          return Step::Fail;
        Barrier = &I;
        return Step::Stop;
      });
  if (!OneBarrier || !Barrier)
    return nullptr;
  StoreInst *Last = nullptr;
  for (auto It = std::next(Barrier->getReverseIterator());
       !Last && It != Barrier->getParent()->rend() && !isBlockBarrier(*It);
       ++It)
    if (isTileStore(*It, G))
      Last = cast<StoreInst>(&*It);
  auto Stop = [&](Instruction &I) {
    return isTileStore(I, G)   ? Step::Fail
           : isBlockBarrier(I) ? Step::Stop
                               : Step::Continue;
  };
  if (!Last || !walk(*Last, /*Backward=*/true, /*EntryFails=*/false, Stop) ||
      !walk(L, /*Backward=*/false, /*EntryFails=*/false, Stop))
    return nullptr;
  for (const TileStore &T : Stores[&G])
    if (T.Store == Last)
      return &T;
  return nullptr;
}

/// The decoding of \p L's offset against \p T's, or the reason there is
/// none.
const char *TileForwarder::planDecoding(LoadInst &L, const TileStore &T,
                                        TileDecoding &Plan) {
  const SCEV *Tile = SE.getSCEV(getUnderlyingObject(L.getPointerOperand()));
  const SCEV *Stored =
      SE.getMinusSCEV(SE.getSCEV(T.Store->getPointerOperand()), Tile);
  const SCEV *Read = SE.getMinusSCEV(SE.getSCEV(L.getPointerOperand()), Tile);
  TileOffset Off;
  if (isa<SCEVCouldNotCompute>(Stored) || isa<SCEVCouldNotCompute>(Read) ||
      !decompose(SE, Stored, Off))
    return "the store's offset is not a constant multiple of each thread "
           "index plus a part every thread shares";
  for (unsigned D = 0; D < 3; ++D)
    if (Off.Coef[D])
      Plan.Strides.push_back({D, Off.Coef[D]});
  if (Plan.Strides.empty())
    return "every thread stores the same element";
  llvm::sort(Plan.Strides, [](auto A, auto B) { return A.second < B.second; });
  for (unsigned I = 0; I + 1 < Plan.Strides.size(); ++I)
    if (Plan.Strides[I + 1].second % Plan.Strides[I].second != 0 ||
        Plan.Strides[I + 1].second == Plan.Strides[I].second)
      return "the store's thread strides do not nest";
  uint64_t Unit = Plan.Strides[0].second;
  Plan.Digits = SE.getMinusSCEV(Read, Off.Base);
  if (!isPowerOf2_64(Unit) ||
      compat::minTrailingZeros(SE, Plan.Digits) < Log2_64(Unit))
    return "the read is not aligned to the store's elements";
  return nullptr;
}

/// \p Decoded: for each thread index the store's offset uses, the index of
/// the thread that stored what \p L reads (code before \p L).
void TileForwarder::emitDecoding(LoadInst &L, const TileDecoding &Plan,
                                 Value *(&Decoded)[3]) {
  SCEVExpander Expander(
      IRS_SCEV_EXPANDER_ARGS(SE, F.getParent()->getDataLayout(), "tile"));
  Value *Offset =
      Expander.expandCodeFor(Plan.Digits, Plan.Digits->getType(), &L);
  IRBuilder<> B(&L);
  Type *Ty = Offset->getType();
  for (unsigned I = 0; I < Plan.Strides.size(); ++I) {
    auto [Dim, Stride] = Plan.Strides[I];
    Value *Digit = B.CreateUDiv(Offset, ConstantInt::get(Ty, Stride));
    if (I + 1 < Plan.Strides.size())
      Digit = B.CreateURem(
          Digit, ConstantInt::get(Ty, Plan.Strides[I + 1].second / Stride));
    Decoded[Dim] = B.CreateTrunc(Digit, B.getInt32Ty(), "tile.tid");
  }
}

/// Whether \p V may read one of the thread indices in \p Dims (a bit
/// each), through the operands of instructions and phis; past MaxDepth, it
/// may.
bool TileForwarder::dependsOn(Value *V, unsigned Dims,
                              DenseMap<Value *, bool> &Memo, unsigned Depth) {
  if (std::optional<unsigned> D = threadIndexDim(V))
    return Dims >> *D & 1;
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  auto [It, New] = Memo.try_emplace(I, false); // a cycle adds nothing
  if (!New)
    return It->second;
  bool Depends = Depth > MaxDepth || any_of(I->operands(), [&](Value *Op) {
                   return dependsOn(Op, Dims, Memo, Depth + 1);
                 });
  Memo[I] = Depends;
  return Depends;
}

/// Whether rematerialize can compute \p V again before \p At: what
/// depends on a thread index in \p Dims is pure and no phi, the rest
/// dominates \p At.
bool TileForwarder::rematerializable(Value *V, unsigned Dims, Instruction &At,
                                     DenseMap<Value *, bool> &Memo,
                                     unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || threadIndexDim(V))
    return !I || DT.dominates(I, &At) || dependsOn(V, Dims, Memo);
  if (!dependsOn(V, Dims, Memo))
    return DT.dominates(I, &At);
  if (Depth > MaxDepth || isa<PHINode>(I) || isa<CallBase>(I) ||
      I->mayReadOrWriteMemory())
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return rematerializable(Op, Dims, At, Memo, Depth + 1);
  });
}

/// \p V as the storing thread computed it: what depends on a decoded
/// thread index (in \p Dims) is computed again before \p At with the
/// decoded one (which rematerializable checked can be done).
Value *TileForwarder::rematerialize(Value *V, unsigned Dims,
                                    Value *const (&Decoded)[3],
                                    DenseMap<Value *, bool> &Memo,
                                    DenseMap<Value *, Value *> &Map,
                                    Instruction &At) {
  if (std::optional<unsigned> D = threadIndexDim(V); D && Decoded[*D])
    return Decoded[*D];
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !dependsOn(I, Dims, Memo))
    return V;
  if (auto It = Map.find(I); It != Map.end())
    return It->second;
  Instruction *Copy = nullptr;
  for (unsigned K = 0; K < I->getNumOperands(); ++K) {
    Value *Op = I->getOperand(K);
    Value *New = rematerialize(Op, Dims, Decoded, Memo, Map, At);
    if (New == Op)
      continue;
    if (!Copy) {
      Copy = I->clone();
      Copy->setName(I->getName() + ".tile");
    }
    Copy->setOperand(K, New);
  }
  if (Copy)
    Copy->insertBefore(&At);
  return Map[I] = Copy ? Copy : I;
}

/// Replaces \p L by a load of the element its tile copied; the reason
/// where that cannot be shown.
const char *TileForwarder::forward(LoadInst &L, GlobalVariable &G) {
  if (!L.isSimple())
    return "the read is volatile or atomic";
  const TileStore *T = phaseStore(L, G);
  if (!T)
    return "the read does not come from one barrier after one tile store "
           "of the same phase, or a tile store may follow it before the "
           "next barrier";
  if (T->Source->getType() != L.getType())
    return "the read's type is not the stored one";
  Loop *StoreLoop = LI.getLoopFor(T->Store->getParent());
  if (!DT.dominates(T->Store, &L) ||
      (StoreLoop && !StoreLoop->contains(L.getParent())))
    return "the read is not in the store's loop iteration";
  TileDecoding Plan;
  if (const char *Why = planDecoding(L, *T, Plan))
    return Why;
  unsigned Dims = 0;
  for (auto [Dim, Stride] : Plan.Strides)
    Dims |= 1u << Dim;
  DenseMap<Value *, bool> Memo;
  Value *Source = T->Source->getPointerOperand();
  if (!rematerializable(Source, Dims, L, Memo))
    return "the copied element's address takes a phi, a call or a load "
           "that depends on the thread index";
  Value *Decoded[3] = {nullptr, nullptr, nullptr};
  emitDecoding(L, Plan, Decoded);
  DenseMap<Value *, Value *> Map;
  Value *Ptr = rematerialize(Source, Dims, Decoded, Memo, Map, L);
  auto *Load = cast<LoadInst>(T->Source->clone());
  Load->setOperand(Load->getPointerOperandIndex(), Ptr);
  Load->insertBefore(&L);
  Load->setDebugLoc(L.getDebugLoc());
  Load->takeName(&L);
  L.replaceAllUsesWith(Load);
  MaybeDead.push_back(L.getPointerOperand());
  L.eraseFromParent();
  return nullptr;
}

bool TileForwarder::readsTile(GlobalVariable &G) {
  MemoryLocation Whole = MemoryLocation::getBeforeOrAfter(&G);
  return any_of(instructions(F), [&](Instruction &I) {
    return !isBlockBarrier(I) && I.mayReadFromMemory() &&
           isRefSet(AA.getModRefInfo(&I, Whole));
  });
}

/// Erases \p G's stores, and the loads they stored where nothing else uses
/// them.
unsigned TileForwarder::eraseStores(GlobalVariable &G) {
  unsigned Erased = 0;
  for (TileStore &T : Stores[&G]) {
    MaybeDead.push_back(T.Store->getPointerOperand());
    MaybeDead.push_back(T.Source);
    T.Store->eraseFromParent();
    ++Erased;
  }
  Stores[&G].clear();
  return Erased;
}

SharedTileForwardingStats TileForwarder::run() {
  SharedTileForwardingStats S;
  MapVector<GlobalVariable *, SmallVector<LoadInst *, 8>> Reads;
  for (Instruction &I : instructions(F))
    if (auto *L = dyn_cast<LoadInst>(&I))
      if (GlobalVariable *G = tileOf(L->getPointerOperand()))
        Reads[G].push_back(L);
  for (auto &[G, Loads] : Reads) {
    const char *Why = collectStores(*G);
    unsigned Before = S.Forwarded;
    for (LoadInst *L : Loads) {
      DebugLoc Loc = L->getDebugLoc();
      BasicBlock *BB = L->getParent();
      const char *Missed = Why ? Why : forward(*L, *G);
      if (Missed) {
        ++S.Kept;
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "Kept", L)
                 << "a shared-memory read stays: " << Missed;
        });
        continue;
      }
      ++S.Forwarded;
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Forwarded", Loc, BB)
               << "a shared-memory read reads the element its tile copied";
      });
    }
    if (S.Forwarded > Before && sharedMemoryDiesWith(F) && !readsTile(*G))
      S.StoresErased += eraseStores(*G);
  }
  for (WeakTrackingVH &V : MaybeDead)
    if (V)
      RecursivelyDeleteTriviallyDeadInstructions(V);
  return S;
}

} // namespace

PreservedAnalyses SharedTileForwardingPass::run(Function &F,
                                                FunctionAnalysisManager &FAM) {
  SharedTileForwardingStats S = TileForwarder(F, FAM).run();
  IRS_SHARED_TILE_FORWARDING_COUNTERS(IRS_COUNTER_BUMP)
  if (PassResults *Results = passResults(F, FAM))
    Results->get<SharedTileForwardingStats>() += S;
  return S.Forwarded == 0 ? PreservedAnalyses::all()
                          : PreservedAnalyses::none();
}

} // namespace irs
