//===- InvariantDivision.h - Division by loop invariants as multiplication ===//
//
// A grid-stride version (GridStrideCoarsening) runs the body of a 2-D
// broadcast once per block it covers, and each run turns the linear index
// into a row and a column: `udiv i64 %i, %rows` and `urem i64 %i, %rows`,
// with %rows a kernel parameter. Code generation divides a 64-bit value by
// a value only known at run time with a 32-bit `div.u32` when both fit
// (BypassSlowDivision), about 20 instructions; a constant divisor it turns
// into a multiplication, an invariant one it does not.
//
// This pass does that for divisors invariant in a loop (Granlund and
// Montgomery, "Division by invariant integers using multiplication", PLDI
// 1994, figure 4.1). In the block that enters the outermost loop in which
// the divisor is invariant, for d in [1, 2^32):
//
//   l = ceil(log2 d)
//   m = floor(2^32 (2^l - d) / d) + 1            (fits 32 bits)
//   sh1 = min(l, 1), sh2 = max(l - 1, 0)
//
// and at each division, for n < 2^32:
//
//   t = (m * n) >> 32
//   q = (t + ((n - t) >> sh1)) >> sh2            (= floor(n / d))
//
// A 32-bit udiv becomes that; a 64-bit one that, behind a test that n and d
// fit 32 bits, and the original division otherwise. A urem becomes
// n - q * d with the quotient of the same operands (created, or moved up to
// it, when the block has none before it). sdiv and srem whose operands are
// known to be non-negative are treated as unsigned. Constant divisors are
// left to code generation.
//
// Sound for every input the original accepts: the reciprocal is computed with
// d replaced by 1 when d is 0 or does not fit, so it never divides by zero;
// a division executes only where the original did, where d is not 0 (the
// original would have had undefined behaviour) and, on the multiplying
// path, n and d fit 32 bits.
//
// opt: -passes=ir-sanitize-invariant-division
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_INVARIANTDIVISION_H
#define IR_SANITIZE_TRANSFORMS_INVARIANTDIVISION_H

#include "llvm/IR/PassManager.h"

namespace irs {

/// Counts (STATISTICs, -stats): divisions made multiplications, remainders
/// made n - q * d.
class InvariantDivisionPass
    : public llvm::PassInfoMixin<InvariantDivisionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace irs

#endif
