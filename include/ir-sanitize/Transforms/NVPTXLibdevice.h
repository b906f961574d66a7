//===- NVPTXLibdevice.h - Math for NVPTX from libdevice ---------*- C++ -*-===//
//
// `opt -passes='ir-sanitize-nvptx-libdevice<path=FILE>'`: NVPTX has no
// instructions and no libcalls for most math intrinsics, and Enzyme writes
// some in derivatives (d tanh = 1 / cosh^2); CUDA's libdevice has them as
// functions (__nv_*). The pass makes each such intrinsic a call of its
// libdevice function and links, from FILE, what the module then calls,
// internalised so that the O-level pipeline inlines it. The first step
// gpu-check takes on a module before the NVPTX pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_NVPTXLIBDEVICE_H
#define IR_SANITIZE_TRANSFORMS_NVPTXLIBDEVICE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irs {

/// Whether \p M calls a libdevice function (__nv_*) it does not define.
bool needsLibdevice(const llvm::Module &M);

/// Replaces calls of math intrinsics NVPTX cannot lower (llvm.cosh.f32,
/// llvm.pow.f64, ...) with their libdevice functions; returns how many
/// intrinsics were replaced.
unsigned lowerMathIntrinsics(llvm::Module &M);

/// lowerMathIntrinsics, then linkLibdevice from the file given when the
/// module needs it. A module that needs libdevice when no file was given,
/// or whose file cannot be linked, is a failure of the run
/// (Transforms/PassResults.h).
class NVPTXLibdevicePass : public llvm::PassInfoMixin<NVPTXLibdevicePass> {
public:
  explicit NVPTXLibdevicePass(std::string Path = "") : Path(std::move(Path)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  std::string Path;
};

} // namespace irs

#endif
