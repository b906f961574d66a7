//===- GCSafeRegion.h - jl_gc_safe_enter/leave around a call ----*- C++ -*-===//
//
// Lowering of the `"gc-transition"` bundle to the form Julia used before 1.12:
//
//   %0 = call i8 @jl_gc_safe_enter()
//   <the call, without the bundle>
//   call void @jl_gc_safe_leave(i8 %0)
//
// For an invoke the leave runs on both edges: at the start of the normal
// destination and after the landingpad of the unwind destination, splitting
// either edge when its block has other predecessors.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_GCSAFEREGION_H
#define IR_SANITIZE_TRANSFORMS_GCSAFEREGION_H

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <string>

namespace irs {

inline constexpr llvm::StringLiteral GCSafeEnterName = "jl_gc_safe_enter";
inline constexpr llvm::StringLiteral GCSafeLeaveName = "jl_gc_safe_leave";

/// Empty when \p CB can be wrapped, else why not (musttail call, callbr,
/// invoke unwinding to a funclet pad).
std::string whyCannotWrapInGCSafeRegion(const llvm::CallBase &CB);

/// jl_gc_safe_enter and jl_gc_safe_leave of one module, declared (as
/// Enzyme-inactive, non-freeing, non-unwinding) if the module lacks them.
/// A pass wrapping many calls looks them up once, not per call.
struct GCSafeFunctions {
  llvm::FunctionCallee Enter, Leave;
  static GCSafeFunctions getOrInsert(llvm::Module &M);
};

/// Wraps \p CB in \p Fns' enter/leave. Requires
/// whyCannotWrapInGCSafeRegion(CB) to be empty.
void wrapInGCSafeRegion(llvm::CallBase &CB, const GCSafeFunctions &Fns);

/// The same, looking the functions up in \p CB's module.
inline void wrapInGCSafeRegion(llvm::CallBase &CB) {
  wrapInGCSafeRegion(CB, GCSafeFunctions::getOrInsert(*CB.getModule()));
}

} // namespace irs

#endif
