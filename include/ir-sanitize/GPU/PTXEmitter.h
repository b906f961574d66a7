//===- PTXEmitter.h - NVPTX code generation into a string -------*- C++ -*-===//
//
// What GPUCompiler does after Enzyme: link libdevice when the module calls
// __nv_* math functions, run the `default<O2>` pipeline (ptxPipeline: text,
// which opt replays, libdevice and data layout included) with the NVPTX
// target machine (whose pipeline callbacks add NVVMReflect), and emit PTX
// through TargetMachine::addPassesToEmitFile.
// The PTX ISA version is the lowest one that supports the chosen architecture
// unless one is given.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_PTXEMITTER_H
#define IR_SANITIZE_GPU_PTXEMITTER_H

#include "ir-sanitize/Passes/Pipelines.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace irs {

struct PTXOptions {
  std::string Arch = "sm_90"; ///< --gpu-arch
  unsigned PTXVersion = 0;    ///< e.g. 78 for PTX ISA 7.8; 0: automatic.
  unsigned OptLevel = 2;      ///< default<O0..O3> before codegen.
  /// libdevice.10.bc; empty: the CUDA Toolkit's, found at run time.
  std::string LibdevicePath;
  /// The derivative passes to run after the O-level pipeline
  /// (derivativePipeline; ThreadsPerMultiprocessor 0: Arch's); none for a
  /// primal kernel.
  std::optional<DerivativePipelineOptions> Derivatives;
  /// Kernels to rename to names PTX can state (ptxSafeName), by name.
  std::vector<std::string> Kernels;
};

/// The lowest PTX ISA version (times ten) that supports \p Arch ("sm_90"),
/// or nothing for an architecture this table does not know.
std::optional<unsigned> minimumPTXVersion(llvm::StringRef Arch);

/// Where libdevice is: $CUDA_HOME / $CUDA_PATH, then /usr/local/cuda,
/// /usr/lib/cuda. Empty when it is nowhere.
std::string findLibdevice();

/// The pipeline optimizeForPTX runs with the NVPTX target machine:
/// `ir-sanitize-nvptx-libdevice<path=LIB>` (LIB: Opts.LibdevicePath, else
/// findLibdevice()), `ir-sanitize-nvptx-prepare<kernel=...;datalayout=DL>`
/// (DL: \p DataLayout, none when empty), `default<On>`, then the derivative
/// passes \p Opts asks for (derivativePipeline).
std::string ptxPipeline(const PTXOptions &Opts, llvm::StringRef DataLayout);

/// ptxPipeline for \p M: DL is the NVPTX target's data layout where \p M's
/// differs from it. Errors: unknown architecture or PTX version.
llvm::Expected<std::string> ptxPipelineFor(const llvm::Module &M,
                                           const PTXOptions &Opts);

/// The functions a PTX module may declare without defining: the system
/// calls the CUDA driver resolves when it loads the module.
llvm::ArrayRef<llvm::StringRef> driverProvidedFunctions();

/// The functions \p M uses but neither defines nor can leave to the driver
/// (not intrinsics, not driverProvidedFunctions), in module order.
std::vector<std::string> unresolvedCallees(const llvm::Module &M);

/// Runs ptxPipelineFor(M) on \p M with the NVPTX target machine; the result
/// is verified. \p M must target NVPTX. Errors: unknown architecture,
/// missing libdevice, invalid result, a function unresolvedCallees names
/// (the driver would refuse to load the PTX).
llvm::Error optimizeForPTX(llvm::Module &M, const PTXOptions &Opts);

/// The PTX of \p M as optimizeForPTX left it (code generation rewrites
/// kernel parameters in \p M: analyse it before). Errors: codegen failure.
llvm::Expected<std::string> compilePTX(llvm::Module &M, const PTXOptions &Opts);

/// optimizeForPTX, then compilePTX.
llvm::Expected<std::string> emitPTX(llvm::Module &M, const PTXOptions &Opts);

} // namespace irs

#endif
