//===- ArgumentAccess.h - How a kernel uses the memory its arguments name -===//
//
// For every pointer a function's arguments hold, whether the function reads
// or writes the memory behind it: what the GPU runner counts a kernel's
// traffic from (a gradient-only kernel, for one, never touches the primal
// output it is still given). An address is found as a pointer (or
// pointer-sized integer) argument or, through extractvalue, as a field of an
// aggregate argument, at the byte offset the launch packs it at; its uses are
// followed through address arithmetic, casts, phis, selects, integer round
// trips and the aggregates that hold it. The same walk says what the
// memory holds: the types loaded and stored, the element stride the indices
// show, and whether loaded integers become part of an address (an index
// array), which is what gpu-check infers a launch from.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_ARGUMENTACCESS_H
#define IR_SANITIZE_ANALYSIS_ARGUMENTACCESS_H

#include "ir-sanitize/Launch/RunPlanSchema.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace irs {

/// What the accesses through one address say about the elements there.
struct ElementUse {
  /// The scalar types loaded and stored (aggregates and vectors flattened),
  /// each once, in the order first seen (valid while the module's context
  /// lives).
  llvm::SmallVector<llvm::Type *, 2> Scalars;
  /// The largest distance in bytes between consecutive elements that an
  /// index shows (a GEP over `%Dual` or an i8 GEP by `i << 3`: 8); 0 where
  /// no variable index is seen.
  uint64_t Stride = 0;
  /// The floating-point types the addresses' GEPs index by (`getelementptr
  /// float` while the loads move i32: the optimiser moved the floats as
  /// integers), each once.
  llvm::SmallVector<llvm::Type *, 1> IndexedFloats;
  /// The largest single access in bytes.
  uint64_t AccessBytes = 0;
  /// An integer loaded through the address takes part in computing an
  /// address (CSR's colptr and rowval): its values are indices.
  bool ValuesIndexAddresses = false;
  /// ... after lowering them by a constant: Julia's 1-based indices.
  bool IndicesOneBased = false;
};

/// The accesses through the addresses one argument holds.
struct ArgumentAccess {
  /// By the address's byte offset inside the argument (0 for a scalar
  /// argument): how the function accesses the memory there, or nothing
  /// where a use could not be followed (a call, the address stored to
  /// memory). An address the function never uses has none.
  std::map<uint64_t, std::optional<MemoryAccess>> ByOffset;
  /// By the same offsets: what the accesses there move.
  std::map<uint64_t, ElementUse> Elements;
  /// The aggregate used whole, or passed by reference: nothing is known.
  bool UsedWhole = false;

  /// The access at \p Offset: None where no address is used, nothing where
  /// it is not known.
  std::optional<MemoryAccess> at(uint64_t Offset) const;
};

/// One entry per argument of \p F, which must have a body.
std::vector<ArgumentAccess> analyzeArgumentAccess(const llvm::Function &F);

} // namespace irs

#endif
