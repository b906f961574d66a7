//===- ArgumentAccess.cpp - How a kernel uses the memory its arguments name
//===//
#include "ir-sanitize/Analysis/ArgumentAccess.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <set>
#include <vector>

using namespace llvm;

namespace irs {

std::optional<MemoryAccess> ArgumentAccess::at(uint64_t Offset) const {
  if (UsedWhole)
    return std::nullopt;
  auto It = ByOffset.find(Offset);
  return It == ByOffset.end() ? MemoryAccess::None : It->second;
}

namespace {

/// Follows one pointer's uses; Known turns false on a use it cannot follow.
struct PointerWalk {
  using Path = std::vector<unsigned>;
  MemoryAccess Access = MemoryAccess::None;
  bool Known = true;
  SmallVector<const Value *, 16> Worklist;
  SmallPtrSet<const Value *, 32> Seen;
  /// Aggregates holding the pointer (Enzyme's caches do), with where.
  SmallVector<std::pair<const Value *, Path>, 4> Holders;
  std::set<std::pair<const Value *, Path>> SeenHolders;

  void push(const Value *V) {
    if (Seen.insert(V).second)
      Worklist.push_back(V);
  }

  void hold(const Value *Agg, Path P) {
    if (SeenHolders.insert({Agg, P}).second)
      Holders.push_back({Agg, std::move(P)});
  }

  void run(const Value *Root) {
    push(Root);
    while (Known && (!Worklist.empty() || !Holders.empty())) {
      if (!Holders.empty()) {
        auto [Agg, P] = Holders.pop_back_val();
        for (const User *U : Agg->users())
          visitHolder(*U, Agg, P);
        continue;
      }
      const Value *V = Worklist.pop_back_val();
      for (const User *U : V->users())
        visit(*U, V);
    }
  }

  /// A use of \p Agg, which holds the pointer at \p P.
  void visitHolder(const User &U, const Value *Agg, const Path &P) {
    auto StartsWith = [](ArrayRef<unsigned> Whole, ArrayRef<unsigned> Head) {
      return Whole.size() >= Head.size() &&
             Whole.take_front(Head.size()) == Head;
    };
    if (const auto *EV = dyn_cast<ExtractValueInst>(&U)) {
      if (EV->getIndices() == ArrayRef<unsigned>(P))
        push(EV);
      else if (StartsWith(P, EV->getIndices()))
        hold(EV, Path(P.begin() + EV->getNumIndices(), P.end()));
      return; // another field
    }
    if (const auto *IV = dyn_cast<InsertValueInst>(&U)) {
      if (IV->getInsertedValueOperand() == Agg) {
        Path Outer(IV->idx_begin(), IV->idx_end());
        Outer.insert(Outer.end(), P.begin(), P.end());
        return hold(IV, std::move(Outer));
      }
      if (!StartsWith(P, IV->getIndices())) // else overwritten
        hold(IV, P);
      return;
    }
    if (isa<PHINode>(U) || isa<SelectInst>(U) || isa<FreezeInst>(U))
      return hold(&U, P);
    Known = false;
  }

  /// Users of an integer made from the address: arithmetic and comparisons
  /// are harmless, an inttoptr (a cast) or a GEP from null is the address
  /// again, an index into another address is not it.
  void visitInteger(const User &U) {
    const auto *GEP = dyn_cast<GetElementPtrInst>(&U);
    if (GEP && !isa<ConstantPointerNull>(GEP->getPointerOperand()))
      return; // an index into another address
    const auto *Pure = dyn_cast<IntrinsicInst>(&U); // umin, abs, ...
    if (GEP || isa<BinaryOperator>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
        isa<SelectInst>(U) || (Pure && !Pure->mayReadOrWriteMemory()))
      push(&U);
    else if (!isa<ICmpInst>(U))
      Known = false;
  }

  void visit(const User &U, const Value *V) {
    if (!V->getType()->isPtrOrPtrVectorTy())
      return visitInteger(U);
    if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
        isa<AddrSpaceCastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U) ||
        isa<FreezeInst>(U) || isa<PtrToIntInst>(U))
      return push(&U);
    if (isa<ICmpInst>(U))
      return;
    if (const auto *L = dyn_cast<LoadInst>(&U))
      return add(MemoryAccess::Read, L->getPointerOperand() == V);
    if (const auto *S = dyn_cast<StoreInst>(&U))
      return add(MemoryAccess::Write,
                 S->getPointerOperand() == V && S->getValueOperand() != V);
    if (const auto *A = dyn_cast<AtomicRMWInst>(&U))
      return add(MemoryAccess::ReadWrite,
                 A->getPointerOperand() == V && A->getValOperand() != V);
    if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&U))
      return add(MemoryAccess::ReadWrite, X->getPointerOperand() == V &&
                                              X->getCompareOperand() != V &&
                                              X->getNewValOperand() != V);
    if (const auto *I = dyn_cast<IntrinsicInst>(&U))
      return visitIntrinsic(*I, V);
    if (const auto *IV = dyn_cast<InsertValueInst>(&U))
      if (IV->getInsertedValueOperand() == V)
        return hold(IV, Path(IV->idx_begin(), IV->idx_end()));
    Known = false;
  }

  void visitIntrinsic(const IntrinsicInst &I, const Value *V) {
    if (I.isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(I) ||
        I.getIntrinsicID() == Intrinsic::prefetch)
      return;
    if (const auto *M = dyn_cast<MemIntrinsic>(&I)) {
      if (M->getRawDest() == V)
        Access = Access | MemoryAccess::Write;
      if (const auto *T = dyn_cast<MemTransferInst>(M))
        if (T->getRawSource() == V)
          Access = Access | MemoryAccess::Read;
      return;
    }
    Known = false;
  }

  /// \p A when the pointer is only used as the address.
  void add(MemoryAccess A, bool AsAddress) {
    if (AsAddress)
      Access = Access | A;
    else
      Known = false;
  }
};

/// Byte offset of the field \p Indices name inside \p Agg, as laid out in
/// memory (the launch packs arguments so).
uint64_t fieldOffset(const DataLayout &DL, Type *Agg, ArrayRef<unsigned> Idx) {
  uint64_t Offset = 0;
  for (unsigned I : Idx) {
    if (auto *ST = dyn_cast<StructType>(Agg)) {
      Offset += DL.getStructLayout(ST)->getElementOffset(I);
      Agg = ST->getElementType(I);
    } else {
      Agg = Agg->getContainedType(0);
      Offset += I * DL.getTypeAllocSize(Agg).getFixedValue();
    }
  }
  return Offset;
}

class ArgumentAnalysis {
public:
  explicit ArgumentAnalysis(const DataLayout &DL) : DL(DL) {}

  ArgumentAccess analyze(const Argument &A) {
    Result = ArgumentAccess();
    if (A.getType()->isPointerTy() && A.hasPointeeInMemoryValueAttr())
      Result.UsedWhole = true; // byval & co.: the pointers live in memory
    else
      visitValue(A, 0);
    return Result;
  }

private:
  const DataLayout &DL;
  ArgumentAccess Result;

  /// Pointers and pointer-sized integers (older front ends pass addresses
  /// as i64) are followed; other scalars cannot hold an address.
  void visitValue(const Value &V, uint64_t Offset) {
    Type *T = V.getType();
    if (T->isPointerTy() || (T->isIntegerTy() && T->getIntegerBitWidth() ==
                                                     DL.getPointerSizeInBits()))
      return visitPointer(V, Offset);
    if (!T->isAggregateType())
      return;
    for (const User *U : V.users()) {
      const auto *EV = dyn_cast<ExtractValueInst>(U);
      if (!EV) {
        Result.UsedWhole = true;
        return;
      }
      visitValue(*EV, Offset + fieldOffset(DL, T, EV->getIndices()));
    }
  }

  void visitPointer(const Value &P, uint64_t Offset) {
    PointerWalk W;
    W.run(&P);
    auto [It, New] = Result.ByOffset.try_emplace(Offset, MemoryAccess::None);
    if (It->second && W.Known)
      It->second = *It->second | W.Access;
    else
      It->second = std::nullopt;
  }
};

} // namespace

std::vector<ArgumentAccess> analyzeArgumentAccess(const Function &F) {
  assert(!F.isDeclaration() && "needs the function's body");
  ArgumentAnalysis Analysis(F.getParent()->getDataLayout());
  std::vector<ArgumentAccess> Result;
  for (const Argument &A : F.args())
    Result.push_back(Analysis.analyze(A));
  return Result;
}

} // namespace irs
