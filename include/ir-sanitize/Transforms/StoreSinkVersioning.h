//===- StoreSinkVersioning.h - Loads first, stores last ---------*- C++ -*-===//
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
//          %inplace  = the clear's and an accumulation's addresses equal, ...
//          br %disjoint, label %fast, label %inplace.test
//   fast:  loads; atomics (in their order); stores (in their order)
//   inplace.test: br %inplace, label %inplace, label %ordered
//   inplace: as fast, each clear and the accumulations into its element
//          one store
//   ordered: the run as it was
//   join:  phis for the run's values
//
// The in-place version is for `y .= f.(x, y)`: d_dest and d_y are one array,
// so this thread clears d_dest[i] (`store c, p`, c = 0) and then adds into
// the same element (`atomicrmw fadd p, v monotonic`), which the fast order
// would swap. Where the addresses are equal (and everything between the two
// and every pair the reordering swaps is disjoint, tested as for fast), the
// pair becomes `store c + v, p` at the atomic's place; accumulations into
// other elements stay atomics, each behind its own equality test. Why this
// has exactly the original's outcomes (LLVM's memory model; PTX's is no
// weaker here): within the thread, nothing between the clear and the add
// touches p, so p holds c when the add reads it and c + v after it, as the
// store leaves it (the sum is computed as the atomic computes it, so
// -0.0, NaN and rounding agree; PTX's atom.add.f32 flushes subnormals, the
// store keeps them). Another thread's access to p during the kernel would
// race with the original's plain store of c (no happens-before between
// threads of a launch), so its value after the kernel is undef in LLVM's
// model whichever store and atomics run; the rewrite changes no outcome of
// a race-free launch and leaves a racy one racy. The only other difference
// is the transient value c, which only a racing reader could observe. A
// partial overlap (an 8-byte clear and a 4-byte accumulation, a byte offset)
// is neither equal nor disjoint and takes the original order; two aligned
// accesses of one type overlap only when equal.
//
// Before that, `if (c) A; if (c) B` on the same c (Enzyme's primal
// recomputation, then its derivative) becomes `if (c) {A; B}`, so that both
// form one run. Only what one thread does is reordered, so nothing about the
// launch (which arrays alias, which indices threads use) is assumed. A run is a
// maximal sequence of simple loads and stores, monotonic atomicrmw and
// side-effect free, non-convergent instructions within one block. An address
// may come from the run's own loads (a gather's reverse accumulates into
// d_x[idx[i]]) where no write of the run before such a load may overlap what
// it reads: the load then moves before the test, reading what it read. A run
// with an address loaded after a write it may overlap, with address spaces
// alias analysis cannot separate, or moving a must-alias pair is left alone.
//
// opt: -passes=ir-sanitize-store-sink-versioning
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_STORESINKVERSIONING_H
#define IR_SANITIZE_TRANSFORMS_STORESINKVERSIONING_H

#include "ir-sanitize/Transforms/PassCounters.h"

#include "llvm/IR/PassManager.h"

namespace irs {

/// The counters of the pass (Transforms/PassCounters.h).
#define IRS_STORE_SINK_COUNTERS(X)                                             \
  X(Versioned, NumVersioned, "versioned",                                      \
    "Runs given a fast and an ordered version")                                \
  X(Reordered, NumReordered, "reordered",                                      \
    "Runs reordered without a check (proven disjoint)")                        \
  X(InPlace, NumInPlace, "in_place",                                           \
    "Versioned runs also given an in-place version")                           \
  X(Checks, NumChecks, "address_checks", "Address pairs compared at run time") \
  X(Joined, NumJoined, "joined_branches", "Branches on one condition joined")

struct StoreSinkStats {
  IRS_STORE_SINK_COUNTERS(IRS_COUNTER_FIELD)

  StoreSinkStats &operator+=(const StoreSinkStats &O) {
    IRS_STORE_SINK_COUNTERS(IRS_COUNTER_ADD)
    return *this;
  }
};

/// Adds what it did to the run's StoreSinkStats (Transforms/PassResults.h)
/// and its STATISTICs.
class StoreSinkVersioningPass
    : public llvm::PassInfoMixin<StoreSinkVersioningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace irs

#endif
