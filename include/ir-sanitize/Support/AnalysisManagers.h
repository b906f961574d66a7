//===- AnalysisManagers.h - A pipeline's analysis managers ------*- C++ -*-===//
//
// The four new-pass-manager analysis managers, registered with a
// PassBuilder's analyses and cross-wired, as every pipeline the project
// runs itself needs them (gpu-check's pre-Enzyme cleanup, the PTX pipeline,
// the derivative-access passes).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_ANALYSISMANAGERS_H
#define IR_SANITIZE_SUPPORT_ANALYSISMANAGERS_H

#include "llvm/Passes/PassBuilder.h"

namespace irs {

struct AnalysisManagers {
  // Declared in this order so that the module manager, which holds proxies
  // to the others, is destroyed first.
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;

  explicit AnalysisManagers(llvm::PassBuilder &PB) {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
  AnalysisManagers(const AnalysisManagers &) = delete;
  AnalysisManagers &operator=(const AnalysisManagers &) = delete;
};

} // namespace irs

#endif
