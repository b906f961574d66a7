//===- ArgumentAccess.h - How a kernel uses the memory its arguments name -===//
//
// For every pointer a function's arguments hold, whether the function reads
// or writes the memory behind it: what the GPU runner counts a kernel's
// traffic from (a gradient-only kernel, for one, never touches the primal
// output it is still given). An address is found as a pointer (or
// pointer-sized integer) argument or, through extractvalue, as a field of an
// aggregate argument, at the byte offset the launch packs it at; its uses are
// followed through address arithmetic, casts, phis, selects, integer round
// trips and the aggregates that hold it.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_ARGUMENTACCESS_H
#define IR_SANITIZE_ANALYSIS_ARGUMENTACCESS_H

#include "ir-sanitize/Support/RunPlanSchema.h"

#include "llvm/IR/Function.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace irs {

/// The accesses through the addresses one argument holds.
struct ArgumentAccess {
  /// By the address's byte offset inside the argument (0 for a scalar
  /// argument): how the function accesses the memory there, or nothing
  /// where a use could not be followed (a call, the address stored to
  /// memory). An address the function never uses has none.
  std::map<uint64_t, std::optional<MemoryAccess>> ByOffset;
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
