//===- Accumulation.h - What an atomic accumulation is ----------*- C++ -*-===//
//
// Shared by the passes that combine or defer Enzyme's atomic additions into
// shadow memory (AccumulationMerging, GridStrideCoarsening).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ACCUMULATION_H
#define IR_SANITIZE_TRANSFORMS_ACCUMULATION_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace irs {

/// Operations where op(op(v, a), b) == op(v, a + b): exactly for integers,
/// up to rounding for floating point (only with \p ReassociateFP). At most
/// monotonic and not volatile.
inline bool isAccumulation(const llvm::AtomicRMWInst &A, bool ReassociateFP) {
  if (A.isVolatile() || A.getOrdering() != llvm::AtomicOrdering::Monotonic)
    return false;
  switch (A.getOperation()) {
  case llvm::AtomicRMWInst::Add:
  case llvm::AtomicRMWInst::Sub:
    return true;
  case llvm::AtomicRMWInst::FAdd:
  case llvm::AtomicRMWInst::FSub:
    return ReassociateFP;
  default:
    return false;
  }
}

/// a + b in \p A's own arithmetic (sub and fsub accumulate a sum too).
inline llvm::Value *accumulate(llvm::IRBuilderBase &B,
                               const llvm::AtomicRMWInst &A, llvm::Value *X,
                               llvm::Value *Y) {
  bool FP = A.getOperation() == llvm::AtomicRMWInst::FAdd ||
            A.getOperation() == llvm::AtomicRMWInst::FSub;
  return FP ? B.CreateFAdd(X, Y, "accumulated")
            : B.CreateAdd(X, Y, "accumulated");
}

} // namespace irs

#endif
