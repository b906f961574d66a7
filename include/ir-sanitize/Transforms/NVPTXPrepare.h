//===- NVPTXPrepare.h - A module as NVPTX codegen wants it ------*- C++ -*-===//
//
// What gpu-check does to a module before the NVPTX pipeline, after linking
// libdevice (NVPTXLibdevice.h): the target's data layout replaces the
// module's (an old dump's may differ), the kernels it names get names PTX
// can state (NVPTX would rename an entry with '.' in its name, and the run
// plan names entries), debug info goes (the checks do not need it, and old
// DI metadata, from LLVM 6 era CUDAnative dumps, trips NVPTX's DWARF
// emission), Julia's per-function target-cpu/-features go (--gpu-arch
// decides), and the warp rules' helpers become inlinable again
// (WarpShuffleRules.h: Enzyme is done with them).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_NVPTXPREPARE_H
#define IR_SANITIZE_TRANSFORMS_NVPTXPREPARE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace irs {

/// \p Name with every character other than letters, digits, '_' and '$'
/// made '_': a name a PTX entry can have.
std::string ptxSafeName(llvm::StringRef Name);

/// `opt -passes='ir-sanitize-nvptx-prepare<kernel=NAME;...;datalayout=DL>'`:
/// sets the data layout DL (none given: the module's stays), renames each
/// kernel NAME the module defines to ptxSafeName(NAME), strips debug info
/// and drops per-function target-cpu and target-features.
class NVPTXPreparePass : public llvm::PassInfoMixin<NVPTXPreparePass> {
public:
  explicit NVPTXPreparePass(std::vector<std::string> Kernels = {},
                            std::string DataLayout = "")
      : Kernels(std::move(Kernels)), DataLayout(std::move(DataLayout)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  std::vector<std::string> Kernels;
  std::string DataLayout;
};

} // namespace irs

#endif
