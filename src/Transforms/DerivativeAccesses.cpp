//===- DerivativeAccesses.cpp - The passes for derivative kernels ---------===//
#include "ir-sanitize/Transforms/DerivativeAccesses.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

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
}

DerivativeAccessStats
optimizeDerivativeAccesses(Module &M, const DerivativeAccessOptions &Opts) {
  DerivativeAccessStats Stats;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  addDerivativeAccessPasses(FPM, Opts, &Stats);
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.run(M, MAM);
  return Stats;
}

} // namespace irs
