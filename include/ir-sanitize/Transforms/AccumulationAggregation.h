//===- AccumulationAggregation.h - One atomic per address -------*- C++ -*-===//
//
// Reverse kernels accumulate with atomics, and where the lanes of a warp add
// into one element the atomics serialise in L2: the bias gradient of a dense
// layer (`out[i,j] = v[j] * w[i,j]`: every thread of a column adds into
// d_v[j]) ran at 30x the primal on an H200, and a gather with repeated
// indices (an embedding's backward, d_x[idx[i]]) at 27x, its Float32 sum of
// two million additions into one element failing the reverse check's
// tolerance. CUB's warp-aggregated atomics, Dr.Jit and PyTorch's scatter_add
// sum within the warp first; Enzyme does not. This pass does, for each
// atomic accumulation (AccumulationMerging's: add or sub, fadd or fsub with
// ReassociateFP; at most monotonic; its old value unused) of a 32- or 64-bit
// integer or a half, float or double in global or generic memory:
//
//   %active = activemask
//   %near   = vote.any.sync(%active, lane != 0 &&
//                 low word of address == shfl.sync.up(that word, 1))
//   br %near, label %group, label %plain          ; the same in every lane
//   plain:  the atomic as it was
//   group:  %peers = all of %active where every active lane has the first
//           one's address (a shuffle and vote.all), else
//           match.any.sync(%active, address)     ; lanes with my address
//           each group of peers sums its values: a whole warp by five
//           butterfly shuffles, a smaller group in a tree of shfl.sync.idx
//           (at most 5 rounds: Westphal's reduce_peers, the one CUDA's
//           "warp-aggregated atomics" write-up uses); then its first lane
//           does the atomic with the sum
//
// The neighbour test costs a shuffle and a vote where match.any costs much
// more: on an H100 the match on every atomic made two 2-D broadcasts whose
// lanes never share an address 2.5x slower. It only chooses the path (both
// are exact), so it may miss sharing: lanes that share an address without
// a neighbour that does keep the plain atomic. Where the address is the
// same in every lane (computed from arguments and block indices: a column
// index uniform per block), the tests go and the peers are the active
// lanes. Where the address is an
// injective function of the lane (base + f(tid.x), f built of additions,
// extensions, GEPs and constant multiplications, the rest uniform: `x .+ y`'s
// d_x[i]), lanes never share it and the atomic is left alone, so that such
// kernels run exactly as before. Where a select on a uniform condition
// chooses between such an address and another (a broadcast's Extruded index:
// i where the array is kept, its default where it is extruded), a branch on
// that condition keeps the plain atomic on the distinct side and aggregates
// on the other. Where the address comes from a linear index split by an
// extent N (I / N, I % N: every N-D broadcast) as A * (I / N) + B * (I % N),
// the branch is a uniform test of the sizes instead, case by case over the
// selects' conditions: distinct where B != 0 and |A| >= |B| * N, or A = 0
// and N >= 32 (LaneSharing.h); it costs a few predicate operations where the
// neighbour test costs a shuffle and a vote per thread, which made an H200's
// 2-D broadcast reverse 4-5% slower. The neighbour test, where it remains,
// sits where the address is known in the atomic's block, before the loads
// that feed the value. All of this is read from how the address is
// computed (LLVM's UniformityAnalysis takes every call for divergent on
// NVPTX, the block index's too); they choose code, never change what it
// computes.
//
// Why this is sound: the lanes' atomics are unordered with each other (no
// happens-before between threads of a launch), so one atomic of their sum is
// an outcome the original allows where the operation reassociates: exactly
// for integers; for floating point the sum is reassociated, as the order of
// the original atomics already leaves open (the rule of AccumulationMerging
// and GridStrideCoarsening, docs/DerivativePasses.md). All the new code's
// warp operations take the lanes activemask found and every such lane runs
// the same rounds (the loop's condition is a vote), so no lane waits for one
// that does not come. match.any needs sm_70: a function whose target-cpu is
// an older sm_NN is left alone. The atomics the pass emits are marked, so a
// second run changes nothing.
//
// opt: -passes='function(ir-sanitize-aggregate-accumulations<reassociate-fp>)'
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ACCUMULATIONAGGREGATION_H
#define IR_SANITIZE_TRANSFORMS_ACCUMULATIONAGGREGATION_H

#include "ir-sanitize/Transforms/PassCounters.h"

#include "llvm/IR/PassManager.h"

namespace irs {

/// The counters of the pass (Transforms/PassCounters.h).
#define IRS_ACCUMULATION_AGGREGATION_COUNTERS(X)                               \
  X(Aggregated, NumAggregated, "aggregated_accumulations",                     \
    "Atomics summed first across the lanes that share their address")          \
  X(Uniform, NumUniform, "uniform_accumulations",                              \
    "Of them, with an address uniform across the warp (no match)")             \
  X(Conditional, NumConditional, "conditionally_distinct_accumulations",       \
    "Of them, plain where a uniform condition makes the address distinct")     \
  X(LaneDistinct, NumLaneDistinct, "lane_distinct_accumulations",              \
    "Atomics left alone: their address differs in every lane")

struct AccumulationAggregationStats {
  IRS_ACCUMULATION_AGGREGATION_COUNTERS(IRS_COUNTER_FIELD)

  AccumulationAggregationStats &
  operator+=(const AccumulationAggregationStats &O) {
    IRS_ACCUMULATION_AGGREGATION_COUNTERS(IRS_COUNTER_ADD)
    return *this;
  }
};

/// Adds what it did to the run's AccumulationAggregationStats
/// (Transforms/PassResults.h) and its STATISTICs.
class AccumulationAggregationPass
    : public llvm::PassInfoMixin<AccumulationAggregationPass> {
public:
  explicit AccumulationAggregationPass(bool ReassociateFP)
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
