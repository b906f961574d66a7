//===- AggregateLeaves.cpp - Scalar leaves of an aggregate type -----------===//
#include "ir-sanitize/Analysis/AggregateLeaves.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DerivedTypes.h"

#include <charconv>
#include <iterator>

using namespace llvm;

namespace irs {
namespace {

/// Depth-first walk; Path is the walk's current index stack.
class LeafCollector {
public:
  LeafCollector(const DataLayout &DL, SmallVectorImpl<AggregateLeaf> &Leaves,
                LeafLimits Limits)
      : DL(DL), Leaves(Leaves), Limits(Limits) {}

  LeafWalk visit(Type *Ty, uint64_t Offset) {
    if (allocSize(Ty) == 0)
      return LeafWalk::Complete;
    if (isAggregateType(Ty) && Path.size() >= Limits.MaxDepth)
      return LeafWalk::TooDeep;
    if (auto *ST = dyn_cast<StructType>(Ty)) {
      const StructLayout *SL = DL.getStructLayout(ST);
      for (unsigned I = 0, E = ST->getNumElements(); I != E; ++I) {
        uint64_t At = Offset + compat::elementOffset(*SL, I);
        LeafWalk W = visitField(ST->getElementType(I), At, I);
        if (W != LeafWalk::Complete)
          return W;
      }
      return LeafWalk::Complete;
    }
    if (auto *AT = dyn_cast<ArrayType>(Ty)) {
      uint64_t Stride = allocSize(AT->getElementType());
      for (uint64_t I = 0, E = AT->getNumElements(); I != E; ++I) {
        LeafWalk W = visitField(AT->getElementType(), Offset + I * Stride, I);
        if (W != LeafWalk::Complete)
          return W;
      }
      return LeafWalk::Complete;
    }
    if (Found++ == Limits.MaxLeaves)
      return LeafWalk::TooManyLeaves;
    Leaves.push_back(
        {Ty, Path, Offset, DL.getTypeStoreSize(Ty).getKnownMinValue()});
    return LeafWalk::Complete;
  }

private:
  LeafWalk visitField(Type *Ty, uint64_t Offset, uint64_t Index) {
    Path.push_back(static_cast<unsigned>(Index));
    LeafWalk W = visit(Ty, Offset);
    Path.pop_back();
    return W;
  }

  /// DataLayout recomputes an array's size from its element's on every
  /// call, which is quadratic down a deeply nested array; this asks it once
  /// per type. (Struct layouts are cached by the DataLayout itself.)
  /// A loop, not a recursion, down a chain of arrays: chains thousands deep
  /// must not exhaust the stack.
  uint64_t allocSize(Type *Ty) {
    SmallVector<ArrayType *, 8> Chain; // outermost first, sizes unknown
    uint64_t Size = 0;
    while (true) {
      auto *AT = dyn_cast<ArrayType>(Ty);
      if (!AT) {
        Size = DL.getTypeAllocSize(Ty).getKnownMinValue();
        break;
      }
      if (auto It = ArraySizes.find(AT); It != ArraySizes.end()) {
        Size = It->second;
        break;
      }
      Chain.push_back(AT);
      Ty = AT->getElementType();
    }
    for (ArrayType *AT : llvm::reverse(Chain))
      Size = ArraySizes[AT] = AT->getNumElements() * Size;
    return Size;
  }

  const DataLayout &DL;
  SmallVectorImpl<AggregateLeaf> &Leaves;
  LeafLimits Limits;
  size_t Found = 0;
  SmallVector<unsigned, 6> Path;
  DenseMap<const ArrayType *, uint64_t> ArraySizes;
};

/// How deeply \p Ty nests aggregates, counted up to \p Limit + 1. A loop
/// with its own stack: the walk below, and the DataLayout's struct layouts,
/// recurse once per level, which a type nested thousands deep must not
/// reach.
uint64_t nestingDepth(Type *Top, uint64_t Limit) {
  DenseMap<Type *, uint64_t> Done;
  SmallVector<std::pair<Type *, unsigned>, 16> Stack{{Top, 0}};
  while (!Stack.empty()) {
    Type *Ty = Stack.back().first;
    unsigned Next = Stack.back().second;
    unsigned N = isAggregateType(Ty) ? Ty->getNumContainedTypes() : 0;
    if (N && Stack.size() > Limit)
      return Limit + 1;
    if (Next < N) {
      ++Stack.back().second;
      Type *Elt = Ty->getContainedType(Next);
      if (!Done.count(Elt))
        Stack.push_back({Elt, 0});
      continue;
    }
    uint64_t Depth = 0;
    for (unsigned I = 0; I != N; ++I)
      Depth = std::max(Depth, Done[Ty->getContainedType(I)] + 1);
    Done[Ty] = Depth;
    Stack.pop_back();
  }
  return Done[Top];
}

} // namespace

Type *passedType(const Argument &A) {
  if (Type *T = A.getParamByValType())
    return T;
  if (Type *T = A.getParamByRefType())
    return T;
  return A.getType();
}

bool isAggregateType(const Type *Ty) {
  return Ty->isStructTy() || Ty->isArrayTy();
}

LeafWalk collectLeaves(Type *Ty, const DataLayout &DL,
                       SmallVectorImpl<AggregateLeaf> &Leaves,
                       LeafLimits Limits) {
  assert(Ty->isSized() && "leaves of an unsized type");
  if (Limits.MaxDepth != UINT_MAX &&
      nestingDepth(Ty, Limits.MaxDepth) > Limits.MaxDepth)
    return LeafWalk::TooDeep;
  return LeafCollector(DL, Leaves, Limits).visit(Ty, 0);
}

std::string joinPath(ArrayRef<unsigned> Path) {
  // Built in place: one call per leaf parameter of every kernel, so no
  // stream; paths of a few short indices stay in the small-string buffer.
  std::string S;
  for (unsigned I = 0; I != Path.size(); ++I) {
    if (I)
      S += '.';
    char Digits[16];
    S.append(Digits, std::to_chars(Digits, std::end(Digits), Path[I]).ptr);
  }
  return S;
}

} // namespace irs
