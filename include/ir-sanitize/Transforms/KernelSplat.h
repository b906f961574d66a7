//===- KernelSplat.h - One kernel parameter per aggregate leaf --*- C++ -*-===//
//
// Julia passes a GPU kernel's closure (a GPUArrays Broadcasted, a
// KernelAbstractions CompilerMetadata, a captured tuple) as one aggregate
// parameter, so Enzyme can only give the whole closure one activity. The
// splat replaces every aggregate kernel parameter (by value, or a byval /
// byref pointer to one) with one parameter per scalar leaf, rebuilds the
// aggregate from the leaves at entry so the body is reused unchanged
// (extractvalues of a by-value aggregate read their leaf directly), and
// rewrites the module's calls to the kernel. The returned LaunchManifest says
// where each new parameter lives inside the original arguments' bytes.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_KERNELSPLAT_H
#define IR_SANITIZE_TRANSFORMS_KERNELSPLAT_H

#include "ir-sanitize/Support/LaunchManifest.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace irs {

struct SplatOptions {
  /// Only these kernels; empty means every kernel. A name that is not a
  /// kernel defined in the module is an ExitCode::Usage error.
  std::vector<std::string> Kernels;
  /// An aggregate with more leaves than this stays one parameter: a huge
  /// NTuple would otherwise overflow the launch parameter space.
  size_t MaxLeavesPerParam = 512;
  /// An aggregate nested deeper than this stays one parameter too: Julia's
  /// closures nest a few levels (a Broadcasted of Broadcasteds: about a
  /// dozen); thousands of levels only come from hostile input, and every
  /// leaf's index path, name and rebuild grows with the depth.
  unsigned MaxNestingDepth = 64;
  /// Told about each kernel (or parameter) left alone for a reason the user
  /// should know (too many leaves, its address escapes).
  std::function<void(const llvm::Function &Kernel, const std::string &)> Note;
};

/// What splatKernels would do to \p M, without changing it: the manifest of
/// every kernel that has a parameter to splat.
llvm::Expected<LaunchManifest> planSplat(llvm::Module &M,
                                         const SplatOptions &Opts);

/// How the splat would split one kernel: per original parameter, how it is
/// passed ("value", "byval", "byref", "scalar") and its leaf count, or -1
/// for a parameter that stays as it is. Lighter than planSplat: no names,
/// types or offsets are kept.
struct KernelSplatSummary {
  const llvm::Function *Kernel = nullptr;
  std::vector<std::pair<std::string, int>> Params;
};
llvm::Expected<std::vector<KernelSplatSummary>>
summarizeSplat(llvm::Module &M, const SplatOptions &Opts);

/// Splats the selected kernels of \p M and returns their manifest. A module
/// with nothing to splat is left untouched (empty manifest).
llvm::Expected<LaunchManifest> splatKernels(llvm::Module &M,
                                            const SplatOptions &Opts);

/// The manifest entry of \p Kernel as it stands, every parameter whole: the
/// same description splatKernels gives, so that a kernel the splat left
/// alone (or was told to leave alone) is packed by the same launch code.
KernelManifest describeUnsplattedKernel(llvm::Function &Kernel);

/// `opt -passes='ir-sanitize-splat<kernel=NAME;manifest=FILE>'`: the same
/// rewrite; both parameters are optional and `kernel` may repeat (the
/// parameters are parsed by the pass registry, Passes/PassRegistry.def).
/// The manifest goes to the run's LaunchManifest (Transforms/PassResults.h),
/// each note to its notes and, as a missed-optimization remark, to the
/// LLVMContext; an unknown kernel is a failure of the run (ExitCode::Usage).
class KernelSplatPass : public llvm::PassInfoMixin<KernelSplatPass> {
public:
  explicit KernelSplatPass(SplatOptions Opts = {},
                           std::string ManifestPath = {})
      : Opts(std::move(Opts)), ManifestPath(std::move(ManifestPath)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  SplatOptions Opts;
  std::string ManifestPath;
};

} // namespace irs

#endif
