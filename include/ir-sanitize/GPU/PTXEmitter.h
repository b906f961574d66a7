//===- PTXEmitter.h - NVPTX code generation into a string -------*- C++ -*-===//
//
// What GPUCompiler does after Enzyme: link libdevice when the module calls
// __nv_* math functions, run the `default<O2>` pipeline (ptxPipeline: text,
// which opt replays) with the NVPTX target machine (whose pipeline callbacks
// add NVVMReflect), and emit PTX through TargetMachine::addPassesToEmitFile.
// The PTX ISA version is the lowest one that supports the chosen architecture
// unless one is given.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_PTXEMITTER_H
#define IR_SANITIZE_GPU_PTXEMITTER_H

#include "ir-sanitize/Passes/PassRegistry.h"

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
  /// Run StoreSinkVersioningPass after the O-level pipeline (loads and
  /// atomics before stores where this thread's addresses are disjoint).
  bool SinkStores = false;
  /// Then AccumulationMergingPass with floating-point reassociation: two
  /// atomic additions into one element (an array passed twice) become one.
  bool MergeAccumulations = false;
  /// Then GridStrideCoarseningPass on kernels that accumulate atomically:
  /// a loop over virtual blocks, sums held in registers; and
  /// InvariantDivisionPass on what it adds (its loop divides by kernel
  /// parameters).
  bool GridStride = false;
  /// Kernels to rename to names PTX can state (ptxSafeName), by name.
  std::vector<std::string> Kernels;
};

/// The lowest PTX ISA version (times ten) that supports \p Arch ("sm_90"),
/// or nothing for an architecture this table does not know.
std::optional<unsigned> minimumPTXVersion(llvm::StringRef Arch);

/// The most threads one multiprocessor of \p Arch runs at once (2048 for
/// an architecture this table does not know).
unsigned maxThreadsPerMultiprocessor(llvm::StringRef Arch);

/// Where libdevice is: $CUDA_HOME / $CUDA_PATH, then /usr/local/cuda,
/// /usr/lib/cuda. Empty when it is nowhere.
std::string findLibdevice();

/// Whether \p M calls a libdevice function (__nv_*) it does not define.
bool needsLibdevice(const llvm::Module &M);

/// Replaces calls of math intrinsics NVPTX cannot lower (llvm.cosh.f32,
/// llvm.pow.f64, ...) with their libdevice functions; returns how many
/// intrinsics were replaced.
unsigned lowerMathIntrinsics(llvm::Module &M);

/// Links the libdevice functions \p M uses from \p Path and makes them
/// internal. Errors name the file.
llvm::Error linkLibdevice(llvm::Module &M, llvm::StringRef Path);

/// The pipeline optimizeForPTX runs with the NVPTX target machine:
/// `ir-sanitize-nvptx-prepare<kernel=...>,default<On>`, then the derivative
/// passes \p Opts asks for (derivativePipeline).
std::string ptxPipeline(const PTXOptions &Opts);

/// Prepares \p M for NVPTX (math intrinsics to libdevice, libdevice linked,
/// the target's data layout: the steps `opt` does not replay) and runs
/// ptxPipeline on it; the result is verified. \p M must target
/// NVPTX. Errors: unknown architecture, missing libdevice, invalid result.
llvm::Error optimizeForPTX(llvm::Module &M, const PTXOptions &Opts);

/// The PTX of \p M as optimizeForPTX left it (code generation rewrites
/// kernel parameters in \p M: analyse it before). Errors: codegen failure.
llvm::Expected<std::string> compilePTX(llvm::Module &M, const PTXOptions &Opts);

/// optimizeForPTX, then compilePTX.
llvm::Expected<std::string> emitPTX(llvm::Module &M, const PTXOptions &Opts);

} // namespace irs

#endif
