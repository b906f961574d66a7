//===- NVPTXLibdevice.cpp - Math for NVPTX from libdevice -----------------===//
#include "ir-sanitize/Transforms/NVPTXLibdevice.h"

#include "ir-sanitize/Support/InputFile.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-nvptx-libdevice"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumLowered,
                         "Math intrinsics replaced by libdevice functions");
ALWAYS_ENABLED_STATISTIC(NumLinked, "Modules libdevice was linked into");

namespace irs {

bool needsLibdevice(const Module &M) {
  return any_of(M, [](const Function &F) {
    return F.isDeclaration() && F.getName().starts_with("__nv_");
  });
}

unsigned lowerMathIntrinsics(Module &M) {
  // NVPTX has no instructions (and no libcalls) for these; Enzyme emits
  // some of them in derivatives (d tanh = 1 / cosh^2).
  static const char *const Names[] = {
      "sin",  "cos", "tan",  "asin",  "acos", "atan", "sinh",  "cosh",
      "tanh", "exp", "exp2", "exp10", "log",  "log2", "log10", "pow"};
  unsigned Replaced = 0;
  for (Function &F : make_early_inc_range(M)) {
    if (!F.isIntrinsic() || F.use_empty())
      continue;
    StringRef Name = F.getName();
    if (!Name.consume_front("llvm."))
      continue;
    auto [Base, Suffix] = Name.split('.');
    if (!is_contained(Names, Base) || (Suffix != "f32" && Suffix != "f64"))
      continue;
    std::string Lib = ("__nv_" + Base + (Suffix == "f32" ? "f" : "")).str();
    FunctionCallee Callee = M.getOrInsertFunction(Lib, F.getFunctionType());
    F.replaceAllUsesWith(Callee.getCallee());
    F.eraseFromParent();
    ++Replaced;
  }
  return Replaced;
}

static Error libdeviceError(const Twine &Msg) {
  // gpu-check's code-generation errors say where they come from so.
  return makeToolError(ExitCode::BadInput, "PTX generation: " + Msg);
}

static Error linkLibdevice(Module &M, StringRef Path) {
  std::string Bitcode, Problem;
  if (!readInputFile(Path.str(), ModuleInput, Bitcode, Problem))
    return libdeviceError(Path + ": " + Problem);
  // Bitcode as CUDA ships it, or text (a test's stand-in).
  SMDiagnostic Diag;
  std::unique_ptr<Module> Lib =
      parseIR(MemoryBufferRef(Bitcode, Path), Diag, M.getContext());
  if (!Lib)
    return libdeviceError(Path + ": " + Diag.getMessage());
  // libdevice says nvptx64-nvidia-gpulibs; take the kernel's to link quietly.
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded))
    return libdeviceError("cannot link " + Path);
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with("__nv_"))
      F.setLinkage(GlobalValue::InternalLinkage);
  return Error::success();
}

PreservedAnalyses NVPTXLibdevicePass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  unsigned Lowered = lowerMathIntrinsics(M);
  NumLowered += Lowered;
  if (!needsLibdevice(M))
    return Lowered ? PreservedAnalyses::none() : PreservedAnalyses::all();
  Error E = Path.empty()
                ? libdeviceError("the module calls libdevice (__nv_*) "
                                 "functions but libdevice.10.bc was not found "
                                 "(set CUDA_HOME)")
                : linkLibdevice(M, Path);
  if (E)
    reportPassFailure(M, passResults(M, MAM), DEBUG_TYPE, std::move(E));
  else
    ++NumLinked;
  return PreservedAnalyses::none();
}

void NVPTXLibdevicePass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<NVPTXLibdevicePass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  if (!Path.empty())
    printPassParameters(OS, {"path=" + escapePassParameter(Path)});
}

} // namespace irs
