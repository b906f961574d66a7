//===- GridStrideCoarsening.h - Several blocks per thread -------*- C++ -*-===//
//
// The reverse kernel of a broadcast whose input is smaller than its output
// (2-D `x .+ y`, y one column) adds into each of y's shadow elements from
// every column: at 2^24 elements, 16384 atomic additions per element, each
// from another block, and the kernel runs at 37% of a streaming copy's rate.
// No warp or block holds two additions into one element, so nothing that
// works within one launch of the body (AccumulationMerging, a warp
// reduction) helps. Giving each thread several blocks' work does:
//
//   for (vb = ctaid.x; vb < grid.x; vb += nctaid.x)
//     body, with ctaid.x := vb and nctaid.x := grid.x
//
// `grid.x` is a new last i32 parameter: the x block count the kernel was
// written for. Launched with that many blocks, every thread runs the body
// once; launched with fewer, several times. The function attribute
// "irs-grid-stride-param" names the parameter (gridStrideParam). The
// original kernel stays: whether the loop pays depends on the data (which
// elements repeat), so the host chooses which to launch.
//
// Each accumulation (an atomicrmw add or sub, fadd or fsub with
// ReassociateFP, at most monotonic, its old value unused) is held in
// registers where nothing after it in the same body execution may touch its
// address (alias analysis; StoreSinkVersioning's fast path states what its
// run-time test proved as scoped noalias metadata), unless SCEV shows that
// its element advances with every block: an addition into the element the
// last one went to is summed; one into another element makes what is held
// go out and goes out itself, in place; the loop's end makes what is held
// go out. With y's period dividing the threads launched, each thread issues
// one atomic per element of y instead of one per block.
//
// Why this is sound: body executions are different threads with nothing
// ordering them; the pass refuses kernels with barriers or any other
// convergent call, fences, volatile or atomic loads and stores, cmpxchg,
// atomics stronger than monotonic or whose result is used, shared memory,
// inline assembly and calls that are not plain intrinsics. Running them one
// after another is one schedule the original allows (blocks run in any
// order), and a held addition is a relaxed atomic moved past accesses that
// are disjoint from it within its own body execution; later executions are
// other threads of the original, unordered with it. Floating-point sums are
// reassociated, as the unspecified order of the atomics already does.
//
// opt: -passes='ir-sanitize-grid-stride<reassociate-fp>'
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_GRIDSTRIDECOARSENING_H
#define IR_SANITIZE_TRANSFORMS_GRIDSTRIDECOARSENING_H

#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"

#include <optional>
#include <string>

namespace irs {

class GridStrideCoarseningPass
    : public llvm::PassInfoMixin<GridStrideCoarseningPass> {
public:
  /// \p ThreadsPerMultiprocessor nonzero: a version of a kernel with a
  /// launch bound (maxntidx) asks for enough blocks per multiprocessor
  /// (minctasm) to run that many threads, so that code generation keeps its
  /// registers few enough; a loop over blocks hides memory latency only
  /// with all the threads the device can run.
  explicit GridStrideCoarseningPass(bool ReassociateFP,
                                    unsigned ThreadsPerMultiprocessor = 0)
      : ReassociateFP(ReassociateFP),
        ThreadsPerMultiprocessor(ThreadsPerMultiprocessor) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);

private:
  bool ReassociateFP;
  unsigned ThreadsPerMultiprocessor;
};

/// The name of the grid-stride version of kernel \p Kernel.
std::string gridStrideName(llvm::StringRef Kernel);

/// The index of \p F's x block count parameter, if \p F is a grid-stride
/// version the pass added.
std::optional<unsigned> gridStrideParam(const llvm::Function &F);

} // namespace irs

#endif
