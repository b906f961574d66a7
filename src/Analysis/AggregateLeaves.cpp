//===- AggregateLeaves.cpp - Scalar leaves of an aggregate type -----------===//
#include "ir-sanitize/Analysis/AggregateLeaves.h"
#include "ir-sanitize/Support/LLVMCompat.h"

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
                size_t Limit)
      : DL(DL), Leaves(Leaves), Limit(Limit) {}

  bool visit(Type *Ty, uint64_t Offset) {
    if (DL.getTypeAllocSize(Ty).isZero())
      return true;
    if (auto *ST = dyn_cast<StructType>(Ty)) {
      const StructLayout *SL = DL.getStructLayout(ST);
      for (unsigned I = 0, E = ST->getNumElements(); I != E; ++I)
        if (!visitField(ST->getElementType(I),
                        Offset + compat::elementOffset(*SL, I), I))
          return false;
      return true;
    }
    if (auto *AT = dyn_cast<ArrayType>(Ty)) {
      uint64_t Stride = DL.getTypeAllocSize(AT->getElementType());
      for (uint64_t I = 0, E = AT->getNumElements(); I != E; ++I)
        if (!visitField(AT->getElementType(), Offset + I * Stride, I))
          return false;
      return true;
    }
    if (Found++ == Limit)
      return false;
    Leaves.push_back(
        {Ty, Path, Offset, DL.getTypeStoreSize(Ty).getKnownMinValue()});
    return true;
  }

private:
  bool visitField(Type *Ty, uint64_t Offset, uint64_t Index) {
    Path.push_back(static_cast<unsigned>(Index));
    bool Complete = visit(Ty, Offset);
    Path.pop_back();
    return Complete;
  }

  const DataLayout &DL;
  SmallVectorImpl<AggregateLeaf> &Leaves;
  size_t Limit;
  size_t Found = 0;
  SmallVector<unsigned, 6> Path;
};

} // namespace

bool isAggregateType(const Type *Ty) {
  return Ty->isStructTy() || Ty->isArrayTy();
}

bool collectLeaves(Type *Ty, const DataLayout &DL,
                   SmallVectorImpl<AggregateLeaf> &Leaves, size_t Limit) {
  assert(Ty->isSized() && "leaves of an unsized type");
  return LeafCollector(DL, Leaves, Limit).visit(Ty, 0);
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
