//===- AccumulationMerging.h - One atomic per element, not two --*- C++ -*-===//
//
// A reverse kernel whose closure holds one array twice (`x .+ x`, `-b .- b`:
// the splat gives each occurrence its own pointer parameter) accumulates
// into the same shadow element twice per thread:
//
//   atomicrmw fadd ptr %p, float %a monotonic
//   atomicrmw fadd ptr %q, float %b monotonic       ; %q == %p at run time
//
// On an H200 the second atomic costs as much as a whole extra stream: the
// gradient-only kernel of `-b .- b` at 2^24 runs at 1.63x the primal with
// two atomics and 1.34x with one. The pass merges two adjacent atomic
// additions (nothing that touches memory between them) of one operation,
// type and ordering (at most monotonic) behind a run-time test of this
// thread's two addresses:
//
//   %same = icmp eq ptr %p, %q
//   %sum = fadd float %a, %b
//   atomicrmw fadd ptr %p, (select %same, %sum, %a)
//   br %same, label %join, label %second     ; second: atomicrmw fadd %q, %b
//
// and without the test where alias analysis proves %p == %q. Addresses that
// cannot be equal are left alone. Integer `add` is merged always (exact).
// `fadd` only with ReassociateFP: v + (a + b) may round differently from
// (v + a) + b, which is the reassociation Enzyme itself does when it sums
// two adjoints of one value before accumulating; across threads the order of
// the atomics is unspecified anyway.
//
// opt: -passes='ir-sanitize-merge-accumulations<reassociate-fp>'
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ACCUMULATIONMERGING_H
#define IR_SANITIZE_TRANSFORMS_ACCUMULATIONMERGING_H

#include "ir-sanitize/Transforms/PassCounters.h"

#include "llvm/IR/PassManager.h"

namespace irs {

/// The counters of the pass (Transforms/PassCounters.h).
#define IRS_ACCUMULATION_MERGING_COUNTERS(X)                                   \
  X(Merged, NumMerged, "merged_accumulations",                                 \
    "Atomic pairs made one (same address proven)")                             \
  X(Guarded, NumGuarded, "guarded_merges",                                     \
    "Atomic pairs merged behind an address test")

struct AccumulationMergingStats {
  IRS_ACCUMULATION_MERGING_COUNTERS(IRS_COUNTER_FIELD)

  AccumulationMergingStats &operator+=(const AccumulationMergingStats &O) {
    IRS_ACCUMULATION_MERGING_COUNTERS(IRS_COUNTER_ADD)
    return *this;
  }
};

/// Adds what it did to the run's AccumulationMergingStats
/// (Transforms/PassResults.h) and its STATISTICs.
class AccumulationMergingPass
    : public llvm::PassInfoMixin<AccumulationMergingPass> {
public:
  explicit AccumulationMergingPass(bool ReassociateFP)
      : ReassociateFP(ReassociateFP) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);

private:
  bool ReassociateFP;
};

} // namespace irs

#endif
