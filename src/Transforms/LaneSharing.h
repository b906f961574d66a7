//===- LaneSharing.h - Where a warp's lanes share an address ----*- C++ -*-===//
//
// AccumulationAggregation's question about an atomic's address: the same in
// every lane of a warp, different in every lane, or either as uniform
// conditions (an Extruded broadcast's flags, a 2-D array's extents) decide.
// The answers only choose code (a plain atomic, a test dropped), never what
// it computes, so they may be optimistic.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_LANESHARING_H
#define IR_SANITIZE_TRANSFORMS_LANESHARING_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <functional>
#include <utility>

namespace irs {

/// A condition all lanes compute alike, and whether it must hold.
using LaneLiteral = std::pair<llvm::Value *, bool>;

/// \p Start (null: true) and each literal of \p When, emitted before the
/// builder's point; null where both are empty.
llvm::Value *allHold(llvm::IRBuilderBase &B, llvm::ArrayRef<LaneLiteral> When,
                     llvm::Value *Start = nullptr);

/// Emits, before the builder's point, an i1 that holds where the lanes of
/// a warp address different elements.
using DistinctTest = std::function<llvm::Value *(llvm::IRBuilderBase &)>;

class LaneSharing {
public:
  /// The same value in every lane: constants, arguments, block constants
  /// and what pure instructions make of them. A phi of uniform values
  /// counts as uniform (a grid-stride loop's block index) although a
  /// divergent branch could join there.
  bool uniform(const llvm::Value *V, unsigned Depth = 0);

  /// A different value in every lane where the literals it adds to \p When
  /// hold: the x index through injective steps, every other operand
  /// uniform; a select on a uniform condition picks per warp (an Extruded
  /// broadcast's index: i where the array is kept, its default where it is
  /// extruded). A block whose x extent is below 32 puts lanes with one x
  /// index in a warp; they then keep separate atomics.
  bool injective(llvm::Value *V, llvm::SmallVectorImpl<LaneLiteral> &When,
                 unsigned Depth = 0);

  /// For an address computed from the x index I through I / N and I % N
  /// (a 2-D array indexed by a linear index, as every N-D broadcast is):
  /// the test that tells, from uniform values, where its lanes address
  /// different elements (an empty one: always, as where the row stride is
  /// the extent N itself); none where the address is not of that form or
  /// never differs per lane.
  std::optional<DistinctTest> distinctByExtents(llvm::Value *Addr);

private:
  bool injectiveSelect(llvm::SelectInst &Sel,
                       llvm::SmallVectorImpl<LaneLiteral> &When,
                       unsigned Depth);
  bool injectiveGEP(llvm::GetElementPtrInst &GEP,
                    llvm::SmallVectorImpl<LaneLiteral> &When, unsigned Depth);

  static constexpr unsigned MaxDepth = 16;
  llvm::SmallPtrSet<const llvm::PHINode *, 8> InProgress;
};

} // namespace irs

#endif
