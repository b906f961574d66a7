//===- GpuCheck.h - Preparing a device derivative check ---------*- C++ -*-===//
//
// `ir-sanitize gpu-check` without the command line: given the original
// module and its sanitised, splatted copy, build everything the runner needs
// in one directory:
//   original.ptx      the kernel as Julia emitted it (the baseline)
//   splat.ptx         the splatted kernel
//   derivatives.ptx   forward and reverse drivers, differentiated by Enzyme
//   derivatives.input.ll / derivatives.enzyme.ll / enzyme.log   (evidence)
//   plan.txt          geometry, buffers and argument bytes for every kernel
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_GPUCHECK_H
#define IR_SANITIZE_GPU_GPUCHECK_H

#include "ir-sanitize/GPU/LaunchSpec.h"
#include "ir-sanitize/GPU/PTXEmitter.h"
#include "ir-sanitize/GPU/RunPlan.h"
#include "ir-sanitize/Support/LaunchManifest.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>

namespace irs {

struct GpuCheckOptions {
  std::string EmitDir;      ///< Must exist.
  std::string EnzymePlugin; ///< LLVMEnzyme-<major>.so (already located).
  PTXOptions PTX;
  unsigned EnzymeTimeoutSeconds = 300;
  /// Version the derivative kernels' memory accesses (StoreSinkVersioning):
  /// loads and atomics before stores where this thread's addresses are
  /// disjoint, Enzyme's order otherwise. Off: Enzyme's order only.
  bool SinkDerivativeStores = true;
  /// The reverse kernel leaves output-only buffers (output, not wrt)
  /// unwritten (Enzyme's dupnoneed): a gradient-only launch.
  bool DropPrimalOutputs = false;
  /// One line per step for the user ("compiled splat.ptx (12 KB)").
  std::function<void(const std::string &)> Progress;
};

/// The manifest of a kernel the splat left alone: every parameter is its own
/// leaf, so the same packing code serves it.
KernelManifest unsplattedManifest(const llvm::Function &Kernel);

/// Builds the artifacts above for kernel \p Manifest.Name and returns the
/// plan (also written to EmitDir/plan.txt). \p Original and \p Splatted are
/// consumed (optimised in place). \p Spec must have passed validateSpec.
/// Errors: Enzyme failures (ExitCode::Findings, with its diagnosis), code
/// generation and output errors.
llvm::Expected<RunPlan> prepareGpuCheck(llvm::Module &Original,
                                        llvm::Module &Splatted,
                                        const KernelManifest &Manifest,
                                        const LaunchSpec &Spec,
                                        const GpuCheckOptions &Opts);

} // namespace irs

#endif
