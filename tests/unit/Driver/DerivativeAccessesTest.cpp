#include "../TestSupport.h"

#include "ir-sanitize/Driver/DerivativeAccesses.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// Three accumulations into one element: AccumulationMerging makes them one,
/// AccumulationAggregation sums it across a warp.
constexpr const char *ThreeAccumulations = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @same_pointer(ptr addrspace(1) %p, float %a, float %b, float %c) {
entry:
  atomicrmw fadd ptr addrspace(1) %p, float %a monotonic
  atomicrmw fadd ptr addrspace(1) %p, float %b monotonic
  atomicrmw fadd ptr addrspace(1) %p, float %c monotonic
  ret void
}
)";

unsigned atomics(const Module &M) {
  unsigned N = 0;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      N += isa<AtomicRMWInst>(I);
  return N;
}

} // namespace

TEST_CASE("optimizeDerivativeAccesses runs the passes it is asked for",
          "[DerivativeAccesses]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, ThreeAccumulations);
  DerivativeAccessOptions Off;
  Off.SinkStores = Off.MergeAccumulations = Off.AggregateAccumulations = false;
  DerivativeAccessStats None = optimizeDerivativeAccesses(*M, Off);
  CHECK(None.Merge.Merged == 0);
  CHECK(None.Aggregate.Aggregated == 0);
  CHECK(atomics(*M) == 3);

  DerivativeAccessOptions All;
  All.AggregateAccumulations = true;
  DerivativeAccessStats Stats = optimizeDerivativeAccesses(*M, All);
  CHECK(Stats.Merge.Merged == 2);
  CHECK(Stats.Merge.Guarded == 0);
  // The one left goes to an argument's element, the same in every lane: it
  // is summed across the warp and done by one lane.
  CHECK(Stats.Aggregate.Aggregated == 1);
  CHECK(Stats.Aggregate.Uniform == 1);
  CHECK(atomics(*M) == 1);
  CHECK_FALSE(verifyModule(*M, &errs()));
}
