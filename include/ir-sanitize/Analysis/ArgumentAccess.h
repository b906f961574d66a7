//===- ArgumentAccess.h - How a kernel uses the memory its arguments name -===//
//
// For every pointer a function's arguments hold, whether the function reads
// or writes the memory behind it: what the GPU runner counts a kernel's
// traffic from (a gradient-only kernel, for one, never touches the primal
// output it is still given). A pointer is found as a pointer argument or,
// through extractvalue, as a field of an aggregate argument, at the byte
// offset the launch packs it at; its uses are followed through address
// arithmetic, casts, phis, selects and integer round trips.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_ARGUMENTACCESS_H
#define IR_SANITIZE_ANALYSIS_ARGUMENTACCESS_H

#include "ir-sanitize/Support/PlanVocabulary.h"

#include "llvm/IR/Function.h"

#include <cstdint>
#include <map>
#include <vector>

namespace irs {

/// The accesses through the pointers one argument holds.
struct ArgumentAccess {
  /// By the pointer's byte offset inside the argument (0 for a pointer
  /// argument); a pointer the function never uses has none.
  std::map<uint64_t, MemoryAccess> ByOffset;
  /// False where a use could not be followed (a call, a pointer stored to
  /// memory, an aggregate used whole, a by-reference argument): then nothing
  /// is known about this argument.
  bool Known = true;

  /// The access at \p Offset, or nothing when the argument is not Known.
  std::optional<MemoryAccess> at(uint64_t Offset) const;
};

/// One entry per argument of \p F, which must have a body.
std::vector<ArgumentAccess> analyzeArgumentAccess(const llvm::Function &F);

} // namespace irs

#endif
