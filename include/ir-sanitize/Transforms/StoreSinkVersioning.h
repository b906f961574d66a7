//===- StoreSinkVersioning.h - Loads first, stores last, when disjoint -*- C++
//-*-===//
//
// Enzyme's reverse kernels interleave memory accesses per thread: recompute
// the primal (load x, load y, store dest), then read the output's shadow,
// clear it, and accumulate into an input's shadow (load d_dest, store 0 to
// d_dest, atomic add to d_y). On an H200 a global store followed by a global
// access to another, possibly aliasing, address makes such a kernel 15x the
// primal at 2^24 elements; the same accesses with every load and atomic
// first and every store last run at 1.8x.
//
// The pass reorders a straight-line run of memory accesses that way in the
// manner of LLVM's loop versioning: where alias analysis cannot prove that
// the accesses it moves past each other are disjoint, it compares their
// addresses (this thread's, at run time) and keeps the generated order as
// the fallback:
//
//   pre:   the run's address arithmetic, hoisted
//          %disjoint = [p1, p1+s1) and [p2, p2+s2) do not overlap, ...
//          br %disjoint, label %fast, label %ordered
//   fast:  loads; atomics (in their order); stores (in their order)
//   ordered: the run as it was
//   join:  phis for the run's values
//
// Before that, `if (c) A; if (c) B` on the same c (Enzyme's primal
// recomputation, then its derivative) becomes `if (c) {A; B}`, so that both
// form one run. Only what one thread does is reordered, so nothing about the
// launch (which arrays alias, which indices threads use) is assumed. A run is a
// maximal sequence of simple loads and stores, monotonic atomicrmw and
// side-effect free, non-convergent instructions within one block; a run whose
// addresses depend on its own loads, mixes address spaces alias analysis cannot
// separate, or moves a must-alias pair is left alone.
//
// opt: -passes=ir-sanitize-store-sink-versioning
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_STORESINKVERSIONING_H
#define IR_SANITIZE_TRANSFORMS_STORESINKVERSIONING_H

#include "llvm/IR/PassManager.h"

namespace irs {

struct StoreSinkStats {
  unsigned Versioned = 0; ///< Runs given a fast and an ordered version.
  unsigned Reordered = 0; ///< Runs reordered without a check (proven disjoint).
  unsigned InPlace = 0;   ///< Versioned runs also given an in-place version.
  unsigned Checks = 0;    ///< Address pairs compared at run time.
  unsigned Joined = 0;    ///< `if (c) A; if (c) B` made `if (c) {A; B}`.
};

class StoreSinkVersioningPass
    : public llvm::PassInfoMixin<StoreSinkVersioningPass> {
public:
  explicit StoreSinkVersioningPass(StoreSinkStats *Stats = nullptr)
      : Stats(Stats) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  StoreSinkStats *Stats;
};

} // namespace irs

#endif
