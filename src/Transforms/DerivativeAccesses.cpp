//===- DerivativeAccesses.cpp - The passes for derivative kernels ---------===//
#include "ir-sanitize/Transforms/DerivativeAccesses.h"

#include "ir-sanitize/Support/AnalysisManagers.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"

using namespace llvm;

namespace irs {

void addDerivativeAccessPasses(FunctionPassManager &FPM,
                               const DerivativeAccessOptions &Opts,
                               DerivativeAccessStats *Stats) {
  // Merging after sinking: its test and branch would end the runs that
  // StoreSinkVersioning reorders.
  if (Opts.SinkStores)
    FPM.addPass(StoreSinkVersioningPass(Stats ? &Stats->Sink : nullptr));
  if (Opts.MergeAccumulations)
    FPM.addPass(AccumulationMergingPass(/*ReassociateFP=*/true,
                                        Stats ? &Stats->Merge : nullptr));
  // The branches StoreSinkVersioning joins put the primal's half and the
  // derivative's in one block, where what Enzyme computed twice (address
  // arithmetic, the 2-D broadcast's index division) becomes common.
  if (Opts.SinkStores)
    FPM.addPass(EarlyCSEPass());
}

DerivativeAccessStats
optimizeDerivativeAccesses(Module &M, const DerivativeAccessOptions &Opts) {
  DerivativeAccessStats Stats;
  PassBuilder PB;
  AnalysisManagers AM(PB);
  FunctionPassManager FPM;
  addDerivativeAccessPasses(FPM, Opts, &Stats);
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.run(M, AM.MAM);
  return Stats;
}

} // namespace irs
