//===- ArgumentAccess.cpp - How a kernel uses its arguments' memory -------===//
#include "ir-sanitize/Analysis/ArgumentAccess.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <numeric>
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

/// The largest number \p V is known to be a multiple of (0: V is zero),
/// looking through shifts, products, sums and phis: an i8 GEP by `i << 3`
/// steps over 8-byte elements. Constant addends are field offsets inside
/// an element and do not count.
class IndexMultiple {
public:
  uint64_t of(const Value *V, unsigned Depth = 0) {
    if (const auto *C = dyn_cast<ConstantInt>(V)) {
      APInt Abs = C->getValue().abs();
      return Abs.getActiveBits() > 63 ? 1 : Abs.getZExtValue();
    }
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 12)
      return 1;
    if (!Visiting.insert(I).second)
      return 0; // a phi's own back edge: no constraint
    uint64_t M = ofInstruction(*I, Depth + 1);
    Visiting.erase(I);
    return M;
  }

private:
  SmallPtrSet<const Value *, 16> Visiting;

  static uint64_t times(uint64_t A, uint64_t B) {
    uint64_t P;
    return __builtin_mul_overflow(A, B, &P) ? 1 : P;
  }

  uint64_t ofInstruction(const Instruction &I, unsigned Depth) {
    auto Op = [&](unsigned N) { return of(I.getOperand(N), Depth); };
    switch (I.getOpcode()) {
    case Instruction::Shl:
      if (const auto *C = dyn_cast<ConstantInt>(I.getOperand(1)))
        if (C->getZExtValue() < 32)
          return times(Op(0), uint64_t(1) << C->getZExtValue());
      return 1;
    case Instruction::Mul:
      return times(Op(0), Op(1));
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Or: // `or disjoint` of an aligned offset
      if (isa<ConstantInt>(I.getOperand(1)))
        return Op(0);
      return std::gcd(Op(0), Op(1));
    case Instruction::SExt:
    case Instruction::ZExt:
    case Instruction::Trunc:
    case Instruction::Freeze:
      return Op(0);
    case Instruction::PHI:
    case Instruction::Select: {
      uint64_t G = 0;
      for (unsigned N = isa<SelectInst>(I) ? 1 : 0; N < I.getNumOperands(); ++N)
        G = std::gcd(G, Op(N));
      return G;
    }
    default:
      return 1;
    }
  }
};

/// Whether \p U lowers an index by a constant (Julia's `x[i]` is element
/// i - 1): an add of a negative constant, or an address stepped back by
/// one (a GEP with a negative constant index, or one that follows).
bool stepsBack(const User *U) {
  auto Negative = [](const Value *V) {
    const auto *C = dyn_cast<ConstantInt>(V);
    return C && C->isNegative();
  };
  if (const auto *Op = dyn_cast<BinaryOperator>(U))
    return (Op->getOpcode() == Instruction::Add &&
            (Negative(Op->getOperand(0)) || Negative(Op->getOperand(1)))) ||
           (Op->getOpcode() == Instruction::Sub &&
            isa<ConstantInt>(Op->getOperand(1)) &&
            !Negative(Op->getOperand(1)));
  const auto *GEP = dyn_cast<GetElementPtrInst>(U);
  if (!GEP)
    return false;
  if (any_of(GEP->indices(), Negative))
    return true;
  return any_of(GEP->users(), [&](const User *Next) {
    const auto *G = dyn_cast<GetElementPtrInst>(Next);
    return G && G->getPointerOperand() == GEP && any_of(G->indices(), Negative);
  });
}

/// Whether the integer \p Loaded takes part in computing an address: an
/// index into another array, or a number made a pointer. \p OneBased says
/// whether the way there lowers it by a constant.
bool becomesAddress(const Value *Loaded, bool &OneBased) {
  SmallVector<const Value *, 16> Worklist{Loaded};
  SmallPtrSet<const Value *, 32> Seen{Loaded};
  while (!Worklist.empty() && Seen.size() < 512) {
    const Value *V = Worklist.pop_back_val();
    for (const User *U : V->users()) {
      OneBased |= stepsBack(U);
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        if (GEP->getPointerOperand() != V)
          return true;
        continue;
      }
      if (isa<IntToPtrInst>(U))
        return true;
      const auto *Pure = dyn_cast<IntrinsicInst>(U);
      if ((isa<BinaryOperator>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
           isa<SelectInst>(U) || isa<FreezeInst>(U) ||
           (Pure && !Pure->mayReadOrWriteMemory())) &&
          Seen.insert(U).second)
        Worklist.push_back(U);
    }
  }
  return false;
}

/// Follows one pointer's uses; Known turns false on a use it cannot follow.
struct PointerWalk {
  using Path = std::vector<unsigned>;
  explicit PointerWalk(const DataLayout &DL) : DL(DL) {}
  const DataLayout &DL;
  ElementUse Elements;
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
  void visitInteger(const User &U, const Value *V) {
    const auto *GEP = dyn_cast<GetElementPtrInst>(&U);
    if (GEP && !isa<ConstantPointerNull>(GEP->getPointerOperand()))
      return; // an index into another address
    if (const auto *B = dyn_cast<BinaryOperator>(&U))
      if (B->getOpcode() == Instruction::Add)
        noteStrideCandidate(
            IndexMultiple().of(B->getOperand(B->getOperand(0) == V ? 1 : 0)));
    const auto *Pure = dyn_cast<IntrinsicInst>(&U); // umin, abs, ...
    if (GEP || isa<BinaryOperator>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
        isa<SelectInst>(U) || (Pure && !Pure->mayReadOrWriteMemory()) ||
        isLaneExchange(U))
      push(&U);
    else if (!isa<ICmpInst>(U) && !isLaneMatch(U))
      Known = false;
  }

  /// A warp's lanes grouped by the value (AccumulationAggregation groups
  /// them by address): a lane mask comes back, like a comparison's result.
  static bool isLaneMatch(const User &U) {
    const auto *I = dyn_cast<IntrinsicInst>(&U);
    if (!I)
      return false;
    switch (I->getIntrinsicID()) {
    case Intrinsic::nvvm_match_any_sync_i32:
    case Intrinsic::nvvm_match_any_sync_i64:
    case Intrinsic::nvvm_match_all_sync_i32p:
    case Intrinsic::nvvm_match_all_sync_i64p:
      return true;
    default:
      return false;
    }
  }

  /// A word of the address from another lane of the warp (the
  /// aggregation's neighbour and first-lane tests): another thread's
  /// address into the same memory, followed like this one's.
  static bool isLaneExchange(const User &U) {
    const auto *I = dyn_cast<IntrinsicInst>(&U);
    if (!I)
      return false;
    switch (I->getIntrinsicID()) {
#define WARP_SHUFFLE(MODE, NAME, F32, I32, TRANSPOSE) case Intrinsic::I32:
#include "ir-sanitize/Transforms/WarpIntrinsics.def"
      return true;
    default:
      return false;
    }
  }

  void visit(const User &U, const Value *V) {
    if (!V->getType()->isPtrOrPtrVectorTy())
      return visitInteger(U, V);
    if (const auto *GEP = dyn_cast<GetElementPtrInst>(&U))
      noteStride(*GEP);
    if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
        isa<AddrSpaceCastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U) ||
        isa<FreezeInst>(U) || isa<PtrToIntInst>(U))
      return push(&U);
    if (isa<ICmpInst>(U))
      return;
    if (const auto *L = dyn_cast<LoadInst>(&U)) {
      noteLoad(*L);
      return add(MemoryAccess::Read, L->getPointerOperand() == V);
    }
    if (const auto *S = dyn_cast<StoreInst>(&U)) {
      noteScalars(S->getValueOperand()->getType());
      return add(MemoryAccess::Write,
                 S->getPointerOperand() == V && S->getValueOperand() != V);
    }
    if (const auto *A = dyn_cast<AtomicRMWInst>(&U)) {
      noteScalars(A->getValOperand()->getType());
      return add(MemoryAccess::ReadWrite,
                 A->getPointerOperand() == V && A->getValOperand() != V);
    }
    if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&U)) {
      noteScalars(X->getNewValOperand()->getType());
      return add(MemoryAccess::ReadWrite, X->getPointerOperand() == V &&
                                              X->getCompareOperand() != V &&
                                              X->getNewValOperand() != V);
    }
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

  /// The element stride the first variable index of \p GEP shows.
  void noteStride(const GetElementPtrInst &GEP) {
    for (gep_type_iterator I = gep_type_begin(GEP), E = gep_type_end(GEP);
         I != E; ++I) {
      if (isa<ConstantInt>(I.getOperand()) || I.isStruct())
        continue;
      Type *Indexed = I.getIndexedType();
      if (Indexed->isFloatingPointTy() &&
          !is_contained(Elements.IndexedFloats, Indexed))
        Elements.IndexedFloats.push_back(Indexed);
      uint64_t Size = DL.getTypeAllocSize(Indexed).getFixedValue();
      uint64_t Stride;
      if (__builtin_mul_overflow(Size, IndexMultiple().of(I.getOperand()),
                                 &Stride))
        Stride = Size;
      return noteStrideCandidate(Stride);
    }
  }

  void noteStrideCandidate(uint64_t Stride) {
    Elements.Stride = std::max(Elements.Stride, Stride);
  }

  void noteLoad(const LoadInst &L) {
    noteScalars(L.getType());
    bool OneBased = false;
    if (L.getType()->isIntegerTy() && becomesAddress(&L, OneBased)) {
      Elements.ValuesIndexAddresses = true;
      Elements.IndicesOneBased |= OneBased;
    }
  }

  void noteScalars(Type *T) {
    if (T->isSized())
      Elements.AccessBytes = std::max<uint64_t>(
          Elements.AccessBytes, DL.getTypeStoreSize(T).getFixedValue());
    SmallVector<Type *, 8> Work{T};
    while (!Work.empty() && Elements.Scalars.size() < 8) {
      Type *S = Work.pop_back_val();
      if (auto *A = dyn_cast<ArrayType>(S)) {
        if (A->getNumElements())
          Work.push_back(A->getElementType());
      } else if (auto *Vec = dyn_cast<VectorType>(S)) {
        Work.push_back(Vec->getElementType());
      } else if (auto *ST = dyn_cast<StructType>(S)) {
        for (Type *E : reverse(ST->elements()))
          Work.push_back(E);
      } else if (!is_contained(Elements.Scalars, S)) {
        Elements.Scalars.push_back(S);
      }
    }
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

void mergeElements(ElementUse &Into, const ElementUse &From) {
  for (Type *T : From.Scalars)
    if (!is_contained(Into.Scalars, T))
      Into.Scalars.push_back(T);
  for (Type *T : From.IndexedFloats)
    if (!is_contained(Into.IndexedFloats, T))
      Into.IndexedFloats.push_back(T);
  Into.Stride = std::max(Into.Stride, From.Stride);
  Into.AccessBytes = std::max(Into.AccessBytes, From.AccessBytes);
  Into.ValuesIndexAddresses |= From.ValuesIndexAddresses;
  Into.IndicesOneBased |= From.IndicesOneBased;
}

class ArgumentAnalysis {
public:
  explicit ArgumentAnalysis(const DataLayout &DL) : DL(DL) {}

  ArgumentAccess analyze(const Argument &A) {
    Result = ArgumentAccess();
    if (Type *InMemory = A.getParamByValType() ? A.getParamByValType()
                                               : A.getParamByRefType())
      visitInMemory(A, 0, DL.getTypeStoreSize(InMemory).getFixedValue());
    else if (A.getType()->isPointerTy() && A.hasPointeeInMemoryValueAttr())
      Result.UsedWhole = true; // preallocated, inalloca: not kernel arguments
    else
      visitValue(A, 0);
    return Result;
  }

private:
  const DataLayout &DL;
  ArgumentAccess Result;

  /// An aggregate passed in memory (byval, byref): \p P points \p Offset
  /// bytes into it, \p Size its bytes. What is loaded from it is followed
  /// as the field at that offset; a store into it, or a use that is not a
  /// load at a constant offset, leaves nothing known.
  void visitInMemory(const Value &P, uint64_t Offset, uint64_t Size) {
    for (const User *U : P.users()) {
      if (const auto *L = dyn_cast<LoadInst>(U)) {
        uint64_t Bytes = DL.getTypeStoreSize(L->getType()).getFixedValue();
        if (L->isVolatile() || Offset + Bytes > Size)
          return setUsedWhole();
        visitValue(*L, Offset);
        continue;
      }
      const auto *GEP = dyn_cast<GEPOperator>(U);
      APInt Delta(DL.getIndexTypeSizeInBits(P.getType()), 0);
      if (GEP && GEP->getPointerOperand() == &P &&
          GEP->accumulateConstantOffset(DL, Delta) && !Delta.isNegative() &&
          Delta.getZExtValue() <= Size) {
        visitInMemory(*GEP, Offset + Delta.getZExtValue(), Size);
        continue;
      }
      if (isa<AddrSpaceCastInst, BitCastInst>(U)) {
        visitInMemory(*U, Offset, Size);
        continue;
      }
      if (const auto *I = dyn_cast<IntrinsicInst>(U);
          I && I->isLifetimeStartOrEnd())
        continue;
      return setUsedWhole();
    }
  }

  void setUsedWhole() { Result.UsedWhole = true; }

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
    PointerWalk W(DL);
    W.run(&P);
    mergeElements(Result.Elements[Offset], W.Elements);
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
