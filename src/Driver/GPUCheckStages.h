//===- GPUCheckStages.h - The stages of a device check ----------*- C++ -*-===//
//
// Private to src/Driver: what GPUCheck.cpp (the job) needs of the stages
// (GPUCheckStages.cpp); prepareGPUCheck, which runs them, is public
// (Driver/GPUCheck.h).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_GPUCHECKSTAGES_H
#define IR_SANITIZE_DRIVER_GPUCHECKSTAGES_H

#include "ir-sanitize/Driver/GPUCheck.h"

namespace irs {

/// \p Name's definition in \p M, or null.
llvm::Function *kernelIn(llvm::Module &M, llvm::StringRef Name);

/// The stages of the check of kernel \p K after the sanitize pipeline, as
/// --print-pipeline-passes shows them: the list prepareGPUCheck runs.
llvm::Expected<std::vector<PipelineStage>>
shownCheckStages(llvm::Module &Splatted, const KernelManifest &K,
                 const LaunchSpec &Spec, bool Derivatives,
                 const GPUCheckOptions &Opts);

} // namespace irs

#endif
