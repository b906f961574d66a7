//===- AggregateLeaves.h - Scalar leaves of an aggregate type ---*- C++ -*-===//
//
// An aggregate (struct or array, nested to any depth) flattened into its
// scalar leaves (pointer, integer, floating point, vector), in field order,
// with each leaf's index path and its byte offset and size inside the
// aggregate under a data layout. Zero-sized fields have no leaves. The splat
// pass and the launch manifest both describe parameters with this one list.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_AGGREGATELEAVES_H
#define IR_SANITIZE_ANALYSIS_AGGREGATELEAVES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Type.h"

#include <climits>
#include <cstdint>
#include <string>

namespace irs {

struct AggregateLeaf {
  llvm::Type *Ty = nullptr;
  llvm::SmallVector<unsigned, 6> Path; ///< extractvalue indices.
  uint64_t Offset = 0;                 ///< Bytes from the aggregate's start.
  uint64_t Size = 0;                   ///< Store size of Ty.
};

/// Struct or fixed-size array: the types the splat flattens.
bool isAggregateType(const llvm::Type *Ty);

/// The type of what \p A passes: the pointee of a `ptr byval(T)` or
/// `ptr byref(T)` parameter (an aggregate passed in memory, as GPUCompiler
/// passes them before lower_byval), else the parameter's own type.
llvm::Type *passedType(const llvm::Argument &A);

/// Bounds on a walk: a huge NTuple or a pathologically deep type must not
/// cost time or stack in proportion to its size.
struct LeafLimits {
  size_t MaxLeaves = SIZE_MAX;  ///< Stop once more leaves than this are found.
  unsigned MaxDepth = UINT_MAX; ///< Stop at an aggregate nested deeper.
};

enum class LeafWalk { Complete, TooManyLeaves, TooDeep };

/// The leaves of \p Ty in field order. A non-aggregate type is its own single
/// leaf with an empty path; a zero-sized type has none. Stops early (the list
/// is then incomplete) at the first limit reached and says which. Time is
/// linear in the number of leaves times the depth, plus the number of
/// distinct types under \p Ty.
LeafWalk collectLeaves(llvm::Type *Ty, const llvm::DataLayout &DL,
                       llvm::SmallVectorImpl<AggregateLeaf> &Leaves,
                       LeafLimits Limits = {});

/// "0.1.0": the path as dot-separated indices ("" for an empty path).
std::string joinPath(llvm::ArrayRef<unsigned> Path);

} // namespace irs

#endif
