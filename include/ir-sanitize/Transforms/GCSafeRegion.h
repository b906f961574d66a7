//===- GCSafeRegion.h - jl_gc_safe_enter/leave around a call ----*- C++ -*-===//
//
// Lowering of the `"gc-transition"` bundle to the form Julia used before 1.12:
//
//   %gc_state = call i8 @jl_gc_safe_enter()
//   <the call, without the bundle>
//   call void @jl_gc_safe_leave(i8 %gc_state)
//
// For an invoke the leave runs on both edges: at the start of the normal
// destination and after the landingpad of the unwind destination, splitting
// either edge when its block has other predecessors.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_GCSAFEREGION_H
#define IR_SANITIZE_TRANSFORMS_GCSAFEREGION_H

#include "llvm/IR/InstrTypes.h"

#include <string>

namespace irs {

inline constexpr llvm::StringLiteral GCSafeEnterName = "jl_gc_safe_enter";
inline constexpr llvm::StringLiteral GCSafeLeaveName = "jl_gc_safe_leave";

/// Empty when \p CB can be wrapped, else why not (musttail call, callbr,
/// invoke unwinding to a funclet pad).
std::string whyCannotWrapInGCSafeRegion(const llvm::CallBase &CB);

/// Wraps \p CB in jl_gc_safe_enter/leave, declaring both (as Enzyme-inactive,
/// non-freeing, non-unwinding) if the module lacks them. Requires
/// whyCannotWrapInGCSafeRegion(CB) to be empty.
void wrapInGCSafeRegion(llvm::CallBase &CB);

} // namespace irs

#endif
